"""``tf.contrib.opt.AdaMaxOptimizer`` (TF 1.15's ``adamax.py``; shared parts in ``_adam``)."""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib.opt import _adam
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class AdaMaxOptimizer(_adam.AdamHypers, tf.compat.v1.train.AdamOptimizer):
    """AdaMax, Adam's infinity-norm variant (Kingma & Ba, 2015, section 7.1).

    ``tf.contrib.opt.AdaMaxOptimizer``::

        m = beta1 * m + (1 - beta1) * g
        v = max(beta2 * v, |g|)
        var -= lr / (1 - beta1_power) * m / (v + epsilon)

    One non-slot variable, ``beta1_power``. Sparse gradients update only their rows
    (``m``, ``v`` and the variable), as in TF 1.15.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="AdaMax"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)

    def _get_beta_accumulators(self):
        graph = None if tf.executing_eagerly() else v1.get_default_graph()
        return _tf.get_non_slot_variable(self, "beta1_power", graph=graph)

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        _tf.create_non_slot_variable(self, self._hyper_values["beta1"], "beta1_power", first_var)
        for v in var_list:
            _tf.zeros_slot(self, v, "m", self.get_name())
            _tf.zeros_slot(self, v, "v", self.get_name())

    def _dense(self, grad, var, kernel):
        return kernel(**self._dense_args(grad, var, [self._get_beta_accumulators()]))

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyAdaMax))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdaMax)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, [self._get_beta_accumulators()])
        beta1, beta2 = hypers["beta1"], hypers["beta2"]
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_slice = tf.gather(m, indices) * beta1 + values * (1 - beta1)
        v_slice = tf.maximum(tf.gather(v, indices) * beta2, tf.abs(values))
        m_t = _common.scatter_update(m, indices, m_slice, self._locking)
        v_t = _common.scatter_update(v, indices, v_slice, self._locking)
        step = -hypers["lr"] / (1 - hypers["beta1_power"]) * (m_slice / (v_slice + hypers["epsilon"]))
        return tf.group(_common.scatter_add(var, indices, step, self._locking), m_t, v_t)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)

    def _finish(self, update_ops, name_scope):
        with tf.control_dependencies(update_ops):
            beta1_power = self._get_beta_accumulators()
            with tf.compat.v1.colocate_with(beta1_power):
                update_beta1 = _common.assign(beta1_power, beta1_power * self._hyper_tensors["beta1"], self._locking)
        return tf.group(*update_ops + [update_beta1], name=name_scope)
