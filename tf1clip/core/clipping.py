"""Gradient clipping over lists of ``(gradient, variable)`` pairs.

Every function here takes the list that ``Optimizer.compute_gradients`` returns
and gives back a new list with the same variables in the same order, ready for
``apply_gradients``. The shared rules:

* a ``None`` gradient stays ``None``;
* a ``tf.IndexedSlices`` gradient stays ``IndexedSlices``: its ``values`` are
  scaled, ``indices`` and ``dense_shape`` are kept, nothing is densified. Norms
  are taken over ``values`` as they are, so rows repeated in ``indices`` count
  once each (the norm of the values, as ``tf.clip_by_global_norm`` does),
  which can differ from the norm of the summed dense gradient either way;
  ``sum_duplicate_indices`` merges repeated rows first when that matters;
* norms are accumulated in float32 whatever the gradient dtypes (float16 and
  bfloat16 are cast up first), and the sum across tensors in float64 when any
  gradient is float64; a gradient is multiplied in its own dtype, float16 and
  bfloat16 in float32 (cast back once);
* a ``clip_norm`` may be a real number (made a constant of the accumulation
  dtype, never passed through float32) or a 0-d tensor and must be > 0; a
  clip_norm that is statically ``inf`` returns the gradients unchanged;
* the partitions of a ``PartitionedVariable`` are one tensor to the per-tensor
  functions (``clip_by_norm``, ``clip_by_average_norm``); a variable or partition
  listed twice (towers' lists concatenated) is two tensors;
* a non-finite norm (a gradient holding ``inf`` or ``nan``) turns the clipped
  gradients it governs into NaN, TensorFlow's rule since 1.14, which is what
  lets a loss-scale optimizer see the overflow and skip the step;
* the same calls work in graph mode, in eager mode and in ``tf.function``.
* arguments are validated once: the pairs and numbers tf1clip validated already
  (``_validate.CheckedPairs``, ``_validate.Checked``) are used as they are; the result is a list.

The work is built to cost little (see ``benchmarks/RESULTS.md``): one
multiply per gradient, the scale arithmetic done once on a vector, one
``ClipByValue`` per gradient (``Maximum`` and ``Minimum`` for one of at least
``_VALUE_MINMAX_MIN_ELEMENTS`` elements), and the norms reduced by batch: small dense
gradients that share a device, a dtype and their trailing dimensions are
concatenated so that one reduction covers them all; larger ones and
``IndexedSlices`` get one ``L2Loss`` each. In the per-tensor functions a
gradient of more than ``_ALONE_MIN_ELEMENTS`` elements is scaled as soon as
its own norm exists, without waiting for the others.
"""

import math
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np

from tf1clip.core import _batching
from tf1clip.core import _norms
from tf1clip.core import _pairs
from tf1clip.core import _validate
from tf1clip.compat._tf import tf

__all__ = [
    "sum_duplicate_indices",
    "global_norm",
    "clip_by_value",
    "clip_by_norm",
    "clip_by_average_norm",
    "clip_by_global_norm",
]

Pairs = List[Tuple[Any, Any]]


# Per-tensor clipping: a gradient of more elements than this (or of unknown
# size) gets its own scalar scale, so it is scaled as soon as its own norm
# exists (while it is still in cache) instead of after the vector of all
# norms; smaller ones share the vectorised scale arithmetic. 2**16 float32
# values are 256 KiB, about a core's L2 cache.
_ALONE_MIN_ELEMENTS = 1 << 16


# Value clipping: a gradient of at least this many elements (or of unknown size)
# is clipped by Maximum then Minimum, a smaller one by one ClipByValue. Measured
# in training steps (benchmarks/RESULTS.md): Maximum + Minimum faster at 65,536
# (sparse_embedding) and 1M (few_large) elements, ClipByValue at <= 1,024 (many_small).
_VALUE_MINMAX_MIN_ELEMENTS = 1 << 16


def _global_norm(grads, acc_dtype):
    half_sq = []
    for batch in _batching.batches(grads):
        values = _batching.joined_values(grads, batch)
        with _pairs.colocate(values):
            half_sq.append(_norms.half_sq_norm(values, acc_dtype))
    total = half_sq[0] if len(half_sq) == 1 else tf.math.add_n(half_sq)
    return tf.sqrt(total * tf.constant(2, acc_dtype))


