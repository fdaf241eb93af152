"""``tf.contrib.learn``'s ``ModeKeys``, ``ModelFnOps``, ``ProblemType``, ``PredictionKey`` and ``MetricKey`` (TF 1.15).

``ModelFnOps.estimator_spec`` needs ``tf1clip.estimator``; the rest needs TensorFlow only.
"""

import collections
from typing import Any, Optional

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


class ModeKeys:
    """Model modes, with TF 1.15's string values (``INFER`` is ``'infer'``, as ``tf.estimator.ModeKeys.PREDICT``)."""

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"

    @classmethod
    def validate(cls, key: Any) -> None:
        if key not in (cls.TRAIN, cls.EVAL, cls.INFER):
            raise ValueError("Invalid mode %s." % key)


class ProblemType:
    """The problem type of an ``output_alternatives`` entry."""

    UNSPECIFIED = 0
    CLASSIFICATION = 1
    LINEAR_REGRESSION = 2
    LOGISTIC_REGRESSION = 3


class PredictionKey:
    CLASSES = "classes"
    PROBABILITIES = "probabilities"
    LOGITS = "logits"
    LOGISTIC = "logistic"
    SCORES = "scores"
    TOP_K = "top_k"
    GENERIC = "output"


class MetricKey:
    LOSS = "loss"
    AUC = "auc"
    AUC_PR = "auc_precision_recall"
    CLASS_AUC = "auc/class%d"
    CLASS_AUC_PR = "auc_precision_recall/class%d"
    PREDICTION_MEAN = "labels/prediction_mean"
    CLASS_PREDICTION_MEAN = "labels/prediction_mean/class%d"
    CLASS_LOGITS_MEAN = "labels/logits_mean/class%d"
    CLASS_PROBABILITY_MEAN = "labels/probability_mean/class%d"
    LABEL_MEAN = "labels/actual_label_mean"
    CLASS_LABEL_MEAN = "labels/actual_label_mean/class%d"
    ACCURACY = "accuracy"
    ACCURACY_BASELINE = "accuracy/baseline_label_mean"
    ACCURACY_MEAN = "accuracy/threshold_%f_mean"
    PRECISION_MEAN = "precision/positive_threshold_%f_mean"
    RECALL_MEAN = "recall/positive_threshold_%f_mean"


class ModelFnOps(
    collections.namedtuple(
        "ModelFnOps",
        [
            "predictions",
            "loss",
            "train_op",
            "eval_metric_ops",
            "output_alternatives",
            "training_chief_hooks",
            "training_hooks",
            "scaffold",
            "mode",
        ],
    )
):
    """What a ``tf.contrib.learn`` ``model_fn`` returns, validated as TF 1.15 did.

    ``train_op`` becomes an Operation, ``loss`` a scalar Tensor (reshaped from shape ``[1]``), ``predictions``
    Tensors; TRAIN needs ``train_op`` and ``loss``, EVAL ``loss`` and ``predictions``, INFER ``predictions``.
    """

    def __new__(
        cls,
        mode: str,
        predictions: Any = None,
        loss: Any = None,
        train_op: Any = None,
        eval_metric_ops: Optional[dict] = None,
        output_alternatives: Optional[dict] = None,
        training_chief_hooks: Optional[list] = None,
        training_hooks: Optional[list] = None,
        scaffold: Any = None,
    ) -> "ModelFnOps":
        ModeKeys.validate(mode)
        if train_op is None:
            if mode == ModeKeys.TRAIN:
                raise ValueError("Missing train_op.")
        elif not isinstance(train_op, tf.Operation):
            train_op = tf.convert_to_tensor(train_op).op
        loss = _scalar_loss(loss, mode)
        predictions = _predictions(predictions, mode)
        if eval_metric_ops is None:
            eval_metric_ops = {}
        elif not isinstance(eval_metric_ops, dict):
            raise ValueError("eval_metric_ops must be a dict.")
        training_chief_hooks = list(training_chief_hooks or [])
        training_hooks = list(training_hooks or [])
        for hook in training_hooks + training_chief_hooks:
            if not isinstance(hook, tf.compat.v1.train.SessionRunHook):
                raise TypeError(
                    "All hooks returned from model_fn must be SessionRunHook instances, got instance of %s: %s"
                    % (type(hook), hook)
                )
        return super().__new__(
            cls,
            predictions=predictions,
            loss=loss,
            train_op=train_op,
            eval_metric_ops=eval_metric_ops,
            output_alternatives=output_alternatives,
            training_chief_hooks=training_chief_hooks,
            training_hooks=training_hooks,
            scaffold=scaffold,
            mode=mode,
        )

    def estimator_spec(self, default_serving_output_alternative_key: Optional[str] = None) -> Any:
        """The equivalent ``tf1clip.estimator.EstimatorSpec`` (its ``eval_metric_ops`` without ``'loss'``)."""
        from tf1clip import estimator

        export_outputs = None
        if self.output_alternatives:
            default_key = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY
            # A head without head_name keys its alternative None (TF 1.15 exported it as the default).
            alternatives = {default_key if k is None else k: v for k, v in self.output_alternatives.items()}
            if len(alternatives) > 1 and default_key not in alternatives:
                alternatives[default_key] = alternatives[default_serving_output_alternative_key]
            export_outputs = {key: _export_output(estimator, *value) for key, value in alternatives.items()}
        core_mode = {ModeKeys.TRAIN: "train", ModeKeys.EVAL: "eval", ModeKeys.INFER: "infer"}[self.mode]
        return estimator.EstimatorSpec(
            mode=core_mode,
            predictions=self.predictions,
            loss=self.loss,
            train_op=self.train_op,
            eval_metric_ops={k: v for k, v in self.eval_metric_ops.items() if k != MetricKey.LOSS},
            export_outputs=export_outputs,
            training_chief_hooks=self.training_chief_hooks,
            training_hooks=self.training_hooks,
            scaffold=self.scaffold,
        )


def _scalar_loss(loss: Any, mode: str) -> Any:
    if loss is None:
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError("Missing loss.")
        return None
    loss = tf.convert_to_tensor(loss)
    shape = loss.get_shape()
    if shape.num_elements() not in (None, 1):
        raise ValueError("Loss must be scalar: %s." % loss)
    if not shape.is_compatible_with(tf.TensorShape([])):
        loss = tf.reshape(loss, [])
    return loss


def _predictions(predictions: Any, mode: str) -> Any:
    if predictions is None:
        if mode in (ModeKeys.INFER, ModeKeys.EVAL):
            raise ValueError("Missing predictions.")
        return None
    convert = tf.compat.v1.convert_to_tensor_or_sparse_tensor
    if isinstance(predictions, dict):
        return {k: convert(v) for k, v in predictions.items()}
    return convert(predictions)


def _export_output(estimator: Any, problem_type: int, outputs: dict) -> Any:
    export = estimator.export
    scores = outputs.get(PredictionKey.SCORES)
    if scores is None:
        scores = outputs.get(PredictionKey.PROBABILITIES)
    if problem_type == ProblemType.LINEAR_REGRESSION:
        return export.RegressionOutput(scores)
    if problem_type in (ProblemType.CLASSIFICATION, ProblemType.LOGISTIC_REGRESSION):
        classes = outputs.get(PredictionKey.CLASSES)
        if classes is not None and classes.dtype != tf.string:
            classes = None
        return export.ClassificationOutput(scores=scores, classes=classes)
    if problem_type == ProblemType.UNSPECIFIED:
        return export.PredictOutput(outputs)
    raise ValueError("Unknown problem_type=%s" % problem_type)
