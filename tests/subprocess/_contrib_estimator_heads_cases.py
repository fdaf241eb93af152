"""tf1clip.contrib.estimator's heads in tf1clip.estimator's head-taking Estimators and in custom model_fns.

Run by tests/subprocess/test_contrib_estimator_heads.py in a subprocess with ``TF_USE_LEGACY_KERAS=1``, as
tests/subprocess/_estimator_cases.py is (skipped without tensorflow-estimator; failed instead under
``TF1CLIP_REQUIRE_ESTIMATOR=1``). Losses and trained weights are compared with NumPy, with the heads'
default ``loss_reduction`` (SUM_OVER_BATCH_SIZE: the mean over the batch and label dimensions).
"""

import numpy as np
import pytest
import tensorflow as tf
from _estimator_cases import DNN_NAMES
from _estimator_cases import MISSING
from _estimator_cases import X
from _estimator_cases import Y
from _estimator_cases import _clip
from _estimator_cases import _config
from _estimator_cases import _constant_input_fn
from _estimator_cases import _estimator_available  # noqa: F401  (autouse: skip or fail without Estimator)
from _estimator_cases import _mlp_reference
from _estimator_cases import _values
from _estimator_cases import est

import tf1clip
from tf1clip.contrib import estimator as ce

v1 = tf.compat.v1
COLUMNS = [tf.feature_column.numeric_column("x", shape=[2])]
LOGITS = np.array([[1.0, -2.0, 0.5], [0.3, 0.1, -1.0]], np.float32)
MULTI_HOT = np.array([[1, 0, 1], [0, 0, 1]], np.int64)


def _clipped_sgd(lr, clip_norm):
    return tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(lr), clip_norm)


def _sigmoid_ce(logits, labels):
    return np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits)))


def _log_softmax(logits):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _loss(head, logits, labels, features=None):
    with tf.Graph().as_default():
        if isinstance(labels, v1.SparseTensorValue):
            labels = tf.SparseTensor(*labels)
        features = {k: tf.constant(v) for k, v in (features or {}).items()}
        spec = head.create_loss(features=features, mode="train", logits=tf.constant(logits), labels=labels)
        with v1.Session() as sess:
            v1.tables_initializer().run()
            return sess.run(spec.training_loss)


def test_linear_estimator_with_regression_head_matches_numpy(tmp_path):
    """LinearEstimator(regression_head()) from zero weights with clipped SGD; the loss is the batch mean."""
    estimator = est.LinearEstimator(
        ce.regression_head(), COLUMNS, model_dir=str(tmp_path), optimizer=_clipped_sgd(0.05, 1.0), config=_config()
    )
    estimator.train(_constant_input_fn(), steps=4)
    w, b = np.zeros((2, 1)), np.zeros(1)
    norms = []
    for _ in range(4):
        r = X @ w + b - Y
        (gw, gb), norm = _clip([2 * X.T @ r / len(X), 2 * r.sum(0) / len(X)], 1.0)
        norms.append(norm)
        w, b = w - 0.05 * gw, b - 0.05 * gb
    assert min(norms) > 1.0
    got_w, got_b = _values(estimator, ["linear/linear_model/x/weights", "linear/linear_model/bias_weights"])
    np.testing.assert_allclose(got_w, w, rtol=1e-5)
    np.testing.assert_allclose(got_b, b, rtol=1e-5)
    metrics = estimator.evaluate(_constant_input_fn(), steps=1)
    np.testing.assert_allclose(metrics["loss"], np.mean((X @ w + b - Y) ** 2), rtol=1e-5)