def global_norm(grads_and_vars: Iterable[Tuple[Any, Any]], name: Optional[str] = None) -> Any:
    """Returns the global L2 norm of the gradients: sqrt(sum_i ||g_i||^2).

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs; ``None`` gradients
        are ignored, ``IndexedSlices`` contribute the norm of their ``values``.
      name: optional name scope (default ``"global_norm"``).

    Returns:
      A 0-d float32 tensor (float64 if any gradient is float64); 0 for an empty
      or all-``None`` list.
    """
    grads = _pairs.present(_validate.checked_pairs(grads_and_vars))
    with tf.name_scope(name or "global_norm"):
        if not grads:
            return tf.constant(0.0, tf.float32)
        return _global_norm(grads, _norms.acc_dtype(grads))


def clip_by_global_norm(
    grads_and_vars: Iterable[Tuple[Any, Any]],
    clip_norm: Any,
    use_norm: Any = None,
    name: Optional[str] = None,
) -> Tuple[Pairs, Any]:
    """Scales all gradients together so that their global norm is at most ``clip_norm``.

    With ``n = global_norm(grads_and_vars)``, each gradient becomes
    ``g * min(clip_norm / n, 1)`` (Pascanu et al., 2013, "On the difficulty of
    training recurrent neural networks"). The direction of the whole update is
    kept. If ``n`` is inf or NaN every clipped gradient is NaN.

    Example (TF1 graph)::

        grads_and_vars = opt.compute_gradients(loss)
        clipped, norm = tf1clip.clip_by_global_norm(grads_and_vars, 5.0)
        train_op = opt.apply_gradients(clipped, global_step=step)

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs.
      clip_norm: the limit, > 0: a number or a 0-d tensor.
      use_norm: optional 0-d tensor holding the global norm to use instead of
        computing it (e.g. one already computed for logging).
      name: optional name scope (default ``"clip_by_global_norm"``).

    Returns:
      ``(clipped_pairs, norm)``: the new pairs, same variables and order, and
      the pre-clip global norm (``use_norm`` when given).
    """
    pairs = _validate.checked_pairs(grads_and_vars)
    static, clip_norm = _validate.check_clip_norm(clip_norm)
    grads = _pairs.present(pairs)
    with tf.name_scope(name or "clip_by_global_norm"):
        if not grads:
            norm = tf.constant(0.0, tf.float32) if use_norm is None else use_norm
            return list(pairs), norm
        acc_dtype = _norms.acc_dtype(grads)
        norm = _global_norm(grads, acc_dtype) if use_norm is None else use_norm
        if static == math.inf:
            return list(pairs), norm
        norm_acc = _norms.cast(norm, acc_dtype)
        limit = _validate.scalar_tensor(clip_norm, static, acc_dtype, "clip_norm")
        scale = tf.minimum(limit / norm_acc, tf.constant(1, acc_dtype))
        return _pairs.scale_pairs(pairs, _norms.nan_if_nonfinite(scale, norm_acc)), norm


def _at_least(grad, elements):
    """True if ``grad`` has ``elements`` or more values, or a size unknown while building."""
    shape = _pairs.values(grad).shape
    return not shape.is_fully_defined() or shape.num_elements() >= elements


def _scaled_alone(grad):
    return _at_least(grad, _ALONE_MIN_ELEMENTS + 1)


def _alone_scale(grad, half_limit, one):
    """min(limit / ||g||, 1) of one gradient from its own norm: ``half_limit`` is limit / sqrt(2)."""
    half_sq = _norms.half_sq_norm(grad, one.dtype)
    scale = tf.minimum(half_limit * tf.math.rsqrt(half_sq), one)
    return _norms.nan_if_nonfinite(scale, half_sq)


