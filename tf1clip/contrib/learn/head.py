"""``tf.contrib.learn``'s heads (TF 1.15's ``python/learn/estimators/head.py``): loss, predictions, training op
and evaluation metrics of a canned estimator's logits.

``regression_head`` (mean squared error), ``poisson_regression_head``, ``multi_class_head`` (softmax cross
entropy; for 2 classes the binary logistic head, sigmoid cross entropy) and ``binary_svm_head`` (hinge loss) build
TF 1.15's graph under the same variable and name scopes (``regression_head``, ``multi_class_head``,
``binary_logistic_head``, ``binary_svm_head``), so a canned estimator's variables, optimizer slots and metrics are
TF 1.15's. ``create_model_fn_ops`` returns a ``ModelFnOps``.
"""

import abc
import functools
from typing import Any, Callable, Dict, Optional

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.learn import model_fn as model_fn_lib

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1
_PK = model_fn_lib.PredictionKey
_MK = model_fn_lib.MetricKey
_PT = model_fn_lib.ProblemType


class Head(abc.ABC):
    """A head: from logits (or the layer below) to ``ModelFnOps``."""

    @property
    @abc.abstractmethod
    def logits_dimension(self) -> int:
        """The size of the last dimension of the logits."""

    @abc.abstractmethod
    def create_model_fn_ops(
        self, features, mode, labels=None, train_op_fn=None, logits=None, logits_input=None, scope=None
    ) -> Any:
        """``ModelFnOps`` of ``logits`` (or of a linear layer on ``logits_input``); ``train_op_fn(loss)`` in TRAIN."""


def no_op_train_fn(loss: Any) -> Any:
    """A ``train_op_fn`` that trains nothing."""
    del loss
    return tf.no_op()


class _SingleHead(Head):
    def __init__(self, problem_type, logits_dimension, label_name=None, weight_column_name=None, head_name=None):
        if problem_type is None:
            raise ValueError("Invalid problem_type %s." % problem_type)
        if logits_dimension is None or logits_dimension < 1:
            raise ValueError("Invalid logits_dimension %s." % logits_dimension)
        self._problem_type = problem_type
        self._logits_dimension = logits_dimension
        self._label_name = label_name
        self._weight_column_name = weight_column_name
        self._head_name = head_name

    @property
    def logits_dimension(self) -> int:
        return self._logits_dimension

    @property
    def label_name(self) -> Optional[str]:
        return self._label_name

    @property
    def weight_column_name(self) -> Optional[str]:
        return self._weight_column_name

    @property
    def head_name(self) -> Optional[str]:
        return self._head_name

    def _create_output_alternatives(self, predictions: Dict[str, Any]) -> Dict[Any, Any]:
        return {self._head_name: (self._problem_type, predictions)}

    def _transform_labels(self, mode: str, labels: Any) -> Any:
        if mode == model_fn_lib.ModeKeys.INFER or labels is None:
            return None
        tensor = _to_labels_tensor(labels, self._label_name)
        _check_no_sparse_tensor(tensor)
        return tensor

    def _model_fn_ops(self, default_name, features, mode, labels, train_op_fn, logits, logits_input, scope, **fns):
        values = tuple(features.values()) + (labels, logits, logits_input)
        with _v1.variable_scope(scope, default_name=self.head_name or default_name, values=values):
            labels = self._transform_labels(mode=mode, labels=labels)
            logits = _logits(logits_input, logits, self.logits_dimension)
            return _create_model_fn_ops(
                features=features,
                mode=mode,
                labels=labels,
                train_op_fn=train_op_fn,
                logits=logits,
                head=self,
                **fns,
            )


