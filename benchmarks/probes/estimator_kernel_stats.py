"""Probe: per-kernel time of bench_estimator.py's training step, from TensorFlow's own step stats.

    python benchmarks/probes/estimator_kernel_stats.py                 # the session's one-thread pools hold
    python benchmarks/probes/estimator_kernel_stats.py --runtime-first # TF's runtime started first: they do not

Traces steps 200-400 (``RunOptions.FULL_TRACE``) and prints the microseconds per step of the op types
that take the most, the Adam update of each kernel, and steps/s of untraced steps 1100-2100. With
``--runtime-first`` the eager runtime is started before the Estimator (as graph building did on TF 2.x
before ``tf1clip.estimator``'s ``session_threads`` patch), so the CPU device's intra-op pool has one
thread per core while the session asks for one: each ``ResourceApplyAdam`` on a 64x64 kernel then
takes 40-60 us instead of 4 (found 2026-12-01; benchmarks/RESULTS.md).
"""

import argparse
import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench_estimator  # noqa: E402

TRACED = range(201, 401)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime-first", action="store_true", help="start TF's eager runtime before the Estimator")
    args = parser.parse_args()
    import tensorflow as tf

    if args.runtime_first:
        tf.config.list_logical_devices()
    v1 = tf.compat.v1
    by_type, adam = collections.defaultdict(float), collections.defaultdict(float)

    class Trace(v1.train.SessionRunHook):
        def __init__(self):
            self.count, self.began, self.rate = 0, None, None

        def before_run(self, run_context):
            self.count += 1
            if self.count == 1100:
                self.began = time.perf_counter()
            if self.count in TRACED:
                return v1.train.SessionRunArgs(None, options=v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE))
            return None

        def after_run(self, run_context, run_values):
            if self.count == 2100:
                self.rate = 1000 / (time.perf_counter() - self.began)
            if self.count not in TRACED:
                return
            for device in run_values.run_metadata.step_stats.dev_stats:
                for node in device.node_stats:
                    micros = node.all_end_rel_micros / len(TRACED)
                    by_type[node.timeline_label.split(" = ")[-1].split("(")[0] or node.node_name] += micros
                    if node.node_name.endswith("/ResourceApplyAdam"):
                        adam[node.node_name.split("/update_")[-1].rsplit("/", 1)[0]] += micros

    regressor, input_fn = bench_estimator.build(bench_estimator.one_thread_config())
    hook = Trace()
    regressor.train(input_fn, steps=2100, hooks=[hook])
    threads = (
        tf.config.threading.get_intra_op_parallelism_threads(),
        tf.config.threading.get_inter_op_parallelism_threads(),
    )
    print("TF %s, runtime threads %s, untraced steps/s %.0f" % (tf.__version__, threads, hook.rate))
    for name, micros in sorted(by_type.items(), key=lambda item: -item[1])[:8]:
        print("  %-28s %7.1f us/step" % (name, micros))
    for name, micros in sorted(adam.items()):
        print("  ResourceApplyAdam %-30s %7.1f us/step" % (name, micros))


main()
