"""``tf.contrib.learn.ops``' ``mean_squared_error_regressor`` and ``softmax_classifier`` (TF 1.15's
``ops/losses_ops.py``)."""

from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


def mean_squared_error_regressor(tensor_in: Any, labels: Any, weights: Any, biases: Any, name: Any = None) -> Any:
    """``(predictions, loss)``: ``tensor_in @ weights + biases`` (squeezed for rank-1 labels) and its
    ``tf.compat.v1.losses.mean_squared_error``."""
    with _v1.name_scope(name, "mean_squared_error_regressor", [tensor_in, labels]):
        predictions = _v1.nn.xw_plus_b(tensor_in, weights, biases)
        if len(labels.get_shape()) == 1 and len(predictions.get_shape()) == 2:
            predictions = tf.squeeze(predictions, axis=[1])
        return predictions, _v1.losses.mean_squared_error(labels, predictions)


def softmax_classifier(
    tensor_in: Any, labels: Any, weights: Any, biases: Any, class_weight: Any = None, name: Any = None
):
    """``(probabilities, loss)``: the softmax of ``tensor_in @ weights + biases`` (times ``class_weight``) and
    its ``tf.compat.v1.losses.softmax_cross_entropy`` with the one-hot ``labels``."""
    with _v1.name_scope(name, "softmax_classifier", [tensor_in, labels]):
        logits = _v1.nn.xw_plus_b(tensor_in, weights, biases)
        if class_weight is not None:
            logits = tf.multiply(logits, class_weight)
        return tf.nn.softmax(logits), _v1.losses.softmax_cross_entropy(labels, logits)
