"""``tf.contrib.opt.AddSignOptimizer`` (TF 1.15's ``addsign.py``; the shared part in ``_sign``)."""

from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib.opt import _sign
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class AddSignOptimizer(_sign.SignOptimizer):
    """AddSign: ``var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g``.

    ``tf.contrib.opt.AddSignOptimizer``; slot ``m``; default name
    ``"AddSignOptimizer"``. Arguments as ``PowerSignOptimizer``'s, with ``alpha``
    (default 1.0) in place of ``base``.
    """

    def __init__(
        self, learning_rate=0.1, alpha=1.0, beta=0.9, sign_decay_fn=None, use_locking=False, name="AddSignOptimizer"
    ):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._alpha = alpha
        self._alpha_t = None

    def _prepare(self):
        super()._prepare()
        self._alpha_t = tf.convert_to_tensor(self._alpha, name="alpha")

    def _dense(self, grad, var, kernel):
        return kernel(
            var=_common.var_input(var),
            m=_common.var_input(self.get_slot(var, "m")),
            lr=_common.cast(self._lr_t, var),
            alpha=_common.cast(self._alpha_t, var),
            sign_decay=_common.cast(self._sign_decay_t, var),
            beta=_common.cast(self._beta_t, var),
            grad=grad,
            use_locking=self._locking,
        )

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyAddSign))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAddSign)

    def _multiplier(self, sign_gm, var):
        return _common.cast(self._alpha_t, var) + _common.cast(self._sign_decay_t, var) * sign_gm
