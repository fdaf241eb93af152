"""Helpers shared by tf1clip.contrib.opt's optimizers (reference and resource variables alike)."""

import contextlib
from typing import Any, Iterable, Iterator

from tf1clip.compat import _tf
from tf1clip.core import _validate
from tf1clip.compat._tf import tf

v1 = tf.compat.v1


def hyper(value: Any, name: str) -> Any:
    """A hyperparameter as a tensor: ``value()`` if callable, then ``convert_to_tensor``."""
    if callable(value):
        value = value()
    return tf.convert_to_tensor(value, name=name)


def cast(value: Any, var: Any) -> Any:
    """``value`` cast to ``var``'s base dtype."""
    return tf.cast(value, var.dtype.base_dtype)


def _is_resource(var: Any) -> bool:
    return hasattr(var, "handle")


@contextlib.contextmanager
def control_flow_for(variables: Iterable[Any]) -> Iterator[None]:
    """Builds control flow v1 in the block if one of ``variables`` is a reference variable.

    A control flow v2 branch is a function, and a function cannot take a
    reference: assigning to a reference variable in a v2 ``tf.cond`` branch
    raises ``TypeError``. Nothing changes for resource variables, or if control
    flow v2 is off.
    """
    if not any(_tf.is_ref_dtype(v.dtype) for v in variables) or not v1.control_flow_v2_enabled():
        yield
        return
    v1.disable_control_flow_v2()
    try:
        yield
    finally:
        v1.enable_control_flow_v2()


def _run(var: Any, ref_fn: Any, resource_fn: Any, read: bool) -> Any:
    if not _is_resource(var):
        return ref_fn()
    op = resource_fn()
    if not read:
        return op
    with tf.control_dependencies([op]):
        return var.read_value()


def scatter_update(var: Any, indices: Any, values: Any, use_locking: bool = False, read: bool = False) -> Any:
    """``var[indices] = values``; the update (an op), or with ``read=True`` the value after it."""
    return _run(
        var,
        lambda: v1.scatter_update(var, indices, values, use_locking=use_locking),
        lambda: tf.raw_ops.ResourceScatterUpdate(resource=var.handle, indices=indices, updates=values),
        read,
    )


def scatter_add(var: Any, indices: Any, values: Any, use_locking: bool = False, read: bool = False) -> Any:
    """``var[indices] += values`` (indices unique); see ``scatter_update``."""
    return _run(
        var,
        lambda: v1.scatter_add(var, indices, values, use_locking=use_locking),
        lambda: tf.raw_ops.ResourceScatterAdd(resource=var.handle, indices=indices, updates=values),
        read,
    )


def scatter_sub(var: Any, indices: Any, values: Any, use_locking: bool = False, read: bool = False) -> Any:
    """``var[indices] -= values`` (indices unique); see ``scatter_update``."""
    return _run(
        var,
        lambda: v1.scatter_sub(var, indices, values, use_locking=use_locking),
        lambda: tf.raw_ops.ResourceScatterSub(resource=var.handle, indices=indices, updates=values),
        read,
    )


def assign(var: Any, value: Any, use_locking: bool = False, read: bool = False) -> Any:
    """``var = value``; see ``scatter_update``."""
    return _run(
        var,
        lambda: v1.assign(var, value, use_locking=use_locking),
        lambda: tf.raw_ops.AssignVariableOp(resource=var.handle, value=tf.convert_to_tensor(value, var.dtype)),
        read,
    )


def assign_add(var: Any, value: Any, use_locking: bool = False, read: bool = False) -> Any:
    """``var += value``; see ``scatter_update``."""
    return _run(
        var,
        lambda: v1.assign_add(var, value, use_locking=use_locking),
        lambda: tf.raw_ops.AssignAddVariableOp(resource=var.handle, value=tf.convert_to_tensor(value, var.dtype)),
        read,
    )


def assign_sub(var: Any, value: Any, use_locking: bool = False, read: bool = False) -> Any:
    """``var -= value``; see ``scatter_update``."""
    return _run(
        var,
        lambda: v1.assign_sub(var, value, use_locking=use_locking),
        lambda: tf.raw_ops.AssignSubVariableOp(resource=var.handle, value=tf.convert_to_tensor(value, var.dtype)),
        read,
    )


def var_input(var: Any) -> Any:
    """What a training kernel takes for ``var``: the handle of a resource variable, else the reference."""
    return var.handle if hasattr(var, "handle") else var


def as_op(result: Any) -> Any:
    """An op from a kernel result (``Apply*`` kernels on references return a tensor)."""
    return result.op if isinstance(result, tf.Tensor) else result


def check_optimizer(opt: Any, arg: str = "opt") -> Any:
    """``opt`` if it is a ``tf.compat.v1.train.Optimizer`` instance, else ``TypeError`` naming ``arg``."""
    return _validate.check_optimizer(opt, arg, example="tf.compat.v1.train.MomentumOptimizer(0.1, 0.9)")