def _create_model_fn_ops(
    features, mode, labels, train_op_fn, logits, head, loss_fn, predictions_fn, metrics_fn, alternatives_fn
):
    """TF 1.15's ``_create_model_fn_ops``: centered bias, predictions, then (with labels) loss, its summary, the
    training op and the metrics."""
    if mode not in (model_fn_lib.ModeKeys.TRAIN, model_fn_lib.ModeKeys.EVAL, model_fn_lib.ModeKeys.INFER):
        raise ValueError("mode=%s unrecognized." % str(mode))
    centered_bias = None
    if head._enable_centered_bias:  # noqa: SLF001
        centered_bias = _centered_bias(head.logits_dimension, head.head_name)
        logits = tf.nn.bias_add(logits, centered_bias)
    predictions = predictions_fn(logits)
    loss = train_op = eval_metric_ops = None
    if mode != model_fn_lib.ModeKeys.INFER and labels is not None:
        weights = _weight_tensor(features, head.weight_column_name)
        loss, weighted_average_loss = loss_fn(labels, logits, weights)
        with tf.name_scope(""):
            summary_loss = tf.identity(weighted_average_loss)
            _v1.summary.scalar(_summary_key(head.head_name, _MK.LOSS), summary_loss)
        if mode == model_fn_lib.ModeKeys.TRAIN:
            if train_op_fn is None:
                raise ValueError("train_op_fn can not be None in TRAIN mode")
            batch_size = tf.shape(logits)[0]
            train_op = _train_op(loss, labels, train_op_fn, centered_bias, batch_size, loss_fn, weights)
        eval_metric_ops = metrics_fn(weighted_average_loss, predictions, labels, weights)
    return model_fn_lib.ModelFnOps(
        mode=mode,
        predictions=predictions,
        loss=loss,
        train_op=train_op,
        eval_metric_ops=eval_metric_ops,
        output_alternatives=alternatives_fn(predictions),
    )


def _logits(logits_input: Any, logits: Any, logits_dimension: int) -> Any:
    if logits_dimension is None or logits_dimension < 1:
        raise ValueError("Invalid logits_dimension %s." % logits_dimension)
    if logits is None:
        if logits_input is None:
            raise ValueError("Neither logits nor logits_input supplied.")
        from tf1clip.contrib import layers

        return layers.linear(logits_input, logits_dimension, scope="logits")
    if logits_input is not None:
        raise ValueError("Both logits and logits_input supplied.")
    logits = tf.convert_to_tensor(logits, name="logits")
    dims = logits.get_shape().dims
    if dims is not None:
        tf.compat.v1.Dimension(dims[-1]).assert_is_compatible_with(logits_dimension)
    return logits


def _to_labels_tensor(labels: Any, label_name: Optional[str]) -> Any:
    labels = labels[label_name] if isinstance(labels, dict) else labels
    return _v1.convert_to_tensor_or_sparse_tensor(labels)


def _check_no_sparse_tensor(tensor: Any) -> None:
    if isinstance(tensor, tf.SparseTensor):
        raise ValueError("SparseTensor is not supported.")


def _weight_tensor(features: Dict[str, Any], weight_column_name: Optional[str]) -> Any:
    """The weight feature as float32 ``[batch, 1]`` (a rank-1 one reshaped), or None."""
    if not weight_column_name:
        return None
    if weight_column_name not in features:
        raise ValueError("Weights {} missing from features.".format(weight_column_name))
    with tf.name_scope("weight_tensor"):
        weights = tf.cast(features[weight_column_name], tf.float32)
        if weights.get_shape().ndims == 1:
            _v1.logging.warning(
                "Weights {} has shape {}, expanding to make it 2d.".format(weight_column_name, weights.get_shape())
            )
            if isinstance(weights, tf.SparseTensor):
                return tf.sparse.reshape(weights, (-1, 1))
            return tf.reshape(weights, (-1, 1))
        return weights


def _compute_weighted_loss(loss_unweighted: Any, weight: Any, name: str = "loss") -> Any:
    """``(mean of the weighted losses, their sum / the sum of the weights)``; both the mean without weights."""
    with tf.name_scope(name) as name_scope:
        if weight is None:
            loss = tf.reduce_mean(loss_unweighted, name=name_scope)
            return loss, loss
        weight = _tf.broadcast_weights(weight, loss_unweighted)
        with tf.name_scope("weighted_loss") as weighted_name:
            weighted = tf.multiply(loss_unweighted, weight, name=weighted_name)
        mean = tf.reduce_mean(weighted, name=name_scope)
        normalized = tf.compat.v1.div(
            tf.reduce_sum(weighted), tf.cast(tf.reduce_sum(weight), tf.float32), name="weighted_average_loss"
        )
        return mean, normalized


def _summary_key(head_name: Optional[str], value: str) -> str:
    return "%s/%s" % (value, head_name) if head_name else value


def _centered_bias(logits_dimension: int, head_name: Optional[str] = None) -> Any:
    centered_bias = _v1.Variable(
        name="centered_bias_weight", initial_value=tf.zeros(shape=(logits_dimension,)), trainable=True
    )
    for dim in range(logits_dimension):
        tag = "centered_bias/bias_%d/%s" % (dim, head_name) if head_name else "centered_bias/bias_%d" % dim
        _v1.summary.scalar(tag, centered_bias[dim])
    return centered_bias


