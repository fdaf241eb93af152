"""``tf.contrib.opt.LARSOptimizer`` (TF 1.15's ``lars_optimizer.py``)."""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class LARSOptimizer(tf.compat.v1.train.Optimizer):
    """Layer-wise Adaptive Rate Scaling (You, Gitman & Ginsburg, 2017) with momentum.

    ``tf.contrib.opt.LARSOptimizer``. For a dense gradient of a variable whose name
    contains none of ``skip_list``::

        trust_ratio = eeta * |w| / (|g| + weight_decay * |w| + epsilon)   (1 if |w| or |g| is 0)
        g' = (g + weight_decay * w) * learning_rate * trust_ratio
        momentum_slot = momentum * momentum_slot + g';  w -= momentum_slot

    (Nesterov: ``w -= g' + momentum * momentum_slot``.) Variables in ``skip_list`` get
    ``g * learning_rate``. A sparse gradient gets plain (sparse) momentum with
    ``learning_rate``, no trust ratio and no weight decay, as in TF 1.15. Slot
    ``momentum``; default name ``"LARSOptimizer"``.

    Raises:
      ValueError: ``momentum`` or ``weight_decay`` is negative.
    """

    def __init__(
        self,
        learning_rate,
        momentum=0.9,
        weight_decay=0.0001,
        eeta=0.001,
        epsilon=0.0,
        name="LARSOptimizer",
        skip_list=None,
        use_nesterov=False,
    ):
        if momentum < 0.0:
            raise ValueError("momentum should be positive: %s" % momentum)
        if weight_decay < 0.0:
            raise ValueError("weight_decay should be positive: %s" % weight_decay)
        super().__init__(use_locking=False, name=name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._weight_decay = weight_decay
        self._eeta = eeta
        self._epsilon = epsilon
        self._skip_list = skip_list
        self._use_nesterov = use_nesterov
        self._learning_rate_tensor = None
        self._momentum_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            _tf.zeros_slot(self, v, "momentum", self.get_name())

    def compute_lr(self, grad, var):
        """Returns ``(scaled_lr, grad)``: the layer's learning rate and the gradient with weight decay."""
        scaled_lr = self._learning_rate
        if self._skip_list is None or not any(v in var.name for v in self._skip_list):
            w_norm = tf.norm(var, ord=2)
            g_norm = tf.norm(grad, ord=2)
            trust_ratio = tf.where(
                tf.greater(w_norm, 0),
                tf.where(
                    tf.greater(g_norm, 0),
                    (self._eeta * w_norm / (g_norm + self._weight_decay * w_norm + self._epsilon)),
                    1.0,
                ),
                1.0,
            )
            scaled_lr = self._learning_rate * trust_ratio
            grad = grad + self._weight_decay * var
        return scaled_lr, grad

    def _dense(self, grad, var, kernel):
        scaled_lr, grad = self.compute_lr(grad, var)
        return kernel(
            var=_common.var_input(var),
            accum=_common.var_input(self.get_slot(var, "momentum")),
            lr=_common.cast(1.0, var),
            grad=grad * scaled_lr,
            momentum=self._momentum,
            use_locking=False,
            use_nesterov=self._use_nesterov,
        )

    def _apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ApplyMomentum)

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyMomentum)

    def _sparse(self, values, var, indices, kernel):
        return kernel(
            var=_common.var_input(var),
            accum=_common.var_input(self.get_slot(var, "momentum")),
            lr=_common.cast(self._learning_rate_tensor, var),
            grad=values,
            indices=indices,
            momentum=_common.cast(self._momentum_tensor, var),
            use_locking=False,
            use_nesterov=self._use_nesterov,
        )

    def _apply_sparse(self, grad, var):
        return _common.as_op(self._sparse(grad.values, var, grad.indices, tf.raw_ops.SparseApplyMomentum))

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices, tf.raw_ops.ResourceSparseApplyMomentum)

    def _prepare(self):
        self._learning_rate_tensor = _common.hyper(self._learning_rate, "learning_rate")
        self._momentum_tensor = _common.hyper(self._momentum, "momentum")
