"""``tf.contrib.opt.LazyAdamOptimizer`` (TF 1.15's ``lazy_adam_optimizer.py``; shared parts in ``_adam``)."""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.opt import _adam

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class LazyAdamOptimizer(_adam.AdamHypers, tf.compat.v1.train.AdamOptimizer):
    """Adam that, for sparse gradients, updates only the rows that appear.

    ``tf.contrib.opt.LazyAdamOptimizer``. Dense gradients get Adam's update. For an
    ``IndexedSlices`` gradient only the rows present (repeated indices summed) of
    the variable and of its ``m`` and ``v`` slots change::

        lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
        m[i] = beta1 * m[i] + (1 - beta1) * g[i]
        v[i] = beta2 * v[i] + (1 - beta2) * g[i]**2
        var[i] -= lr_t * m[i] / (sqrt(v[i]) + epsilon)

    The cost of a step grows with the number of rows present, not with the
    variable's size. Same constructor as ``tf.compat.v1.train.AdamOptimizer``.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, _tf.adam_beta_powers(self))
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return _adam.lazy_adam_sparse(hypers, values, var, m, v, indices, self._locking)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)
