"""The 2016-2017 tf.contrib.learn tutorials' wide-and-deep estimators: DNNLinearCombinedClassifier (the global
step counted twice per step, fix_global_step_increment_bug's default) and DNNLinearCombinedRegressor (an Adam DNN
optimizer, fix_global_step_increment_bug=True), from
RunConfig(tf_random_seed).

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


def config(seed):
    return tf.contrib.learn.RunConfig(tf_random_seed=seed, save_checkpoints_secs=3600)


def model_dir(name):
    return os.path.join(root, name)


def floats(values):
    return dict((key, float(value)) for key, value in sorted(values.items()))


values = {}

feature_columns = [tf.contrib.layers.real_valued_column("", dimension=4)]
columns = tf.contrib.learn.infer_real_valued_columns_from_input(X)


wide_deep = tf.contrib.learn.DNNLinearCombinedClassifier(
    linear_feature_columns=feature_columns,
    dnn_feature_columns=feature_columns,
    dnn_hidden_units=[6, 3],
    n_classes=3,
    model_dir=model_dir("wide_deep"),
    config=config(4),
)
wide_deep.fit(x=X, y=Y, steps=steps, batch_size=8)
values["wide_deep/eval"] = floats(wide_deep.evaluate(x=X, y=Y))
values["wide_deep/classes"] = wide_deep.predict(x=X[:6], as_iterable=False).tolist()

wide_deep_r = tf.contrib.learn.DNNLinearCombinedRegressor(
    linear_feature_columns=columns,
    dnn_feature_columns=columns,
    dnn_hidden_units=[3],
    dnn_optimizer=tf.train.AdamOptimizer(0.01),
    fix_global_step_increment_bug=True,
    model_dir=model_dir("wide_deep_r"),
    config=config(5),
)
wide_deep_r.fit(x=X, y=R, steps=steps, batch_size=10)
values["wide_deep_r/eval"] = floats(wide_deep_r.evaluate(x=X, y=R))
values["wide_deep_r/scores"] = [float(s) for s in wide_deep_r.predict_scores(x=X[:4])]


for name in ("wide_deep", "wide_deep_r"):
    for key, value in oracle_io.checkpoint_values(model_dir(name)).items():
        values[name + "/ckpt/" + key] = value
if ckpt_dir is None:
    shutil.rmtree(root)
oracle_io.write(out, values)
