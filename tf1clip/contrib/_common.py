"""Helpers shared by the tf.contrib drop-ins (private)."""

import numbers
import os

import numpy as np

from tf1clip.core import _pairs, _state, _validate, clipping
from tf1clip.compat import _tf
from tf1clip.compat._tf import tf

_v1 = tf.compat.v1
_NUMBER_TYPES = (numbers.Real, np.number, np.ndarray, tf.Tensor, tf.Variable)


def is_number_like(value):
    """True for a Python/NumPy number, an array or a tensor (bools excluded)."""
    return isinstance(value, _NUMBER_TYPES) and not isinstance(value, (bool, np.bool_))


def check_loss(loss, arg):
    """``loss`` as a scalar tensor; ``ValueError`` naming ``arg`` otherwise."""
    if loss is None:
        raise ValueError("`%s` must be a scalar Tensor; received None." % arg)
    try:
        loss = tf.convert_to_tensor(loss)
    except (TypeError, ValueError) as err:
        raise ValueError(
            "`%s` must be a scalar Tensor; received %s (%s)." % (arg, _validate.describe(loss), err)
        ) from None
    if not (loss.dtype.is_floating or loss.dtype.is_integer):
        raise ValueError("`%s` must be a real scalar Tensor; received a %s tensor." % (arg, loss.dtype.name))
    if loss.shape.rank != 0:
        raise ValueError(
            "Expected scalar shape for %s, saw shape: %s. `%s` must be a scalar "
            "Tensor (reduce it, e.g. with tf.reduce_mean)." % (loss.name, loss.shape, arg)
        )
    return loss


def check_ops(ops, arg):
    """A list of operations or tensors (an ``Operation`` alone is refused: contrib wants a list)."""
    ops = _validate.iterable(ops, arg, "operations")
    for i, op in enumerate(ops):
        if not isinstance(op, (tf.Operation, tf.Tensor, tf.Variable)):
            raise TypeError("`%s[%d]` must be an operation or tensor; received %s." % (arg, i, _validate.describe(op)))
    return ops


def check_variables(variables, arg):
    """A list of variables; ``TypeError`` naming ``arg[i]`` for anything else."""
    variables = _validate.iterable(variables, arg, "variables")
    for i, var in enumerate(variables):
        if not _validate.is_variable_like(var):
            raise TypeError("`%s[%d]` must be a variable; received %s." % (arg, i, _validate.describe(var)))
    return variables


def unique(items):
    """``items`` as a list without repeats (by identity), first occurrence kept."""
    seen = set()
    result = []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            result.append(item)
    return result


def with_dependencies(dependencies, output):
    """Returns ``tf.identity(output)`` run after ``dependencies``, colocated with ``output``."""
    with _v1.get_default_graph().colocate_with(output.op):
        with tf.control_dependencies(dependencies):
            return tf.identity(output, name="control_dependency")


def check_global_step(global_step, will_increment):
    """Validates an explicit global step as contrib did, plus one check contrib lacked.

    Raises ``TypeError`` (TensorFlow's ``assert_global_step`` messages) for a
    non-tensor, a non-integer or a non-scalar step, and ``TypeError`` for a
    plain tensor that is to be incremented (contrib failed later with an
    ``AttributeError`` from ``assign_add``).
    """
    _v1.train.assert_global_step(global_step)
    if will_increment and isinstance(global_step, tf.Tensor) and not _tf.is_ref_dtype(global_step.dtype):
        raise TypeError(
            "`global_step` is the tensor %s, which cannot be incremented; pass a "
            "variable (e.g. tf.compat.v1.train.get_or_create_global_step()) or "
            "do not ask for the increment." % global_step.name
        )
    return global_step


USE_GLOBAL_STEP = 0
"""contrib's default ``global_step`` of ``create_train_op``: "use the graph's global step"."""


def call_transform(fn, grads_and_vars, arg):
    """Applies a user's transform passed as ``arg``; returns ``(pairs, state updates)``.

    As contrib did, its result is applied as is: it may drop pairs (e.g. those
    with a ``None`` gradient); it must be a list of pairs. Stateful cappers
    in it are run through ``run_capper``, their updates returned.
    """
    _state.check_capper(fn, arg)
    return _state.run_capper(fn, _validate.check_pairs(grads_and_vars), label="`%s`" % arg, same_variables=False)


def check_train_op(train_op):
    """``train_op`` when it is a tensor or an op; ``ValueError`` for None, ``TypeError`` otherwise."""
    if train_op is None:
        raise ValueError("train_op cannot be None.")
    if not isinstance(train_op, (tf.Tensor, tf.Operation)):
        raise TypeError(
            "`train_op` must be the Tensor (or Operation) that runs one training step, e.g. "
            "create_train_op's result; received %r of type %s." % (train_op, type(train_op).__name__)
        )
    return train_op


