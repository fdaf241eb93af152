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
  gradient is float64; scales are cast back to each gradient's dtype;
* a ``clip_norm`` may be a Python or NumPy number or a 0-d tensor and must be
  > 0; a clip_norm that is statically ``inf`` returns the gradients unchanged;
* a non-finite norm (a gradient holding ``inf`` or ``nan``) turns the clipped
  gradients it governs into NaN, TensorFlow's rule since 1.14, which is what
  lets a loss-scale optimizer see the overflow and skip the step;
* the same calls work in graph mode, in eager mode and in ``tf.function``.

The work is built to cost little (see ``benchmarks/RESULTS.md``): one
multiply per gradient, the scale arithmetic done once on a vector, one
``ClipByValue`` per gradient, and the norms reduced by batch: small dense
gradients that share a device, a dtype and their trailing dimensions are
concatenated so that one reduction covers them all; larger ones and
``IndexedSlices`` get one ``L2Loss`` each.
"""

import collections.abc
import contextlib
import math
import numbers

import numpy as np

from tf1clip._tf import tf

__all__ = [
    "sum_duplicate_indices",
    "global_norm",
    "clip_by_value",
    "clip_by_norm",
    "clip_by_average_norm",
    "clip_by_global_norm",
]

_FLOAT_DTYPES = (tf.float16, tf.bfloat16, tf.float32, tf.float64)
_SCALAR_TYPES = (numbers.Real, np.number, np.bool_)


def _describe(value, limit=80):
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return "%s %s" % (type(value).__name__, text)


def _var_name(var):
    name = getattr(var, "name", None)
    return name if isinstance(name, str) else repr(var)


def _is_tensor_like(value):
    return isinstance(value, (tf.Tensor, tf.IndexedSlices, tf.Variable, np.ndarray))


def _check_pairs(grads_and_vars, arg="grads_and_vars"):
    """Returns ``grads_and_vars`` as a list of ``(gradient, variable)`` tuples.

    Gradients that are neither ``None``, a ``Tensor`` nor ``IndexedSlices`` are
    converted with ``tf.convert_to_tensor``. Raises ``TypeError`` naming ``arg``
    for anything that is not an iterable of pairs, for a pair given as
    ``(variable, gradient)`` and for a non-floating gradient.
    """
    if (
        _is_tensor_like(grads_and_vars)
        or isinstance(grads_and_vars, (str, bytes, dict))
        or not isinstance(grads_and_vars, collections.abc.Iterable)
    ):
        raise TypeError(
            "`%s` must be a list of (gradient, variable) pairs, as returned by "
            "compute_gradients(); received %s." % (arg, _describe(grads_and_vars))
        )
    pairs = []
    for i, item in enumerate(grads_and_vars):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise TypeError(
                "`%s[%d]` must be a (gradient, variable) pair; received %s."
                % (arg, i, _describe(item))
            )
        grad, var = item
        if isinstance(grad, tf.Variable) and not isinstance(var, tf.Variable):
            raise TypeError(
                "`%s[%d]` looks like (variable, gradient): pairs are (gradient, "
                "variable); received (%s, %s)."
                % (arg, i, _var_name(grad), _describe(var))
            )
        if grad is not None:
            if not isinstance(grad, (tf.Tensor, tf.IndexedSlices)):
                try:
                    grad = tf.convert_to_tensor(grad)
                except (TypeError, ValueError) as err:
                    raise TypeError(
                        "`%s[%d]`: the gradient of %s must be a Tensor, "
                        "IndexedSlices or None; received %s (%s)."
                        % (arg, i, _var_name(var), _describe(grad), err)
                    ) from None
            if grad.dtype.base_dtype not in _FLOAT_DTYPES:
                raise TypeError(
                    "`%s[%d]`: the gradient of %s has dtype %s; clipping needs "
                    "float16, bfloat16, float32 or float64."
                    % (arg, i, _var_name(var), grad.dtype.name)
                )
        pairs.append((grad, var))
    return pairs


def _check_clip_norm(clip_norm, arg="clip_norm"):
    """Validates a clip norm; returns ``(static_value_or_None, clip_norm)``.

    ``static_value`` is a Python float when the value is known at graph
    construction (a number, a NumPy scalar, a constant or eager tensor).
    """
    static = _static_scalar(clip_norm, arg)
    if static is not None and (math.isnan(static) or static <= 0):
        raise ValueError(
            "`%s` must be > 0 (use float('inf') for no clipping); received %r."
            % (arg, static)
        )
    return static, clip_norm


def _static_scalar(value, arg):
    """Returns a Python float for a statically known scalar, else None."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("`%s` must be a number or a 0-d tensor; received %s." % (arg, _describe(value)))
    if isinstance(value, _SCALAR_TYPES):
        return float(value)
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise ValueError("`%s` must be a scalar; received an array of shape %s." % (arg, value.shape))
        if not np.issubdtype(value.dtype, np.number):
            raise TypeError("`%s` must be a number; received %s." % (arg, _describe(value)))
        return float(value)
    if isinstance(value, (tf.Tensor, tf.Variable)):
        if not (value.dtype.is_floating or value.dtype.is_integer):
            raise TypeError("`%s` must be a real number; received a %s tensor." % (arg, value.dtype.name))
        if value.shape.rank not in (None, 0):
            raise ValueError("`%s` must be a 0-d tensor; received shape %s." % (arg, value.shape))
        if isinstance(value, tf.Variable):
            return None
        static = tf.get_static_value(value)
        return None if static is None else float(static)
    raise TypeError("`%s` must be a number or a 0-d tensor; received %s." % (arg, _describe(value)))


