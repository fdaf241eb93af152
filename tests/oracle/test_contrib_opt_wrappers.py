"""tf1clip.contrib.opt's wrappers against NumPy formulas and recorded TF 1.15 values.

tests/data/tf115_opt_wrappers/refs.json and chain.ckpt were written by TF 1.15.5 with
tf.contrib.opt (tests/data/tf115_opt_wrappers/make_refs.py, whose graph builders these
tests reuse). In-process tests build TF 2 graphs (resource variables, control
flow v2); one subprocess repeats the checks under ``disable_v2_behavior()``
(reference variables, control flow v1, as TF 1.15 had).
"""

import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import opt as copt

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_opt_wrappers")
v1 = tf.compat.v1


def _load_make_refs():
    spec = importlib.util.spec_from_file_location("opt_wrappers_make_refs", os.path.join(DATA, "make_refs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_refs = _load_make_refs()
with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)


def _close(actual, expected, what=""):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=1e-4, atol=1e-6, err_msg=what)


def _all_variables(sess):
    variables = {v.op.name: v for v in v1.global_variables()}
    names = sorted(variables)
    return dict(zip(names, sess.run([variables[n] for n in names])))


def _assert_state(actual, expected, what):
    assert sorted(actual) == sorted(expected), what
    for name in expected:
        _close(actual[name], expected[name], "%s: %s" % (what, name))


# --- the chained model: MovingAverage(VariableClipping(Multitask(Adam))) ------------


def test_chain_matches_tf115_step_by_step(graph):
    model = make_refs.build_chain(tf, copt)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for step, expected in enumerate(REFS["chain_states"]):
            sess.run(model["train"], make_refs.feed_of(model, step))
            _assert_state(_all_variables(sess), expected, "step %d" % (step + 1))


def test_chain_resumes_from_a_tf115_checkpoint(graph):
    model = make_refs.build_chain(tf, copt)
    saver = v1.train.Saver()
    with v1.Session() as sess:
        saver.restore(sess, os.path.join(DATA, "chain.ckpt"))
        after = make_refs.CHAIN_SAVE_AFTER
        _assert_state(_all_variables(sess), REFS["chain_states"][after - 1], "restored")
        for step in range(after, len(make_refs.CHAIN_FEEDS)):
            sess.run(model["train"], make_refs.feed_of(model, step))
            _assert_state(_all_variables(sess), REFS["chain_states"][step], "step %d" % (step + 1))


def test_swapping_saver_writes_what_tf115_wrote(graph, tmp_path):
    model = make_refs.build_chain(tf, copt)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for step in range(make_refs.CHAIN_SAVE_AFTER):
            sess.run(model["train"], make_refs.feed_of(model, step))
        path = model["ma"].swapping_saver().save(sess, str(tmp_path / "swapped"), write_meta_graph=False)
        state = _all_variables(sess)
    reader = tf.train.load_checkpoint(path)
    saved = {n: reader.get_tensor(n) for n in reader.get_variable_to_shape_map()}
    _assert_state(saved, REFS["chain_swapped_checkpoint"], "swapped checkpoint")
    # The averages are saved under the variables' names and the reverse.
    for name in ("w", "emb"):
        _close(saved[name], state[name + "/ExponentialMovingAverage"])
        _close(saved[name + "/ExponentialMovingAverage"], state[name])


# --- VariableClippingOptimizer --------------------------------------------------------


def _np_clip_rows(x, max_norm, axis):
    norm = np.sqrt(np.sum(np.square(x), axis=axis, keepdims=True))
    return np.where(norm > max_norm, x * max_norm / np.maximum(norm, 1e-30), x)


def _run_variable_clipping(use_zip):
    with tf.Graph().as_default():
        model = make_refs.build_variable_clipping(tf, copt, use_zip=use_zip)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(model["train"])
            return {n: sess.run(v) for n, v in model["vars"].items()}


