"""``tf.contrib.opt.VariableClippingOptimizer`` (TF 1.15's ``variable_clipping_optimizer.py``).

It wraps a ``tf.compat.v1.train.Optimizer`` with TF 1.15's constructor, op and variable names, and forwards
slots and checkpoint dependencies to it, so checkpoints move freely between wrapped and unwrapped code.
"""

import contextlib

from tf1clip.core import _aggregate, _delegate
from tf1clip.core import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


def _ref_key(var):
    return var.ref() if hasattr(var, "ref") else var


def _every_replicas_rows(grad):
    """``grad`` summed over the replicas under a ``tf.distribute`` strategy (its rows: every replica's), else ``grad``.

    Each replica clips its own copy of the variable; with only its own rows the
    copies would differ (a tf1clip wrapper hands the summed gradient to replica
    0 alone).
    """
    ctx = _aggregate.replica_context()
    if ctx is None or ctx.num_replicas_in_sync <= 1:
        return grad
    (summed,), _ = _aggregate.sum_over_replicas(ctx, [grad])
    return summed


class VariableClippingOptimizer(_delegate.DelegatingOptimizer):
    """Wrapper optimizer that clips the norm of specified variables after their update.

    ``tf.contrib.opt.VariableClippingOptimizer``: ``opt`` applies the gradients,
    then each listed variable that received a gradient is replaced by
    ``tf.clip_by_norm(var, max_norm, axes=vars_to_clip_dims[var])``. This
    clips the VARIABLE (e.g. embedding rows to norm <= ``max_norm``), not the
    gradient. For an ``IndexedSlices`` gradient only the updated rows are
    clipped (``scatter_sub``) unless dimension 0 is among the clip dimensions
    (then the whole variable, with a warning, as in TF 1.15). Several
    instances can be chained for different norms.

    As in TF 1.15, a row whose index appears k times in an ``IndexedSlices``
    gradient has its excess over ``max_norm`` subtracted k times (row
    ``[3, 4]``, ``max_norm=2``, index twice: ``[-0.6, -0.8]``);
    ``clip_repeated_rows_once=True`` clips each row once (``[1.2, 1.6]``).

    Differences from TF 1.15 (fixes of what silently did nothing or diverged):

    * ``grads_and_vars`` may be any iterable; contrib iterated it twice, so a
      Python 3 ``zip`` was consumed by ``opt`` and nothing was clipped;
    * under a ``tf.distribute`` strategy with several replicas each replica
      clips, in its copy of the variable, the rows that any replica updated,
      each once; contrib clipped only the replica's own rows, so the copies
      silently diverged (and a tf1clip wrapper around it, which hands the
      summed gradient to replica 0, left every other copy unclipped).

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance that applies the gradients.
      vars_to_clip_dims: dict from variable to the list of dimensions the
        L2 norm is taken along.
      max_norm: the largest L2 norm allowed, for every listed variable.
      use_locking: use locks for the clip updates.
      colocate_clip_ops_with_vars: place the clip computations with each variable.
      name: name scope of the returned op (default ``"VariableClipping"``).
      clip_repeated_rows_once: clip a row of a sparse update once however often
        its index repeats (default False: once per occurrence, as TF 1.15).

    Raises:
      TypeError: ``opt`` is not a ``tf.compat.v1.train.Optimizer`` instance or
        ``vars_to_clip_dims`` is not a dict.
    """

    def __init__(
        self,
        opt,
        vars_to_clip_dims,
        max_norm,
        use_locking=False,
        colocate_clip_ops_with_vars=False,
        name="VariableClipping",
        clip_repeated_rows_once=False,
    ):
        _common.check_optimizer(opt)
        if not isinstance(vars_to_clip_dims, dict):
            raise TypeError(
                "`vars_to_clip_dims` must be a dict from variable to a list of dimensions; received %s."
                % _validate.describe(vars_to_clip_dims)
            )
        super().__init__(use_locking, name)
        self._optimizer = opt
        self._vars_to_clip_dims = {_ref_key(v): list(dims) for v, dims in vars_to_clip_dims.items()}
        self._max_norm = max_norm
        self._colocate_clip_ops_with_vars = colocate_clip_ops_with_vars
        self._clip_repeated_rows_once = bool(clip_repeated_rows_once)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """``opt.apply_gradients``, then each listed variable with a gradient clipped to ``max_norm``."""
        grads_and_vars = list(grads_and_vars)
        with tf.compat.v1.name_scope(name, self._name) as name:
            update_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step)
            clip_update_ops = []
            with tf.control_dependencies([update_op]):
                for grad, var in grads_and_vars:
                    if grad is None or _ref_key(var) not in self._vars_to_clip_dims:
                        continue
                    with tf.compat.v1.name_scope("clip_" + var.op.name):
                        if isinstance(grad, tf.IndexedSlices):
                            clip_update_ops.append(self._clip_sparse(grad, var))
                        else:
                            clip_update_ops.append(self._clip_dense(var))
            return tf.group(*([update_op] + clip_update_ops), name=name)

    def _dims(self, var):
        return self._vars_to_clip_dims[_ref_key(var)]

    def _clip_dense(self, var):
        with self._maybe_colocate_with(var):
            value = var.read_value()
            delta = value - tf.clip_by_norm(value, self._max_norm, self._dims(var))
        with tf.compat.v1.colocate_with(var):
            return var.assign_sub(delta, use_locking=self._use_locking)

    def _clip_sparse(self, grad, var):
        dims = self._dims(var)
        if 0 in dims:
            tf.compat.v1.logging.warning(
                "Clipping norm across dims %s for %s is inefficient when including sparse dimension 0.",
                dims,
                var.op.name,
            )
            return self._clip_dense(var)
        summed = _every_replicas_rows(grad)
        indices = summed.indices
        if self._clip_repeated_rows_once or summed is not grad:
            indices = tf.unique(indices)[0]
        with tf.compat.v1.colocate_with(var):
            rows = tf.gather(var, indices)
        with self._maybe_colocate_with(var):
            delta = tf.IndexedSlices(rows - tf.clip_by_norm(rows, self._max_norm, dims), indices, summed.dense_shape)
        with tf.compat.v1.colocate_with(var):
            return var.scatter_sub(delta, use_locking=self._use_locking)

    def _maybe_colocate_with(self, var):
        if self._colocate_clip_ops_with_vars:
            return tf.compat.v1.colocate_with(var)
        return contextlib.nullcontext()