def _centered_bias_step(centered_bias, batch_size, labels, loss_fn, weights):
    with tf.name_scope("centered_bias_step") as name:
        dimension = tf.shape(centered_bias)[0]
        logits = tf.reshape(tf.tile(centered_bias, (batch_size,)), (batch_size, dimension))
        with tf.name_scope("centered_bias"):
            loss = tf.reduce_mean(loss_fn(labels, logits, weights), name="training_loss")
    return _v1.train.AdagradOptimizer(0.1).minimize(loss, var_list=(centered_bias,), name=name)


def _train_op(loss, labels, train_op_fn, centered_bias, batch_size, loss_fn, weights):
    step = None
    if centered_bias is not None:
        step = _centered_bias_step(centered_bias, batch_size, labels, loss_fn, weights)
    with tf.name_scope("train_op"):
        train_op = train_op_fn(loss)
        if step is not None:
            train_op = tf.group(train_op, step)
        return train_op


def _expand_labels_and_logits(labels: Any, logits: Any) -> Any:
    labels, logits = tf.convert_to_tensor(labels), tf.convert_to_tensor(logits)
    if len(labels.get_shape()) == 1:
        labels = tf.expand_dims(labels, axis=1)
    if len(logits.get_shape()) == 1:
        logits = tf.expand_dims(logits, axis=1)
    logits.get_shape().assert_is_compatible_with(labels.get_shape())
    return labels, logits


def _mean_squared_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    with tf.name_scope("mean_squared_loss") as name:
        labels, logits = _expand_labels_and_logits(labels, logits)
        loss = tf.math.squared_difference(logits, tf.cast(labels, tf.float32), name=name)
        return _compute_weighted_loss(loss, weights)


def _poisson_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    with tf.name_scope("_poisson_loss") as name:
        labels, logits = _expand_labels_and_logits(labels, logits)
        loss = tf.nn.log_poisson_loss(labels, logits, compute_full_loss=True, name=name)
        return _compute_weighted_loss(loss, weights)


def _log_loss_with_two_classes(labels: Any, logits: Any, weights: Any = None) -> Any:
    with tf.name_scope("log_loss_with_two_classes") as name:
        logits = tf.convert_to_tensor(logits)
        labels = tf.cast(labels, tf.float32)
        if len(labels.get_shape()) == 1:
            labels = tf.expand_dims(labels, axis=1)
        loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name=name)
        return _compute_weighted_loss(loss, weights)


def _softmax_cross_entropy_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    with tf.name_scope("softmax_cross_entropy_loss") as name:
        labels = tf.convert_to_tensor(labels)
        if not labels.dtype.is_integer:
            raise ValueError("Labels dtype should be integer Instead got %s." % labels.dtype)
        squeezed = len(labels.get_shape()) == 2
        if squeezed:
            labels = tf.squeeze(labels, axis=(1,))
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name=name)
        if squeezed:
            loss = tf.expand_dims(loss, axis=(1,))
        return _compute_weighted_loss(loss, weights)


def _hinge_loss(labels: Any, logits: Any, weights: Any = None) -> Any:
    with tf.name_scope("hinge_loss") as name:
        check = tf.debugging.Assert(
            tf.less_equal(tf.rank(labels), 2), ("labels shape should be either [batch_size, 1] or [batch_size]",)
        )
        with tf.control_dependencies((check,)):
            labels = tf.reshape(labels, shape=(-1, 1))
        loss = _v1.losses.hinge_loss(labels=labels, logits=logits, scope=name, reduction=_v1.losses.Reduction.NONE)
        return _compute_weighted_loss(loss, weights)


