"""tf1clip.contrib.predictor.from_estimator (a tf1clip.estimator.Estimator) and from_contrib_estimator (a
tf1clip.contrib.learn.Estimator) in TF 1 mode: TF 1.15.5's predictions from the checkpoints its Estimators wrote
(tests/data/tf115_predictor, make_refs.py: the same model functions), the Estimator's own predictions from its
latest checkpoint, hand checked, and TF 1.15's errors (from_saved_model: tests/unit/test_contrib_predictor.py)."""

import json
import os
import shutil

import numpy as np
import pytest
import tensorflow as tf

from helpers import skip_without_estimator
from tf1clip.contrib import predictor

try:
    from tf1clip import estimator as core
    from tf1clip.contrib import learn

    MISSING = None
except ImportError as err:
    MISSING = "tf1clip.estimator is not available with TensorFlow %s: %s" % (tf.__version__, err)

v1 = tf.compat.v1
X = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.5]], np.float32)
Y = np.array([1.0, -0.5, 2.0, 0.25], np.float32)
W0 = np.array([[0.5], [-0.25]])
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_predictor")
with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)["estimators"]


@pytest.fixture(autouse=True)
def _estimator_available():
    if MISSING:
        skip_without_estimator(MISSING)


def _trained_w(steps, lr=0.1):
    w = W0.copy()
    for _ in range(steps):
        w -= lr * 2.0 * X.T.dot(X.dot(w) - Y.reshape(-1, 1)) / len(X)
    return w


def core_model_fn(features, labels, mode):
    w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer(W0))
    pred = tf.matmul(features["x"], w)
    predictions = {"pred": pred, "double": 2.0 * pred}
    if mode == core.ModeKeys.PREDICT:
        outputs = {
            "serving_default": core.export.PredictOutput(predictions),
            "half": core.export.PredictOutput({"half": 0.5 * pred}),
        }
        return core.EstimatorSpec(mode, predictions=predictions, export_outputs=outputs)
    loss = v1.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), pred)
    train_op = v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=v1.train.get_global_step())
    return core.EstimatorSpec(mode, loss=loss, train_op=train_op)


def _serving_input_receiver_fn():
    x = v1.placeholder(tf.float32, [None, 2], name="x")
    return core.export.ServingInputReceiver({"x": x}, {"inputs": x})


def _core_estimator(tmp_path, steps=3):
    est = core.Estimator(core_model_fn, model_dir=str(tmp_path))
    est.train(core.inputs.numpy_input_fn({"x": X}, Y, batch_size=4, num_epochs=None, shuffle=False), steps=steps)
    return est


def test_from_estimator_predicts_from_the_latest_checkpoint(tmp_path):
    est = _core_estimator(tmp_path)
    pred = predictor.from_estimator(est, _serving_input_receiver_fn)
    assert sorted(pred.feed_tensors) == ["inputs"] and sorted(pred.fetch_tensors) == ["double", "pred"]
    assert isinstance(pred.session, v1.train.MonitoredSession)
    got = pred({"inputs": X})
    np.testing.assert_allclose(got["pred"], X.dot(_trained_w(3)), rtol=1e-5)
    np.testing.assert_allclose(got["double"], 2.0 * X.dot(_trained_w(3)), rtol=1e-5)
    in_estimator = list(est.predict(core.inputs.numpy_input_fn({"x": X}, shuffle=False)))
    np.testing.assert_allclose(got["pred"].ravel(), [p["pred"][0] for p in in_estimator], rtol=1e-6)
    half = predictor.from_estimator(est, _serving_input_receiver_fn, output_key="half", graph=tf.Graph())
    np.testing.assert_allclose(half({"inputs": X})["half"], 0.5 * X.dot(_trained_w(3)), rtol=1e-5)


def test_from_estimator_errors(tmp_path):
    est = _core_estimator(tmp_path, steps=1)
    with pytest.raises(KeyError, match=r"output_key must be one of dict_keys\(\['serving_default', 'half'\]\); got x"):
        predictor.from_estimator(est, _serving_input_receiver_fn, output_key="x")
    with pytest.raises(TypeError, match="^Expected estimator to be of type tf.contrib.learn.Estimator, but got type"):
        predictor.from_contrib_estimator(est, lambda: None)
    contrib = learn.Estimator(model_fn=learn_model_fn, model_dir=str(tmp_path / "c"))
    with pytest.raises(TypeError, match="You likely want to call from_contrib_estimator.$"):
        predictor.from_estimator(contrib, _serving_input_receiver_fn)
    with pytest.raises(TypeError, match="serving_input_receiver_fn must be callable, got 3"):
        predictor.from_estimator(est, 3)


