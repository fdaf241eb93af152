"""Argument validation shared by every public function (private module).

One style everywhere: ``TypeError`` for the wrong kind of thing, ``ValueError``
for a wrong value, both naming the argument and showing what was received.
"""

import collections.abc
import math
import numbers
import re
from typing import Any, NamedTuple, Optional

import numpy as np

from tf1clip.compat._tf import tf

FLOAT_DTYPES = (tf.float16, tf.bfloat16, tf.float32, tf.float64)


def describe(value, limit=80):
    """``"<type> <repr>"``, the repr cut to ``limit`` characters."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = "<unprintable>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return "%s %s" % (type(value).__name__, text)


def var_name(var):
    """``var.name`` when it is a string, else ``repr(var)``."""
    name = getattr(var, "name", None)
    return name if isinstance(name, str) else repr(var)


def op_name(var):
    """``var.name`` without its ``:0`` output suffix (``'w'``), as ``var.op.name``."""
    name = var_name(var)
    return name[:-2] if name.endswith(":0") else name


def is_tensor_like(value):
    return isinstance(value, (tf.Tensor, tf.IndexedSlices, tf.Variable, np.ndarray))


def is_variable_like(value):
    """True for what ``apply_gradients`` accepts as a variable: a ``tf.Variable``
    (resource, reference, distributed or auto-cast), a resource-handle or
    reference tensor, or an object wrapping one (with ``name``, ``dtype`` and
    ``op`` or ``handle``)."""
    if isinstance(value, tf.Variable):
        return True
    if isinstance(value, tf.Tensor):
        return value.dtype == tf.resource or value.dtype.base_dtype != value.dtype
    return (
        hasattr(value, "dtype")
        and isinstance(getattr(value, "name", None), str)
        and (hasattr(value, "op") or hasattr(value, "handle"))
    )


def iterable(value, arg, what):
    """``list(value)`` for a non-string, non-tensor iterable, else ``TypeError`` naming ``arg``."""
    if (
        is_tensor_like(value)
        or isinstance(value, (str, bytes, dict, tf.Operation))
        or not isinstance(value, collections.abc.Iterable)
    ):
        raise TypeError("`%s` must be a list of %s; received %s." % (arg, what, describe(value)))
    return list(value)


class CheckedPairs(tuple):
    """``(gradient, variable)`` pairs that ``checked_pairs`` validated, or that tf1clip built from such pairs
    (the same variables, gradients of its own ops). The clipping functions and the optimizer wrapper's stages
    take them without validating them again. A tuple, so nothing changes them after the check; code outside
    tf1clip (user cappers, the wrapped optimizer, callers of the public functions) is handed lists."""

    __slots__ = ()


def checked_pairs(grads_and_vars, arg="grads_and_vars"):
    """``grads_and_vars`` as ``CheckedPairs``: as it is when it is one, else through ``check_pairs``."""
    if isinstance(grads_and_vars, CheckedPairs):
        return grads_and_vars
    return CheckedPairs(check_pairs(grads_and_vars, arg=arg))


def check_pairs(grads_and_vars, arg="grads_and_vars", allow_none_variable=True):
    """Returns ``grads_and_vars`` as a list of ``(gradient, variable)`` tuples.

    Gradients that are neither ``None``, a ``Tensor`` nor ``IndexedSlices`` are
    converted with ``tf.convert_to_tensor``. Raises ``TypeError`` naming ``arg``
    for anything that is not an iterable of pairs, for a pair given as
    ``(variable, gradient)``, for a second item that is neither a variable nor a
    ``Tensor`` (``None`` passes when ``allow_none_variable``: the pair functions
    never read the variable, and contrib's tests call them with ``(grad, None)``
    and ``(grad, grad)``) and for a non-floating gradient.
    """
    if (
        is_tensor_like(grads_and_vars)
        or isinstance(grads_and_vars, (str, bytes, dict))
        or not isinstance(grads_and_vars, collections.abc.Iterable)
    ):
        raise TypeError(
            "`%s` must be a list of (gradient, variable) pairs, as returned by "
            "compute_gradients(); received %s." % (arg, describe(grads_and_vars))
        )
    pairs = []
    for i, item in enumerate(grads_and_vars):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise TypeError("`%s[%d]` must be a (gradient, variable) pair; received %s." % (arg, i, describe(item)))
        grad, var = item
        if isinstance(grad, tf.Variable) and not isinstance(var, tf.Variable):
            raise TypeError(
                "`%s[%d]` looks like (variable, gradient): pairs are (gradient, "
                "variable); received (%s, %s)." % (arg, i, var_name(grad), describe(var))
            )
        if not (is_variable_like(var) or isinstance(var, tf.Tensor) or (var is None and allow_none_variable)):
            raise TypeError(
                "`%s[%d]`: the second item of a pair must be a variable (or a Tensor, or None); received %s."
                % (arg, i, describe(var))
            )
        if grad is not None:
            if not isinstance(grad, (tf.Tensor, tf.IndexedSlices)):
                try:
                    grad = tf.convert_to_tensor(grad)
                except (TypeError, ValueError) as err:
                    raise TypeError(
                        "`%s[%d]`: the gradient of %s must be a Tensor, "
                        "IndexedSlices or None; received %s (%s)." % (arg, i, var_name(var), describe(grad), err)
                    ) from None
            if grad.dtype.base_dtype not in FLOAT_DTYPES:
                raise TypeError(
                    "`%s[%d]`: the gradient of %s has dtype %s; clipping needs "
                    "float16, bfloat16, float32 or float64." % (arg, i, var_name(var), grad.dtype.name)
                )
        pairs.append((grad, var))
    return pairs


def _real_or_raise(value, arg):
    """A Python float for a real scalar that is not a tensor; ``None`` for anything else."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("`%s` must be a number or a 0-d tensor; received %s." % (arg, describe(value)))
    if isinstance(value, (np.timedelta64, np.datetime64)) or (
        isinstance(value, np.ndarray) and value.dtype.kind in "mM"
    ):
        raise TypeError("`%s` must be a real number; received %s." % (arg, describe(value)))
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise ValueError("`%s` must be a scalar; received an array of shape %s." % (arg, value.shape))
        if value.dtype.kind not in "iuf":
            raise TypeError("`%s` must be a real number; received %s." % (arg, describe(value)))
        value = value.item()
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise TypeError("`%s` must be a real number; received %s." % (arg, describe(value)))
    if not isinstance(value, numbers.Number):
        return None
    try:
        return float(value)
    except OverflowError:
        raise ValueError(
            "`%s` is too large for a float; received %s (use float('inf') for no limit)." % (arg, describe(value))
        ) from None
    except (TypeError, ValueError) as err:
        raise TypeError("`%s` must be a real number; received %s (%s)." % (arg, describe(value), err)) from None


