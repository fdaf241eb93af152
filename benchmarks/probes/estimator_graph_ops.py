"""Probe: the graph bench_estimator.py's DNNRegressor trains, as an op count and histogram.

    python benchmarks/probes/estimator_graph_ops.py

Run with TF 2.15 (native Estimator) and with the newest TF (tf1clip.estimator) to compare the graphs.
"""

import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench_estimator  # noqa: E402


def main():
    import tensorflow as tf

    v1 = tf.compat.v1

    class CountOps(v1.train.SessionRunHook):
        def begin(self):
            ops = v1.get_default_graph().get_operations()
            histogram = collections.Counter(op.type for op in ops)
            print(tf.__version__, "ops", len(ops), sorted(histogram.items(), key=lambda kv: -kv[1])[:12])

    regressor, input_fn = bench_estimator.build()
    regressor.train(input_fn, steps=1, hooks=[CountOps()])


main()
