"""``tf.contrib.seq2seq.sequence_loss`` (TF 1.15's ``loss.py``)."""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def _check(
    logits, targets, weights, average_across_timesteps, average_across_batch, sum_over_timesteps, sum_over_batch
):
    if len(logits.get_shape()) != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
    if len(targets.get_shape()) != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if len(weights.get_shape()) != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time.")


def _reduce(crossent, weights, average, axis):
    """``sum(crossent) / sum(weights)`` (``average``) or ``/ count_nonzero(weights)`` over ``axis``, 0 where 0."""
    total = tf.reduce_sum(crossent, axis=axis)
    if average:
        size = tf.reduce_sum(weights, axis=axis)
    else:
        size = tf.cast(tf.math.count_nonzero(weights, axis=axis), total.dtype)
    return tf.math.divide_no_nan(total, size)


def sequence_loss(
    logits,
    targets,
    weights,
    average_across_timesteps=True,
    average_across_batch=True,
    sum_over_timesteps=False,
    sum_over_batch=False,
    softmax_loss_function=None,
    name=None,
):
    """Weighted cross-entropy of a sequence of logits, reduced as TF 1.15's ``tf.contrib.seq2seq.sequence_loss``.

    Args:
      logits: ``[batch, time, classes]`` float. targets: ``[batch, time]`` int. weights: ``[batch, time]`` float.
      average_across_timesteps / average_across_batch: sum over that axis and divide by the sum of the weights
        (both: by the sum of all weights). sum_over_timesteps / sum_over_batch: sum and divide by the number of
        non-zero weights. With an ``average_*`` option of one axis and a ``sum_*`` option of the other, only the
        average is applied (TF 1.15's precedence). Divisions by zero give 0.
      softmax_loss_function: ``f(labels=..., logits=...)`` in place of sparse softmax cross-entropy.
      name: the name scope (default ``"sequence_loss"``).

    Returns:
      A tensor of rank 0, 1 (``[batch]`` or ``[time]``) or 2, by the axes reduced.

    Raises:
      ValueError: wrong ranks, or an ``average_*`` and ``sum_*`` option of one axis both set.
    """
    logits = tf.convert_to_tensor(logits, name="logits")
    targets = tf.convert_to_tensor(targets, name="targets")
    weights = tf.convert_to_tensor(weights, name="weights")
    _check(logits, targets, weights, average_across_timesteps, average_across_batch, sum_over_timesteps, sum_over_batch)
    with v1.name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = tf.shape(logits)[2]
        logits_flat = tf.reshape(logits, [-1, num_classes])
        targets = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets, logits=logits_flat)
        crossent *= tf.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            return _reduce(crossent, weights, True, None)
        if sum_over_timesteps and sum_over_batch:
            return _reduce(crossent, weights, False, None)
        crossent = tf.reshape(crossent, tf.shape(logits)[0:2])
        if average_across_timesteps or average_across_batch:
            return _reduce(crossent, weights, True, [0] if average_across_batch else [1])
        if sum_over_timesteps or sum_over_batch:
            return _reduce(crossent, weights, False, [0] if sum_over_batch else [1])
        return crossent
