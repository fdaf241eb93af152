"""``tf.contrib.training``'s gradient helpers, ``create_train_op`` and ``train`` (TF 1.15's ``training.py``).

``clip_gradient_norms`` clips each gradient on its own (per tensor), unlike
``tf1clip.contrib.estimator.clip_gradients_by_norm`` and ``optimize_loss``,
which use the global norm.
"""

import numbers
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from tf1clip.core import _validate
from tf1clip.core import cappers
from tf1clip.core import clipping
from tf1clip.compat._tf import tf
from tf1clip.contrib import _common
from tf1clip.compat import _slim
from tf1clip.contrib import framework
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1

_USE_GLOBAL_STEP = _common.USE_GLOBAL_STEP


def add_gradients_summaries(grads_and_vars: Iterable[Tuple[Any, Any]]) -> List[Any]:
    """Adds a histogram ``<var>_gradient`` and a scalar ``<var>_gradient_norm`` per gradient.

    ``<var>`` is ``var.op.name``; ``IndexedSlices`` are summarised by their
    ``values``; a ``None`` gradient is logged and skipped. (contrib.slim's
    version writes ``<var>/gradient`` instead.)

    Returns:
      The list of summary ops.
    """
    return _common.add_gradients_summaries(grads_and_vars, "_")


def clip_gradient_norms(gradients_to_variables: Iterable[Tuple[Any, Any]], max_norm: Any) -> List[Tuple[Any, Any]]:
    """Clips each gradient to L2 norm ``max_norm`` on its own (``tf1clip.clip_by_norm``).

    Per tensor, as contrib: ``g * min(max_norm / ||g||, 1)``. For
    ``IndexedSlices`` the norm is that of ``values`` (repeated indices are not
    summed first); ``indices`` and ``dense_shape`` are kept. ``None`` passes
    through.

    Args:
      gradients_to_variables: list of ``(gradient, variable)`` pairs.
      max_norm: the limit, > 0: a number or a 0-d tensor.

    Returns:
      A new list of pairs, same variables and order.

    Raises:
      ValueError: a static ``max_norm`` <= 0 (contrib flipped or zeroed the
        gradients).
    """
    pairs = _validate.check_pairs(gradients_to_variables, arg="gradients_to_variables")
    _validate.check_clip_norm(max_norm, "max_norm")
    return clipping.clip_by_norm(pairs, max_norm)


def clip_gradient_norms_fn(max_norm: Any) -> Callable[[Any], List[Tuple[Any, Any]]]:
    """Returns ``pairs -> clip_gradient_norms(pairs, max_norm)``, for ``transform_grads_fn``."""
    _validate.check_clip_norm(max_norm, "max_norm")

    def clip_norms(gradients_to_variables):
        return clip_gradient_norms(gradients_to_variables, max_norm)

    return clip_norms


def multiply_gradients(
    grads_and_vars: List[Tuple[Any, Any]], gradient_multipliers: Dict[Any, Any]
) -> List[Tuple[Any, Any]]:
    """Multiplies the gradients of selected variables.

    Args:
      grads_and_vars: a ``list`` of ``(gradient, variable)`` pairs.
      gradient_multipliers: a non-empty dict from a variable (or ``var.ref()``)
        or its ``var.op.name`` (``"w"``, no ``:0``) to a number or tensor; the
        multiplier is converted or cast to the gradient's dtype.

    Returns:
      A new list of pairs; ``IndexedSlices`` keep their ``indices`` and
      ``dense_shape``, unlisted variables are untouched.

    Raises:
      ValueError: ``grads_and_vars`` is not a list, ``gradient_multipliers`` is
        empty or not a dict, or a multiplier targets a ``None`` gradient.
    """
    return _common.multiply_gradients(grads_and_vars, gradient_multipliers)


def _is_default_step(global_step):
    return (
        isinstance(global_step, (numbers.Integral, np.integer))
        and not isinstance(global_step, (bool, np.bool_))
        and global_step == _USE_GLOBAL_STEP
    )


def _check_optimizer(optimizer):
    if not (hasattr(optimizer, "compute_gradients") and hasattr(optimizer, "apply_gradients")):
        _validate.check_optimizer(optimizer)  # raises its TypeError, with hints
    return optimizer


def _check_variables_to_train(variables_to_train):
    trainable = _v1.trainable_variables()
    if variables_to_train is None:
        variables_to_train = trainable
        if not variables_to_train:
            raise ValueError("There are no trainable variables to train.")
        return variables_to_train
    variables_to_train = _validate.iterable(variables_to_train, "variables_to_train", "variables")
    if not variables_to_train:
        raise ValueError("`variables_to_train` is empty: give at least one variable to train.")
    trainable_ids = {id(v) for v in trainable}
    for var in variables_to_train:
        if not (getattr(var, "trainable", False) or id(var) in trainable_ids):
            raise ValueError(
                "`variables_to_train` must hold trainable variables; %s is not one." % _validate.var_name(var)
            )
    return variables_to_train


