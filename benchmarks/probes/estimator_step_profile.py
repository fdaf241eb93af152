"""Probe: where an Estimator training step spends its time (cProfile over steps 100-2100 only).

    python benchmarks/probes/estimator_step_profile.py          # NOGRAPPLER=1: meta optimizer off

bench_estimator.py's DNNRegressor with the decorator, one-thread pools. Prints steps/s under the
profiler and the functions with the most own time. Run with TF 2.15 and the newest TF to compare.
"""

import cProfile
import os
import pstats
import tempfile
import time

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import tf1clip  # noqa: E402
from tf1clip import estimator as est  # noqa: E402

v1 = tf.compat.v1
v1.logging.set_verbosity(v1.logging.ERROR)
rng = np.random.RandomState(0)
x = rng.randn(128, 16).astype(np.float32)
y = (x @ rng.randn(16, 1)).astype(np.float32)
profiler = cProfile.Profile()


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


session = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
if os.environ.get("NOGRAPPLER"):
    session.graph_options.rewrite_options.disable_meta_optimizer = True
config = est.RunConfig(
    tf_random_seed=1,
    session_config=session,
    save_checkpoints_steps=None,
    save_checkpoints_secs=None,
    save_summary_steps=None,
    log_step_count_steps=None,
)
regressor = est.DNNRegressor(
    [64, 64],
    [tf.feature_column.numeric_column("x", shape=[16])],
    model_dir=tempfile.mkdtemp(),
    optimizer=tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.001), 1.0),
    config=config,
)
hook = ProfileSteps()
regressor.train(lambda: tf.data.Dataset.from_tensors(({"x": x}, y)).repeat(), steps=2200, hooks=[hook])
print(tf.__version__, "steps/s %.0f" % (2000 / hook.seconds))
pstats.Stats(profiler).sort_stats("tottime").print_stats(14)
