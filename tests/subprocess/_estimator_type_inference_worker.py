"""Trains one small DNNClassifier twice through tf1clip.estimator and prints what each run left behind.

Started by tests/subprocess/test_estimator_type_inference.py with TF_USE_LEGACY_KERAS=1 and C++ warnings shown. The first run
builds the graph as tensorflow-estimator does (its hidden-layer summaries call ``tf.math.zero_fraction``, a control
flow v2 ``cond``, while the Keras DNN model is built, so the cond outputs every intermediate and TensorFlow's type
inference prints "Type inference failed" for it); the second turns that off with the public
``tf.compat.v1.experimental.output_all_intermediates(False)``. Each run writes a marker line to stderr before it
starts, and one JSON line (loss after each step, evaluation loss, every variable) to stdout.
"""

import json
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf

from tf1clip import estimator as est

v1 = tf.compat.v1
v1.logging.set_verbosity(v1.logging.ERROR)
X = np.random.RandomState(0).randn(64, 3).astype(np.float32)
Y = (X[:, 0] + 0.5 * X[:, 2] > 0).astype(np.int32)


def _input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": X}, Y)).batch(16).repeat(2)


class _Losses(v1.train.SessionRunHook):
    def __init__(self):
        self.losses = []

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(v1.get_collection(v1.GraphKeys.LOSSES)[0])

    def after_run(self, run_context, run_values):
        self.losses.append(float(run_values.results))


def _train(label):
    os.write(2, ("\n=== run %s ===\n" % label).encode())
    columns = [tf.feature_column.numeric_column("x", shape=[3])]
    config = est.RunConfig(tf_random_seed=1)
    model = est.DNNClassifier([4, 3], columns, model_dir=tempfile.mkdtemp(), config=config)
    hook = _Losses()
    model.train(_input_fn, hooks=[hook])
    loss = float(model.evaluate(_input_fn, steps=2)["loss"])
    weights = {name: model.get_variable_value(name).tolist() for name in model.get_variable_names()}
    print(json.dumps({"run": label, "losses": hook.losses, "eval_loss": loss, "variables": weights}), flush=True)


def main():
    _train("default")
    v1.experimental.output_all_intermediates(False)
    _train("no_intermediates")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
