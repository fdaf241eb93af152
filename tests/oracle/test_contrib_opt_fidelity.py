"""tf1clip.contrib.opt computes TF 1.15's numbers by default, quirks included; each fix is opt-in by one
keyword (docs/contrib_opt.rst, "TF 1.15 differences"). References: tests/data/tf115_fidelity (TF 1.15.5).
"""

import json
import os

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import opt as contrib_opt

v1 = tf.compat.v1
with open(
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_fidelity", "refs.json")
) as f:
    REFS = json.load(f)
STEPS = 3

OPTIMIZERS = {
    "AdamW": lambda: contrib_opt.AdamWOptimizer(0.1, learning_rate=0.05),
    "MomentumW": lambda: contrib_opt.MomentumWOptimizer(0.1, learning_rate=0.05, momentum=0.9),
    "Multitask(AdamW)": lambda: contrib_opt.MultitaskOptimizerWrapper(
        contrib_opt.AdamWOptimizer(0.1, learning_rate=0.05)
    ),
}


def train(name, kind, **extra):
    """make_refs.py's graph on this TF: {variable: [value after each step]}."""
    with tf.Graph().as_default():
        a = v1.Variable([1.0, -2.0], name="a")
        b = v1.Variable([0.5, 3.0], name="b")
        c = v1.Variable([2.0, 2.0], name="c")
        loss = tf.reduce_sum(a * [1.0, 2.0]) + tf.reduce_sum(b * [3.0, -1.0]) + tf.reduce_sum(c * 0.0)
        opt = OPTIMIZERS[name]()
        if kind == "minimize":
            op = opt.minimize(loss, decay_var_list=[a], **extra)
        else:
            op = opt.apply_gradients(opt.compute_gradients(loss), decay_var_list=[a])
        out = {"a": [], "b": [], "c": []}
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(STEPS):
                sess.run(op)
                for var, value in zip("abc", sess.run([a, b, c])):
                    out[var].append(value.tolist())
        return out


@pytest.mark.parametrize("case", sorted(k for k in REFS if k.split("/")[0] in OPTIMIZERS))
def test_decay_var_list_as_tf115(case):
    name, kind = case.split("/")
    got, want = train(name, kind), REFS[case]
    for var in "abc":
        np.testing.assert_allclose(got[var], want[var], rtol=1e-6, err_msg="%s %s" % (case, var))


def test_tf115_minimize_decays_every_variable():
    want = REFS["AdamW/minimize"]
    assert want["b"] != REFS["AdamW/apply_gradients"]["b"]  # the quirk the default keeps
    assert want["c"][-1] != [2.0, 2.0]


@pytest.mark.parametrize("name", ["AdamW", "MomentumW", "Multitask(AdamW)"])
def test_decay_listed_only_decays_only_decay_var_list(name):
    base = name.replace("Multitask(AdamW)", "AdamW")
    got = train(name, "minimize", decay_listed_only=True)
    want = REFS[base + "/apply_gradients"]  # TF 1.15's apply_gradients honoured the list
    for var in "ab":
        np.testing.assert_allclose(got[var], want[var], rtol=1e-6, err_msg=var)
    assert got["c"][-1] == [2.0, 2.0]  # no gradient: no decay (no decay listed, and Multitask skips it)


def test_multitask_minimize_rejects_unknown_keywords_like_the_wrapped_optimizer():
    with tf.Graph().as_default():
        a = v1.Variable([1.0], name="a")
        opt = contrib_opt.MultitaskOptimizerWrapper(v1.train.AdamOptimizer(0.1))
        with pytest.raises(TypeError, match="decay_var_list"):
            opt.minimize(tf.reduce_sum(a), decay_var_list=[a])


def test_upgrade_reports_minimize_with_decay_var_list_naming_the_keyword():
    import tf1clip.upgrade

    text = (
        "import tensorflow as tf\n"
        "opt = tf.contrib.opt.AdamWOptimizer(0.1, learning_rate=0.05)\n"
        "op = opt.minimize(loss, decay_var_list=[a])\n"
        "op2 = opt.minimize(loss, decay_var_list=[a], decay_listed_only=True)\n"
        "op3 = opt.minimize(loss)\n"
    )
    result = tf1clip.upgrade.upgrade_source(text)
    lines = {e.line: e.message for e in result.log if e.severity == "WARNING" and "decay_var_list" in e.message}
    assert list(lines) == [3]
    assert "decayed every variable on TF 1.15" in lines[3] and "decay_listed_only=True" in lines[3]


