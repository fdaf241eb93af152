"""``tf.contrib.opt.NadamOptimizer`` (TF 1.15's ``nadam_optimizer.py``; shared parts in ``_adam``)."""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib.opt import _adam
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class NadamOptimizer(_adam.AdamHypers, tf.compat.v1.train.AdamOptimizer):
    """Adam with Nesterov momentum (Dozat, 2015).

    ``tf.contrib.opt.NadamOptimizer``: Adam's ``ApplyAdam`` kernel with
    ``use_nesterov=True`` for dense gradients, i.e.
    ``var -= lr_t * ((1 - beta1) * g + beta1 * m_t) / (sqrt(v_t) + epsilon)``.
    For sparse gradients, as in TF 1.15, ``m`` and ``v`` decay everywhere and the
    new gradient is added on its rows; only those rows of the variable move.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)

    def _dense(self, grad, var, kernel):
        return kernel(use_nesterov=True, **self._dense_args(grad, var, _tf.adam_beta_powers(self)))

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyAdam))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdam)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, _tf.adam_beta_powers(self))
        beta1, beta2 = hypers["beta1"], hypers["beta2"]
        lr = _adam.bias_corrected_lr(hypers)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_scaled = values * (1 - beta1)
        with tf.control_dependencies([_common.assign(m, m * beta1, self._locking)]):
            m_t = _common.scatter_add(m, indices, m_scaled, self._locking, read=True)
            m_bar = m_scaled + beta1 * tf.gather(m_t, indices)
        with tf.control_dependencies([_common.assign(v, v * beta2, self._locking)]):
            v_t = _common.scatter_add(v, indices, values * values * (1 - beta2), self._locking, read=True)
        v_sqrt = tf.sqrt(tf.gather(v_t, indices))
        var_update = _common.scatter_add(var, indices, -lr * m_bar / (v_sqrt + hypers["epsilon"]), self._locking)
        return tf.group(var_update, m_bar, v_t)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)
