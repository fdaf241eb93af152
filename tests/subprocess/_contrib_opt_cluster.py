"""A real local cluster for tf1clip.contrib.opt's ElasticAverage / ModelAverage optimizers.

``python tests/subprocess/_contrib_opt_cluster.py SCENARIO MODE [--timeout S]`` starts one
``tf.distribute.Server`` parameter server and two worker processes on
127.0.0.1 (free ports), runs SCENARIO (``ma``: ModelAverageOptimizer, TF 1.15's
test1Workers2Period; ``ea``: ElasticAverageOptimizer, TF 1.15's
test2Worker1Period with a partitioned variable and swapping_saver), prints one
JSON line with every worker's results, and always stops every process it
started. MODE ``v1`` calls ``disable_v2_behavior()`` (reference variables,
control flow v1), ``v2`` only ``disable_eager_execution()``.
"""

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "legacy_examples")
)

from _local_cluster import LocalCluster, free_ports, task_env, wait_until  # noqa: E402  (legacy_examples/)

NUM_WORKERS = 2


def run_task(args):
    import tensorflow as tf

    if args.mode == "v1":
        tf.compat.v1.disable_v2_behavior()
    else:
        tf.compat.v1.disable_eager_execution()
    from tf1clip.contrib import opt as copt

    v1 = tf.compat.v1
    cluster = tf.train.ClusterSpec(
        {"ps": ["127.0.0.1:%d" % args.ports[0]], "worker": ["127.0.0.1:%d" % p for p in args.ports[1:]]}
    )
    server = tf.distribute.Server(cluster, job_name=args.job, task_index=args.task)
    if args.job == "ps":
        server.join()
        return
    worker = args.task
    is_chief = worker == 0
    worker_device = "/job:worker/task:%d/cpu:0" % worker
    config = v1.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % worker])
    result = {"worker": worker}
    with tf.Graph().as_default():
        if args.scenario == "ma":
            getter = copt.ModelAverageCustomGetter(worker_device=worker_device)
        else:
            getter = copt.ElasticAverageCustomGetter(worker_device=worker_device)
        device_fn = v1.train.replica_device_setter(
            worker_device=worker_device, ps_device="/job:ps/task:0/cpu:0", ps_tasks=1
        )
        with v1.variable_scope("", custom_getter=getter), v1.device(device_fn):
            global_step = v1.train.get_or_create_global_step()
            v0 = v1.get_variable(initializer=0.0, name="v0")
            v1_ = v1.get_variable(initializer=1.0, name="v1")
        part = None
        if args.scenario == "ea":
            with (
                v1.variable_scope("", partitioner=v1.fixed_size_partitioner(2, axis=0), custom_getter=getter),
                v1.device(device_fn),
            ):
                part = v1.get_variable("partition_var", shape=[2, 4], initializer=v1.ones_initializer())
        with tf.device("/job:worker/task:%d" % worker):
            sgd = v1.train.GradientDescentOptimizer(1.0)
            if args.scenario == "ma":
                grad = -1.0 if is_chief else -2.0
                opt = copt.ModelAverageOptimizer(
                    opt=sgd, num_worker=NUM_WORKERS, ma_custom_getter=getter, is_chief=is_chief, interval_steps=2
                )
                train = opt.apply_gradients([(tf.constant(grad), v0), (tf.constant(grad), v1_)], global_step)
                hook = opt.make_session_run_hook()
                centers = [getter.global_variable(v0), getter.global_variable(v1_)]
            else:
                opt = copt.ElasticAverageOptimizer(
                    opt=sgd,
                    num_worker=NUM_WORKERS,
                    moving_rate=0.5,
                    communication_period=1,
                    ea_custom_getter=getter,
                    synchronous=True,  # every worker initialised before anyone steps
                )
                parts = list(part)
                pairs = [(tf.constant(-1.0), v0), (tf.constant(-1.0), v1_)]
                pairs += [(tf.constant([[-1.0, -1.0, -1.0, -1.0]]), p) for p in parts]
                train = opt.apply_gradients(pairs, global_step)
                hook = opt.make_session_run_hook(is_chief, worker)
                saver = opt.swapping_saver()
                centers = [getter.global_center(v) for v in [v0, v1_] + parts]
        uninitialized = v1.report_uninitialized_variables(v1.global_variables())
        names = {
            "global_collection": sorted(v.op.name for v in v1.global_variables()),
            "local_collection": sorted(v.op.name for v in v1.local_variables()),
            "trainable": sorted(v.op.name for v in v1.trainable_variables()),
            "devices": {v.op.name: v.device for v in [v0] + centers[:1]},
        }
        if not is_chief:
            with v1.Session(server.target, config=config) as probe:
                wait_until(lambda: probe.run(uninitialized).size == 0, args.timeout)
        with v1.train.MonitoredTrainingSession(
            master=server.target,
            is_chief=is_chief,
            hooks=[hook],
            config=config,
            stop_grace_period_secs=1,
            save_checkpoint_secs=None,
            save_summaries_steps=None,
            log_step_count_steps=None,
        ) as sess:

            def state():
                values = sess.run([v0, v1_, global_step] + centers)
                return [float(x) if getattr(x, "ndim", 0) == 0 else x.tolist() for x in values]

            result["initial"] = state()
            if args.scenario == "ma":
                sess.run(train)
                result["step1"] = state()
                sess.run(train)  # both workers: the averaging blocks until both arrive
                result["step2"] = state()
                if is_chief:
                    sess.run(train)
                    result["step3"] = state()
            else:
                # Worker 0 steps first, then worker 1 (each step ends with an exchange). The global step
                # can be seen incremented before the step's center updates land on the ps, so each worker
                # also marks, in the shared tmpdir, that its train op has returned.
                def marker(w):
                    return os.path.join(args.tmpdir, "ea-stepped-%d" % w)

                def stepped(count):
                    return sess.run(global_step) >= count and all(os.path.exists(marker(w)) for w in range(count))

                wait_until(lambda: stepped(worker), args.timeout)
                sess.run(train)
                open(marker(worker), "w").close()
                result["mine"] = state()
                wait_until(lambda: stepped(NUM_WORKERS), args.timeout)
                result["final"] = state()
                if is_chief:
                    path = os.path.join(args.tmpdir, "ea")
                    with v1.Session(server.target, config=config) as raw:
                        saver.save(raw, path, write_meta_graph=False)
                    reader = tf.train.load_checkpoint(path)
                    result["checkpoint"] = {
                        n: reader.get_tensor(n).tolist() for n in sorted(reader.get_variable_to_shape_map())
                    }
        result["names"] = names
    print("RESULT " + json.dumps(result), flush=True)
    sys.stdout.flush()
    os._exit(0)


def launch(args):
    ports = free_ports(1 + NUM_WORKERS)
    tmpdir = tempfile.mkdtemp(prefix="contrib_opt_cluster_")
    common = [args.scenario, args.mode, "--ports", ",".join(map(str, ports)), "--timeout", str(args.timeout)]
    common += ["--tmpdir", tmpdir]
    with LocalCluster(args.timeout) as cluster:
        procs = [
            cluster.start(
                [sys.executable, os.path.abspath(__file__)] + common + ["--job", job, "--task", str(task)], task_env()
            )
            for job, task in [("ps", 0)] + [("worker", i) for i in range(NUM_WORKERS)]
        ]
        return [cluster.result(proc) for proc in procs[1:]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=["ma", "ea"])
    parser.add_argument("mode", choices=["v1", "v2"])
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--job", choices=["ps", "worker"])
    parser.add_argument("--task", type=int, default=0)
    parser.add_argument("--ports", type=lambda s: [int(p) for p in s.split(",")])
    parser.add_argument("--tmpdir")
    args = parser.parse_args()
    if args.job:
        run_task(args)
        return
    print(json.dumps(launch(args)))


if __name__ == "__main__":
    main()