def test_dnn_estimator_with_regression_head_matches_numpy(tmp_path):
    """DNNEstimator(regression_head()) from its step-0 checkpoint on, against a hand-written MLP on the mean loss."""
    estimator = est.DNNEstimator(
        ce.regression_head(),
        [4],
        COLUMNS,
        model_dir=str(tmp_path),
        optimizer=_clipped_sgd(0.01, 30.0),
        config=_config(),
    )
    estimator.train(_constant_input_fn(), steps=3)
    initial = [tf.train.load_variable(str(tmp_path / "model.ckpt-0"), n) for n in DNN_NAMES]
    expected, norms = _mlp_reference(initial, 3, 0.01, 30.0, "squared", mean=True)
    assert norms[0] > 30.0 > norms[-1]  # clipped, then not: the loss's scale shows
    for got, want in zip(_values(estimator, DNN_NAMES), expected):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_dnn_linear_combined_estimator_takes_a_multi_class_head(tmp_path):
    """DNNLinearCombinedEstimator(multi_class_head(3)) trains; its evaluated loss is the mean softmax cross-entropy
    of the logits it predicts."""
    labels = np.array([[0], [2], [1], [2]], np.int32)
    estimator = est.DNNLinearCombinedEstimator(
        ce.multi_class_head(3),
        model_dir=str(tmp_path),
        linear_feature_columns=COLUMNS,
        dnn_feature_columns=COLUMNS,
        dnn_hidden_units=[3],
        config=_config(),
    )
    estimator.train(_constant_input_fn(y=labels), steps=2)
    loss = estimator.evaluate(_constant_input_fn(y=labels), steps=1)["loss"]
    logits = np.stack([p["logits"] for p in estimator.predict(lambda: tf.data.Dataset.from_tensors({"x": X}))])
    np.testing.assert_allclose(loss, -np.mean(_log_softmax(logits)[np.arange(4), labels.ravel()]), rtol=1e-5)


def test_head_losses_match_numpy():
    """Each head's training loss on fixed logits: the mean (default) or the sum (loss_reduction=SUM)."""
    binary_logits, binary_labels = LOGITS[:, :1], np.array([[1.0], [0.0]], np.float32)
    sparse_labels = tf.compat.v1.SparseTensorValue([[0, 0], [0, 1], [1, 0]], np.array([0, 2, 2], np.int64), [2, 2])
    counts = np.array([[2.0, 0.0, 1.0], [0.0, 3.0, 1.0]], np.float32)
    cases = [
        (ce.multi_class_head(3), LOGITS, np.array([[2], [0]]), -np.mean(_log_softmax(LOGITS)[[0, 1], [2, 0]])),
        (
            ce.binary_classification_head(),
            binary_logits,
            binary_labels,
            _sigmoid_ce(binary_logits, binary_labels).mean(),
        ),
        (
            ce.binary_classification_head(loss_reduction=v1.losses.Reduction.SUM),
            binary_logits,
            binary_labels,
            _sigmoid_ce(binary_logits, binary_labels).sum(),
        ),
        (
            ce.logistic_regression_head(),
            binary_logits,
            np.array([[0.25], [1.0]], np.float32),
            _sigmoid_ce(binary_logits, np.array([[0.25], [1.0]])).mean(),
        ),
        (ce.regression_head(label_dimension=3), LOGITS, counts, np.mean((LOGITS - counts) ** 2)),
        (
            ce.poisson_regression_head(label_dimension=3, compute_full_loss=False),
            LOGITS,
            counts,
            np.mean(np.exp(LOGITS) - counts * LOGITS),
        ),
        (ce.multi_label_head(3), LOGITS, MULTI_HOT, _sigmoid_ce(LOGITS, MULTI_HOT).mean()),
        (ce.multi_label_head(3), LOGITS, sparse_labels, _sigmoid_ce(LOGITS, MULTI_HOT).mean()),
    ]
    for head, logits, labels, want in cases:
        np.testing.assert_allclose(_loss(head, logits, labels), want, rtol=1e-5, err_msg=repr(head))


