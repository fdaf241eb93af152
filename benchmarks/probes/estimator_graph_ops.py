"""Probe: the graph bench_estimator.py's DNNRegressor trains, as an op count and histogram.

    python benchmarks/probes/estimator_graph_ops.py

Run with TF 2.15 (native Estimator) and with the newest TF (tf1clip.estimator) to compare the graphs.
"""

import os
import tempfile
import collections

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import numpy as np
import tensorflow as tf
import tf1clip
from tf1clip import estimator as est

v1 = tf.compat.v1
v1.logging.set_verbosity(v1.logging.ERROR)
x = np.zeros((128, 16), np.float32)
y = np.zeros((128, 1), np.float32)


class H(v1.train.SessionRunHook):
    def begin(self):
        g = v1.get_default_graph()
        self.n = len(g.get_operations())
        c = collections.Counter(op.type for op in g.get_operations())
        print(tf.__version__, "ops", self.n, sorted(c.items(), key=lambda kv: -kv[1])[:12])


r = est.DNNRegressor(
    [64, 64],
    [tf.feature_column.numeric_column("x", shape=[16])],
    model_dir=tempfile.mkdtemp(),
    optimizer=tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.001), 1.0),
)
r.train(lambda: tf.data.Dataset.from_tensors(({"x": x}, y)).repeat(), steps=1, hooks=[H()])