@pytest.mark.parametrize("use_zip", [False, True], ids=["list", "zip"])
def test_variable_clipping_matches_tf115_and_numpy(use_zip):
    out = _run_variable_clipping(use_zip)
    expected = REFS["variable_clipping"]
    for name in ("d0", "d1", "s0", "s1"):
        _close(out[name], expected[name], name)
    # NumPy: SGD lr 3, then each listed variable clipped to norm 2 along its dims.
    d0 = np.array([[0.0, 1.0], [2.0, 3.0]]) - 0.3
    _close(out["d0"], _np_clip_rows(d0, 2.0, 1))
    _close(out["d1"], [3.97, 4.97])
    s = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    s[[0, 2]] -= 0.3
    s0 = s.copy()
    s0[[0, 2]] = _np_clip_rows(s[[0, 2]], 2.0, 1)  # only the touched rows
    _close(out["s0"], s0)
    _close(out["s1"], _np_clip_rows(s, 2.0, 0))  # dims [0]: the whole variable


def test_variable_clipping_zip_was_not_clipped_by_tf115():
    # Contrib iterated grads_and_vars twice: a zip reached the clipping empty.
    _close(REFS["variable_clipping_zip"]["d0"], [[-0.3, 0.7], [1.7, 2.7]])
    assert not np.allclose(REFS["variable_clipping_zip"]["d0"], REFS["variable_clipping"]["d0"])


def test_variable_clipping_repeated_indices_as_tf115():
    # Row 0 = [3, 4] (norm 5) appears twice in the gradient's indices. TF 1.15 subtracted the excess
    # once per occurrence; tf1clip does the same by default (clip_repeated_rows_once=True clips once:
    # tests/oracle/test_contrib_opt_fidelity.py).
    out = _run_variable_clipping(use_zip=False)
    _close(REFS["variable_clipping"]["dup"], [[-0.6, -0.8], [0.3, 0.4]])
    _close(out["dup"], REFS["variable_clipping"]["dup"])


def test_variable_clipping_keeps_the_inner_slots_and_names(graph):
    w = v1.get_variable("w", initializer=tf.ones([2, 2]))
    adam = v1.train.AdamOptimizer(0.1)
    opt = copt.VariableClippingOptimizer(adam, {w: [1]}, 1.0)
    train = opt.minimize(tf.reduce_sum(w * w))
    assert opt.get_slot_names() == adam.get_slot_names() == ["m", "v"]
    assert opt.get_slot(w, "m") is adam.get_slot(w, "m")
    assert opt.variables() == adam.variables()
    assert train.name == "VariableClipping"
    with pytest.raises(TypeError, match=r"`vars_to_clip_dims` must be a dict .* received list"):
        copt.VariableClippingOptimizer(adam, [w], 1.0)


# --- MovingAverageOptimizer -----------------------------------------------------------


def test_moving_average_matches_tf115_and_numpy(graph):
    model = make_refs.build_moving_average(tf, copt)
    opt = model["opt"]
    names = sorted(v.op.name for v in v1.global_variables())
    assert names == REFS["moving_average_names"]
    a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    acc_a, acc_b = np.zeros(2), np.zeros(2)
    avg_a, avg_b = a.copy(), b.copy()
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for step, expected in enumerate(REFS["moving_average"]):
            sess.run(model["train"])
            got = {n: sess.run(v) for n, v in model["vars"].items()}
            averages = {n: sess.run(opt._ema.average(model["vars"][n])) for n in ("a", "b")}
            for n in got:
                _close(got[n], expected["vars"][n], "step %d %s" % (step, n))
            for n in averages:
                _close(averages[n], expected["averages"][n], "step %d avg %s" % (step, n))
            # NumPy: momentum 0.9, lr 0.5, then EMA with decay min(0.5, (1 + n) / (10 + n)), n = step after update.
            acc_a = 0.9 * acc_a + np.array([0.1, 0.2]) * (step + 1)
            acc_b = 0.9 * acc_b + np.array([0.01, -0.02])
            a, b = a - 0.5 * acc_a, b - 0.5 * acc_b
            decay = min(0.5, (1.0 + step + 1) / (10.0 + step + 1))
            avg_a = decay * avg_a + (1 - decay) * a
            avg_b = decay * avg_b + (1 - decay) * b
            _close(got["a"], a)
            _close(averages["a"], avg_a)
            _close(averages["b"], avg_b)
            _close(got["c"], [5.0])


