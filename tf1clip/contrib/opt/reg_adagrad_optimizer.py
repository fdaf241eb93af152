"""``tf.contrib.opt.RegAdagradOptimizer`` (TF 1.15's ``reg_adagrad_optimizer.py``)."""

import contextlib

from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class RegAdagradOptimizer(tf.compat.v1.train.AdagradOptimizer):
    """Adagrad whose accumulator updates can be switched off (``avoid_updating_slots``).

    ``tf.contrib.opt.RegAdagradOptimizer``: ``AdagradOptimizer`` (slot
    ``accumulator``), default name ``"RegAdagrad"``. Updates built inside
    ``with opt.avoid_updating_slots():`` move the variables with the current
    accumulators and leave the accumulators as they are (for regularization
    steps that should not count as gradient history).
    """

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="RegAdagrad"):
        super().__init__(
            learning_rate, initial_accumulator_value=initial_accumulator_value, use_locking=use_locking, name=name
        )
        self._reg_learning_rate = learning_rate
        self._reg_lr_tensor = None
        self._locking = use_locking
        self._should_update_slots = True

    @contextlib.contextmanager
    def avoid_updating_slots(self):
        """Context in which the updates built do not change the accumulators."""
        old = self._should_update_slots
        self._should_update_slots = False
        try:
            yield
        finally:
            self._should_update_slots = old

    def _prepare(self):
        super()._prepare()
        self._reg_lr_tensor = _common.hyper(self._reg_learning_rate, "learning_rate")

    def _dense(self, grad, var, kernel):
        return kernel(
            var=_common.var_input(var),
            accum=_common.var_input(self.get_slot(var, "accumulator")),
            lr=_common.cast(self._reg_lr_tensor, var),
            grad=grad,
            use_locking=self._locking,
            update_slots=self._should_update_slots,
        )

    def _apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ApplyAdagrad)

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdagrad)

    def _sparse(self, values, var, indices, kernel):
        return kernel(
            var=_common.var_input(var),
            accum=_common.var_input(self.get_slot(var, "accumulator")),
            lr=_common.cast(self._reg_lr_tensor, var),
            grad=values,
            indices=indices,
            use_locking=self._locking,
            update_slots=self._should_update_slots,
        )

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices, tf.raw_ops.SparseApplyAdagrad)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices, tf.raw_ops.ResourceSparseApplyAdagrad)
