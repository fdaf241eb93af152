"""MirroredStrategy (2 logical CPUs) against one device: optimizers x policies x models.

Started by tests/subprocess/test_distribute.py in a fresh process. For each policy one graph
holds every case as an independent sub-model, so the whole matrix costs a few
graph builds: (optimizer x dense/sparse/mixed), a loss-scale optimizer outside
the wrapper (Adam, Momentum), a stateful capper (AutoClip), and a model trained
by ``minimize()`` without ``var_list``. Saver checkpoints move between the
one-device and the mirrored graphs both ways. Prints one JSON object:
``{policy: {"single": {...}, "mirrored": {...}, "consistent": bool, "restored": {...}}}``.
"""

import json
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf

_CPUS = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(_CPUS[0], [tf.config.LogicalDeviceConfiguration()] * 2)

import tf1clip  # noqa: E402  (after the device configuration)

v1 = tf.compat.v1
DEVICES = ["/cpu:0", "/cpu:1"]
POLICIES = ("nan", "skip", "raise")
MODELS = ("dense", "sparse", "mixed")
OPTIMIZERS = {
    "sgd": lambda: v1.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: v1.train.MomentumOptimizer(0.1, 0.9),
    "adam": lambda: v1.train.AdamOptimizer(0.1),
    "adagrad": lambda: v1.train.AdagradOptimizer(0.1),
    "rmsprop": lambda: v1.train.RMSPropOptimizer(0.1),
}
EXTRA = ("lso_adam", "lso_momentum", "autoclip", "no_var_list")
LSO = v1.train.experimental.MixedPrecisionLossScaleOptimizer
STEPS = 3
# Replica r trains on X[r], IDS[r]; one device on the sum of both losses.
X = [np.array([[1.0, 2.0], [0.5, -1.0]], np.float32), np.array([[3.0, 0.0], [-2.0, 4.0]], np.float32)]
IDS = [np.array([0, 2], np.int32), np.array([2, 3], np.int32)]


def _variables(model):
    init = v1.constant_initializer
    out = {}
    if model != "sparse":
        out["w1"] = v1.get_variable("w1", [2, 3], initializer=init([[0.3, -0.2, 0.5], [0.1, 0.4, -0.3]]))
        out["w2"] = v1.get_variable("w2", [3, 1], initializer=init([[0.2], [-0.5], [0.7]]))
    if model != "dense":
        out["emb"] = v1.get_variable("emb", [4, 1], initializer=init([[0.1], [0.2], [0.3], [0.4]]))
    out["step"] = v1.get_variable(
        "step",
        [],
        tf.int64,
        initializer=v1.zeros_initializer(),
        trainable=False,
        aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA,
    )
    return out


def _loss(model, variables, r):
    x, ids = tf.constant(X[r]), tf.constant(IDS[r])
    pred = 0.0
    if model != "sparse":
        pred = tf.matmul(tf.nn.tanh(tf.matmul(x, variables["w1"])), variables["w2"])[:, 0]
    if model != "dense":
        pred = pred + tf.gather(variables["emb"], ids)[:, 0] * tf.reduce_sum(x, axis=1)
    return tf.reduce_sum(tf.square(pred - 1.0))


def _extra(name, policy):
    """(model, variables, optimizer, pass var_list?) of the extra cases."""
    with v1.variable_scope(name):
        variables = _variables("dense")
        if name == "no_var_list":
            # tf.compat.v1.Variable: minimize() then collects each replica's components.
            variables["w1"] = v1.Variable(np.full((2, 3), 0.2, np.float32), name="w1_v1")
    clip = tf1clip.clip_gradients_by_norm
    if name == "lso_adam":
        opt = LSO(clip(v1.train.AdamOptimizer(0.1), 0.5, on_nonfinite=policy), "dynamic")
    elif name == "lso_momentum":
        opt = LSO(clip(v1.train.MomentumOptimizer(0.1, 0.9), 0.5, on_nonfinite=policy), "dynamic")
    elif name == "autoclip":
        capper = tf1clip.AutoClip(percentile=50.0, history_size=4)
        opt = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.1), capper, on_nonfinite=policy)
    else:
        opt = clip(v1.train.RMSPropOptimizer(0.1), 0.5, on_nonfinite=policy)
    return "dense", variables, opt, name != "no_var_list"


def _build(policy, mirrored):
    """Builds every case in the default graph; returns the step function and the cases."""
    cases = {}
    for opt_name, make in OPTIMIZERS.items():
        for model in MODELS:
            with v1.variable_scope("%s_%s" % (opt_name, model)):
                variables = _variables(model)
            opt = tf1clip.clip_gradients_by_norm(make(), 0.5, on_nonfinite=policy)
            cases[(opt_name, model)] = (model, variables, opt, True)
    for name in EXTRA:
        cases[name] = _extra(name, policy)

    def step():
        ops = []
        for model, variables, opt, with_var_list in cases.values():
            trained = [v for k, v in variables.items() if k != "step"]
            if mirrored:
                loss = _loss(model, variables, _static_id())
            else:
                loss = _loss(model, variables, 0) + _loss(model, variables, 1)
            var_list = trained if with_var_list else None
            ops.append(opt.minimize(loss, global_step=variables["step"], var_list=var_list))
        return tf.group(*ops)

    return step, cases


def _static_id():
    return int(tf.get_static_value(tf.distribute.get_replica_context().replica_id_in_sync_group))


def run(policy, mirrored, restore_from=None, save_to=None):
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(DEVICES) if mirrored else tf.distribute.get_strategy()
        with strategy.scope():
            step, _ = _build(policy, mirrored)
            if mirrored:
                train = strategy.group(strategy.extended.call_for_each_replica(step))
            else:
                train = step()
        every = v1.global_variables()
        saver = v1.train.Saver()
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            for _ in range(STEPS):
                sess.run(train)
            values = _values(sess, every)
            # One run for every replica's copy (each distinct fetch list costs a graph prune).
            components = [list(var.values) for var in every if mirrored and hasattr(var, "values")]
            fetched = sess.run(components)
            consistent = all(all(np.array_equal(p[0], q) for q in p[1:]) for p in fetched)
            restored = None
            if save_to:
                saver.save(sess, save_to)
            if restore_from:
                sess.run(v1.global_variables_initializer())
                saver.restore(sess, restore_from)
                restored = _values(sess, every)
    return {"values": values, "consistent": consistent, "restored": restored}


def _values(sess, variables):
    fetched = sess.run(list(variables))
    return {var.op.name: np.asarray(value).tolist() for var, value in zip(variables, fetched)}


def main():
    results = {}
    tmp = tempfile.mkdtemp()
    previous = None  # each run restores the checkpoint the previous one (other kind) saved
    for policy in POLICIES:
        single_path = os.path.join(tmp, policy + "_single")
        mirrored_path = os.path.join(tmp, policy + "_mirrored")
        single = run(policy, mirrored=False, restore_from=previous, save_to=single_path)
        mirrored = run(policy, mirrored=True, restore_from=single_path, save_to=mirrored_path)
        previous = mirrored_path
        results[policy] = {
            "single": single["values"],
            "mirrored": mirrored["values"],
            "consistent": mirrored["consistent"],
            # mirrored restored from this single run's checkpoint, single from the previous mirrored one
            "restored_into_mirrored": mirrored["restored"],
            "restored_into_single": single["restored"],
        }
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