def test_moving_average_optimizer_is_a_complete_optimizer(graph):
    w = v1.get_variable("w", initializer=tf.ones([2]))
    mom = v1.train.MomentumOptimizer(0.1, 0.9)
    opt = copt.MovingAverageOptimizer(mom)
    assert opt.get_name() == "Momentum"  # TF 1.15: AttributeError (no Optimizer.__init__)
    with pytest.raises(RuntimeError, match="Must call apply_gradients or minimize before creating the swapping_saver"):
        opt.swapping_saver()
    train = opt.apply_gradients(zip([tf.constant([1.0, 1.0])], [w]))
    assert train.name == "train_with_avg"
    assert opt.get_slot(w, "momentum") is mom.get_slot(w, "momentum")
    assert opt.get_slot_names() == ["momentum"]
    with pytest.raises(ValueError, match="Variable to swap w/ExponentialMovingAverage is not part of variables"):
        opt.swapping_saver([w])
    with pytest.raises(TypeError, match=r"`opt` must be a tf.compat.v1.train.Optimizer instance .* received str"):
        copt.MovingAverageOptimizer("sgd")
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(train)
        _close(sess.run(opt._ema.average(w)), 0.9999 * 1.0 + 0.0001 * 0.9)


# --- MultitaskOptimizerWrapper --------------------------------------------------------


def test_multitask_momentum_matches_tf115_and_numpy(graph):
    model = make_refs.build_multitask_momentum(tf, copt)
    d, e = np.array([1.0, 2.0]), np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    acc_d, acc_e = np.zeros(2), np.zeros((3, 2))
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for scale, expected in zip(make_refs.MULTITASK_SCALES, REFS["multitask_momentum"]):
            sess.run(model["train"], {model["scale"]: scale})
            for n in ("d", "e"):
                _close(sess.run(model["vars"][n]), expected["vars"][n], n)
                _close(sess.run(model["slots"][n]), expected["slots"][n], n + " slot")
            if scale[0]:
                acc_d = 0.9 * acc_d + 0.1
                d = d - 2.0 * acc_d
            if scale[1]:
                rows = [0, 2]
                acc_e[rows] = 0.9 * acc_e[rows] + np.array([[0.1, 0.2], [0.3, 0.4]])
                e[rows] -= 2.0 * acc_e[rows]
            _close(sess.run(model["vars"]["d"]), d)
            _close(sess.run(model["vars"]["e"]), e)
            _close(sess.run(model["slots"]["e"]), acc_e)


def test_multitask_sparse_gradient_without_dense_shape(graph):
    # TF 1.15 (reference variables): ValueError "Tensor conversion requested for
    # IndexedSlices without dense_shape"; the subprocess test covers that path too.
    e = v1.get_variable("e", initializer=tf.ones([4, 2]))
    adam = v1.train.AdamOptimizer(0.1)
    opt = copt.MultitaskOptimizerWrapper(adam)
    grad = tf.IndexedSlices(tf.constant([[1.0, 2.0], [0.0, 0.0]]), tf.constant([0, 2]))
    zero = tf.IndexedSlices(tf.zeros([2, 2]), tf.constant([1, 3]))
    nonzero_step = opt.apply_gradients([(grad, e)])
    zero_step = opt.apply_gradients([(zero, e)])
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(nonzero_step)
        after = sess.run([e, adam.get_slot(e, "m"), adam.get_slot(e, "v")])
        _close(after[0], [[0.9, 0.9], [1, 1], [1, 1], [1, 1]])
        sess.run(zero_step)
        for before, now in zip(after, sess.run([e, adam.get_slot(e, "m"), adam.get_slot(e, "v")])):
            _close(now, before)