def _acc_dtype(grads):
    return tf.float64 if any(g.dtype.base_dtype == tf.float64 for g in grads) else tf.float32


def _values(grad):
    return grad.values if isinstance(grad, tf.IndexedSlices) else grad


def _at_least_float32(values):
    """float16 and bfloat16 values cast to float32, so their squares cannot overflow."""
    if values.dtype.base_dtype in (tf.float16, tf.bfloat16):
        return tf.cast(values, tf.float32)
    return values


def _half_sq_norm(grad, acc_dtype):
    """Returns sum(grad**2) / 2 of one gradient (one L2Loss op)."""
    half_sq = tf.raw_ops.L2Loss(t=_at_least_float32(_values(grad)))
    if half_sq.dtype != acc_dtype:
        half_sq = tf.cast(half_sq, acc_dtype)
    return half_sq


def _scale(grad, scale):
    """Multiplies one gradient by a scalar, keeping IndexedSlices sparse."""
    if scale.dtype != grad.dtype.base_dtype:
        scale = tf.cast(scale, grad.dtype.base_dtype)
    if isinstance(grad, tf.IndexedSlices):
        return tf.IndexedSlices(grad.values * scale, grad.indices, grad.dense_shape)
    return grad * scale


def _colocate(grad):
    if tf.executing_eagerly():
        return contextlib.nullcontext()
    return tf.compat.v1.get_default_graph().colocate_with(_values(grad))


def _scale_pairs(pairs, scale):
    """Multiplies every gradient by the scalar ``scale`` (cast once per dtype), next to it."""
    scales = {scale.dtype.base_dtype: scale}
    out = []
    for grad, var in pairs:
        if grad is not None:
            dtype = grad.dtype.base_dtype
            if dtype not in scales:
                scales[dtype] = tf.cast(scale, dtype)
            with _colocate(grad):
                grad = _scale(grad, scales[dtype])
        out.append((grad, var))
    return out


def _present(pairs):
    return [g for g, _ in pairs if g is not None]


def _as_acc(value, acc_dtype):
    value = tf.convert_to_tensor(value)
    return value if value.dtype == acc_dtype else tf.cast(value, acc_dtype)


def _nan_if_nonfinite(scale, norm):
    """Adds (norm - norm): 0 for a finite norm, NaN otherwise."""
    return scale + (norm - norm)


# Dense gradients of at most this many elements share their norm reductions
# (concatenated first). Measured in benchmarks/: the copy costs less than a
# reduction node per tensor up to about this size, more above it.
_BATCH_MAX_ELEMENTS = 1024


