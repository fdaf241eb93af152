"""Between-graph replication, TF1 style: 1 parameter server + 2 workers on 127.0.0.1.

One command starts the whole cluster, trains and shuts it down:

    python legacy_examples/ps_cluster.py                    # sync, 300 steps
    python legacy_examples/ps_cluster.py --mode async --steps 200

Each worker builds the same graph: a linear regression on its own shard of
data, variables placed on the parameter server by ``replica_device_setter``,
and a gradient-clipping optimizer from tf1clip.

* ``--mode sync``: ``SyncReplicasOptimizer`` averages one gradient from each
  worker per step; the tf1clip wrapper sits INSIDE it, so the chief clips the
  averaged gradient once, right before applying it. (Wrapping the other way
  round, ``clip(SyncReplicasOptimizer(...))``, would clip each worker's
  gradient before averaging, which is what tf.contrib effectively did.)
* ``--mode async``: every worker applies its own clipped gradient.

The launcher picks free ports, starts the three processes, prints the chief's
result and always stops every process it started.
"""

import argparse
import json
import os
import sys

import numpy as np
from _local_cluster import LocalCluster, free_ports, task_env, wait_until

LEARNING_RATE = 0.1
CLIP_NORM = 1.0
NUM_WORKERS = 2
FEATURES = 3


def shard(task):
    """The (x, y) data of worker ``task``: 8 examples, different on each worker."""
    rng = np.random.RandomState(100 + task)
    x = rng.uniform(-1.0, 1.0, size=(8, FEATURES)).astype(np.float32) + np.float32(task)
    true_w = np.array([2.0, -3.0, 1.0], np.float32)
    y = (x.dot(true_w) + 0.5 + np.float32(task)).astype(np.float32)
    return x, y


# --- the worker and parameter-server processes -------------------------------


def run_task(args):
    import tensorflow as tf

    import tf1clip

    cluster = tf.train.ClusterSpec(
        {
            "ps": ["127.0.0.1:%d" % args.ports[0]],
            "worker": ["127.0.0.1:%d" % p for p in args.ports[1:]],
        }
    )
    server = tf.distribute.Server(cluster, job_name=args.job, task_index=args.task)
    if args.job == "ps":
        server.join()
        return

    is_chief = args.task == 0
    config = tf.compat.v1.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % args.task])
    with tf.Graph().as_default():
        device_fn = tf.compat.v1.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % args.task, cluster=cluster
        )
        with tf.compat.v1.device(device_fn):
            global_step = tf.compat.v1.train.get_or_create_global_step()
            w = tf.compat.v1.get_variable("w", [FEATURES], initializer=tf.compat.v1.zeros_initializer())
            b = tf.compat.v1.get_variable("b", [], initializer=tf.compat.v1.zeros_initializer())
            x, y = shard(args.task)
            loss = tf.reduce_mean(tf.square(tf.linalg.matvec(tf.constant(x), w) + b - tf.constant(y)))

            clipped = tf1clip.clip_gradients_by_norm(
                tf.compat.v1.train.GradientDescentOptimizer(LEARNING_RATE),
                CLIP_NORM,
                on_nonfinite=args.on_nonfinite,
            )
            hooks = []
            if args.mode == "sync":
                opt = tf.compat.v1.train.SyncReplicasOptimizer(
                    clipped, replicas_to_aggregate=NUM_WORKERS, total_num_replicas=NUM_WORKERS
                )
                # No initial tokens: every step then averages one gradient per worker.
                hooks.append(opt.make_session_run_hook(is_chief, num_tokens=0))
            else:
                opt = clipped
            train_op = opt.minimize(loss, global_step=global_step)
            uninitialized = tf.compat.v1.report_uninitialized_variables(tf.compat.v1.global_variables())
        if args.mode == "sync":
            # The token queue SyncReplicasOptimizer shares on the ps, seen from here.
            with tf.device(global_step.device):
                tokens = tf.queue.FIFOQueue(-1, tf.int64, shapes=(), shared_name="sync_token_q", name="tokens")
            pending_tokens = tokens.size()

        if not is_chief:
            _wait_for_chief(tf, server.target, config, uninitialized, args.timeout)
        with tf.compat.v1.train.MonitoredTrainingSession(
            master=server.target,
            is_chief=is_chief,
            hooks=hooks,
            config=config,
            stop_grace_period_secs=1,
            save_checkpoint_secs=None,
            save_summaries_steps=None,
            log_step_count_steps=None,
        ) as sess:
            for _ in range(args.steps):
                if args.mode == "sync":
                    # Take our step only once the other worker holds its token.
                    wait_until(lambda: sess.run(pending_tokens) == 0, args.timeout)
                sess.run(train_op)
            if is_chief:
                total = args.steps * (NUM_WORKERS if args.mode == "async" else 1)
                wait_until(lambda: sess.run(global_step) >= total, args.timeout)
                w_value, b_value, step = sess.run([w, b, global_step])
                result = {
                    "mode": args.mode,
                    "steps": args.steps,
                    "learning_rate": LEARNING_RATE,
                    "clip_norm": CLIP_NORM,
                    "global_step": int(step),
                    "w": w_value.tolist(),
                    "b": float(b_value),
                    "shards": [[a.tolist() for a in shard(t)] for t in range(NUM_WORKERS)],
                }
                if args.on_nonfinite == "skip":
                    result["skipped_steps"] = int(sess.run(clipped.skipped_steps))
                print("RESULT " + json.dumps(result), flush=True)
    # A worker never needs to outlive its session; leave without waiting on
    # background threads still blocked on the parameter server.
    sys.stdout.flush()
    os._exit(0)