# --- MultitaskOptimizerWrapper modifies the optimizer it wraps, as TF 1.15 -----------------------------


def multitask_inner(resource, **extra):
    """make_refs.multitask_inner on this TF: ``w`` after Momentum's own step of a zero gradient (slot 1)."""
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=[1.0, 1.0], use_resource=resource)
        mom = v1.train.MomentumOptimizer(0.5, 0.9)
        wrapper = contrib_opt.MultitaskOptimizerWrapper(mom, **extra)
        plain = mom.apply_gradients([(tf.zeros([2]), w)])
        wrapped = wrapper.apply_gradients([(tf.zeros([2]), w)])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(mom.get_slot(w, "momentum").assign([1.0, 1.0]))
            sess.run(wrapped)
            assert sess.run(w).tolist() == [1.0, 1.0]  # the wrapper skips either way
            sess.run(plain)
            return sess.run(w).tolist()


@pytest.mark.parametrize("resource", ["ref", "resource"])
def test_multitask_wrapped_optimizer_skips_zero_gradients_as_tf115(resource):
    assert multitask_inner(resource == "resource") == REFS["Multitask/inner/" + resource] == [1.0, 1.0]


@pytest.mark.parametrize("resource", ["ref", "resource"])
def test_multitask_leave_optimizer_unmodified(resource):
    got = multitask_inner(resource == "resource", leave_optimizer_unmodified=True)
    np.testing.assert_allclose(got, [1.0 - 0.5 * 0.9, 1.0 - 0.5 * 0.9], rtol=1e-6)  # momentum 0.9 * 1, lr 0.5


# --- VariableClippingOptimizer: a repeated index clips its row once per occurrence (TF 1.15) -----------

INIT = [[3.0, 4.0], [0.6, 0.8], [1.0, 1.0]]
WEIGHTS = np.array([[0.5, -0.5], [0.5, -0.5], [1.0, 2.0]], np.float32)
SPARSE_ROWS = [0, 0, 1]


def _wrapped(wrap, opt, loss):
    import tf1clip
    from tf1clip.contrib import estimator as cestimator
    from tf1clip.contrib import layers as clayers

    if wrap == "optimize_loss":
        step = v1.train.get_or_create_global_step()
        return clayers.optimize_loss(loss, step, None, opt, clip_gradients=1.0, summaries=[])
    if wrap == "estimator_clip":
        opt = cestimator.clip_gradients_by_norm(opt, 1.0)
    if wrap == "clip_skip":
        opt = tf1clip.clip_gradients_by_norm(opt, 1.0, on_nonfinite="skip")
    return opt.minimize(loss)


def clipping(kind, resource, wrap, **extra):
    """make_refs.clipping on this TF: ``w`` after each of two steps."""
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=INIT, use_resource=resource)
        assert (w.dtype == w.dtype.base_dtype) == resource  # a reference variable unless ``resource``
        rows = tf.gather(w, SPARSE_ROWS) if kind == "sparse" else w
        loss = tf.reduce_sum(rows * WEIGHTS)
        opt = contrib_opt.VariableClippingOptimizer(v1.train.GradientDescentOptimizer(0.1), {w: [1]}, 2.0, **extra)
        op = _wrapped(wrap, opt, loss)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            return [(sess.run(op), sess.run(w))[1].tolist() for _ in range(2)]