def _batch_key(grad):
    if isinstance(grad, tf.IndexedSlices) or not grad.shape.is_fully_defined():
        return None
    size = grad.shape.num_elements()
    if grad.shape.rank == 0 or size == 0 or size > _BATCH_MAX_ELEMENTS:
        return None
    return (grad.device, grad.dtype.base_dtype, tuple(grad.shape.as_list()[1:]))


def _batches(grads):
    """Groups the indices of ``grads`` for the norm reductions.

    Small dense gradients with the same device, dtype and trailing dimensions
    form one batch (listed where its first member is); every other gradient is
    a batch of its own.
    """
    batches, by_key = [], {}
    for i, grad in enumerate(grads):
        key = _batch_key(grad)
        if key is None:
            batches.append([i])
        elif key in by_key:
            by_key[key].append(i)
        else:
            by_key[key] = [i]
            batches.append(by_key[key])
    return batches


def _joined_values(grads, batch):
    """The values of ``grads[i] for i in batch``, concatenated along axis 0."""
    first = _values(grads[batch[0]])
    if len(batch) == 1:
        return first
    with _colocate(first):
        return tf.concat([grads[i] for i in batch], 0)


def _batch_sq_norms(grads, batch, acc_dtype):
    """Returns the squared L2 norm of each of ``grads[i] for i in batch`` (a vector)."""
    values = _joined_values(grads, batch)
    with _colocate(values):
        values = _at_least_float32(values)
        sq = tf.square(values)
        if values.shape.rank > 1:
            sq = tf.reduce_sum(sq, axis=list(range(1, values.shape.rank)))
        rows = [grads[i].shape[0] for i in batch]
        sq = tf.math.segment_sum(sq, np.repeat(np.arange(len(batch), dtype=np.int32), rows))
    return sq if sq.dtype == acc_dtype else tf.cast(sq, acc_dtype)


def _global_norm(grads, acc_dtype):
    half_sq = []
    for batch in _batches(grads):
        values = _joined_values(grads, batch)
        with _colocate(values):
            half_sq.append(_half_sq_norm(values, acc_dtype))
    total = half_sq[0] if len(half_sq) == 1 else tf.math.add_n(half_sq)
    return tf.sqrt(total * tf.constant(2, acc_dtype))


def global_norm(grads_and_vars, name=None):
    """Returns the global L2 norm of the gradients: sqrt(sum_i ||g_i||^2).

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs; ``None`` gradients
        are ignored, ``IndexedSlices`` contribute the norm of their ``values``.
      name: optional name scope (default ``"global_norm"``).

    Returns:
      A 0-d float32 tensor (float64 if any gradient is float64); 0 for an empty
      or all-``None`` list.
    """
    grads = _present(_check_pairs(grads_and_vars))
    with tf.name_scope(name or "global_norm"):
        if not grads:
            return tf.constant(0.0, tf.float32)
        return _global_norm(grads, _acc_dtype(grads))


def clip_by_global_norm(grads_and_vars, clip_norm, use_norm=None, name=None):
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
    pairs = _check_pairs(grads_and_vars)
    static, clip_norm = _check_clip_norm(clip_norm)
    grads = _present(pairs)
    with tf.name_scope(name or "clip_by_global_norm"):
        if not grads:
            norm = tf.constant(0.0, tf.float32) if use_norm is None else use_norm
            return pairs, norm
        acc_dtype = _acc_dtype(grads)
        norm = _global_norm(grads, acc_dtype) if use_norm is None else use_norm
        if static == math.inf:
            return pairs, norm
        norm_acc = _as_acc(norm, acc_dtype)
        scale = tf.minimum(_as_acc(clip_norm, acc_dtype) / norm_acc, tf.constant(1, acc_dtype))
        return _scale_pairs(pairs, _nan_if_nonfinite(scale, norm_acc)), norm


