"""Graph structure of ``(gradient, variable)`` pairs (private module).

The one place that skips ``None`` gradients, rebuilds ``IndexedSlices`` (keeping
``indices`` and ``dense_shape``), colocates per-gradient work, scales a gradient
(float16/bfloat16 in float32, cast once) and tells which pairs are partitions of
one ``PartitionedVariable``.
"""

import contextlib

import numpy as np

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf

_HALF_DTYPES = (tf.float16, tf.bfloat16)


def values(grad):
    """The dense values of a gradient: ``grad.values`` for ``IndexedSlices``, else ``grad``."""
    return grad.values if isinstance(grad, tf.IndexedSlices) else grad


def with_values(grad, new_values):
    """``grad`` with its values replaced; an ``IndexedSlices`` keeps ``indices`` and ``dense_shape``."""
    if isinstance(grad, tf.IndexedSlices):
        return tf.IndexedSlices(new_values, grad.indices, grad.dense_shape)
    return new_values


def present(pairs):
    """The gradients of ``pairs`` that are not ``None``, in order."""
    return [g for g, _ in pairs if g is not None]


def colocate(grad):
    """A context placing ops next to ``grad`` (nothing in eager mode)."""
    if tf.executing_eagerly():
        return contextlib.nullcontext()
    return tf.compat.v1.get_default_graph().colocate_with(values(grad))


def map_gradients(pairs, fn):
    """``[(fn(grad, var), var)]`` for present gradients, colocated with each; ``None`` kept."""
    out = []
    for grad, var in pairs:
        if grad is not None:
            with colocate(grad):
                grad = fn(grad, var)
        out.append((grad, var))
    return out


def compute_dtype(dtype):
    """The dtype a gradient of ``dtype`` is scaled in: float32 for float16/bfloat16, else ``dtype``."""
    dtype = dtype.base_dtype
    return tf.float32 if dtype in _HALF_DTYPES else dtype


def scale(grad, factor):
    """``grad * factor`` for a 0-d ``factor`` of ``compute_dtype(grad.dtype)``; stays sparse.

    float16 and bfloat16 values are multiplied in float32 and cast back once, so a
    factor below their range (e.g. 1e-8) does not flush the gradient to zero.
    """
    return with_values(grad, scale_values(values(grad), factor))


def scale_values(tensor, factor):
    """``tensor * factor`` (``factor`` broadcastable, any float dtype) computed in
    ``compute_dtype(tensor.dtype)`` and returned in ``tensor``'s dtype."""
    dtype = tensor.dtype.base_dtype
    if factor.dtype != compute_dtype(dtype):
        factor = tf.cast(factor, compute_dtype(dtype))
    if dtype in _HALF_DTYPES:
        return tf.cast(tf.cast(tensor, tf.float32) * factor, dtype)
    return tensor * factor


class FactorCache(object):
    """One cast of a scalar (or vector) factor per compute dtype."""

    def __init__(self, factor):
        self._by_dtype = {factor.dtype.base_dtype: factor}

    def get(self, dtype):
        dtype = compute_dtype(dtype)
        if dtype not in self._by_dtype:
            first = next(iter(self._by_dtype.values()))
            self._by_dtype[dtype] = tf.cast(first, dtype)
        return self._by_dtype[dtype]


def scale_pairs(pairs, factor):
    """Multiplies every gradient by the 0-d ``factor`` (cast once per dtype), next to it."""
    cache = FactorCache(factor)
    return map_gradients(pairs, lambda grad, _: scale(grad, cache.get(grad.dtype)))


# --- partitioned variables --------------------------------------------------------------------


def slice_info(var):
    """``(full_name, full_shape, var_offset)`` of a partition of a ``PartitionedVariable``, else None.

    TensorFlow keeps this in a private attribute, reached through ``_tf.save_slice_info``.
    """
    info = _tf.save_slice_info(var)
    if info is None or not getattr(info, "full_name", None):
        return None
    return info.full_name, tuple(info.full_shape), tuple(info.var_offset)


def units(variables):
    """Groups positions of ``variables`` by the variable the user made.

    Returns ``(groups, full)``: ``groups`` is a list of position lists, one per
    ``PartitionedVariable`` that has more than one partition in ``variables``
    plus one per other position; ``full[i]`` is ``(full_name, full_shape)`` of
    the variable at position ``i`` (its own name and shape when not a partition).
    A partition listed ``k`` times (towers' pairs concatenated) is in ``k``
    groups, its ``j``-th listing in the ``j``-th group of its variable, as a
    variable listed twice is two units.
    """
    groups, by_name, full, listed = [], {}, [], {}
    for i, var in enumerate(variables):
        info = slice_info(var)
        if info is None:
            groups.append([i])
            shape = getattr(var, "shape", None)
            full.append(
                (
                    getattr(var, "name", repr(var)),
                    tuple(shape.as_list()) if shape is not None and shape.rank is not None else None,
                )
            )
            continue
        full.append(info[:2])
        nth = listed[info] = listed.get(info, -1) + 1
        key = (info[0], nth)
        if key in by_name:
            by_name[key].append(i)
        else:
            by_name[key] = [i]
            groups.append(by_name[key])
    return groups, full


def partition_axis(variables):
    """The axis the partitions of one variable are split along (None for a single partition)."""
    axes = set()
    for var in variables:
        _, full_shape, _ = slice_info(var)
        axes.update(a for a, (n, full) in enumerate(zip(var.shape.as_list(), full_shape)) if n != full)
    if len(axes) > 1:
        raise ValueError(
            "tf1clip: the partitions of %s are split along several axes %s; only one "
            "partitioned axis is supported." % (slice_info(variables[0])[0], sorted(axes))
        )
    return axes.pop() if axes else None


def full_size(shape):
    return float(np.prod(shape)) if shape is not None else None
