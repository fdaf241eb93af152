"""The 2016-2017 tf.contrib.learn tutorials' linear estimators: a weighted binary LinearClassifier on an input_fn
of two real_valued_columns (predict_proba) and a LinearRegressor with its own optimizer on
infer_real_valued_columns_from_input.

Each estimator trains in its own model_dir under the checkpoint directory; a resumed run continues from it (the
Estimator restores the newest checkpoint). Recorded: every checkpoint value, evaluate()'s metrics, predictions.
"""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
steps = stop - start
root = ckpt_dir or tempfile.mkdtemp()

rng = np.random.RandomState(3)
X = rng.randn(30, 4).astype(np.float32)
Y = ((X[:, 0] > 0).astype(np.int32) + (X[:, 1] + X[:, 2] > 0.5)).astype(np.int32)
R = (X.dot(np.array([1.0, -2.0, 0.5, 0.0])) + 0.3).astype(np.float32)


def model_dir(name):
    return os.path.join(root, name)


def floats(values):
    return dict((key, float(value)) for key, value in sorted(values.items()))


values = {}

feature_columns = [tf.contrib.layers.real_valued_column("", dimension=4)]
columns = tf.contrib.learn.infer_real_valued_columns_from_input(X)


def weighted_input_fn():
    features = {
        "a": tf.constant(X[:, :2]),
        "b": tf.constant(X[:, 2:]),
        "w": tf.constant(np.linspace(0.5, 1.5, 30).astype(np.float32)),
    }
    return features, tf.constant((Y > 0).astype(np.int64).reshape(-1, 1))


linear = tf.contrib.learn.LinearClassifier(
    feature_columns=[
        tf.contrib.layers.real_valued_column("a", dimension=2),
        tf.contrib.layers.real_valued_column("b", dimension=2),
    ],
    weight_column_name="w",
    model_dir=model_dir("linear"),
)
linear.fit(input_fn=weighted_input_fn, steps=steps)
values["linear/eval"] = floats(linear.evaluate(input_fn=weighted_input_fn, steps=1))
values["linear/proba"] = [p.tolist() for p in linear.predict_proba(input_fn=weighted_input_fn)][:5]

linear_regressor = tf.contrib.learn.LinearRegressor(
    feature_columns=columns, optimizer=tf.train.GradientDescentOptimizer(0.05), model_dir=model_dir("linear_r")
)
linear_regressor.fit(x=X, y=R, steps=steps, batch_size=6)
values["linear_r/eval"] = floats(linear_regressor.evaluate(x=X, y=R))
values["linear_r/scores"] = [float(s) for s in linear_regressor.predict(x=X[:4])]


for name in ("linear", "linear_r"):
    for key, value in oracle_io.checkpoint_values(model_dir(name)).items():
        values[name + "/ckpt/" + key] = value
if ckpt_dir is None:
    shutil.rmtree(root)
oracle_io.write(out, values)