def _clip_each(pairs, limits, acc_dtype):
    """Scales each gradient by min(limit_i / ||g_i||, 1), vectorised over tensors.

    ``limits`` is a scalar or a vector with one limit per present gradient.
    """
    grads = _present(pairs)
    batches = _batches(grads)
    singles = [batch[0] for batch in batches if len(batch) == 1]
    groups = [batch for batch in batches if len(batch) > 1]
    parts = []
    if singles:
        half_sq = []
        for i in singles:
            with _colocate(grads[i]):
                half_sq.append(_half_sq_norm(grads[i], acc_dtype))
        parts.append(tf.stack(half_sq) * tf.constant(2, acc_dtype))
    parts.extend(_batch_sq_norms(grads, batch, acc_dtype) for batch in groups)
    norms = tf.sqrt(parts[0] if len(parts) == 1 else tf.concat(parts, 0))
    order = singles + [i for batch in groups for i in batch]
    if limits.shape.rank and order != list(range(len(order))):
        limits = tf.gather(limits, order)
    scales = tf.minimum(limits / norms, tf.constant(1, acc_dtype))
    scales = _nan_if_nonfinite(scales, norms)
    slot = {i: k for k, i in enumerate(order)}
    by_dtype = {}
    clipped = []
    i = 0
    for grad, var in pairs:
        if grad is not None:
            dtype = grad.dtype.base_dtype
            if dtype not in by_dtype:
                vector = scales if dtype == acc_dtype else tf.cast(scales, dtype)
                by_dtype[dtype] = tf.unstack(vector, num=len(grads))
            with _colocate(grad):
                grad = _scale(grad, by_dtype[dtype][slot[i]])
            i += 1
        clipped.append((grad, var))
    return clipped


def clip_by_norm(grads_and_vars, clip_norm, name=None):
    """Clips each gradient to L2 norm ``clip_norm`` on its own.

    Each gradient becomes ``g * min(clip_norm / ||g||, 1)``, as
    ``tf.clip_by_norm`` does per tensor (and Keras ``clipnorm``). Tensors are
    clipped independently, so the direction of the whole update can change;
    use ``clip_by_global_norm`` to keep it. A gradient whose norm is inf or NaN
    becomes all NaN.

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs.
      clip_norm: the limit for each tensor, > 0: a number or a 0-d tensor.
      name: optional name scope (default ``"clip_by_norm"``).

    Returns:
      The new list of pairs, same variables and order.
    """
    pairs = _check_pairs(grads_and_vars)
    static, clip_norm = _check_clip_norm(clip_norm)
    grads = _present(pairs)
    if not grads or static == math.inf:
        return pairs
    with tf.name_scope(name or "clip_by_norm"):
        acc_dtype = _acc_dtype(grads)
        return _clip_each(pairs, _as_acc(clip_norm, acc_dtype), acc_dtype)


def _num_elements(grad, acc_dtype):
    if isinstance(grad, tf.IndexedSlices):
        static = tf.get_static_value(grad.dense_shape) if grad.dense_shape is not None else None
        if static is not None:
            return float(np.prod(static))
        if grad.dense_shape is None:
            raise ValueError(
                "clip_by_average_norm needs the dense_shape of an IndexedSlices gradient."
            )
        return tf.cast(tf.reduce_prod(grad.dense_shape), acc_dtype)
    if grad.shape.is_fully_defined():
        return float(grad.shape.num_elements())
    return tf.cast(tf.size(grad), acc_dtype)


def clip_by_average_norm(grads_and_vars, clip_norm, name=None):
    """Clips each gradient so that its average L2 norm ``||g|| / size(g)`` is at most ``clip_norm``.

    Each gradient becomes ``g * min(clip_norm * size(g) / ||g||, 1)``, as the
    deprecated ``tf.compat.v1.clip_by_average_norm`` does; this equals
    ``clip_by_norm`` with limit ``clip_norm * size(g)``. For ``IndexedSlices``
    ``size`` is that of the dense gradient (the product of ``dense_shape``).

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs.
      clip_norm: the limit on the average norm, > 0: a number or a 0-d tensor.
      name: optional name scope (default ``"clip_by_average_norm"``).

    Returns:
      The new list of pairs, same variables and order.
    """
    pairs = _check_pairs(grads_and_vars)
    static, clip_norm = _check_clip_norm(clip_norm)
    grads = _present(pairs)
    if not grads or static == math.inf:
        return pairs
    with tf.name_scope(name or "clip_by_average_norm"):
        acc_dtype = _acc_dtype(grads)
        sizes = [_num_elements(g, acc_dtype) for g in grads]
        if all(isinstance(s, float) for s in sizes):
            sizes = tf.constant(sizes, acc_dtype)
        else:
            sizes = tf.stack([tf.constant(s, acc_dtype) if isinstance(s, float) else s for s in sizes])
        return _clip_each(pairs, _as_acc(clip_norm, acc_dtype) * sizes, acc_dtype)