def test_weight_column_and_label_vocabulary():
    """A weight column scales each example's loss (SUM_OVER_BATCH_SIZE divides by the batch size); a string
    SparseTensor is looked up in multi_label_head's label_vocabulary."""
    weights = np.array([[2.0], [0.5]], np.float32)
    head = ce.multi_label_head(3, weight_column="w", label_vocabulary=["a", "b", "c"])
    labels = tf.compat.v1.SparseTensorValue([[0, 0], [0, 1], [1, 0]], np.array([b"a", b"c", b"c"]), [2, 2])
    got = _loss(head, LOGITS, labels, features={"w": weights})
    want = np.mean(weights.ravel() * _sigmoid_ce(LOGITS, MULTI_HOT).mean(axis=1))
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_multi_head_matches_tf115():
    """multi_head over multi_label_head and multi_class_head: losses, metric keys, export keys and one SGD step
    (numbers and keys recorded from TF 1.15.5's tf.contrib.estimator)."""
    heads = [ce.multi_label_head(3, thresholds=[0.5], classes_for_class_based_metrics=[1], name="ml")]
    heads.append(ce.multi_class_head(3, name="mc"))
    head = ce.multi_head(heads, head_weights=[1.0, 2.0])
    assert head.name == "ml_mc" and head.logits_dimension == 6
    with tf.Graph().as_default():
        labels = {"ml": tf.constant(MULTI_HOT), "mc": tf.constant([[2], [0]])}
        both = tf.concat([LOGITS, LOGITS], -1)
        evaluated = head.create_estimator_spec(features={}, mode="eval", logits=both, labels=labels)
        served = head.create_estimator_spec(features={}, mode="infer", logits={"ml": LOGITS, "mc": LOGITS})
        v1.train.get_or_create_global_step()
        variable = v1.get_variable("v", initializer=LOGITS)
        train = head.create_estimator_spec(
            features={},
            mode="train",
            logits=tf.concat([variable, variable], -1),
            labels=labels,
            optimizer=v1.train.GradientDescentOptimizer(0.1),
        )
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            eval_loss = sess.run(evaluated.loss)
            losses = [sess.run(train.loss), sess.run(train.train_op), sess.run(train.loss)]
    np.testing.assert_allclose(eval_loss, 2.3800783, rtol=1e-6)
    np.testing.assert_allclose([losses[0], losses[2]], [2.3800783, 2.2618654], rtol=1e-6)
    ml = _sigmoid_ce(LOGITS, MULTI_HOT).mean()
    np.testing.assert_allclose(eval_loss, ml - 2.0 * np.mean(_log_softmax(LOGITS)[[0, 1], [2, 0]]), rtol=1e-5)
    assert sorted(evaluated.eval_metric_ops) == [
        "accuracy/mc",
        "accuracy/positive_threshold_0.5/ml",
        "auc/class1/ml",
        "auc/ml",
        "auc_precision_recall/class1/ml",
        "auc_precision_recall/ml",
        "average_loss/mc",
        "average_loss/ml",
        "loss/mc",
        "loss/ml",
        "precision/positive_threshold_0.5/ml",
        "probability_mean/class1/ml",
        "recall/positive_threshold_0.5/ml",
    ]
    assert sorted(served.export_outputs) == [
        "mc",
        "mc/classification",
        "mc/predict",
        "ml",
        "ml/classification",
        "ml/predict",
        "predict",
        "serving_default",
    ]
    assert ("ml", "probabilities") in served.predictions and ("mc", "class_ids") in served.predictions


def _two_head_model_fn(features, labels, mode):
    kernel = v1.get_variable("kernel", [2, 4], initializer=v1.zeros_initializer())
    head = ce.multi_head([ce.regression_head(name="r"), ce.multi_class_head(3, name="c")], head_weights=[1.0, 0.5])
    return head.create_estimator_spec(
        features=features,
        mode=mode,
        logits=tf.matmul(features["x"], kernel),
        labels=labels,
        optimizer=v1.train.GradientDescentOptimizer(0.1),
    )


