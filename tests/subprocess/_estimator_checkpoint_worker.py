"""Trains the decorator-Adam linear Estimator of tests/subprocess/_estimator_cases.py for N more steps in MODEL_DIR.

``python tests/subprocess/_estimator_checkpoint_worker.py MODEL_DIR STEPS`` runs on any supported TensorFlow (on TF 2.15
``tf1clip.estimator`` is TF 2.15's own ``tf.compat.v1.estimator``) and prints one JSON line: ``w``, ``b``,
``global_step``, ``tf``. It made tests/data/estimator_tf215/ (``/work/venvs/tf215/bin/python
tests/subprocess/_estimator_checkpoint_worker.py tests/data/estimator_tf215 2 --keep-checkpoint-only``: TensorFlow 2.15.1,
tensorflow-estimator 2.15.0), and tests/subprocess/_estimator_cases.py runs it under TF 2.15 to resume a checkpoint
written by the newest TF.
"""

import glob
import json
import os
import sys

import numpy as np
import tensorflow as tf

import tf1clip
from tf1clip import estimator as est

v1 = tf.compat.v1
X = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0], [-2.0, 1.0]], np.float32)
Y = np.array([[3.0], [-2.0], [10.0], [1.0]], np.float32)
W0 = np.array([[0.5], [-0.5]], np.float32)
B0 = np.array([0.25], np.float32)


def model_fn(features, labels, mode):
    w = v1.get_variable("w", initializer=tf.constant(W0))
    b = v1.get_variable("b", initializer=tf.constant(B0))
    loss = v1.losses.mean_squared_error(labels, tf.matmul(features["x"], w) + b)
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.1), 1.0)
    train_op = optimizer.minimize(loss, global_step=v1.train.get_global_step())
    return est.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(argv):
    model_dir, steps = argv[1], int(argv[2])
    config = est.RunConfig(tf_random_seed=1, log_step_count_steps=None)
    estimator = est.Estimator(model_fn, model_dir=model_dir, config=config)
    estimator.train(lambda: ({"x": tf.constant(X)}, tf.constant(Y)), steps=steps)
    step = int(estimator.get_variable_value("global_step"))
    if "--keep-checkpoint-only" in argv:  # what tests/data keeps: the last checkpoint, a relative path
        keep = {
            os.path.join(model_dir, "model.ckpt-%d" % step + suffix) for suffix in (".index", ".data-00000-of-00001")
        }
        for path in glob.glob(os.path.join(model_dir, "*")):
            if path not in keep:
                os.remove(path)
        with open(os.path.join(model_dir, "checkpoint"), "w") as f:
            f.write(
                'model_checkpoint_path: "model.ckpt-%d"\nall_model_checkpoint_paths: "model.ckpt-%d"\n' % (step, step)
            )
    result = {
        "w": estimator.get_variable_value("w").tolist(),
        "b": estimator.get_variable_value("b").tolist(),
        "global_step": step,
        "tf": tf.__version__,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