def create_train_op(
    total_loss,
    optimizer,
    global_step=_USE_GLOBAL_STEP,
    update_ops=None,
    variables_to_train=None,
    transform_grads_fn=None,
    summarize_gradients=False,
    gate_gradients=_v1.train.Optimizer.GATE_OP,
    aggregation_method=None,
    colocate_gradients_with_ops=False,
    check_numerics=True,
):
    """Builds the op that computes ``total_loss``, its gradients and the update.

    ``tf.contrib.training.create_train_op`` of TF 1.15: runs ``update_ops``
    (behind a ``update_barrier`` no-op) before the loss, computes gradients of
    ``variables_to_train``, applies ``transform_grads_fn`` (e.g.
    ``clip_gradient_norms_fn(4.0)``), optionally adds gradient summaries under
    ``summarize_grads/``, applies them and returns a tensor equal to the loss
    (checked for inf/NaN under ``train_op/``). The result is added to the
    ``TRAIN_OP`` collection.

    Example::

        train_op = tf1clip.contrib.training.create_train_op(
            loss, tf.compat.v1.train.AdamOptimizer(1e-3),
            transform_grads_fn=tf1clip.contrib.training.clip_gradient_norms_fn(4.0))
        loss_value = sess.run(train_op)

    Args:
      total_loss: scalar ``Tensor``.
      optimizer: an object with ``compute_gradients`` and ``apply_gradients``
        (a ``tf.compat.v1.train.Optimizer`` or a wrapper of one).
      global_step: the default ``0`` (or any integer ``0``) means the graph's
        global step, created if missing; ``None`` means no increment;
        otherwise an integer scalar variable.
      update_ops: ops to run before the loss; default: the ``UPDATE_OPS``
        collection (a warning is logged when a given list misses some of it).
      variables_to_train: default: all trainable variables.
      transform_grads_fn: ``pairs -> pairs`` applied before the update.
      summarize_gradients: add ``summarize_grads/<var>_gradient`` summaries.
      gate_gradients, aggregation_method, colocate_gradients_with_ops: passed
        to ``compute_gradients``.
      check_numerics: fail the step when the loss is inf or NaN.

    Returns:
      A ``Tensor`` that, when evaluated, runs the update and returns the loss.

    Raises:
      TypeError: ``optimizer`` cannot compute and apply gradients; a
        ``global_step`` that is not an integer scalar variable.
      ValueError: ``variables_to_train`` is empty or holds a non-trainable
        variable (contrib used ``assert``).
    """
    total_loss = _common.check_loss(total_loss, "total_loss")
    _check_optimizer(optimizer)
    if update_ops is not None:
        update_ops = _common.check_ops(update_ops, "update_ops")
    if _is_default_step(global_step):
        global_step = framework.get_or_create_global_step()
    elif global_step is not None:
        _common.check_global_step(global_step, will_increment=True)

    total_loss = _after_update_ops(total_loss, update_ops)
    variables_to_train = _check_variables_to_train(variables_to_train)
    grads = optimizer.compute_gradients(
        total_loss,
        variables_to_train,
        gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops,
    )
    state_updates = []
    if transform_grads_fn:
        grads, state_updates = _common.call_transform(transform_grads_fn, grads, "transform_grads_fn")
    if summarize_gradients:
        with tf.name_scope("summarize_grads"):
            add_gradients_summaries(grads)
    grad_updates = optimizer.apply_gradients(grads, global_step=global_step)
    grad_updates = cappers.attach_state_updates(grad_updates, updates=state_updates)

    with tf.name_scope("train_op"):
        if check_numerics:
            total_loss = tf.debugging.check_numerics(total_loss, "LossTensor is inf or nan")
        train_op = _common.with_dependencies([grad_updates], total_loss)

    train_ops = _v1.get_collection_ref(_v1.GraphKeys.TRAIN_OP)
    if not any(op is train_op for op in train_ops):
        train_ops.append(train_op)
    return train_op