def test_custom_model_fn_with_multi_head_matches_numpy(tmp_path):
    """head.create_estimator_spec in a custom model_fn: multi_head's weighted loss trains one zero-initialised
    kernel, as NumPy's gradient descent on mean((x k_r - y)^2) + 0.5 * mean softmax cross-entropy does."""
    labels = np.array([[0], [2], [1], [2]], np.int32)

    def input_fn():
        return {"x": tf.constant(X)}, {"r": tf.constant(Y), "c": tf.constant(labels)}

    estimator = est.Estimator(_two_head_model_fn, model_dir=str(tmp_path), config=_config())
    estimator.train(input_fn, steps=3)
    kernel = np.zeros((2, 4))
    onehot = np.eye(3)[labels.ravel()]

    def numpy_loss(kernel):
        out = X @ kernel
        return np.mean((out[:, :1] - Y) ** 2) - 0.5 * np.mean(np.sum(onehot * _log_softmax(out[:, 1:]), axis=1))

    for _ in range(3):
        out = X @ kernel
        softmax = np.exp(_log_softmax(out[:, 1:]))
        d_out = np.concatenate([2 * (out[:, :1] - Y), 0.5 * (softmax - onehot)], axis=1) / len(X)
        kernel = kernel - 0.1 * X.T @ d_out
    np.testing.assert_allclose(estimator.get_variable_value("kernel"), kernel, rtol=1e-5, atol=1e-7)
    metrics = estimator.evaluate(input_fn, steps=1)
    np.testing.assert_allclose(metrics["loss"], numpy_loss(kernel), rtol=1e-5)
    np.testing.assert_allclose(metrics["loss/r"], np.mean((X @ kernel[:, :1] - Y) ** 2), rtol=1e-5)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: ce.regression_head(label_dimension=0), "Invalid label_dimension"),
        (lambda: ce.regression_head(loss_reduction=v1.losses.Reduction.NONE), "Invalid loss_reduction: none"),
        (lambda: ce.multi_class_head(2), "n_classes must be > 2"),
        (lambda: ce.binary_classification_head(thresholds=[1.5]), r"thresholds not in \(0, 1\)"),
        (lambda: ce.multi_label_head(3, thresholds=[0.0]), r"thresholds must be in \(0, 1\) range. Given: 0.0"),
        (lambda: ce.multi_label_head(3, label_vocabulary="abc"), "label_vocabulary must be a list or tuple"),
        (lambda: ce.multi_label_head(3, label_vocabulary=["a"]), r"must be n_classes \(3\). Given: 1"),
        (lambda: ce.multi_label_head(3, loss_reduction="mean"), "Invalid loss_reduction: mean"),
        (lambda: ce.multi_label_head(3, loss_fn=lambda labels: labels), "loss_fn must contain argument: logits"),
        (lambda: ce.multi_label_head(3, classes_for_class_based_metrics=[3]), r"range \[0, 2\]. Given: 3"),
        (
            lambda: ce.multi_label_head(3, classes_for_class_based_metrics=["a"]),
            "label_vocabulary must be provided when classes_for_class_based_metrics are sting",
        ),
        (lambda: ce.multi_head([ce.regression_head()]), "All given heads must have name specified"),
    ],
)
def test_argument_errors(make, message):
    """Invalid head arguments raise TF 1.15's ValueError messages."""
    with pytest.raises(ValueError, match=message):
        make()


def test_estimators_are_tf1clip_estimator_classes():
    """tf1clip.contrib.estimator.DNNEstimator (and the other two) are tf1clip.estimator's."""
    assert MISSING is None
    for name in ("DNNEstimator", "LinearEstimator", "DNNLinearCombinedEstimator"):
        assert getattr(ce, name) is getattr(est, name)


def test_head_internals_resolve_and_are_all_listed():
    """Every tensorflow-estimator name tf1clip.compat._heads reaches exists on the installed versions, and each
    of its accessors is one of ``PRIVATE_NAMES`` (a release that drops one fails here, in one place)."""
    import importlib

    from tf1clip.compat import _heads

    missing = [(m, a) for m, a in _heads.PRIVATE_NAMES if not hasattr(importlib.import_module(m), a)]
    assert missing == []
    listed = [getattr(importlib.import_module(m), a) for m, a in _heads.PRIVATE_NAMES]
    own = ("CHECKED_ON", "PRIVATE_NAMES")
    accessors = {k: v for k, v in vars(_heads).items() if not k.startswith("_") and k not in own}
    assert len(accessors) == len(listed) == 24
    assert all(any(value is obj for obj in listed) for value in accessors.values()), sorted(accessors)
