"""Batches of small dense gradients whose norms share one reduction (private module, public names).

Used by ``tf1clip.core.clipping`` (the norms) and the wrapper's policies (their
exact finiteness check reads the same concatenations).
"""

import numpy as np

from tf1clip.core import _norms, _pairs
from tf1clip.compat._tf import tf

# Dense gradients of at most this many elements share their norm reductions
# (concatenated first). Measured in benchmarks/: the copy costs less than a
# reduction node per tensor up to about this size, more above it.
MAX_ELEMENTS = 1024


def _key(grad):
    if isinstance(grad, tf.IndexedSlices) or not grad.shape.is_fully_defined():
        return None
    size = grad.shape.num_elements()
    if grad.shape.rank == 0 or size == 0 or size > MAX_ELEMENTS:
        return None
    return (grad.device, grad.dtype.base_dtype, tuple(grad.shape.as_list()[1:]))


def batches(grads):
    """Groups the indices of ``grads`` for the norm reductions.

    Small dense gradients with the same device, dtype and trailing dimensions
    form one batch (listed where its first member is); every other gradient is
    a batch of its own.
    """
    batches, by_key = [], {}
    for i, grad in enumerate(grads):
        key = _key(grad)
        if key is None:
            batches.append([i])
        elif key in by_key:
            by_key[key].append(i)
        else:
            by_key[key] = [i]
            batches.append(by_key[key])
    return batches


def joined_values(grads, batch):
    """The values of ``grads[i] for i in batch``, concatenated along axis 0."""
    first = _pairs.values(grads[batch[0]])
    if len(batch) == 1:
        return first
    with _pairs.colocate(first):
        return tf.concat([grads[i] for i in batch], 0)


def sq_norms(grads, batch, acc_dtype):
    """Returns the squared L2 norm of each of ``grads[i] for i in batch`` (a vector)."""
    values = joined_values(grads, batch)
    with _pairs.colocate(values):
        values = _norms.at_least_float32(values)
        sq = tf.square(values)
        if values.shape.rank > 1:
            sq = tf.reduce_sum(sq, axis=list(range(1, values.shape.rank)))
        sq = tf.math.segment_sum(sq, segments(grads, batch))
    return _norms.cast(sq, acc_dtype)


def segments(grads, batch):
    """The position in ``batch`` of each row of the batch's joined values (segment ids)."""
    return np.repeat(np.arange(len(batch), dtype=np.int32), [grads[i].shape[0] for i in batch])