def np_clipping(kind, wrap, once):
    """NumPy: two steps of SGD 0.1 (gradient clipped to global norm 1 under a wrapper), then each touched
    row's excess over norm 2 subtracted once per occurrence of its index (once per row if ``once``)."""
    w, out = np.array(INIT, np.float64), []
    indices = SPARSE_ROWS if kind == "sparse" else [0, 1, 2]
    for _ in range(2):
        values = WEIGHTS.astype(np.float64)
        if wrap != "plain":
            values = values / max(np.sqrt(np.sum(values**2)), 1.0)
        np.add.at(w, indices, -0.1 * values)
        touched = sorted(set(indices)) if once or kind == "dense" else indices
        rows = w[touched]
        norms = np.sqrt(np.sum(rows**2, axis=1, keepdims=True))
        np.add.at(w, touched, -(rows - rows * 2.0 / np.maximum(norms, 2.0)))
        out.append(w.tolist())
    return out


CLIP_CASES = [
    (kind, resource, wrap)
    for kind in ("sparse", "dense")
    for resource in ("ref", "resource")
    for wrap in ("plain", "estimator_clip", "clip_skip", "optimize_loss")
]


@pytest.mark.parametrize("kind,resource,wrap", CLIP_CASES)
def test_variable_clipping_as_tf115(kind, resource, wrap):
    want = REFS["VariableClipping/%s/%s/%s" % (kind, resource, wrap.replace("clip_skip", "estimator_clip"))]
    got = clipping(kind, resource == "resource", wrap)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, np_clipping(kind, wrap, once=False), rtol=1e-5, atol=1e-6)


def test_tf115_clipped_a_repeated_row_once_per_occurrence():
    want = REFS["VariableClipping/sparse/ref/plain"]
    np.testing.assert_allclose(want, np_clipping("sparse", "plain", once=False), rtol=1e-5, atol=1e-6)
    assert want[0][0][0] < 0  # row [3, 4] (less a step) clipped twice: through zero


@pytest.mark.parametrize("kind,resource,wrap", CLIP_CASES)
def test_clip_repeated_rows_once_clips_each_row_once(kind, resource, wrap):
    got = clipping(kind, resource == "resource", wrap, clip_repeated_rows_once=True)
    np.testing.assert_allclose(got, np_clipping(kind, wrap, once=True), rtol=1e-5, atol=1e-6)
    if kind == "sparse":
        np.testing.assert_allclose(np.linalg.norm(got[0][0]), 2.0, rtol=1e-5)


# --- ElasticAverageOptimizer: compute_gradients(var_list) pairs trainable_variables() with var_list's centers ---

LOCAL_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def elastic(var_list, **extra):
    """make_refs.elastic on this TF: (rho, [(variable name, gradient)])."""
    with tf.Graph().as_default():
        getter = contrib_opt.ElasticAverageCustomGetter(worker_device=LOCAL_DEVICE)
        with v1.variable_scope("", custom_getter=getter):
            ws = {"w0": v1.get_variable("w0", initializer=5.0), "w1": v1.get_variable("w1", initializer=3.0)}
        opt = contrib_opt.ElasticAverageOptimizer(
            v1.train.GradientDescentOptimizer(0.5),
            num_worker=2,
            ea_custom_getter=getter,
            communication_period=4,
            **extra,
        )
        pairs = opt.compute_gradients(ws["w0"] + 2.0 * ws["w1"], var_list=[ws[n] for n in var_list])
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            sess.run([getter.local_center(ws["w0"]).assign(1.0), getter.local_center(ws["w1"]).assign(-1.0)])
            return opt._rho, [[v.op.name, float(sess.run(g))] for g, v in pairs]


VAR_LISTS = [["w1"], ["w1", "w0"], ["w0", "w1"]]


@pytest.mark.parametrize("var_list", VAR_LISTS, ids=",".join)
def test_elastic_average_var_list_pairing_as_tf115(var_list):
    want = REFS["ElasticAverage/" + ",".join(var_list)]
    rho, grads = elastic(var_list)
    assert rho == pytest.approx(want["rho"])
    assert [n for n, _ in grads] == [n for n, _ in want["grads"]]
    np.testing.assert_allclose([g for _, g in grads], [g for _, g in want["grads"]], rtol=1e-6)


