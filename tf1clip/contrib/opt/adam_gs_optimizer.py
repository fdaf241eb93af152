"""``tf.contrib.opt.AdamGSOptimizer`` (TF 1.15's ``adam_gs_optimizer.py``; shared parts in ``_adam``)."""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib.opt import _adam
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class AdamGSOptimizer(_adam.AdamHypers, tf.compat.v1.train.Optimizer):
    """Adam whose bias correction comes from ``global_step`` instead of ``beta*_power`` variables.

    ``tf.contrib.opt.AdamGSOptimizer``: ``beta1_power = beta1 ** (global_step + 1)``
    (and ``beta2`` alike), read when the step runs, so the step count comes from the
    global step (e.g. shared by several workers); no non-slot variables. Slots
    ``m`` and ``v``; default name ``"Adam"``, as in TF 1.15. A sparse gradient decays
    ``m`` and ``v`` everywhere and updates the whole variable, as Adam does.

    Args:
      global_step: a tensor or variable (int or float) or a number; the step count
        before this update.
    """

    def __init__(
        self, global_step=0, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"
    ):
        super().__init__(use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)
        self._global_step = global_step
        self._global_step_on_worker = None

    def _get_beta_accumulators(self):
        return (
            tf.pow(self._hyper_tensors["beta1"], self._global_step_on_worker),
            tf.pow(self._hyper_tensors["beta2"], self._global_step_on_worker),
        )

    def _create_slots(self, var_list):
        for v in var_list:
            _tf.zeros_slot(self, v, "m", self.get_name())
            _tf.zeros_slot(self, v, "v", self.get_name())

    def _prepare(self):
        self._build_hypers()
        self._global_step_on_worker = tf.cast(tf.identity(self._global_step) + 1, tf.float32)

    def _dense(self, grad, var, kernel):
        return kernel(**self._dense_args(grad, var, self._get_beta_accumulators()))

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyAdam))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdam)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, self._get_beta_accumulators())
        beta1, beta2 = hypers["beta1"], hypers["beta2"]
        lr = _adam.bias_corrected_lr(hypers)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        with tf.control_dependencies([_common.assign(m, m * beta1, self._locking)]):
            m_t = _common.scatter_add(m, indices, values * (1 - beta1), self._locking, read=True)
        with tf.control_dependencies([_common.assign(v, v * beta2, self._locking)]):
            v_t = _common.scatter_add(v, indices, values * values * (1 - beta2), self._locking, read=True)
        var_update = _common.assign_sub(var, lr * m_t / (tf.sqrt(v_t) + hypers["epsilon"]), self._locking)
        return tf.group(var_update, m_t, v_t)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)