def _wrap_custom_loss_fn(loss_fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(labels: Any, logits: Any, weights: Any = None) -> Any:
        loss = loss_fn(labels, logits) if weights is None else loss_fn(labels, logits, weights)
        return loss, loss

    return wrapper


def _verify_loss_fn_args(loss_fn: Callable[..., Any]) -> None:
    import inspect

    args = inspect.signature(loss_fn).parameters
    for name in ("labels", "logits", "weights"):
        if name not in args:
            raise ValueError("Argument %s not found in loss_fn." % name)


class _RegressionHead(_SingleHead):
    """Scores ``link_fn(logits)`` (squeezed for one label dimension) and the loss metric."""

    def __init__(
        self,
        label_dimension,
        loss_fn,
        link_fn,
        logits_dimension=None,
        label_name=None,
        weight_column_name=None,
        enable_centered_bias=False,
        head_name=None,
    ):
        super().__init__(
            problem_type=_PT.LINEAR_REGRESSION,
            logits_dimension=logits_dimension if logits_dimension is not None else label_dimension,
            label_name=label_name,
            weight_column_name=weight_column_name,
            head_name=head_name,
        )
        self._loss_fn, self._link_fn, self._enable_centered_bias = loss_fn, link_fn, enable_centered_bias

    def create_model_fn_ops(
        self, features, mode, labels=None, train_op_fn=None, logits=None, logits_input=None, scope=None
    ):
        return self._model_fn_ops(
            "regression_head",
            features,
            mode,
            labels,
            train_op_fn,
            logits,
            logits_input,
            scope,
            loss_fn=self._loss_fn,
            predictions_fn=self._logits_to_predictions,
            metrics_fn=self._metrics,
            alternatives_fn=self._create_output_alternatives,
        )

    def _logits_to_predictions(self, logits: Any) -> Dict[str, Any]:
        with tf.name_scope("predictions"):
            if self.logits_dimension == 1:
                logits = tf.squeeze(logits, axis=(1,), name=_PK.SCORES)
            return {_PK.SCORES: self._link_fn(logits)}

    def _metrics(self, eval_loss, predictions, labels, weights):
        with tf.name_scope("metrics"):
            return {_summary_key(self.head_name, _MK.LOSS): _v1.metrics.mean(eval_loss)}


def regression_head(
    label_name=None,
    weight_column_name=None,
    label_dimension=1,
    enable_centered_bias=False,
    head_name=None,
    link_fn=None,
):
    """A mean-squared-error head (``link_fn`` of the logits are the scores; identity by default)."""
    return _RegressionHead(
        label_name=label_name,
        weight_column_name=weight_column_name,
        label_dimension=label_dimension,
        enable_centered_bias=enable_centered_bias,
        head_name=head_name,
        loss_fn=_mean_squared_loss,
        link_fn=link_fn if link_fn is not None else tf.identity,
    )


def poisson_regression_head(
    label_name=None, weight_column_name=None, label_dimension=1, enable_centered_bias=False, head_name=None
):
    """A Poisson regression head: log-Poisson loss, scores ``exp(logits)``."""
    return _RegressionHead(
        label_name=label_name,
        weight_column_name=weight_column_name,
        label_dimension=label_dimension,
        enable_centered_bias=enable_centered_bias,
        head_name=head_name,
        loss_fn=_poisson_loss,
        link_fn=tf.exp,
    )


def _two_class_logits(logits: Any) -> Any:
    return tf.concat((tf.zeros_like(logits), logits), 1)


class _BinaryLogisticHead(_SingleHead):
    """Sigmoid cross entropy on one logit; predictions logits, logistic, probabilities and classes."""

    _default_name = "binary_logistic_head"

    def __init__(
        self,
        label_name=None,
        weight_column_name=None,
        enable_centered_bias=False,
        head_name=None,
        loss_fn=None,
        thresholds=None,
    ):
        super().__init__(
            problem_type=_PT.LOGISTIC_REGRESSION,
            logits_dimension=1,
            label_name=label_name,
            weight_column_name=weight_column_name,
            head_name=head_name,
        )
        self._thresholds = thresholds if thresholds else (0.5,)
        self._loss_fn = loss_fn if loss_fn else _log_loss_with_two_classes
        self._enable_centered_bias = enable_centered_bias

    def create_model_fn_ops(
        self, features, mode, labels=None, train_op_fn=None, logits=None, logits_input=None, scope=None
    ):
        return self._model_fn_ops(
            self._default_name,
            features,
            mode,
            labels,
            train_op_fn,
            logits,
            logits_input,
            scope,
            loss_fn=self._loss_fn,
            predictions_fn=self._logits_to_predictions,
            metrics_fn=self._metrics,
            alternatives_fn=self._alternatives_fn(),
        )

    def _alternatives_fn(self) -> Callable[[Dict[str, Any]], Dict[Any, Any]]:
        return _classification_output_alternatives(self.head_name, self._problem_type)

    def _logits_to_predictions(self, logits: Any) -> Dict[str, Any]:
        with tf.name_scope("predictions"):
            two_class = _two_class_logits(logits)
            return {
                _PK.LOGITS: logits,
                _PK.LOGISTIC: tf.sigmoid(logits, name=_PK.LOGISTIC),
                _PK.PROBABILITIES: tf.nn.softmax(two_class, name=_PK.PROBABILITIES),
                _PK.CLASSES: tf.argmax(two_class, 1, name=_PK.CLASSES),
            }

    def _metrics(self, eval_loss, predictions, labels, weights):
        key = functools.partial(_summary_key, self.head_name)
        with tf.name_scope("metrics"):
            classes, logistic = predictions[_PK.CLASSES], predictions[_PK.LOGISTIC]
            metrics = {key(_MK.LOSS): _v1.metrics.mean(eval_loss)}
            metrics[key(_MK.ACCURACY)] = _v1.metrics.accuracy(labels, classes, weights)
            metrics[key(_MK.PREDICTION_MEAN)] = _predictions_streaming_mean(logistic, weights)
            metrics[key(_MK.LABEL_MEAN)] = _indicator_labels_streaming_mean(labels, weights)
            metrics[key(_MK.ACCURACY_BASELINE)] = _indicator_labels_streaming_mean(labels, weights)
            metrics[key(_MK.AUC)] = _streaming_auc(logistic, labels, weights)
            metrics[key(_MK.AUC_PR)] = _streaming_auc(logistic, labels, weights, curve="PR")
            for threshold in self._thresholds:
                metrics[key(_MK.ACCURACY_MEAN % threshold)] = _accuracy_at_threshold(
                    logistic, labels, weights, threshold
                )
                metrics[key(_MK.PRECISION_MEAN % threshold)] = _at_threshold(
                    _v1.metrics.precision_at_thresholds, logistic, labels, weights, threshold
                )
                metrics[key(_MK.RECALL_MEAN % threshold)] = _at_threshold(
                    _v1.metrics.recall_at_thresholds, logistic, labels, weights, threshold
                )
        return metrics


class _BinarySvmHead(_BinaryLogisticHead):
    """Hinge loss on one logit (labels 0/1); predictions logits and classes; the metrics without the logistic."""

    _default_name = "binary_svm_head"

    def __init__(self, label_name, weight_column_name, enable_centered_bias, head_name, thresholds):
        super().__init__(label_name, weight_column_name, enable_centered_bias, head_name, _hinge_loss, thresholds)

    def _alternatives_fn(self) -> Callable[[Dict[str, Any]], Dict[Any, Any]]:
        return self._create_output_alternatives

    def _logits_to_predictions(self, logits: Any) -> Dict[str, Any]:
        with tf.name_scope("predictions"):
            return {_PK.LOGITS: logits, _PK.CLASSES: tf.argmax(_two_class_logits(logits), 1, name=_PK.CLASSES)}

    def _metrics(self, eval_loss, predictions, labels, weights):
        key = functools.partial(_summary_key, self.head_name)
        with tf.name_scope("metrics"):
            classes = predictions[_PK.CLASSES]
            return {
                key(_MK.LOSS): _v1.metrics.mean(eval_loss),
                key(_MK.ACCURACY): _v1.metrics.accuracy(labels, classes, weights),
            }


class _MultiClassHead(_SingleHead):
    """Softmax cross entropy over ``n_classes`` > 2 logits; string classes through ``label_keys``."""

    def __init__(
        self,
        n_classes,
        label_name=None,
        weight_column_name=None,
        enable_centered_bias=False,
        head_name=None,
        loss_fn=None,
        thresholds=None,
        metric_class_ids=None,
        label_keys=None,
    ):
        super().__init__(
            problem_type=_PT.CLASSIFICATION,
            logits_dimension=n_classes,
            label_name=label_name,
            weight_column_name=weight_column_name,
            head_name=head_name,
        )
        if n_classes is None or n_classes <= 2:
            raise ValueError("n_classes must be > 2: %s." % n_classes)
        self._thresholds = thresholds if thresholds else (0.5,)
        self._loss_fn = loss_fn if loss_fn else _softmax_cross_entropy_loss
        self._enable_centered_bias = enable_centered_bias
        self._metric_class_ids = tuple([] if metric_class_ids is None else metric_class_ids)
        for class_id in self._metric_class_ids:
            if class_id < 0 or class_id >= n_classes:
                raise ValueError("Class ID %s not in [0, %s)." % (class_id, n_classes))
        if label_keys and len(label_keys) != n_classes:
            raise ValueError("Length of label_keys must equal n_classes.")
        self._label_keys = label_keys

    def create_model_fn_ops(
        self, features, mode, labels=None, train_op_fn=None, logits=None, logits_input=None, scope=None
    ):
        return self._model_fn_ops(
            "multi_class_head",
            features,
            mode,
            labels,
            train_op_fn,
            logits,
            logits_input,
            scope,
            loss_fn=self._wrapped_loss_fn,
            predictions_fn=self._logits_to_predictions,
            metrics_fn=self._metrics,
            alternatives_fn=_classification_output_alternatives(self.head_name, self._problem_type, self._label_keys),
        )

    def _transform_labels(self, mode: str, labels: Any) -> Any:
        tensor = super()._transform_labels(mode, labels)
        if tensor is None:
            return None
        if self._label_keys:
            table = _tf.lookup_ops().index_table_from_tensor(self._label_keys, name="label_id_lookup")
            return {"labels": tensor, "label_ids": table.lookup(tensor)}
        return {"labels": tensor, "label_ids": tensor}

    def _wrapped_loss_fn(self, labels: Dict[str, Any], logits: Any, weights: Any = None) -> Any:
        return self._loss_fn(labels["label_ids"], logits, weights=weights)

    def _logits_to_predictions(self, logits: Any) -> Dict[str, Any]:
        with tf.name_scope("predictions"):
            class_ids = tf.argmax(logits, 1, name=_PK.CLASSES)
            classes = class_ids
            if self._label_keys:
                table = _tf.lookup_ops().index_to_string_table_from_tensor(self._label_keys, name="class_string_lookup")
                classes = table.lookup(class_ids)
            return {
                _PK.LOGITS: logits,
                _PK.PROBABILITIES: tf.nn.softmax(logits, name=_PK.PROBABILITIES),
                _PK.CLASSES: classes,
            }

    def _metrics(self, eval_loss, predictions, labels, weights):
        key = functools.partial(_summary_key, self.head_name)
        with tf.name_scope("metrics"):
            logits, probabilities = predictions[_PK.LOGITS], predictions[_PK.PROBABILITIES]
            classes = predictions[_PK.CLASSES]
            metrics = {key(_MK.LOSS): _v1.metrics.mean(eval_loss)}
            metrics[key(_MK.ACCURACY)] = _v1.metrics.accuracy(labels["labels"], classes, weights)
            if not self._label_keys:
                for class_id in self._metric_class_ids:
                    metrics[key(_MK.CLASS_PREDICTION_MEAN % class_id)] = _class_streaming_mean(
                        classes, weights, class_id
                    )
                    metrics[key(_MK.CLASS_LABEL_MEAN % class_id)] = _class_streaming_mean(
                        labels["label_ids"], weights, class_id
                    )
                    metrics[key(_MK.CLASS_PROBABILITY_MEAN % class_id)] = _predictions_streaming_mean(
                        probabilities, weights, class_id
                    )
                    metrics[key(_MK.CLASS_LOGITS_MEAN % class_id)] = _predictions_streaming_mean(
                        logits, weights, class_id
                    )
        return metrics


def multi_class_head(
    n_classes,
    label_name=None,
    weight_column_name=None,
    enable_centered_bias=False,
    head_name=None,
    thresholds=None,
    metric_class_ids=None,
    loss_fn=None,
    label_keys=None,
):
    """A classification head: the binary logistic head for 2 classes, else softmax cross entropy.

    ``loss_fn(labels, logits, weights)`` replaces the loss; ``label_keys`` (more than 2 classes) are the string
    labels of the classes; ``metric_class_ids`` add per-class means.
    """
    if n_classes is None or n_classes < 2:
        raise ValueError("n_classes must be > 1 for classification: %s." % n_classes)
    if loss_fn:
        _verify_loss_fn_args(loss_fn)
    loss_fn = _wrap_custom_loss_fn(loss_fn) if loss_fn else None
    if n_classes == 2:
        if metric_class_ids:
            raise ValueError("metric_class_ids invalid for n_classes==2.")
        if label_keys:
            raise ValueError("label_keys is not supported for n_classes=2.")
        return _BinaryLogisticHead(
            label_name=label_name,
            weight_column_name=weight_column_name,
            enable_centered_bias=enable_centered_bias,
            head_name=head_name,
            thresholds=thresholds,
            loss_fn=loss_fn,
        )
    return _MultiClassHead(
        n_classes=n_classes,
        label_name=label_name,
        weight_column_name=weight_column_name,
        enable_centered_bias=enable_centered_bias,
        head_name=head_name,
        thresholds=thresholds,
        metric_class_ids=metric_class_ids,
        loss_fn=loss_fn,
        label_keys=label_keys,
    )


def binary_svm_head(
    label_name=None, weight_column_name=None, enable_centered_bias=False, head_name=None, thresholds=None
):
    """A hinge-loss head for binary classification (labels 0 and 1)."""
    return _BinarySvmHead(
        label_name=label_name,
        weight_column_name=weight_column_name,
        enable_centered_bias=enable_centered_bias,
        head_name=head_name,
        thresholds=thresholds,
    )


def _float_weights_or_none(weights: Any) -> Any:
    if weights is None:
        return None
    with tf.name_scope("float_weights") as name:
        return tf.cast(weights, tf.float32, name=name)


def _streaming_mean_of(values: Any, weights: Any, class_id: Optional[int]) -> Any:
    weights = _float_weights_or_none(weights)
    if weights is not None:
        weights = _tf.broadcast_weights(weights, values)
    if class_id is not None:
        if weights is not None:
            weights = weights[:, class_id]
        values = values[:, class_id]
    return _v1.metrics.mean(values, weights)


def _indicator_labels_streaming_mean(labels: Any, weights: Any = None, class_id: Optional[int] = None) -> Any:
    return _streaming_mean_of(tf.cast(labels, tf.float32), weights, class_id)


def _predictions_streaming_mean(predictions: Any, weights: Any = None, class_id: Optional[int] = None) -> Any:
    return _streaming_mean_of(tf.cast(predictions, tf.float32), weights, class_id)


def _class_streaming_mean(values: Any, weights: Any, class_id: int) -> Any:
    hit = tf.equal(tf.cast(class_id, tf.int32), tf.cast(values, tf.int32))
    return _v1.metrics.mean(_v1.where(hit, tf.ones_like(values), tf.zeros_like(values)), weights=weights)


def _streaming_auc(predictions: Any, labels: Any, weights: Any = None, curve: str = "ROC") -> Any:
    predictions = tf.cast(predictions, tf.float32)
    if labels.dtype.base_dtype != tf.bool:
        _v1.logging.warning("Casting %s labels to bool.", labels.dtype)
        labels = tf.cast(labels, tf.bool)
    weights = _float_weights_or_none(weights)
    if weights is not None:
        weights = _tf.broadcast_weights(weights, predictions)
    return _v1.metrics.auc(labels, predictions, weights, curve=curve)


def _accuracy_at_threshold(predictions: Any, labels: Any, weights: Any, threshold: float) -> Any:
    thresholded = tf.cast(tf.greater_equal(predictions, threshold), tf.float32)
    return _v1.metrics.accuracy(labels, thresholded, weights)


def _at_threshold(metric: Callable[..., Any], predictions: Any, labels: Any, weights: Any, threshold: float) -> Any:
    value, update_op = metric(labels, predictions, (threshold,), _float_weights_or_none(weights))
    return tf.squeeze(value), tf.squeeze(update_op)


def _classification_output_alternatives(head_name, problem_type, label_keys=None):
    """The export's ``{head_name: (problem_type, {probabilities, classes})}``: classes as strings per row."""

    def create_output_alternatives(predictions: Dict[str, Any]) -> Dict[Any, Any]:
        probabilities = predictions.get(_PK.PROBABILITIES)
        if probabilities is None:
            raise ValueError("%s missing in predictions" % _PK.PROBABILITIES)
        with tf.name_scope("_classification_output_alternatives"):
            batch_size = tf.shape(probabilities)[0]
            if label_keys:
                classes = tf.tile(tf.expand_dims(label_keys, axis=0), [batch_size, 1], name="classes_tensor")
            else:
                n = tf.shape(probabilities)[1]
                classes = tf.tile(tf.expand_dims(tf.range(n), axis=0), [batch_size, 1])
                classes = tf.strings.as_string(classes, name="classes_tensor")
        return {head_name: (problem_type, {_PK.PROBABILITIES: probabilities, _PK.CLASSES: classes})}

    return create_output_alternatives
