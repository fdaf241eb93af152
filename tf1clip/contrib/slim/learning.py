"""``tf.contrib.slim.learning``'s gradient helpers and ``create_train_op``."""

from tf1clip import _validate
from tf1clip._tf import tf
from tf1clip.contrib import _common
from tf1clip.contrib import training as _training
from tf1clip.contrib.training import clip_gradient_norms
from tf1clip.contrib.training import multiply_gradients

__all__ = [
    "add_gradients_summaries",
    "clip_gradient_norms",
    "create_train_op",
    "multiply_gradients",
]

_v1 = tf.compat.v1


def add_gradients_summaries(grads_and_vars):
    """Adds a histogram ``<var>/gradient`` and a scalar ``<var>/gradient_norm`` per gradient.

    ``<var>`` is ``var.op.name`` (contrib.training's version writes
    ``<var>_gradient``); ``None`` gradients are logged and skipped.

    Returns:
      The list of summary ops.
    """
    return _common.add_gradients_summaries(grads_and_vars, "/")


def _clips(clip_gradient_norm):
    """contrib's ``clip_gradient_norm > 0``, also for tensors (a dynamic tensor clips)."""
    static = _validate.static_scalar(clip_gradient_norm, "clip_gradient_norm")
    return static is None or static > 0


def create_train_op(
    total_loss,
    optimizer,
    global_step=_training._USE_GLOBAL_STEP,
    update_ops=None,
    variables_to_train=None,
    clip_gradient_norm=0,
    summarize_gradients=False,
    gate_gradients=_v1.train.Optimizer.GATE_OP,
    aggregation_method=None,
    colocate_gradients_with_ops=False,
    gradient_multipliers=None,
    check_numerics=True,
):
    """``tf.contrib.slim.learning.create_train_op`` of TF 1.15.

    ``tf1clip.contrib.training.create_train_op`` with a gradient transform
    that first multiplies (``gradient_multipliers``, under ``multiply_grads/``)
    and then clips **each gradient on its own** to ``clip_gradient_norm``
    (under ``clip_grads/``) when it is > 0; 0 (the default) or less disables
    clipping. Summaries from ``summarize_gradients`` use contrib.training's
    tags (``summarize_grads/<var>_gradient``), as in contrib.

    Example::

        slim = tf1clip.contrib.slim
        train_op = slim.learning.create_train_op(
            total_loss, tf.compat.v1.train.MomentumOptimizer(0.01, 0.9),
            clip_gradient_norm=4)

    Args: as ``tf1clip.contrib.training.create_train_op``, plus
      clip_gradient_norm: per-tensor limit; a number or a 0-d tensor (a tensor
        whose value is not known while building always clips).
      gradient_multipliers: dict from a variable or its ``var.op.name`` to a
        multiplier; empty or ``None`` multiplies nothing.

    Returns:
      A ``Tensor`` that, when evaluated, runs the update and returns the loss.
    """
    clip = _clips(clip_gradient_norm)

    def transform_grads_fn(grads):
        if gradient_multipliers:
            with tf.name_scope("multiply_grads"):
                grads = multiply_gradients(grads, gradient_multipliers)
        if clip:
            with tf.name_scope("clip_grads"):
                grads = clip_gradient_norms(grads, clip_gradient_norm)
        return grads

    return _training.create_train_op(
        total_loss,
        optimizer,
        global_step=global_step,
        update_ops=update_ops,
        variables_to_train=variables_to_train,
        transform_grads_fn=transform_grads_fn,
        summarize_gradients=summarize_gradients,
        gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops,
        check_numerics=check_numerics,
    )