def _vector_scales(grads, units, limits, acc_dtype):
    """min(limit_i / ||unit_i||, 1) for each of ``grads``, computed as one vector.

    ``units[i]`` numbers the variable ``grads[i]`` belongs to (partitions of one
    ``PartitionedVariable`` share it); ``limits`` is a scalar or one limit per
    gradient. Returns ``(scales, slot)``: ``scales[slot[i]]`` is that of ``grads[i]``.
    """
    batches = _batching.batches(grads)
    singles = [batch[0] for batch in batches if len(batch) == 1]
    groups = [batch for batch in batches if len(batch) > 1]
    parts = []
    if singles:
        half_sq = []
        for i in singles:
            with _pairs.colocate(grads[i]):
                half_sq.append(_norms.half_sq_norm(grads[i], acc_dtype))
        parts.append(tf.stack(half_sq) * tf.constant(2, acc_dtype))
    parts.extend(_batching.sq_norms(grads, batch, acc_dtype) for batch in groups)
    sq = parts[0] if len(parts) == 1 else tf.concat(parts, 0)
    order = singles + [i for batch in groups for i in batch]
    unit_ids = {u: k for k, u in enumerate(sorted(set(units)))}
    if len(unit_ids) < len(units):
        segments = np.array([unit_ids[units[i]] for i in order], np.int32)
        sq = tf.gather(tf.math.unsorted_segment_sum(sq, segments, len(unit_ids)), segments)
    norms = tf.sqrt(sq)
    if limits.shape.rank and order != list(range(len(order))):
        limits = tf.gather(limits, order)
    scales = tf.minimum(limits / norms, tf.constant(1, acc_dtype))
    return _norms.nan_if_nonfinite(scales, norms), {i: k for k, i in enumerate(order)}


def _average_limits(present, positions, full, partitioned, clip_norm, acc_dtype):
    """clip_norm * size of each gradient's variable (the whole variable for a partition)."""
    limits = []
    for i, (grad, var) in enumerate(present):
        size = _pairs.full_size(full[i][1]) if i in partitioned else None
        if size is None:
            size = _num_elements(grad, acc_dtype, var, "grads_and_vars[%d]" % positions[i])
        limits.append(clip_norm * size)
    return limits


def _clip_each(pairs, clip_norm, acc_dtype, sizes=None):
    """Scales each gradient by min(limit / ||unit||, 1): ``limit`` is ``clip_norm`` (times
    the unit's size with ``sizes``), ``unit`` the variable the user made (the whole
    ``PartitionedVariable`` for a partition)."""
    return _scale_each(pairs, _norm_factors(pairs, clip_norm, acc_dtype, sizes))


def _scale_each(pairs, factors):
    """``pairs`` with each present gradient multiplied by its factor, in order."""
    factors = iter(factors)
    return _pairs.map_gradients(pairs, lambda grad, _: _pairs.scale(grad, next(factors)))


def _norm_factors(pairs, clip_norm, acc_dtype, sizes):
    """min(limit / ||unit||, 1) of each present gradient of ``pairs``, in order (see ``_clip_each``).

    Gradients of more than ``_ALONE_MIN_ELEMENTS`` elements (or of unknown size)
    that are not partitions get their own scalar scale; the others share one
    vectorised computation.
    """
    positions = [i for i, (g, _) in enumerate(pairs) if g is not None]
    present = [pairs[i] for i in positions]
    grads = [g for g, _ in present]
    groups, full = _pairs.units([v for _, v in present])
    unit_of = {i: k for k, group in enumerate(groups) for i in group}
    partitioned = {i for group in groups if len(group) > 1 for i in group}
    limits = None if sizes is None else _average_limits(present, positions, full, partitioned, clip_norm, acc_dtype)
    alone = [i for i, g in enumerate(grads) if i not in partitioned and _scaled_alone(g)]
    factor = _alone_factors(grads, alone, clip_norm, limits, acc_dtype) if alone else {}
    rest = [i for i in range(len(grads)) if i not in factor]
    if rest:
        factor.update(_shared_factors(grads, rest, [unit_of[i] for i in rest], clip_norm, limits, acc_dtype))
    return [factor[i] for i in range(len(grads))]


def _alone_factors(grads, alone, clip_norm, limits, acc_dtype):
    """``{i: factor}`` for the gradients ``alone``, each from its own norm; ``limits`` is None for one
    limit ``clip_norm``, else one limit per gradient."""
    root_half = tf.constant(math.sqrt(0.5), acc_dtype)
    one = tf.constant(1, acc_dtype)
    shared = clip_norm * root_half if limits is None else None
    factor = {}
    for i in alone:
        half_limit = shared if shared is not None else limits[i] * root_half
        with _pairs.colocate(grads[i]):
            factor[i] = _alone_scale(grads[i], half_limit, one)
    return factor