def _after_update_ops(total_loss, update_ops):
    """``total_loss`` behind an ``update_barrier`` no-op on ``update_ops`` (default: the ``UPDATE_OPS`` collection)."""
    global_update_ops = _common.unique(_v1.get_collection(_v1.GraphKeys.UPDATE_OPS))
    if update_ops is None:
        update_ops = global_update_ops
    else:
        update_ops = _common.unique(update_ops)
        given = {id(op) for op in update_ops}
        if any(id(op) not in given for op in global_update_ops):
            _v1.logging.warning(
                "update_ops in create_train_op does not contain all the update_ops in GraphKeys.UPDATE_OPS"
            )
    if update_ops:
        with tf.control_dependencies(update_ops):
            barrier = tf.no_op(name="update_barrier")
        total_loss = _common.with_dependencies([barrier], total_loss)
    return total_loss


def _check_hooks(hooks, arg):
    hooks = list(hooks or [])
    for hook in hooks:
        if not isinstance(hook, _v1.train.SessionRunHook):
            raise TypeError(
                "`%s` must hold tf.compat.v1.train.SessionRunHook instances; received %r of type %s."
                % (arg, hook, type(hook).__name__)
            )
    return hooks


def _register_global_step(graph):
    """Puts a legacy ``get_variable("global_step")`` step into ``GLOBAL_STEP`` so hooks find it."""
    with graph.as_default():
        step = framework.get_global_step(graph)
        if step is not None and not graph.get_collection(_v1.GraphKeys.GLOBAL_STEP):
            graph.add_to_collection(_v1.GraphKeys.GLOBAL_STEP, step)
    return step


def train(
    train_op: Any,
    logdir: Optional[str],
    master: str = "",
    is_chief: bool = True,
    scaffold: Any = None,
    hooks: Optional[Sequence[Any]] = None,
    chief_only_hooks: Optional[Sequence[Any]] = None,
    save_checkpoint_secs: Optional[float] = 600,
    save_summaries_steps: Optional[int] = 100,
    config: Any = None,
    max_wait_secs: float = 7200,
    run_metadata: Any = None,
) -> Any:
    """``tf.contrib.training.train`` of TF 1.15: runs ``train_op`` in a ``MonitoredTrainingSession``.

    Runs until a hook asks to stop (e.g. ``tf.compat.v1.train.StopAtStepHook``);
    the chief writes checkpoints every ``save_checkpoint_secs`` and summaries
    every ``save_summaries_steps`` to ``logdir`` and restores the latest
    checkpoint found there. This is tf-slim's loop (``tf_slim.training.train``,
    which is contrib's) after tf1clip's argument checks; a global step made
    with ``tf.compat.v1.get_variable("global_step", ...)`` is added to the
    ``GLOBAL_STEP`` collection first, so the hooks find it as they did in TF 1.x.

    Example::

        train_op = tf1clip.contrib.training.create_train_op(
            loss, optimizer, transform_grads_fn=tf1clip.contrib.training.clip_gradient_norms_fn(4.0))
        tf1clip.contrib.training.train(
            train_op, "/tmp/train", hooks=[tf.compat.v1.train.StopAtStepHook(last_step=1000)])

    Args:
      train_op: the ``Tensor`` returned by ``create_train_op``.
      logdir: directory for checkpoints and summaries; ``None`` needs
        ``save_checkpoint_secs=None`` and ``save_summaries_steps=None``.
      master, is_chief, scaffold, config, max_wait_secs: as
        ``tf.compat.v1.train.MonitoredTrainingSession``.
      hooks, chief_only_hooks: ``SessionRunHook`` lists.
      save_checkpoint_secs, save_summaries_steps: ``None`` disables.
      run_metadata: a ``RunMetadata`` filled by each step.

    Returns:
      The loss of the last step (``None`` if no step ran).

    Raises:
      TypeError: ``train_op`` is not a tensor or op, ``logdir`` is not a path,
        a hook is not a ``SessionRunHook``.
      ValueError: ``train_op`` is ``None``; ``logdir`` is ``None`` on the chief
        while checkpoints or summaries are requested (tf-slim's message).
      ImportError: tf-slim is not installed.
    """
    _common.check_train_op(train_op)
    logdir = _common.check_logdir(logdir)
    hooks = _check_hooks(hooks, "hooks")
    chief_only_hooks = _check_hooks(chief_only_hooks, "chief_only_hooks")
    _register_global_step(train_op.graph)
    (tf_slim_training, _) = _slim.load("training", "tf1clip.contrib.training.train")
    with train_op.graph.as_default():
        return tf_slim_training.train(
            train_op,
            logdir,
            master=master,
            is_chief=is_chief,
            scaffold=scaffold,
            hooks=hooks,
            chief_only_hooks=chief_only_hooks,
            save_checkpoint_secs=save_checkpoint_secs,
            save_summaries_steps=save_summaries_steps,
            config=config,
            max_wait_secs=max_wait_secs,
            run_metadata=run_metadata,
        )
