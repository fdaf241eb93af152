"""``tf.contrib.opt.PowerSignOptimizer`` (TF 1.15's ``powersign.py``; the shared part in ``_sign``)."""

import math

from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib.opt import _sign
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class PowerSignOptimizer(_sign.SignOptimizer):
    """PowerSign: ``var -= lr * base ** (sign_decay * sign(g) * sign(m)) * g``.

    ``tf.contrib.opt.PowerSignOptimizer``; slot ``m``; default name
    ``"PowerSignOptimizer"``.

    Args:
      learning_rate: the step size.
      base: the base of the exponent (default e).
      beta: the momentum's decay.
      sign_decay_fn: ``None`` or a function of ``global_step`` returning the
        sign decay (``sign_decay.get_*_decay_fn``).
    """

    def __init__(
        self, learning_rate=0.1, base=math.e, beta=0.9, sign_decay_fn=None, use_locking=False, name="PowerSignOptimizer"
    ):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._logbase = math.log(base)
        self._logbase_t = None

    def _prepare(self):
        super()._prepare()
        self._logbase_t = tf.convert_to_tensor(self._logbase, name="logbase")

    def _dense(self, grad, var, kernel):
        return kernel(
            var=_common.var_input(var),
            m=_common.var_input(self.get_slot(var, "m")),
            lr=_common.cast(self._lr_t, var),
            logbase=_common.cast(self._logbase_t, var),
            sign_decay=_common.cast(self._sign_decay_t, var),
            beta=_common.cast(self._beta_t, var),
            grad=grad,
            use_locking=self._locking,
        )

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyPowerSign))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyPowerSign)

    def _multiplier(self, sign_gm, var):
        e = _common.cast(math.e, var)
        return tf.pow(e, _common.cast(self._logbase_t, var) * _common.cast(self._sign_decay_t, var) * sign_gm)