def _shared_factors(grads, rest, units, clip_norm, limits, acc_dtype):
    """``{i: factor}`` for the gradients ``rest`` (``units[k]`` the unit of ``rest[k]``) from one vector of
    scales, unstacked once per compute dtype; ``limits`` as in ``_alone_factors``."""
    if limits is None:
        vector_limits = clip_norm
    elif all(isinstance(limits[i], float) for i in rest):
        vector_limits = tf.constant([limits[i] for i in rest], acc_dtype)
    else:
        vector_limits = tf.stack([_norms.cast(limits[i], acc_dtype) for i in rest])
    scales, slot = _vector_scales([grads[i] for i in rest], units, vector_limits, acc_dtype)
    unstacked = {}
    factor = {}
    for k, i in enumerate(rest):
        dtype = _pairs.compute_dtype(grads[i].dtype)
        if dtype not in unstacked:
            unstacked[dtype] = tf.unstack(_norms.cast(scales, dtype), num=len(rest))
        factor[i] = unstacked[dtype][slot[k]]
    return factor


def clip_by_norm(grads_and_vars: Iterable[Tuple[Any, Any]], clip_norm: Any, name: Optional[str] = None) -> Pairs:
    """Clips each gradient to L2 norm ``clip_norm`` on its own.

    Each gradient becomes ``g * min(clip_norm / ||g||, 1)``, as
    ``tf.clip_by_norm`` does per tensor (and Keras ``clipnorm``). Tensors are
    clipped independently, so the direction of the whole update can change;
    use ``clip_by_global_norm`` to keep it. A gradient whose norm is inf or NaN
    becomes all NaN. The partitions of a ``PartitionedVariable`` are one tensor
    here: ``||g||`` is the norm over all of them.

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs.
      clip_norm: the limit for each tensor, > 0: a number or a 0-d tensor.
      name: optional name scope (default ``"clip_by_norm"``).

    Returns:
      The new list of pairs, same variables and order.
    """
    pairs = _validate.checked_pairs(grads_and_vars)
    static, clip_norm = _validate.check_clip_norm(clip_norm)
    grads = _pairs.present(pairs)
    if not grads or static == math.inf:
        return list(pairs)
    with tf.name_scope(name or "clip_by_norm"):
        acc_dtype = _norms.acc_dtype(grads)
        return _clip_each(pairs, _validate.scalar_tensor(clip_norm, static, acc_dtype, "clip_norm"), acc_dtype)


def _num_elements(grad, acc_dtype, var=None, where=None):
    """The number of elements of the dense gradient; for ``IndexedSlices`` without
    ``dense_shape``, that of the variable ``var`` (``where`` names the pair in errors)."""
    if isinstance(grad, tf.IndexedSlices):
        static = tf.get_static_value(grad.dense_shape) if grad.dense_shape is not None else None
        if static is not None:
            return float(np.prod(static))
        if grad.dense_shape is None:
            shape = getattr(var, "shape", None) if getattr(var, "dtype", None) != tf.resource else None
            if isinstance(shape, tf.TensorShape) and shape.is_fully_defined():
                return float(shape.num_elements())
            raise ValueError(
                "`%s`: clip_by_average_norm needs the size of the dense gradient of %s, but its "
                "IndexedSlices has dense_shape None and the variable's shape is %s; pass "
                "IndexedSlices(values, indices, dense_shape)." % (where, _validate.var_name(var), shape)
            )
        return tf.cast(tf.reduce_prod(grad.dense_shape), acc_dtype)
    if grad.shape.is_fully_defined():
        return float(grad.shape.num_elements())
    return tf.cast(tf.size(grad), acc_dtype)


def clip_by_average_norm(
    grads_and_vars: Iterable[Tuple[Any, Any]], clip_norm: Any, name: Optional[str] = None
) -> Pairs:
    """Clips each gradient so that its average L2 norm ``||g|| / size(g)`` is at most ``clip_norm``.

    Each gradient becomes ``g * min(clip_norm * size(g) / ||g||, 1)``, as the
    deprecated ``tf.compat.v1.clip_by_average_norm`` does; this equals
    ``clip_by_norm`` with limit ``clip_norm * size(g)``. For ``IndexedSlices``
    ``size`` is that of the dense gradient (the product of ``dense_shape``); the
    partitions of a ``PartitionedVariable`` are one tensor (norm and size of the
    whole variable).

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs.
      clip_norm: the limit on the average norm, > 0: a number or a 0-d tensor.
      name: optional name scope (default ``"clip_by_average_norm"``).

    Returns:
      The new list of pairs, same variables and order.
    """
    pairs = _validate.checked_pairs(grads_and_vars)
    static, clip_norm = _validate.check_clip_norm(clip_norm)
    grads = _pairs.present(pairs)
    if not grads or static == math.inf:
        return list(pairs)
    with tf.name_scope(name or "clip_by_average_norm"):
        acc_dtype = _norms.acc_dtype(grads)
        limit = static if static is not None and not isinstance(clip_norm, (tf.Tensor, tf.Variable)) else None
        if limit is None:
            limit = _validate.scalar_tensor(clip_norm, static, acc_dtype, "clip_norm")
        return _clip_each(pairs, limit, acc_dtype, sizes=True)


