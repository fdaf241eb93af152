"""Probe: where an Estimator training step spends its time (cProfile over steps 100-2100 only).

    python benchmarks/probes/estimator_step_profile.py          # NOGRAPPLER=1: meta optimizer off

bench_estimator.py's DNNRegressor with the decorator, one-thread pools. Prints steps/s under the
profiler and the functions with the most own time. Run with TF 2.15 and the newest TF to compare.
"""

import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench_estimator  # noqa: E402

profiler = cProfile.Profile()


def main():
    import tensorflow as tf

    v1 = tf.compat.v1

    class ProfileSteps(v1.train.SessionRunHook):
        """Profiles steps 100-2100 and times them."""

        def __init__(self):
            self.count, self.began, self.seconds = 0, None, None

        def after_run(self, run_context, run_values):
            self.count += 1
            if self.count == 100:
                profiler.enable()
                self.began = time.perf_counter()
            elif self.count == 2100:
                profiler.disable()
                self.seconds = time.perf_counter() - self.began

    session = bench_estimator.one_thread_config()
    if os.environ.get("NOGRAPPLER"):
        session.graph_options.rewrite_options.disable_meta_optimizer = True
    regressor, input_fn = bench_estimator.build(session)
    hook = ProfileSteps()
    regressor.train(input_fn, steps=2200, hooks=[hook])
    print(tf.__version__, "steps/s %.0f" % (2000 / hook.seconds))
    pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


main()
