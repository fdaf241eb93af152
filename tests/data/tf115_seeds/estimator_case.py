"""Estimators seeded by ``RunConfig(tf_random_seed=42)`` alone, for tests/oracle/test_seeds.py (Python 3.7+).

``run(tf, estimator, kind)``: ``"custom"`` trains a model_fn of two ``tf.layers.dense`` layers with
``tf.layers.dropout`` between them for 3 steps of gradient descent (the weights then depend on the initial
values and on the dropout masks); ``"dnn"`` trains a ``DNNRegressor([8, 4])`` for one step with a zero
learning rate (its initial values). Returns the first values of every variable but the global step.
"""

import shutil
import tempfile

import numpy as np


def run(tf, estimator, kind):
    def model_fn(features, labels, mode):
        h = tf.layers.dense(features["x"], 8, activation=tf.nn.relu)
        h = tf.layers.dropout(h, 0.3, training=mode == estimator.ModeKeys.TRAIN)
        loss = tf.losses.mean_squared_error(labels, tf.layers.dense(h, 1))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
        return estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    x = np.linspace(-1, 1, 32).reshape(8, 4).astype(np.float32)
    input_fn = estimator.inputs.numpy_input_fn({"x": x}, x.sum(1, keepdims=True), 8, num_epochs=None, shuffle=False)
    model_dir = tempfile.mkdtemp()
    try:
        config = estimator.RunConfig(model_dir=model_dir, tf_random_seed=42)
        if kind == "custom":
            estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=3)
        else:
            columns = [tf.feature_column.numeric_column("x", shape=[4])]
            sgd = tf.train.GradientDescentOptimizer(0.0)
            estimator.DNNRegressor([8, 4], columns, config=config, optimizer=sgd).train(input_fn, max_steps=1)
        reader = tf.train.NewCheckpointReader(tf.train.latest_checkpoint(model_dir))
        names = [n for n in reader.get_variable_to_shape_map() if "global_step" not in n]
        return dict((n, np.asarray(reader.get_tensor(n)).ravel()[:8].tolist()) for n in names)
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