def test_multitask_leave_optimizer_unmodified(graph):
    # By default the wrapped optimizer is patched for good, as in TF 1.15 (tests/oracle/test_contrib_opt_fidelity.py).
    w = v1.get_variable("w", initializer=tf.ones([2]))
    mom = v1.train.MomentumOptimizer(0.5, 0.9)
    opt = copt.MultitaskOptimizerWrapper(mom, leave_optimizer_unmodified=True)
    assert isinstance(opt, v1.train.Optimizer)
    assert opt.get_name() == "Momentum"
    wrapped = opt.apply_gradients([(tf.zeros([2]), w)])
    assert opt.get_slot_names() == ["momentum"]
    assert opt.variables() == mom.variables()
    mom.custom_setting = 7
    assert opt.custom_setting == 7  # public attributes are forwarded, as in contrib
    assert not {"_apply_dense", "_resource_apply_dense", "_apply_sparse", "_resource_apply_sparse"} & set(vars(mom))
    plain = mom.apply_gradients([(tf.zeros([2]), w)])  # the unwrapped optimizer still applies zeros
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(w.assign([1.0, 1.0]))
        sess.run(mom.get_slot(w, "momentum").assign([1.0, 1.0]))
        sess.run(wrapped)
        _close(sess.run(w), [1.0, 1.0])
        sess.run(plain)
        _close(sess.run(w), [0.55, 0.55])
    assert opt.get_name() == mom.get_name()
    assert opt.get_slot(w, "momentum") is mom.get_slot(w, "momentum")
    with pytest.raises(TypeError, match=r"`opt` must be a tf.compat.v1.train.Optimizer instance .* received int"):
        copt.MultitaskOptimizerWrapper(3)


# --- DropStaleGradientOptimizer -------------------------------------------------------


@pytest.mark.parametrize("staleness, applied", [(0, True), (-1, False)])
def test_drop_stale_gradient_single_worker(graph, staleness, applied):
    global_step = v1.train.get_or_create_global_step()
    w = v1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    mom = v1.train.MomentumOptimizer(0.5, 0.9)
    opt = copt.DropStaleGradientOptimizer(mom, staleness)
    train = opt.minimize(tf.reduce_sum(w * w), global_step=global_step)
    counter = [v for v in v1.global_variables() if v.op.name == "stale_counter"]
    assert len(counter) == 1
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(train)
        if applied:
            _close(sess.run(w), [0.0, 0.0])
            _close(sess.run(mom.get_slot(w, "momentum")), [2.0, 4.0])
        else:
            _close(sess.run(w), [1.0, 2.0])
            _close(sess.run(mom.get_slot(w, "momentum")), [0.0, 0.0])
        assert sess.run(global_step) == (1 if applied else 0)
        assert sess.run(counter[0]) == (0.0 if applied else 1.0)


def test_drop_stale_gradient_needs_a_global_step(graph):
    w = v1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    opt = copt.DropStaleGradientOptimizer(v1.train.GradientDescentOptimizer(0.1), 1)
    with pytest.raises(ValueError, match="needs a global step"):
        opt.compute_gradients(tf.reduce_sum(w))
    v1.train.get_or_create_global_step()
    pairs = opt.compute_gradients(tf.reduce_sum(w))
    with pytest.raises(ValueError, match="needs `global_step`"):
        opt.apply_gradients(pairs)


# --- TF 1 behaviour: reference variables and control flow v1, in a subprocess --------

