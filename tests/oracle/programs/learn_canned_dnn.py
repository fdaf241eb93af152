"""The 2016-2017 tf.contrib.learn tutorials' DNN estimators: the iris quickstart (load_csv_with_header, a
real_valued_column, DNNClassifier.fit(x, y) / evaluate / predict / predict_proba), infer_real_valued_columns_from_input
with a DNNRegressor behind SKCompat, and a DNNClassifier on tf.feature_column columns, from RunConfig(tf_random_seed).

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
data_dir = tempfile.mkdtemp()

rng = np.random.RandomState(3)
X = rng.randn(30, 4).astype(np.float32)
Y = ((X[:, 0] > 0).astype(np.int32) + (X[:, 1] + X[:, 2] > 0.5)).astype(np.int32)
R = (X.dot(np.array([1.0, -2.0, 0.5, 0.0])) + 0.3).astype(np.float32)
with open(os.path.join(data_dir, "iris_training.csv"), "w") as f:
    f.write("30,4,setosa,versicolor,virginica\n")
    for row, label in zip(X, Y):
        f.write(",".join("%.6f" % v for v in row) + ",%d\n" % label)
training_set = tf.contrib.learn.datasets.base.load_csv_with_header(
    filename=os.path.join(data_dir, "iris_training.csv"), target_dtype=np.int32, features_dtype=np.float32
)


def config(seed):
    return tf.contrib.learn.RunConfig(tf_random_seed=seed, save_checkpoints_secs=3600)


def model_dir(name):
    return os.path.join(root, name)


def floats(values):
    return dict((key, float(value)) for key, value in sorted(values.items()))


values = {}

feature_columns = [tf.contrib.layers.real_valued_column("", dimension=4)]
classifier = tf.contrib.learn.DNNClassifier(
    feature_columns=feature_columns,
    hidden_units=[10, 20, 10],
    n_classes=3,
    gradient_clip_norm=1.0,
    model_dir=model_dir("iris"),
    config=config(1),
)
classifier.fit(x=training_set.data, y=training_set.target, steps=steps, batch_size=8)
values["iris/eval"] = floats(classifier.evaluate(x=training_set.data, y=training_set.target))
new_samples = np.array([[6.4, 3.2, 4.5, 1.5], [5.8, 3.1, 5.0, 1.7]], dtype=np.float32)
values["iris/classes"] = [int(c) for c in classifier.predict(new_samples, as_iterable=True)]
values["iris/proba"] = classifier.predict_proba(x=training_set.data[:5], as_iterable=False).tolist()

columns = tf.contrib.learn.infer_real_valued_columns_from_input(X)
regressor = tf.contrib.learn.SKCompat(
    tf.contrib.learn.DNNRegressor(
        feature_columns=columns, hidden_units=[5, 3], model_dir=model_dir("sk_dnn"), config=config(2)
    )
)
regressor.fit(X, R, batch_size=10, steps=steps)
values["sk_dnn/score"] = floats(regressor.score(X, R))
values["sk_dnn/predict"] = regressor.predict(X[:4])["scores"].tolist()

core = tf.contrib.learn.DNNClassifier(
    feature_columns=[tf.feature_column.numeric_column("x", shape=[4])],
    hidden_units=[4],
    model_dir=model_dir("core_dnn"),
    config=config(3),
)
core.fit(x={"x": X}, y=(Y > 0).astype(np.int64), steps=steps, batch_size=10)
values["core_dnn/eval"] = floats(core.evaluate(x={"x": X}, y=(Y > 0).astype(np.int64)))


for name in ("iris", "sk_dnn", "core_dnn"):
    for key, value in oracle_io.checkpoint_values(model_dir(name)).items():
        values[name + "/ckpt/" + key] = value
if ckpt_dir is None:
    shutil.rmtree(root)
shutil.rmtree(data_dir)
oracle_io.write(out, values)
