"""Runs tf1clip under MirroredStrategy over 2 logical CPUs; prints one JSON object.

Started by tests/subprocess/test_distribute.py in a fresh process (logical devices must
be configured before TensorFlow initialises). Each scenario returns plain
numbers; the test compares them with single-device runs and NumPy formulas.
"""

import json
import sys

import numpy as np
import tensorflow as tf

_CPUS = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(_CPUS[0], [tf.config.LogicalDeviceConfiguration()] * 2)

import tf1clip  # noqa: E402  (after the device configuration)

DEVICES = ["/cpu:0", "/cpu:1"]
LSO = tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer

# Replica r trains on X[r], IDS[r]; one device trains on both batches.
X = [np.array([[1.0, 2.0], [0.5, -1.0]], np.float32), np.array([[3.0, 0.0], [-2.0, 4.0]], np.float32)]
IDS = [np.array([0, 2], np.int32), np.array([2, 3], np.int32)]


def _model_vars():
    w = tf.compat.v1.Variable([0.5, -0.5], name="w")
    emb = tf.compat.v1.Variable(np.arange(8, dtype=np.float32).reshape(4, 2) / 10, name="emb")
    unused = tf.compat.v1.Variable(1.0, name="unused")
    return [w, emb, unused]


def _loss(x, ids, variables):
    w, emb, _ = variables
    pred = tf.reduce_sum(x * w, axis=1) + tf.reduce_sum(tf.gather(emb, ids), axis=1)
    return tf.reduce_sum(tf.square(pred - 1.0))


def _inner(kind):
    if kind == "sgd":
        return tf.compat.v1.train.GradientDescentOptimizer(0.1)
    if kind == "adam":
        return tf.compat.v1.train.AdamOptimizer(0.1)
    return LSO(tf.compat.v1.train.AdamOptimizer(0.1), "dynamic")


def _state(sess, variables, opt):
    out = {}
    for v in variables + opt.variables():
        out[v.op.name] = np.asarray(sess.run(v)).tolist()
    return out


def _consistent(sess, variables):
    """True when every mirrored component holds the same value."""
    for v in variables:
        values = [sess.run(c) for c in v.values]
        if not all(np.array_equal(values[0], x) for x in values[1:]):
            return False
    return True


def model_single(kind, steps, legacy=False):
    """One device, both batches; ``legacy`` caps each batch's gradients apart, then sums."""
    with tf.Graph().as_default():
        variables = _model_vars()
        gs = tf.compat.v1.train.get_or_create_global_step()
        inner = _inner(kind)
        if legacy:
            total = None
            for r in range(2):
                pairs = inner.compute_gradients(_loss(X[r], IDS[r], variables), variables)
                clipped, _ = tf1clip.clip_by_global_norm(pairs, 2.0)
                dense = [None if g is None else tf.convert_to_tensor(g) for g, _ in clipped]
                total = dense if total is None else [None if a is None else a + b for a, b in zip(total, dense)]
            train = inner.apply_gradients(list(zip(total, variables)), global_step=gs)
            opt = inner
        else:
            opt = tf1clip.clip_gradients_by_norm(inner, 2.0)
            loss = _loss(np.concatenate(X), np.concatenate(IDS), variables)
            train = opt.minimize(loss, global_step=gs, var_list=variables)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            for _ in range(steps):
                sess.run(train)
            return _state(sess, variables + [gs], opt)


def model_mirrored(kind, steps, **options):
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(DEVICES)
        with strategy.scope():
            variables = _model_vars()
            gs = tf.compat.v1.train.get_or_create_global_step()
            opt = tf1clip.clip_gradients_by_norm(_inner(kind), 2.0, **options)

            def step():
                r = tf.distribute.get_replica_context()._replica_id_in_sync_group
                loss = _loss(tf.constant(X[r]), tf.constant(IDS[r]), variables)
                return opt.minimize(loss, global_step=gs, var_list=variables)

            train = strategy.group(strategy.extended.call_for_each_replica(step))
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            for _ in range(steps):
                sess.run(train)
            out = _state(sess, variables + [gs], opt)
            out["consistent"] = _consistent(sess, variables + opt.variables())
            return out


def autoclip(mirrored, steps=3):
    """A stateful capper: its history must be that of one device on the whole batch."""
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(DEVICES) if mirrored else tf.distribute.get_strategy()
        with strategy.scope():
            variables = _model_vars()
            capper = tf1clip.AutoClip(percentile=50.0, history_size=4)
            opt = tf1clip.transform_gradients(tf.compat.v1.train.GradientDescentOptimizer(0.02), capper)

            def step(r=None):
                if r is None:
                    r = tf.distribute.get_replica_context()._replica_id_in_sync_group
                    x, ids = X[r], IDS[r]
                else:
                    x, ids = np.concatenate(X), np.concatenate(IDS)
                return opt.minimize(_loss(tf.constant(x), tf.constant(ids), variables), var_list=variables)

            if mirrored:
                train = strategy.group(strategy.extended.call_for_each_replica(step))
            else:
                train = step(r="all")
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            for _ in range(steps):
                sess.run(train)
            out = _state(sess, variables + [capper.history, capper.count], opt)
            if mirrored:
                out["consistent"] = _consistent(sess, variables + [capper.history, capper.count])
            return out


