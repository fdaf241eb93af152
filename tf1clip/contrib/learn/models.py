"""``tf.contrib.learn.models`` (TF 1.15's ``python/learn/models.py``): ``linear_regression``,
``logistic_regression`` and their ``*_zero_init`` forms.

Same variables as TF 1.15 (``linear_regression/weights``, ``.../bias``; ``logistic_regression/...``), initializers
(the scope's default, or ``random_normal(init_mean, init_stddev)``) and histogram summaries. ``bidirectional_rnn``
and ``get_rnn_model`` are not re-created (``tf.compat.v1.nn.static_bidirectional_rnn`` and ``tf.keras``).
"""

from typing import Any, Optional

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.learn.ops import losses_ops

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


def _weights_and_bias(x: Any, outputs: Any, init_mean: Optional[float], init_stddev: float) -> Any:
    dtype = x.dtype.base_dtype
    initializer = None
    if init_mean is not None:
        initializer = _v1.random_normal_initializer(init_mean, init_stddev, dtype=dtype)
    weights = _v1.get_variable("weights", [x.get_shape()[1], outputs], initializer=initializer, dtype=dtype)
    bias = _v1.get_variable("bias", [outputs], initializer=initializer, dtype=dtype)
    scope_name = _v1.get_variable_scope().name
    _v1.summary.histogram("%s.weights" % scope_name, weights)
    _v1.summary.histogram("%s.bias" % scope_name, bias)
    return weights, bias


def _input_summaries(x: Any, y: Any) -> None:
    scope_name = _v1.get_variable_scope().name
    _v1.summary.histogram("%s.x" % scope_name, x)
    _v1.summary.histogram("%s.y" % scope_name, y)


def linear_regression(x: Any, y: Any, init_mean: Optional[float] = None, init_stddev: float = 1.0) -> Any:
    """``(predictions, mean squared error loss)`` of ``x @ weights + bias`` for the targets ``y``."""
    with _v1.variable_scope("linear_regression"):
        _input_summaries(x, y)
        y_shape = y.get_shape()
        outputs = 1 if len(y_shape) == 1 else y_shape[1]
        weights, bias = _weights_and_bias(x, outputs, init_mean, init_stddev)
        return losses_ops.mean_squared_error_regressor(x, y, weights, bias)


def logistic_regression(x, y, class_weight=None, init_mean=None, init_stddev=1.0) -> Any:
    """``(probabilities, softmax cross entropy loss)`` for the one-hot ``y``; ``class_weight`` (or a tensor named
    ``class_weight:0`` in the graph) scales the logits."""
    with _v1.variable_scope("logistic_regression"):
        _input_summaries(x, y)
        weights, bias = _weights_and_bias(x, y.get_shape()[-1], init_mean, init_stddev)
        if not class_weight:
            try:
                class_weight = _v1.get_default_graph().get_tensor_by_name("class_weight:0")
            except KeyError:
                pass
        return losses_ops.softmax_classifier(x, y, weights, bias, class_weight=class_weight)


def linear_regression_zero_init(x: Any, y: Any) -> Any:
    """``linear_regression`` from zero weights and bias."""
    return linear_regression(x, y, init_mean=0.0, init_stddev=0.0)


def logistic_regression_zero_init(x: Any, y: Any) -> Any:
    """``logistic_regression`` from zero weights and bias."""
    return logistic_regression(x, y, init_mean=0.0, init_stddev=0.0)