def _wait_for_chief(tf, target, config, uninitialized, timeout):
    """Polls until the chief has initialised the variables on the ps."""
    with tf.compat.v1.Session(target, config=config) as sess:
        wait_until(lambda: sess.run(uninitialized).size == 0, timeout)


# --- the launcher ------------------------------------------------------------


def launch(args):
    """Starts ps + workers, waits for the workers, stops everything; returns the chief's result."""
    ports = free_ports(1 + NUM_WORKERS)
    common = [
        "--ports",
        ",".join(map(str, ports)),
        "--mode",
        args.mode,
        "--steps",
        str(args.steps),
        "--timeout",
        str(args.timeout),
        "--on-nonfinite",
        args.on_nonfinite,
    ]
    with LocalCluster(args.timeout) as cluster:
        procs = [
            cluster.start(
                [sys.executable, os.path.abspath(__file__), "--job", job, "--task", str(task)] + common, task_env()
            )
            for job, task in [("ps", 0)] + [("worker", i) for i in range(NUM_WORKERS)]
        ]
        result = cluster.result(procs[1])
        for proc in procs[2:]:
            cluster.wait(proc)
        return result


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument(
        "--mode",
        choices=["sync", "async"],
        default="sync",
        help="sync: SyncReplicasOptimizer averages the workers' gradients; async: each applies its own",
    )
    parser.add_argument("--steps", type=int, default=300, help="training steps per worker")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before giving up")
    parser.add_argument(
        "--on-nonfinite",
        choices=["nan", "skip", "raise"],
        default="nan",
        help="the wrapper's policy for a step with an inf or NaN gradient",
    )
    parser.add_argument("--json", action="store_true", help="print the chief's result as JSON")
    parser.add_argument("--job", choices=["ps", "worker"], help=argparse.SUPPRESS)
    parser.add_argument("--task", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--ports", type=lambda s: [int(p) for p in s.split(",")], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.job:
        run_task(args)
        return
    result = launch(args)
    if args.json:
        print(json.dumps(result))
        return
    params = np.array(result["w"] + [result["b"]])
    before, after = _total_loss(np.zeros_like(params)), _total_loss(params)
    print(
        "Shows: between-graph replication (1 parameter server + %d workers on 127.0.0.1), linear regression,\n"
        "gradients clipped to global norm %g by tf1clip.clip_gradients_by_norm (%s)."
        % (NUM_WORKERS, result["clip_norm"], "inside SyncReplicasOptimizer" if args.mode == "sync" else "async")
    )
    print(
        "%s training, %d steps per worker: global_step %d, learned w %s, b %.4f"
        % (result["mode"], result["steps"], result["global_step"], np.round(params[:-1], 4), params[-1])
    )
    print("mean squared error over both workers' data: %.4g at w=0, b=0 -> %.4g after training" % (before, after))
    print(
        "Verdict: the %s cluster with clipped gradients %s (loss %.4g -> %.4g)."
        % (result["mode"], "learns" if after < 0.5 * before else "does NOT learn", before, after)
    )


def _total_loss(params):
    """Mean squared error over both workers' shards."""
    losses = []
    for task in range(NUM_WORKERS):
        x, y = shard(task)
        losses.append(np.mean((x.dot(params[:-1]) + params[-1] - y) ** 2))
    return float(np.mean(losses))


if __name__ == "__main__":
    main()
