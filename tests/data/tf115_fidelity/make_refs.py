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


def clipping(kind, resource, wrap=None):
    """The rows of ``w`` (row 0 [3, 4], max_norm 2) after each of two steps of a VariableClippingOptimizer over
    gradient descent; ``kind`` "sparse" gathers row 0 twice and row 1 once, "dense" multiplies ``w``."""
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=[[3.0, 4.0], [0.6, 0.8], [1.0, 1.0]], use_resource=resource)
        weights = tf.constant([[0.5, -0.5], [0.5, -0.5], [1.0, 2.0]])
        rows = tf.gather(w, [0, 0, 1]) if kind == "sparse" else w
        loss = tf.reduce_sum(rows * weights[: 3 if kind == "dense" else 3])
        opt = tf.contrib.opt.VariableClippingOptimizer(tf.train.GradientDescentOptimizer(0.1), {w: [1]}, 2.0)
        if wrap == "estimator_clip":
            opt = tf.contrib.estimator.clip_gradients_by_norm(opt, 1.0)
        if wrap == "optimize_loss":
            step = tf.train.get_or_create_global_step()
            train = tf.contrib.layers.optimize_loss(loss, step, None, opt, clip_gradients=1.0, summaries=[])
        else:
            train = opt.minimize(loss)
        out = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(2):
                sess.run(train)
                out.append(sess.run(w).tolist())
        return out


def elastic(var_list):
    """ElasticAverageOptimizer.compute_gradients(w0 + 2 w1, var_list) with the local centers set to 1 and -1."""
    with tf.Graph().as_default():
        getter = tf.contrib.opt.ElasticAverageCustomGetter(worker_device="/job:localhost/replica:0/task:0/cpu:0")
        with tf.variable_scope("", custom_getter=getter):
            w0 = tf.get_variable("w0", initializer=5.0)
            w1 = tf.get_variable("w1", initializer=3.0)
        ws = {"w0": w0, "w1": w1}
        opt = tf.contrib.opt.ElasticAverageOptimizer(
            tf.train.GradientDescentOptimizer(0.5), num_worker=2, ea_custom_getter=getter, communication_period=4
        )
        pairs = opt.compute_gradients(w0 + 2.0 * w1, var_list=[ws[n] for n in var_list])
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            sess.run([getter._local_map[w0].assign(1.0), getter._local_map[w1].assign(-1.0)])
            return {"rho": float(opt._rho), "grads": [[v.op.name, float(sess.run(g))] for g, v in pairs]}


def multitask_inner(resource):
    """Momentum's own apply_gradients of a zero gradient after MultitaskOptimizerWrapper wrapped it (slot 1)."""
    with tf.Graph().as_default():
        w = tf.get_variable("w", initializer=[1.0, 1.0], use_resource=resource)
        mom = tf.train.MomentumOptimizer(0.5, 0.9)
        tf.contrib.opt.MultitaskOptimizerWrapper(mom)
        plain = mom.apply_gradients([(tf.zeros([2]), w)])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(mom.get_slot(w, "momentum").assign([1.0, 1.0]))
            sess.run(plain)
            return sess.run(w).tolist()


def mirrored(clip):
    """``w`` after one step of SGD 1 over MirroredStrategy on 2 CPUs, replica gradients [3, 0] and [0, 4]."""
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        with strategy.scope():
            w = tf.get_variable("w", initializer=[0.0, 0.0], use_resource=True)
            opt = tf.train.GradientDescentOptimizer(1.0)
            if clip:
                opt = tf.contrib.estimator.clip_gradients_by_norm(opt, 2.0)

            def step_fn():
                replica = tf.distribute.get_replica_context().replica_id_in_sync_group
                grad = tf.where(tf.equal(replica, 0), tf.constant([3.0, 0.0]), tf.constant([0.0, 4.0]))
                return opt.minimize(tf.reduce_sum(grad * w))

            train = strategy.group(strategy.extended.call_for_each_replica(step_fn))
        with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            return sess.run(w).tolist()


refs["EstimatorClip/mirrored/plain"] = mirrored(False)
refs["EstimatorClip/mirrored/clipped"] = mirrored(True)
refs["Multitask/inner/ref"] = multitask_inner(False)
refs["Multitask/inner/resource"] = multitask_inner(True)
for kind in ("sparse", "dense"):
    for resource in (False, True):
        for wrap in (None, "estimator_clip", "optimize_loss"):
            key = "VariableClipping/%s/%s/%s" % (kind, "resource" if resource else "ref", wrap or "plain")
            refs[key] = clipping(kind, resource, wrap)
for var_list in (["w1"], ["w1", "w0"], ["w0", "w1"]):
    refs["ElasticAverage/" + ",".join(var_list)] = elastic(var_list)
refs["tensorflow"] = tf.__version__
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "refs.json"), "w") as f:
    json.dump(refs, f, indent=1, sort_keys=True)
