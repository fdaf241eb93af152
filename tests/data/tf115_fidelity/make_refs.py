"""Records TF 1.15's numbers for tests/oracle/test_contrib_opt_fidelity.py (run on TF 1.15 with tf.contrib).

    env -u TF2_BEHAVIOR -u PYTHONPATH python3.7 make_refs.py   # writes refs.json next to this file
"""

import json
import os

import numpy as np
import tensorflow as tf

STEPS = 3


def build(kind, factory):
    """{name: [value after each step]} of a, b, c trained by ``kind`` on a loss linear in each."""
    with tf.Graph().as_default():
        a = tf.Variable([1.0, -2.0], name="a")
        b = tf.Variable([0.5, 3.0], name="b")
        c = tf.Variable([2.0, 2.0], name="c")
        loss = tf.reduce_sum(a * [1.0, 2.0]) + tf.reduce_sum(b * [3.0, -1.0]) + tf.reduce_sum(c * 0.0)
        opt = factory()
        if kind == "minimize":
            train = opt.minimize(loss, decay_var_list=[a])
        else:
            train = opt.apply_gradients(opt.compute_gradients(loss), decay_var_list=[a])
        out = {"a": [], "b": [], "c": []}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(STEPS):
                sess.run(train)
                for name, value in zip("abc", sess.run([a, b, c])):
                    out[name].append(np.asarray(value).tolist())
        return out


OPTIMIZERS = {
    "AdamW": lambda: tf.contrib.opt.AdamWOptimizer(0.1, learning_rate=0.05),
    "MomentumW": lambda: tf.contrib.opt.MomentumWOptimizer(0.1, learning_rate=0.05, momentum=0.9),
    "Multitask(AdamW)": lambda: tf.contrib.opt.MultitaskOptimizerWrapper(
        tf.contrib.opt.AdamWOptimizer(0.1, learning_rate=0.05)
    ),
}

refs = {}
for name, factory in OPTIMIZERS.items():
    for kind in ("minimize", "apply_gradients"):
        if name.startswith("Multitask") and kind == "apply_gradients":
            continue  # the wrapper's apply_gradients is its own (no decay_var_list in TF 1.15)
        refs["%s/%s" % (name, kind)] = build(kind, factory)
refs["tensorflow"] = tf.__version__
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "refs.json"), "w") as f:
    json.dump(refs, f, indent=1, sort_keys=True)
