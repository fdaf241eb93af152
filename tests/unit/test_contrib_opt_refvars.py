"""Every tf.contrib.opt optimizer and wrapper with reference variables, in graph mode.

TF 1 programs get reference variables (``float32_ref``): after
``disable_v2_behavior()`` (with control flow v1) or
``disable_resource_variables()`` alone (with control flow v2, TF 2's default in
graphs). Each case trains a few steps in each of these modes and must end with
the same numbers as with resource variables; the distributed optimizers, run as
one worker in one process, also against numbers derived by hand.
"""

import contextlib
import os
import sys

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import opt as copt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "subprocess"))
import _contrib_opt_cases as cases  # noqa: E402

v1 = tf.compat.v1
STEPS = 3
LOCAL_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"
REF_MODES = ["ref", "ref_control_flow_v1"]


@contextlib.contextmanager
def _mode(mode):
    """A fresh default graph with resource variables, or reference variables and control flow v2 or v1."""
    resource, control_flow_v2 = v1.resource_variables_enabled(), v1.control_flow_v2_enabled()
    try:
        if mode != "resource":
            v1.disable_resource_variables()
        if mode == "ref_control_flow_v1":
            v1.disable_control_flow_v2()
        with tf.Graph().as_default():
            yield
    finally:
        (v1.enable_resource_variables if resource else v1.disable_resource_variables)()
        (v1.enable_control_flow_v2 if control_flow_v2 else v1.disable_control_flow_v2)()


def _kind(var):
    return "resource" if var.dtype == var.dtype.base_dtype else "ref"


def _train_case(name, mode):
    with _mode(mode):
        step = v1.train.get_or_create_global_step() if name == "DropStaleGradientOptimizer" else None
        with v1.variable_scope(name):
            var = cases.variables(name, step)
        optimizer = cases.OPTIMIZERS[name][0](var["step"], var)
        train = optimizer.minimize(cases.loss(var, None), global_step=var["step"], var_list=cases.trained(var))
        kinds = {_kind(v) for v in v1.global_variables() + v1.local_variables()}
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            for _ in range(STEPS):
                sess.run(train)
            return kinds, cases.state(sess, name)


@pytest.mark.parametrize("name", cases.NAMES)
def test_reference_variables_train_as_resource_variables(name):
    """Reference variables (control flow v2 or v1) end with the resource variables' numbers."""
    kinds, want = _train_case(name, "resource")
    assert kinds == {"resource"}
    assert not np.allclose(want["model/w"], cases.W0)
    for mode in REF_MODES:
        kinds, got = _train_case(name, mode)
        assert kinds == {"ref"}, mode
        assert sorted(got) == sorted(want), mode
        for key in sorted(want):
            np.testing.assert_array_equal(got[key], want[key], err_msg="%s %s" % (mode, key))


def test_scipy_optimizer_interface_with_reference_variables():
    """ScipyOptimizerInterface minimizes a quadratic held in reference variables as in resource ones."""
    pytest.importorskip("scipy")
    results = {}
    for mode in ["resource"] + REF_MODES:
        with _mode(mode):
            x = v1.get_variable("x", initializer=[3.0, -2.0])
            assert _kind(x) == ("resource" if mode == "resource" else "ref")
            loss = tf.reduce_sum(tf.square(x - [1.0, 0.5]))
            optimizer = copt.ScipyOptimizerInterface(loss, method="L-BFGS-B")
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                optimizer.minimize(sess)
                results[mode] = sess.run(x)
    np.testing.assert_allclose(results["resource"], [1.0, 0.5], atol=1e-5)
    for mode in REF_MODES:
        np.testing.assert_array_equal(results[mode], results["resource"], err_msg=mode)


def _one_worker(getter_type, make_optimizer, hook_args, grads, mode):
    """One worker's (local variables, centers, global step) after each of 3 steps, and the variables' kinds."""
    use_resource = False if mode == "use_resource_false" else None
    with _mode("resource" if use_resource is False else mode):
        getter = getter_type(worker_device=LOCAL_DEVICE)
        with v1.variable_scope("", custom_getter=getter):
            global_step = v1.train.get_or_create_global_step()
            v0 = v1.get_variable(initializer=0.0, name="v0", use_resource=use_resource)
            v1_ = v1.get_variable(initializer=1.0, name="v1", use_resource=use_resource)
        optimizer = make_optimizer(getter)
        train = optimizer.apply_gradients(zip([tf.constant(g) for g in grads], [v0, v1_]), global_step)
        kinds = {_kind(v) for v in v1.global_variables() + v1.local_variables()}
        if getter_type is copt.ModelAverageCustomGetter:
            centers = [getter.global_variable(v0), getter.global_variable(v1_)]
        else:
            centers = [getter.global_center(v0), getter.global_center(v1_)]
            centers += [getter.local_center(v0), getter.local_center(v1_)]
        got = []
        with v1.train.MonitoredTrainingSession(hooks=[optimizer.make_session_run_hook(*hook_args)]) as sess:
            for _ in range(3):
                sess.run(train)
                got.append(sess.run([v0, v1_] + centers + [global_step]))
        return kinds, got


# name -> (custom getter type, make(getter) -> optimizer, hook arguments, expected _one_worker steps).
DISTRIBUTED = {
    # [v0, v1, center v0, center v1, global_step]; SGD lr 1, gradients (-1, -2), interval 2: the mean of
    # one worker is its own value.
    "ModelAverageOptimizer": (
        copt.ModelAverageCustomGetter,
        lambda getter: copt.ModelAverageOptimizer(
            v1.train.GradientDescentOptimizer(1.0), 1, is_chief=True, ma_custom_getter=getter, interval_steps=2
        ),
        (),
        [[1.0, 3.0, 0.0, 1.0, 0], [2.0, 5.0, 2.0, 5.0, 1], [3.0, 7.0, 2.0, 5.0, 1]],
    ),
    # [v0, v1, global centers, local centers, global_step]; period 2, moving rate 0.5. Step 2: v = (2, 5),
    # local center = global center = (0, 1), d = (2, 4): v -= 0.5 d -> (1, 3), global center += 0.5 d -> (1, 3).
    "ElasticAverageOptimizer": (
        copt.ElasticAverageCustomGetter,
        lambda getter: copt.ElasticAverageOptimizer(
            v1.train.GradientDescentOptimizer(1.0), 1, getter, communication_period=2, moving_rate=0.5, rho=0.0
        ),
        (True, 0),
        [[1.0, 3.0, 0.0, 1.0, 0.0, 1.0, 0], [1.0, 3.0, 1.0, 3.0, 0.0, 1.0, 1], [2.0, 5.0, 1.0, 3.0, 0.0, 1.0, 1]],
    ),
}


@pytest.mark.parametrize("mode", ["resource", "use_resource_false"] + REF_MODES)
@pytest.mark.parametrize("name", sorted(DISTRIBUTED))
def test_distributed_optimizer_one_worker(name, mode):
    """Model and Elastic Average (and their custom getters) on one worker, with each kind of variable.

    ``use_resource_false``: only the model's ``get_variable(..., use_resource=False)`` calls ask for
    reference variables (the others, e.g. ``global_step``, are resource variables).
    """
    getter_type, make_optimizer, hook_args, expected = DISTRIBUTED[name]
    kinds, got = _one_worker(getter_type, make_optimizer, hook_args, [-1.0, -2.0], mode)
    assert kinds == {"resource": {"resource"}, "use_resource_false": {"resource", "ref"}}.get(mode, {"ref"})
    assert got == expected