_V1_WORKER = r"""
import json, sys
import numpy as np
import tensorflow as tf
tf.compat.v1.disable_v2_behavior()
sys.path.insert(0, sys.argv[1])
import make_refs
from tf1clip.contrib import opt as copt
v1 = tf.compat.v1
out = {}

def state(sess):
    variables = {v.op.name: v for v in v1.global_variables()}
    return {n: np.asarray(sess.run(v)).tolist() for n, v in variables.items()}

with tf.Graph().as_default():
    model = make_refs.build_chain(tf, copt)
    out["ref_dtype"] = model["w"].dtype.name
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        out["chain"] = []
        for step in range(len(make_refs.CHAIN_FEEDS)):
            sess.run(model["train"], make_refs.feed_of(model, step))
            out["chain"].append(state(sess))
with tf.Graph().as_default():
    model = make_refs.build_variable_clipping(tf, copt, use_zip=True)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(model["train"])
        out["variable_clipping"] = {n: sess.run(v).tolist() for n, v in model["vars"].items()}
with tf.Graph().as_default():
    model = make_refs.build_multitask_momentum(tf, copt)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        out["multitask"] = []
        for scale in make_refs.MULTITASK_SCALES:
            sess.run(model["train"], {model["scale"]: scale})
            out["multitask"].append({n: sess.run(v).tolist() for n, v in model["vars"].items()})

def segment_sums(wrap, dense_shape):
    with tf.Graph().as_default() as g:
        e = v1.get_variable("e", initializer=tf.ones([1000, 2]))
        adam = v1.train.AdamOptimizer(0.1)
        opt = copt.MultitaskOptimizerWrapper(adam) if wrap else adam
        grad = tf.IndexedSlices(tf.constant([[1.0, 2.0], [0.0, 0.0]]), tf.constant([0, 2]),
                                tf.constant([1000, 2]) if dense_shape else None)
        step = opt.apply_gradients([(grad, e)])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(step)
            row = sess.run(e)[0].tolist()
        return sum(op.type == "UnsortedSegmentSum" for op in g.get_operations()), row

out["segment_sums"] = [segment_sums(False, True), segment_sums(True, True), segment_sums(True, False)]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def v1_behaviour():
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(HERE)), os.environ.get("PYTHONPATH", "")]),
    )
    proc = subprocess.run(
        [sys.executable, "-c", _V1_WORKER, DATA], capture_output=True, text=True, timeout=180, env=env
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_v1_behaviour_chain_matches_tf115(v1_behaviour):
    assert v1_behaviour["ref_dtype"] == "float32_ref"
    for step, (got, expected) in enumerate(zip(v1_behaviour["chain"], REFS["chain_states"])):
        _assert_state(got, expected, "step %d" % (step + 1))


def test_v1_behaviour_variable_clipping_and_multitask(v1_behaviour):
    for name in ("d0", "d1", "s0", "s1"):
        _close(v1_behaviour["variable_clipping"][name], REFS["variable_clipping"][name], name)
    _close(v1_behaviour["variable_clipping"]["dup"], REFS["variable_clipping"]["dup"])
    for got, expected in zip(v1_behaviour["multitask"], REFS["multitask_momentum"]):
        for name in ("d", "e"):
            _close(got[name], expected["vars"][name], name)


def test_v1_behaviour_sparse_gradients_stay_sparse(v1_behaviour):
    # Wrapping adds no IndexedSlices-to-dense conversion (an UnsortedSegmentSum
    # over the 1000 rows, as contrib's count_nonzero(IndexedSlices) did), and a
    # gradient without dense_shape works.
    (plain, plain_row), (wrapped, row), (no_shape, no_shape_row) = v1_behaviour["segment_sums"]
    assert wrapped == plain == no_shape
    _close(row, plain_row)
    _close(no_shape_row, plain_row)
    _close(plain_row, [0.9, 0.9])


@pytest.mark.parametrize("limit, applied", [(2, True), (1, False)])
def test_drop_stale_gradient_counts_the_steps_between_compute_and_apply(graph, limit, applied):
    # Another worker's 2 steps land between this worker's compute_gradients and
    # apply_gradients: staleness 2 is accepted with limit 2, dropped with limit 1.
    global_step = v1.train.get_or_create_global_step()
    w = v1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    opt = copt.DropStaleGradientOptimizer(v1.train.GradientDescentOptimizer(0.5), limit)
    ((grad, var),) = opt.compute_gradients(tf.reduce_sum(w * w), var_list=[w])
    with tf.control_dependencies([grad]):
        others = v1.assign_add(global_step, 2)
    with tf.control_dependencies([others]):
        grad = tf.identity(grad)
    train = opt.apply_gradients([(grad, var)], global_step=global_step)
    counter = [v for v in v1.global_variables() if v.op.name == "stale_counter"][0]
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(train)
        _close(sess.run(w), [0.0, 0.0] if applied else [1.0, 2.0])
        assert sess.run(global_step) == (3 if applied else 2)
        assert sess.run(counter) == (0.0 if applied else 1.0)
