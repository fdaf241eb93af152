"""One SyncReplicasOptimizer run with a non-finite step, for tests/subprocess/test_sync_nonfinite.py (run in a subprocess).

``python _sync_nonfinite_worker.py POLICY/NESTING/KIND ...`` trains, for each case in its own graph, one worker
(the chief, one replica, no initial token, so each run returns after its own update) on the gradients ``x`` for
``x`` in 1, 2, NaN, 3 and prints one JSON line per case: ``{"case": ..., "steps": [[w, global_step, skipped...],
...], "error": message or null}``. A run that does not return within 60 s prints ``HUNG case`` and exits 3.
"""

import json
import os
import sys
import threading

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tf1clip  # noqa: E402

v1 = tf.compat.v1
FEEDS = tuple(float(f) for f in os.environ.get("FEEDS", "1,2,nan,3").split(","))


def build(policy, nesting, kind):
    x = v1.placeholder(tf.float32, [])
    if kind == "dense":
        w = v1.get_variable("w", initializer=[1.0, 2.0])
        loss = tf.reduce_sum(w * x)
    else:
        w = v1.get_variable("w", initializer=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        loss = tf.reduce_sum(tf.gather(w, [0, 2]) * x)
    global_step = v1.train.get_or_create_global_step()
    sgd = v1.train.GradientDescentOptimizer(0.1)
    if nesting == "around":
        sync = v1.train.SyncReplicasOptimizer(sgd, replicas_to_aggregate=1, total_num_replicas=1)
        wrappers = [tf1clip.clip_gradients_by_norm(sync, 10.0, on_nonfinite=policy)]
        opt = wrappers[0]
    elif nesting == "inside":
        wrappers = [tf1clip.clip_gradients_by_norm(sgd, 10.0, on_nonfinite=policy)]
        opt = sync = v1.train.SyncReplicasOptimizer(wrappers[0], replicas_to_aggregate=1, total_num_replicas=1)
    elif nesting == "lso":
        lso = v1.train.experimental.MixedPrecisionLossScaleOptimizer(sgd, "dynamic")
        wrappers = [tf1clip.clip_gradients_by_norm(lso, 10.0, on_nonfinite=policy)]
        opt = sync = v1.train.SyncReplicasOptimizer(wrappers[0], replicas_to_aggregate=1, total_num_replicas=1)
    else:
        inner = tf1clip.clip_gradients_by_norm(sgd, 10.0, on_nonfinite=policy)
        outer = tf1clip.transform_gradients(inner, tf1clip.clip_by_value_fn(-5.0, 5.0), on_nonfinite=policy)
        wrappers = [outer, inner]
        opt = sync = v1.train.SyncReplicasOptimizer(outer, replicas_to_aggregate=1, total_num_replicas=1)
    train = opt.minimize(loss, global_step=global_step)
    counters = [wr.skipped_steps for wr in wrappers] if policy == "skip" else []
    return x, w, global_step, train, sync, counters


def _original(error, coord):
    """The chief queue runner's error when it stopped the coordinator (as MonitoredSession reports it)."""
    try:
        coord.raise_requested_exception()
    except Exception as e:  # noqa: BLE001
        error = e
    lines = str(getattr(error, "message", error)).splitlines()
    return "%s: %s" % (type(error).__name__, ([line for line in lines if "tf1clip:" in line] or lines[:1])[0])


def main(policy, nesting, kind):
    with tf.Graph().as_default():
        return _main(policy, nesting, kind)


def _main(policy, nesting, kind):
    try:
        x, w, global_step, train, sync, counters = build(policy, nesting, kind)
    except ValueError as e:
        return {"steps": [], "error": "ValueError: %s" % e}
    sess, coord = v1.Session(), v1.train.Coordinator()
    sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
    sess.run(sync.chief_init_op)
    threads = sync.get_chief_queue_runner().create_threads(sess, coord=coord, start=True)
    steps, error = [], None
    for feed in FEEDS:
        out = []

        def run(feed=feed, out=out):
            try:
                sess.run(train, {x: feed})
                out.append(None)
            except Exception as e:  # noqa: BLE001
                out.append(e)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(60)
        if not out:
            print("HUNG %s/%s/%s" % (policy, nesting, kind), flush=True)
            os._exit(3)
        if out[0] is not None:
            error = _original(out[0], coord)
            break
        values = sess.run([w, global_step] + counters)
        steps.append([values[0].tolist(), int(values[1])] + [int(c) for c in values[2:]])
    coord.request_stop()
    sess.close()  # cancels the queue runner's pending TakeGrad
    try:
        coord.join(threads, stop_grace_period_secs=30, ignore_live_threads=True)
    except Exception:  # noqa: BLE001, S110 - the chief's error, reported above
        pass
    return {"steps": steps, "error": error}


if __name__ == "__main__":
    for case in sys.argv[1:]:
        try:
            result = main(*case.split("/"))
        except Exception as e:  # noqa: BLE001
            result = {"steps": [], "error": "%s: %s" % (type(e).__name__, str(e).splitlines()[0])}
        print(json.dumps(dict(result, case=case)), flush=True)
    os._exit(0)