def _bound_for(value, static, dtype, cache, arg):
    if dtype not in cache:
        cache[dtype] = _validate.scalar_tensor(value, static, dtype, arg)
    return cache[dtype]


def clip_by_value(
    grads_and_vars: Iterable[Tuple[Any, Any]],
    clip_value_min: Any,
    clip_value_max: Any,
    name: Optional[str] = None,
) -> Pairs:
    """Clips every gradient element to ``[clip_value_min, clip_value_max]``.

    One ``ClipByValue`` kernel per gradient, or ``Maximum`` then ``Minimum`` for a
    gradient of at least 65,536 elements or of unknown size (measured faster in
    training steps at that size: ``benchmarks/RESULTS.md``). NaN elements stay NaN, ``+-inf``
    become the bounds (as ``tf.clip_by_value``).

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs.
      clip_value_min: lower bound, a number or a 0-d tensor.
      clip_value_max: upper bound, a number or a 0-d tensor, >= clip_value_min.
      name: optional name scope (default ``"clip_by_value"``).

    Returns:
      The new list of pairs, same variables and order.
    """
    pairs = _validate.checked_pairs(grads_and_vars)
    low, clip_value_min = _validate.checked_bound(clip_value_min, "clip_value_min")
    high, clip_value_max = _validate.checked_bound(clip_value_max, "clip_value_max")
    if low is not None and high is not None and low > high:
        raise ValueError(
            "`clip_value_min` must be <= `clip_value_max`; received clip_value_min=%r, clip_value_max=%r." % (low, high)
        )
    if not _pairs.present(pairs):
        return list(pairs)
    lows: Dict[Any, Any] = {}
    highs: Dict[Any, Any] = {}

    def clip(grad, _):
        dtype = grad.dtype.base_dtype
        lo = _bound_for(clip_value_min, low, dtype, lows, "clip_value_min")
        hi = _bound_for(clip_value_max, high, dtype, highs, "clip_value_max")
        values = _pairs.values(grad)
        if _at_least(grad, _VALUE_MINMAX_MIN_ELEMENTS):
            return _pairs.with_values(grad, tf.minimum(tf.maximum(values, lo), hi))
        return _pairs.with_values(grad, tf.raw_ops.ClipByValue(t=values, clip_value_min=lo, clip_value_max=hi))

    with tf.name_scope(name or "clip_by_value"):
        return _pairs.map_gradients(pairs, clip)


def sum_duplicate_indices(grads_and_vars: Iterable[Tuple[Any, Any]], name: Optional[str] = None) -> Pairs:
    """Merges the repeated rows of every ``IndexedSlices`` gradient, keeping it sparse.

    Each ``IndexedSlices`` becomes one with unique ``indices`` (in order of first
    appearance) whose ``values`` are the sums of the rows that shared an index, so
    norms taken afterwards are those of the dense gradient. Dense and ``None``
    gradients pass through. A capper itself: put it first in a ``chain``, e.g.
    ``chain(sum_duplicate_indices, clip_by_global_norm_fn(5.0))``.
    """
    pairs = _validate.checked_pairs(grads_and_vars)

    def merge(grad, _):
        if not isinstance(grad, tf.IndexedSlices):
            return grad
        unique, positions = tf.unique(grad.indices)
        values = tf.math.unsorted_segment_sum(grad.values, positions, tf.shape(unique)[0])
        return tf.IndexedSlices(values, unique, grad.dense_shape)

    with tf.name_scope(name or "sum_duplicate_indices"):
        return _pairs.map_gradients(pairs, merge)
