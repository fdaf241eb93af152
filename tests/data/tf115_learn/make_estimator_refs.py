"""Records TF 1.15.5's tf.contrib.learn.Estimator results for tests/keras2/test_contrib_learn_estimator.py.

Run with the oracle's TensorFlow 1.15 from this directory:
    env -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python make_estimator_refs.py
Writes estimator_refs.json.
"""

import json
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib import learn

X = (np.arange(10, dtype=np.float32).reshape(5, 2) / 10.0).tolist()
Y = [1.0, 2.0, 0.5, -1.0, 3.0]


def model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.5], [-0.25]]))
    pred = tf.matmul(features, w)
    if mode == learn.ModeKeys.INFER:
        return {"pred": pred, "double": 2.0 * pred}, None, None
    loss = tf.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), pred)
    train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(loss, global_step=tf.train.get_global_step())
    return {"pred": pred, "double": 2.0 * pred}, loss, train_op


def dict_model_fn(features, labels, mode):
    a = tf.get_variable("a", [1, 1], initializer=tf.constant_initializer([[0.5]]))
    b = tf.get_variable("b", [2, 1], initializer=tf.constant_initializer([[0.25], [-1.0]]))
    pred = tf.matmul(features["a"], a) + tf.matmul(features["b"], b)
    y = tf.reshape(labels["y"], [-1, 1])  # a (rows, 1) label is fed as (rows,)
    loss = tf.losses.mean_squared_error(y, pred) + 0.01 * tf.reduce_mean(tf.to_float(labels["n"]))
    train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=tf.train.get_global_step())
    return pred, loss, train_op


def dict_fit():
    """Dicts of arrays, a 1-D feature (fed as a column) and int labels; batches of 3 over 7 rows (a short one)."""
    rng = np.random.RandomState(5)
    x = {"a": rng.randn(7).astype(np.float32), "b": rng.randn(7, 2).astype(np.float32)}
    y = {"y": rng.randn(7, 1).astype(np.float32), "n": np.arange(7, dtype=np.int64)}
    est = learn.Estimator(model_fn=dict_model_fn, model_dir=tempfile.mkdtemp())
    est.fit(x=x, y=y, steps=5, batch_size=3)
    out = {"a": est.get_variable_value("a").ravel().tolist(), "b": est.get_variable_value("b").ravel().tolist()}
    out["eval"] = {k: float(v) for k, v in est.evaluate(x=x, y=y, batch_size=3).items()}
    return out


def main():
    x, y = np.array(X, np.float32), np.array(Y, np.float32)
    est = learn.Estimator(model_fn=model_fn, model_dir=tempfile.mkdtemp(), params={"lr": 0.1})
    est.fit(x=x, y=y, steps=3, batch_size=2)
    refs = {"x": X, "y": Y, "w_after_3": est.get_variable_value("w").ravel().tolist()}
    est.fit(x=x, y=y, steps=4)
    refs["w_after_7"] = est.get_variable_value("w").ravel().tolist()
    metrics = {"mae": learn.MetricSpec(tf.metrics.mean_absolute_error, prediction_key="pred")}
    result = est.evaluate(x=x, y=y, batch_size=2, metrics=metrics)
    refs["eval"] = {k: float(v) for k, v in result.items()}
    refs["eval_2_steps"] = {k: float(v) for k, v in est.evaluate(x=x, y=y, batch_size=2, steps=2).items()}
    refs["predict"] = [{k: v.tolist() for k, v in p.items()} for p in est.predict(x=x, batch_size=2)]
    refs["predict_outputs"] = est.predict(x=x, batch_size=3, outputs=["double"], as_iterable=False)["double"].tolist()

    def const_input_fn():
        return tf.constant(x[:3]), None

    refs["predict_const"] = [p["pred"].tolist() for p in est.predict(input_fn=const_input_fn)]
    refs["predict_const_batch"] = est.predict(input_fn=const_input_fn, as_iterable=False)["pred"].tolist()
    refs["dict_fit"] = dict_fit()
    with open("estimator_refs.json", "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))


if __name__ == "__main__":
    main()