def check_logdir(logdir):
    """``logdir`` as a path string, or None; ``TypeError`` otherwise."""
    if logdir is None:
        return None
    try:
        return os.fspath(logdir)
    except TypeError:
        raise TypeError(
            "`logdir` must be a directory path (str) or None; received %r of type %s." % (logdir, type(logdir).__name__)
        ) from None


def op_name(var):
    """``var.op.name`` (``'w'``); eager variables have no ``op``, so their name minus ``':0'``."""
    try:
        return var.op.name
    except AttributeError:
        return _validate.op_name(var)


def _key_id(key):
    return id(key.deref() if hasattr(key, "deref") else key)


def find_multipliers(gradient_multipliers, grads_and_vars, var_key, key_desc):
    """Returns one multiplier (or ``None``) per pair.

    A key may be the variable itself (or its ``ref()``), looked up first, or
    the string ``var_key(var)`` (``key_desc`` describes it in the warning).
    Keys matching no variable of ``grads_and_vars`` are ignored, as contrib
    did, but with a warning: silence hid typos such as ``'w'`` for ``'w:0'``.
    """
    by_id = {_key_id(k): v for k, v in gradient_multipliers.items() if not isinstance(k, str)}
    by_name = {k: v for k, v in gradient_multipliers.items() if isinstance(k, str)}
    found, matched = [], set()
    for _, var in grads_and_vars:
        name = None if id(var) in by_id else var_key(var)
        if name is None:
            matched.add(id(var))
            found.append(by_id[id(var)])
        elif name in by_name:
            matched.add(name)
            found.append(by_name[name])
        else:
            found.append(None)
    unused = [
        k if isinstance(k, str) else _validate.var_name(k)
        for k in gradient_multipliers
        if (k if isinstance(k, str) else _key_id(k)) not in matched
    ]
    if unused:
        _v1.logging.warning(
            "gradient_multipliers keys %s match no variable being trained and are "
            "ignored; keys are variables or their %s.",
            unused,
            key_desc,
        )
    return found


def multiply(grad, multiplier):
    """``grad * multiplier`` in ``grad``'s dtype; ``IndexedSlices`` stay sparse.

    ``multiplier`` is a real number or a real tensor broadcastable to the
    gradient's values; anything else is a ``TypeError`` naming the multiplier.
    """
    if isinstance(multiplier, (tf.Tensor, tf.Variable, np.ndarray)):
        kind = (
            multiplier.dtype.kind
            if isinstance(multiplier, np.ndarray)
            else ("f" if multiplier.dtype.is_floating else "i" if multiplier.dtype.is_integer else "x")
        )
        if kind not in "iuf":
            raise TypeError(
                "`gradient_multipliers`: a multiplier must be a real number or tensor; received %s."
                % _validate.describe(multiplier)
            )
        multiplier = tf.convert_to_tensor(multiplier)
    else:
        static = _validate.static_scalar(multiplier, "gradient_multipliers")
        multiplier = tf.constant(static, _pairs.compute_dtype(grad.dtype))
    return _pairs.scale(grad, multiplier)


def multiply_gradients(grads_and_vars, gradient_multipliers):
    """contrib.training / contrib.slim ``multiply_gradients`` (keys: variable or ``var.op.name``)."""
    if not isinstance(grads_and_vars, list):
        raise ValueError("`grads_and_vars` must be a list; received %s." % _validate.describe(grads_and_vars))
    if not gradient_multipliers:
        raise ValueError("`gradient_multipliers` is empty; received %s." % _validate.describe(gradient_multipliers))
    if not isinstance(gradient_multipliers, dict):
        raise ValueError(
            "`gradient_multipliers` must be a dict; received %s." % _validate.describe(gradient_multipliers)
        )
    pairs = _validate.check_pairs(grads_and_vars)
    multipliers = find_multipliers(gradient_multipliers, pairs, op_name, "op names ('w', not 'w:0')")
    result = []
    for (grad, var), multiplier in zip(pairs, multipliers):
        if multiplier is not None:
            if grad is None:
                raise ValueError(
                    "Requested multiple of `None` gradient: the variable %s has no gradient." % _validate.var_name(var)
                )
            grad = multiply(grad, multiplier)
        result.append((grad, var))
    return result


def add_gradients_summaries(grads_and_vars, separator):
    """Histogram ``<var.op.name><sep>gradient`` and scalar ``...gradient_norm`` per gradient."""
    summaries = []
    for grad, var in _validate.check_pairs(grads_and_vars):
        if grad is None:
            _v1.logging.info("Var %s has no gradient", op_name(var))
            continue
        prefix = op_name(var) + separator
        summaries.append(_v1.summary.histogram(prefix + "gradient", _pairs.values(grad)))
        summaries.append(_v1.summary.scalar(prefix + "gradient_norm", clipping.global_norm([(grad, var)])))
    return summaries
