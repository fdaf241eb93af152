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


@pytest.mark.parametrize("case", sorted(k for k in REFS if "/" in k))
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