def static_scalar(value, arg):
    """Validates a real scalar argument; returns its Python float when known while building, else None.

    Accepts Python and NumPy real numbers (``int``, ``float``, ``Fraction``,
    0-d arrays) and integer or floating 0-d tensors and variables. A tensor of
    unknown rank is accepted here; ``scalar_tensor`` adds its run-time check.
    """
    static = _real_or_raise(value, arg)
    if static is not None:
        return static
    if isinstance(value, (tf.Tensor, tf.Variable)):
        if not (value.dtype.is_floating or value.dtype.is_integer):
            raise TypeError("`%s` must be a real number; received a %s tensor." % (arg, value.dtype.name))
        if value.shape.rank not in (None, 0):
            raise ValueError("`%s` must be a 0-d tensor; received shape %s." % (arg, value.shape))
        if isinstance(value, tf.Variable):
            return None
        static = tf.get_static_value(value)
        return None if static is None else float(static)
    raise TypeError("`%s` must be a number or a 0-d tensor; received %s." % (arg, describe(value)))


def scalar_tensor(value, static, dtype, arg):
    """``value`` as a 0-d ``dtype`` tensor: built from ``static`` (the Python float) when
    ``value`` is not a tensor, so a Python number never passes through float32; a
    tensor of unknown rank gets a run-time check naming ``arg``."""
    if static is not None and not isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.constant(static, dtype)
    tensor = tf.convert_to_tensor(value)
    if tensor.shape.rank is None:
        check = tf.debugging.assert_rank(tensor, 0, message="`%s` must be a 0-d tensor" % arg)
        with tf.control_dependencies([check]):
            tensor = tf.identity(tensor)
    return tensor if tensor.dtype == dtype else tf.cast(tensor, dtype)


class Checked(NamedTuple):
    """A scalar argument validated once: ``static`` is its Python float when known while building (a
    number, a NumPy scalar, a constant or eager tensor), else None; ``value`` is the argument as given."""

    static: Optional[float]
    value: Any


