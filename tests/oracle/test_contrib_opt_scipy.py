"""ExternalOptimizerInterface and ScipyOptimizerInterface against TF 1.15 and closed-form optima.

The SciPy tests need SciPy (the ``scipy`` and ``test`` extras); they are skipped
without it. tests/data/tf115_opt_wrappers/refs.json holds TF 1.15.5's results (SciPy 1.7.3).
"""

import importlib.util
import json
import os
import sys
from unittest import mock

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import opt as copt

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "opt_wrappers_make_refs", os.path.join(os.path.dirname(HERE), "data", "tf115_opt_wrappers", "make_refs.py")
)
make_refs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_refs)
with open(os.path.join(os.path.dirname(HERE), "data", "tf115_opt_wrappers", "refs.json")) as _f:
    REFS = json.load(_f)
v1 = tf.compat.v1

OPTIMA = {
    "rosenbrock": [np.ones(4)],
    "bounds": [[0.0, 2.0]],  # second component bounded below by 2
    "slsqp": [[1.0, 1.0]],  # v1 == 1, v0 >= 1
    "matrix_bounds": [[[1.0, 1.0], [0.0, 1.5]], -1.0],  # clipped into [0, [[5], [1.5]]] and s >= -1
}


class _Mock(copt.ExternalOptimizerInterface):
    """One Newton step on (x - x0)^2 / 2 after 2 loss and 5 step callbacks (TF 1.15's test mock)."""

    def _minimize(self, initial_val, loss_grad_func, step_callback, optimizer_kwargs, **unused):
        for _ in range(2):
            loss_grad_func(initial_val)
        for _ in range(5):
            step_callback(initial_val)
        _, grad = loss_grad_func(initial_val)
        return initial_val - grad


@pytest.mark.parametrize("use_resource", [False, True], ids=["ref", "resource"])
def test_external_interface_packs_and_unpacks(graph, use_resource):
    scalar = v1.get_variable("scalar", initializer=4.0, use_resource=use_resource)
    vector = v1.get_variable("vector", initializer=[5.0, -1.0], use_resource=use_resource)
    matrix = v1.get_variable("matrix", initializer=tf.zeros([2, 3]), use_resource=use_resource)
    target = tf.constant(np.arange(9), tf.float32)
    loss = tf.reduce_sum(tf.square(vector - target[:2])) / 2.0
    loss += tf.square(scalar - target[2]) / 2.0
    loss += tf.reduce_sum(tf.square(matrix - tf.reshape(target[3:], [2, 3]))) / 2.0
    opt = _Mock(loss)
    losses = []
    steps = []
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        opt.minimize(sess, fetches=[loss], loss_callback=losses.append, step_callback=steps.append)
        np.testing.assert_allclose(sess.run(vector), [0.0, 1.0])
        np.testing.assert_allclose(sess.run(scalar), 2.0)
        np.testing.assert_allclose(sess.run(matrix), np.arange(6).reshape(2, 3) + 3)
    initial_loss = (25 + 4 + 4 + sum(k * k for k in range(3, 9))) / 2.0
    assert losses == pytest.approx([initial_loss] * 3)
    assert len(steps) == 5
    np.testing.assert_allclose(steps[0], [4.0, 5.0, -1.0] + [0.0] * 6)  # packed in var_list order


def test_external_interface_base_needs_a_subclass(graph):
    v = v1.get_variable("v", initializer=1.0)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        with pytest.raises(NotImplementedError, match="subclass from it and implement the _minimize"):
            copt.ExternalOptimizerInterface(tf.square(v)).minimize(sess)
    with pytest.raises(TypeError, match=r"`var_to_bounds` must be a dict .* received list"):
        copt.ScipyOptimizerInterface(tf.square(v), var_to_bounds=[(0, 1)])


def test_scipy_missing_says_how_to_install(graph, monkeypatch):
    v = v1.get_variable("v", initializer=1.0)
    opt = copt.ScipyOptimizerInterface(tf.square(v))
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        with pytest.raises(ImportError, match=r"needs SciPy.*pip install '\.\[scipy\]'"):
            opt.minimize(sess)


@pytest.mark.parametrize("use_resource", [False, True], ids=["ref", "resource"])
@pytest.mark.parametrize("case", make_refs.SCIPY_CASES)
def test_scipy_matches_tf115_and_the_optimum(graph, case, use_resource):
    pytest.importorskip("scipy")
    opt, variables = make_refs.build_scipy(tf, copt, case, use_resource)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        opt.minimize(sess)
        got = [sess.run(v) for v in variables]
    for value, optimum in zip(got, OPTIMA[case]):
        np.testing.assert_allclose(value, optimum, atol=2e-3)
    # TF 1.15 reached the same optimum with reference variables; with resource
    # variables its loss never saw the candidate points (see the docs).
    for value, ref in zip(got, REFS["scipy_" + case]):
        np.testing.assert_allclose(value, ref, atol=2e-3)
    if use_resource:
        assert not all(np.allclose(r, o, atol=2e-3) for r, o in zip(REFS["scipy_%s_resource" % case], OPTIMA[case]))


def test_scipy_keyword_arguments(graph):
    pytest.importorskip("scipy")
    v = v1.get_variable("v", initializer=[7.0, 7.0])
    loss = tf.reduce_sum(tf.square(v))
    opt = copt.ScipyOptimizerInterface(loss, method="SLSQP", options={"maxiter": 50})
    steps = mock.Mock()
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        opt.minimize(sess, step_callback=steps)
        np.testing.assert_allclose(sess.run(v), [0.0, 0.0], atol=1e-4)
    assert opt.optimizer_kwargs == {"method": "SLSQP", "options": {"maxiter": 50}}  # not consumed (TF b/64065260)
    assert steps.call_count >= 1
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        with pytest.raises(ValueError, match="Bounds must be set using the var_to_bounds argument"):
            copt.ScipyOptimizerInterface(loss, bounds=[(0, 1)] * 2).minimize(sess)
        with pytest.raises(ValueError, match="Optimizer keyword arg 'jac' is set automatically"):
            copt.ScipyOptimizerInterface(loss, jac=False).minimize(sess)
