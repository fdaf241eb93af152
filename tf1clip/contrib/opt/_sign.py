"""The shared part of ``tf.contrib.opt``'s sign methods, PowerSign and AddSign (Bello et al., 2017).

Both keep a momentum slot ``m = beta * m + (1 - beta) * g`` and scale the gradient
by how often the signs of ``g`` and ``m`` agree::

    PowerSign: var -= lr * exp(log(base) * sign_decay * sign(g) * sign(m)) * g
    AddSign:   var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g

``sign_decay`` is 1, or ``sign_decay_fn(global_step)`` (see ``sign_decay``). For an
``IndexedSlices`` gradient, as in TF 1.15, ``m`` decays everywhere and only the
rows present move; TF 1.15 had no resource-variable sparse path (it raised
``NotImplementedError``), tf1clip has one with the same numbers.
"""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common

v1 = tf.compat.v1


class SignOptimizer(tf.compat.v1.train.Optimizer):
    def __init__(self, learning_rate, beta, sign_decay_fn, use_locking, name):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta = beta
        self._sign_decay_fn = sign_decay_fn
        self._locking = use_locking
        self._lr_t = None
        self._beta_t = None
        self._sign_decay_t = None

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, **kwargs):
        """``Optimizer.apply_gradients``; ``sign_decay_fn`` (if any) is called with ``global_step``."""
        if self._sign_decay_fn is not None:
            self._sign_decay_t = tf.convert_to_tensor(self._sign_decay_fn(global_step), name="sign_decay")
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name, **kwargs)

    def _create_slots(self, var_list):
        for v in var_list:
            _tf.zeros_slot(self, v, "m", self.get_name())

    def _prepare(self):
        self._lr_t = tf.convert_to_tensor(self._lr, name="learning_rate")
        self._beta_t = tf.convert_to_tensor(self._beta, name="beta")
        if self._sign_decay_fn is None:
            self._sign_decay_t = tf.convert_to_tensor(1.0, name="sign_decay")

    def _multiplier(self, sign_gm, var):
        raise NotImplementedError

    def _sparse(self, values, var, indices):
        lr = _common.cast(self._lr_t, var)
        beta = _common.cast(self._beta_t, var)
        m = self.get_slot(var, "m")
        dense_grad = tf.scatter_nd(tf.expand_dims(indices, 1), values, tf.shape(var, out_type=indices.dtype))
        m_t = _common.assign(m, m * beta + dense_grad * (1 - beta), self._locking, read=True)
        sign_gm = tf.gather(tf.sign(m_t), indices) * tf.sign(values)
        step = lr * self._multiplier(sign_gm, var) * values
        return tf.group(_common.scatter_sub(var, indices, step, self._locking), m_t)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)