def check_clip_norm(clip_norm, arg="clip_norm"):
    """Validates a clip norm (> 0); returns it as ``Checked`` (``static, value``), as it is when it is one."""
    if isinstance(clip_norm, Checked):
        return clip_norm
    static = static_scalar(clip_norm, arg)
    if static is not None and (math.isnan(static) or static <= 0):
        raise ValueError("`%s` must be > 0 (use float('inf') for no clipping); received %r." % (arg, static))
    return Checked(static, clip_norm)


def checked_bound(value, arg):
    """Validates a bound of ``clip_by_value`` (not NaN); returns it as ``Checked``, as it is when it is one."""
    if isinstance(value, Checked):
        return value
    static = static_scalar(value, arg)
    if static is not None and math.isnan(static):
        raise ValueError("`%s` must not be NaN." % arg)
    return Checked(static, value)


def check_number(value, arg, low=None, high=None, low_open=False, allow_none=False, finite=False):
    """A Python number (not a tensor) within the bounds, as a float; else TypeError/ValueError."""
    if value is None and allow_none:
        return None
    static = _real_or_raise(value, arg)
    if static is None:
        raise TypeError("`%s` must be a number; received %s." % (arg, describe(value)))
    check_range(static, arg, low, high, low_open, finite)
    return static


def check_range(value, arg, low=None, high=None, low_open=False, finite=False):
    """ValueError naming ``arg`` when the float ``value`` is NaN, out of bounds or (with ``finite``) inf."""
    too_low = low is not None and (value <= low if low_open else value < low)
    if math.isnan(value) or too_low or (high is not None and value > high) or (finite and math.isinf(value)):
        bounds = "%s %s" % (">" if low_open else ">=", low) if low is not None else ""
        if high is not None:
            bounds = (bounds + " and " if bounds else "") + "<= %s" % high
        if finite:
            bounds = (bounds + " and " if bounds else "") + "finite"
        raise ValueError("`%s` must be %s; received %r." % (arg, bounds or "a number", value))


def check_int(value, arg, low):
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, (int, np.integer))
        or isinstance(value, np.timedelta64)
    ):
        raise TypeError("`%s` must be an int; received %s." % (arg, describe(value)))
    if value < low:
        raise ValueError("`%s` must be >= %d; received %d." % (arg, low, value))
    return int(value)


def check_patterns(patterns, arg):
    """Compiles a list of regular expressions; TypeError/ValueError naming ``arg``."""
    if isinstance(patterns, (str, bytes)) or not isinstance(patterns, collections.abc.Iterable):
        raise TypeError("`%s` must be a list of names or patterns; received %s." % (arg, describe(patterns)))
    compiled = []
    for i, pattern in enumerate(patterns):
        if not isinstance(pattern, str):
            raise TypeError("`%s[%d]` must be a string; received %s." % (arg, i, describe(pattern)))
        try:
            compiled.append(re.compile(pattern))
        except re.error as err:
            raise ValueError(
                "`%s[%d]` is not a valid regular expression (%s); received %r." % (arg, i, err, pattern)
            ) from None
    return compiled


def check_optimizer(optimizer, arg="optimizer", example="tf.compat.v1.train.AdamOptimizer(0.001)"):
    """``optimizer`` if it is a ``tf.compat.v1.train.Optimizer`` instance, else ``TypeError`` naming ``arg``.

    The message gives ``example`` and, for a class or a Keras optimizer, what to pass instead.
    """
    v1_optimizer = tf.compat.v1.train.Optimizer
    if isinstance(optimizer, v1_optimizer):
        return optimizer
    if isinstance(optimizer, type) and issubclass(optimizer, v1_optimizer):
        hint = " Pass an instance, e.g. %s(learning_rate=0.001), not the class." % optimizer.__name__
    elif hasattr(optimizer, "apply_gradients") and hasattr(optimizer, "build"):
        hint = (
            " This is a Keras optimizer; give it clipnorm= / global_clipnorm= / "
            "clipvalue=, or use a tf.compat.v1.train optimizer here."
        )
    else:
        hint = ""
    raise TypeError(
        "`%s` must be a tf.compat.v1.train.Optimizer instance (e.g. %s); received %s.%s"
        % (arg, example, describe(optimizer), hint)
    )