def learn_model_fn(features, labels, mode):
    w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer(W0))
    pred = tf.matmul(features["x"] if isinstance(features, dict) else features, w)
    if mode == learn.ModeKeys.INFER:
        return {"pred": pred, "double": 2.0 * pred}, None, None
    loss = v1.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), pred)
    train_op = v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=v1.train.get_global_step())
    return {"pred": pred, "double": 2.0 * pred}, loss, train_op


def _prediction_input_fn():
    features = v1.placeholder(tf.float32, [None, 2])
    return learn.InputFnOps(features, None, {"x": features})


def test_from_contrib_estimator_predicts_from_the_latest_checkpoint(tmp_path):
    est = learn.Estimator(model_fn=learn_model_fn, model_dir=str(tmp_path))
    est.fit(x=X, y=Y, steps=2, batch_size=4)
    pred = predictor.from_contrib_estimator(est, _prediction_input_fn)
    assert sorted(pred.feed_tensors) == ["x"] and sorted(pred.fetch_tensors) == ["double", "pred"]
    got = pred({"x": X})
    np.testing.assert_allclose(got["pred"], X.dot(_trained_w(2)), rtol=1e-5)
    np.testing.assert_allclose(got["pred"], est.predict(x=X, as_iterable=False)["pred"], rtol=1e-6)


def test_from_contrib_estimator_output_alternatives(tmp_path):
    def model_fn(features, labels, mode):
        ops = learn_model_fn(features, labels, mode)
        if mode != learn.ModeKeys.INFER:
            return ops
        alternatives = {
            "a": (learn.ProblemType.LINEAR_REGRESSION, {"scores": ops[0]["pred"]}),
            "b": (learn.ProblemType.LINEAR_REGRESSION, {"scores": ops[0]["double"]}),
        }
        return learn.ModelFnOps(mode, predictions=ops[0], output_alternatives=alternatives)

    est = learn.Estimator(model_fn=model_fn, model_dir=str(tmp_path))
    est.fit(x=X, y=Y, steps=1, batch_size=4)
    b = predictor.from_contrib_estimator(est, _prediction_input_fn, output_alternative_key="b")
    np.testing.assert_allclose(b({"x": X})["scores"], 2.0 * X.dot(_trained_w(1)), rtol=1e-5)
    with pytest.raises(ValueError, match=r"^Please specify a default_output_alternative.  Available output_"):
        predictor.from_contrib_estimator(est, _prediction_input_fn)
    with pytest.raises(
        ValueError, match=r"^Requested default_output_alternative: c, but available output_alternatives"
    ):
        predictor.from_contrib_estimator(est, _prediction_input_fn, output_alternative_key="c")
    plain = learn.Estimator(model_fn=learn_model_fn, model_dir=str(tmp_path))
    with pytest.raises(
        ValueError, match=r"^Requested default_output_alternative: c, but available output_alternatives are: \[\]$"
    ):
        predictor.from_contrib_estimator(plain, _prediction_input_fn, output_alternative_key="c")


def _tf115_model_dir(tmp_path, name):
    model_dir = str(tmp_path / name)
    shutil.copytree(os.path.join(DATA, name), model_dir)
    return model_dir


def _close_to(got, want):
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6)


def test_from_estimator_restores_tf115s_checkpoint_and_predicts_what_tf115_did(tmp_path):
    assert np.allclose(REFS["x"], X)
    est = core.Estimator(core_model_fn, model_dir=_tf115_model_dir(tmp_path, "core_model"))
    _close_to(predictor.from_estimator(est, _serving_input_receiver_fn)({"inputs": X}), REFS["core"])
    _close_to(predictor.from_estimator(est, _serving_input_receiver_fn, output_key="half")({"inputs": X}), REFS["half"])


def test_from_contrib_estimator_restores_tf115s_checkpoint_and_predicts_what_tf115_did(tmp_path):
    est = learn.Estimator(model_fn=learn_model_fn, model_dir=_tf115_model_dir(tmp_path, "contrib_model"))

    def dict_input_fn():
        features = v1.placeholder(tf.float32, [None, 2])
        return learn.InputFnOps({"x": features}, None, {"x": features})

    _close_to(predictor.from_contrib_estimator(est, dict_input_fn)({"x": X}), REFS["contrib"])
    _close_to(predictor.from_contrib_estimator(est, _prediction_input_fn)({"x": X}), REFS["contrib"])
