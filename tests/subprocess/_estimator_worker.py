"""Trains a canned LinearRegressor with tf1clip's decorator under MirroredStrategy over 2 logical CPUs.

Started by tests/subprocess/test_estimator.py in a fresh process (logical devices must be configured before
TensorFlow initialises). Prints one JSON object: the weights after the mirrored run and after the
same steps on one device, where each step's batch is the two replicas' batches together, and the
data, clip norm and learning rate used.
"""

import json
import sys
import tempfile

import numpy as np
import tensorflow as tf

_CPUS = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(_CPUS[0], [tf.config.LogicalDeviceConfiguration()] * 2)

import tf1clip  # noqa: E402  (after the device configuration)
from tf1clip import estimator as est  # noqa: E402

v1 = tf.compat.v1
v1.logging.set_verbosity(v1.logging.ERROR)

# Four batches of two rows; under MirroredStrategy replica r trains on batch 2k + r at step k.
X = np.array(
    [[[1.0, 2.0], [0.5, -1.0]], [[3.0, 0.0], [-2.0, 4.0]], [[0.0, 1.5], [2.0, 2.0]], [[-1.0, 0.5], [1.0, -3.0]]],
    np.float32,
)
Y = np.array([[[3.0], [-2.0]], [[10.0], [1.0]], [[-4.0], [6.0]], [[2.0], [0.5]]], np.float32)
CLIP, LR = 2.0, 0.05


def _train(batches_x, batches_y, strategy=None):
    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": batches_x}, batches_y))

    config = est.RunConfig(train_distribute=strategy, tf_random_seed=1)
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(LR), CLIP)
    estimator = est.LinearRegressor(
        [tf.feature_column.numeric_column("x", shape=[2])],
        model_dir=tempfile.mkdtemp(),
        optimizer=optimizer,
        config=config,
    )
    estimator.train(input_fn)
    return {name: estimator.get_variable_value(name).tolist() for name in estimator.get_variable_names()}


def main():
    # The default all-reduce of MirroredStrategy hangs inside an Estimator over logical CPUs on
    # TensorFlow 2.15; reducing to one device is the CPU-only choice.
    strategy = tf.distribute.MirroredStrategy(
        ["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.ReductionToOneDevice()
    )
    mirrored = _train(X, Y, strategy)
    single = _train(X.reshape(2, 4, 2), Y.reshape(2, 4, 1))
    json.dump(
        {"mirrored": mirrored, "single": single, "x": X.tolist(), "y": Y.tolist(), "clip": CLIP, "lr": LR}, sys.stdout
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