def scalar_mirrored(grads, make_opt, steps=1, feed_nan=None):
    """w = 1; replica r's gradient is ``grads[r]`` (a placeholder may replace it)."""
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(DEVICES)
        with strategy.scope():
            w = tf.compat.v1.Variable(1.0, name="w")
            gs = tf.compat.v1.train.get_or_create_global_step()
            opt = make_opt()
            holders = [tf.compat.v1.placeholder(tf.float32, [], name="g%d" % r) for r in range(2)]

            def step():
                r = tf.distribute.get_replica_context()._replica_id_in_sync_group
                return opt.apply_gradients([(holders[r] * 1.0, w)], global_step=gs)

            train = strategy.group(strategy.extended.call_for_each_replica(step))
            norms = opt.norms if getattr(opt, "_report_norms", False) else None
        result = {"steps": []}
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            for grad_pair in grads:
                feed = {holders[0]: grad_pair[0], holders[1]: grad_pair[1]}
                try:
                    fetched = sess.run([train] + ([] if norms is None else [list(norms)]), feed)
                except tf.errors.InvalidArgumentError as err:
                    result["steps"].append({"error": err.message[:3000]})
                    continue
                record = _state(sess, [w, gs], opt)
                if norms is not None:
                    record["norms"] = [float(n) for n in fetched[1]]
                result["steps"].append(record)
            result["consistent"] = _consistent(sess, [w] + opt.variables())
        return result


def one_device(policy):
    """OneDeviceStrategy: one replica, plain variables."""
    with tf.Graph().as_default():
        strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
        with strategy.scope():
            w = tf.compat.v1.Variable(1.0, name="w")
            gs = tf.compat.v1.train.get_or_create_global_step()
            opt = tf1clip.clip_gradients_by_norm(tf.compat.v1.train.AdamOptimizer(0.1), 2.0, on_nonfinite=policy)
            g = tf.compat.v1.placeholder(tf.float32, [])
            train = strategy.group(
                strategy.extended.call_for_each_replica(lambda: opt.apply_gradients([(g * 1.0, w)], global_step=gs))
            )
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            steps = []
            for value in (float("nan"), 5.0):
                sess.run(train, {g: value})
                steps.append(_state(sess, [w, gs], opt))
            return steps


def outside_scope():
    """A variable made outside strategy.scope() is refused, not updated twice."""
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable(1.0, name="w_outside")
        strategy = tf.distribute.MirroredStrategy(DEVICES)
        with strategy.scope():
            opt = tf1clip.clip_gradients_by_norm(tf.compat.v1.train.GradientDescentOptimizer(1.0), 2.0)
            try:
                strategy.extended.call_for_each_replica(lambda: opt.apply_gradients([(tf.constant(3.0), w)]))
            except ValueError as err:
                return str(err)
    return None


def main():
    sgd = lambda: tf.compat.v1.train.GradientDescentOptimizer(1.0)  # noqa: E731
    adam = lambda: tf.compat.v1.train.AdamOptimizer(0.1)  # noqa: E731
    clip = tf1clip.clip_gradients_by_norm
    results = {
        "model": {
            kind: {"single": model_single(kind, 2), "mirrored": model_mirrored(kind, 2)}
            for kind in ("sgd", "adam", "lso_adam")
        },
        "model_skip": model_mirrored("adam", 2, on_nonfinite="skip"),
        "autoclip": {"single": autoclip(False), "mirrored": autoclip(True)},
        "one_device": {policy: one_device(policy) for policy in ("nan", "skip")},
        "outside_scope": outside_scope(),
        "model_legacy": {
            "single": model_single("sgd", 2, legacy=True),
            "mirrored": model_mirrored("sgd", 2, clip_stage="per_replica"),
        },
        "scalar": scalar_mirrored([(3.0, 4.0)], lambda: clip(sgd(), 2.0, report_norms=True)),
        "scalar_legacy": scalar_mirrored([(3.0, 4.0)], lambda: clip(sgd(), 2.0, clip_stage="per_replica")),
        "scalar_lso_outside": scalar_mirrored(
            [(3.0, 4.0), (3.0, float("inf"))], lambda: LSO(clip(sgd(), 2.0), "dynamic")
        ),
        "skip": scalar_mirrored(
            [(3.0, float("nan")), (3.0, 1.0), (float("inf"), 1.0)],
            lambda: clip(adam(), 2.0, on_nonfinite="skip"),
        ),
        "skip_legacy": scalar_mirrored(
            [(float("inf"), 1.0), (3.0, 1.0)],
            lambda: clip(adam(), 2.0, on_nonfinite="skip", clip_stage="per_replica"),
        ),
        "skip_lso_inside": scalar_mirrored(
            [(3.0, float("nan")), (3.0, 1.0)],
            lambda: clip(LSO(adam(), "dynamic"), 2.0, on_nonfinite="skip"),
        ),
        "raise": scalar_mirrored([(3.0, 1.0), (3.0, float("inf"))], lambda: clip(adam(), 2.0, on_nonfinite="raise")),
    }
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