def _check_bound(value, arg):
    static = _static_scalar(value, arg)
    if static is not None and math.isnan(static):
        raise ValueError("`%s` must not be NaN." % arg)
    return static


def _bound_for(value, static, dtype, cache):
    if dtype not in cache:
        if static is not None and not isinstance(value, (tf.Tensor, tf.Variable)):
            cache[dtype] = tf.constant(static, dtype)
        else:
            tensor = tf.convert_to_tensor(value)
            cache[dtype] = tensor if tensor.dtype == dtype else tf.cast(tensor, dtype)
    return cache[dtype]


def clip_by_value(grads_and_vars, clip_value_min, clip_value_max, name=None):
    """Clips every gradient element to ``[clip_value_min, clip_value_max]``.

    One ``ClipByValue`` kernel per gradient; NaN elements stay NaN, ``+-inf``
    become the bounds (as ``tf.clip_by_value``).

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs.
      clip_value_min: lower bound, a number or a 0-d tensor.
      clip_value_max: upper bound, a number or a 0-d tensor, >= clip_value_min.
      name: optional name scope (default ``"clip_by_value"``).

    Returns:
      The new list of pairs, same variables and order.
    """
    pairs = _check_pairs(grads_and_vars)
    low = _check_bound(clip_value_min, "clip_value_min")
    high = _check_bound(clip_value_max, "clip_value_max")
    if low is not None and high is not None and low > high:
        raise ValueError(
            "`clip_value_min` must be <= `clip_value_max`; received clip_value_min=%r, "
            "clip_value_max=%r." % (low, high)
        )
    if not _present(pairs):
        return pairs
    lows, highs = {}, {}
    clipped = []
    with tf.name_scope(name or "clip_by_value"):
        for grad, var in pairs:
            if grad is not None:
                dtype = grad.dtype.base_dtype
                lo = _bound_for(clip_value_min, low, dtype, lows)
                hi = _bound_for(clip_value_max, high, dtype, highs)
                with _colocate(grad):
                    values = tf.raw_ops.ClipByValue(t=_values(grad), clip_value_min=lo, clip_value_max=hi)
                if isinstance(grad, tf.IndexedSlices):
                    grad = tf.IndexedSlices(values, grad.indices, grad.dense_shape)
                else:
                    grad = values
            clipped.append((grad, var))
    return clipped


def sum_duplicate_indices(grads_and_vars, name=None):
    """Merges the repeated rows of every ``IndexedSlices`` gradient, keeping it sparse.

    Each ``IndexedSlices`` becomes one with unique ``indices`` (in order of first
    appearance) whose ``values`` are the sums of the rows that shared an index, so
    norms taken afterwards are those of the dense gradient. Dense and ``None``
    gradients pass through. A capper itself: put it first in a ``chain``, e.g.
    ``chain(sum_duplicate_indices, clip_by_global_norm_fn(5.0))``.
    """
    pairs = _check_pairs(grads_and_vars)
    out = []
    with tf.name_scope(name or "sum_duplicate_indices"):
        for grad, var in pairs:
            if isinstance(grad, tf.IndexedSlices):
                with _colocate(grad):
                    unique, positions = tf.unique(grad.indices)
                    values = tf.math.unsorted_segment_sum(grad.values, positions, tf.shape(unique)[0])
                grad = tf.IndexedSlices(values, unique, grad.dense_shape)
            out.append((grad, var))
    return out