@pytest.mark.parametrize("var_list", VAR_LISTS, ids=",".join)
def test_elastic_average_pair_own_centers(var_list):
    rho, grads = elastic(var_list, pair_own_centers=True)
    coef, value, center = {"w0": 1.0, "w1": 2.0}, {"w0": 5.0, "w1": 3.0}, {"w0": 1.0, "w1": -1.0}
    want = [coef[n] + rho * (value[n] - center[n]) for n in var_list]
    np.testing.assert_allclose([g for _, g in grads], want, rtol=1e-6)


def test_upgrade_reports_each_construction_without_the_fix_keyword_in_every_spelling():
    import tf1clip.upgrade

    text = (
        "import tensorflow as tf\n"
        "from tensorflow.contrib.opt import VariableClippingOptimizer\n"
        "from tensorflow.contrib import opt as copt\n"
        "from tensorflow.contrib.opt.python.training import elastic_average_optimizer as eam\n"
        "a = tf.contrib.opt.VariableClippingOptimizer(sgd, {w: [1]}, 2.0)\n"
        "b = VariableClippingOptimizer(sgd, {w: [1]}, 2.0)\n"
        "c = copt.VariableClippingOptimizer(sgd, {w: [1]}, 2.0, clip_repeated_rows_once=True)\n"
        "d = copt.ElasticAverageOptimizer(sgd, 2, getter)\n"
        "e = eam.ElasticAverageOptimizer(sgd, 2, getter)\n"
        "f = tf.contrib.opt.ElasticAverageOptimizer(sgd, 2, getter, pair_own_centers=True)\n"
        "g = tf.contrib.opt.MovingAverageOptimizer(sgd)\n"
        "h = copt.MultitaskOptimizerWrapper(sgd)\n"
        "i = copt.MultitaskOptimizerWrapper(tf.train.AdamOptimizer(0.1))\n"
        "j = copt.MultitaskOptimizerWrapper(sgd, leave_optimizer_unmodified=True)\n"
        "sgd = copt.MultitaskOptimizerWrapper(sgd)\n"
        "op = d.minimize(loss, var_list=[w])\n"
    )
    result = tf1clip.upgrade.upgrade_source(text)
    warned = {e.line: e.message for e in result.log if e.severity == "WARNING"}
    assert sorted(warned) == [5, 6, 8, 9, 12]
    assert "used directly too" in warned[12] and "leave_optimizer_unmodified=True" in warned[12]
    for line in (5, 6):
        assert "once per occurrence" in warned[line] and "clip_repeated_rows_once=True" in warned[line]
    for line in (8, 9):
        assert "paired trainable_variables()" in warned[line] and "pair_own_centers=True" in warned[line]
    for calls in ("op = d.minimize(loss)\n", "op = d.compute_gradients(loss)\n"):  # no var_list: same pairing
        without = tf1clip.upgrade.upgrade_source(text.replace("op = d.minimize(loss, var_list=[w])\n", calls))
        assert sorted(e.line for e in without.log if e.severity == "WARNING") == [5, 6, 12]
    positional = tf1clip.upgrade.upgrade_source(text.replace("loss, var_list=[w]", "loss, None, [w]"))
    assert sorted(e.line for e in positional.log if e.severity == "WARNING") == [5, 6, 8, 9, 12]


def test_upgrade_reports_contrib_estimator_clip_in_a_distributed_file_naming_clip_stage():
    import tf1clip.upgrade

    clip = "opt = tf.contrib.estimator.clip_gradients_by_norm(tf.train.AdagradOptimizer(0.1), 5.0%s)\n"
    distributed = "config = tf.estimator.RunConfig(train_distribute=tf.distribute.MirroredStrategy())\n"
    for text, warned_lines in (
        ("import tensorflow as tf\n" + clip % "" + distributed, [2]),
        ("import tensorflow as tf\n" + clip % ", clip_stage='per_replica'" + distributed, []),
        ("import tensorflow as tf\n" + clip % "", []),  # no strategy: both stages are the same
    ):
        result = tf1clip.upgrade.upgrade_source(text)
        warned = {e.line: e.message for e in result.log if e.severity == "WARNING" and "clip_stage" in e.message}
        assert sorted(warned) == warned_lines, text
        for message in warned.values():
            assert "each replica's gradients" in message and "clip_stage='aggregated'" in message
