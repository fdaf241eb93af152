"""``tf.contrib.opt.GGTOptimizer``: full-matrix adaptive regularization, low-rank window (Agarwal et al., 2018)."""

import collections

import numpy as np

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class GGTOptimizer(tf.compat.v1.train.Optimizer):
    """GGT: preconditions the flattened gradient with the last ``window`` first moments.

    ``tf.contrib.opt.GGTOptimizer``. TF 1.15 built it on contrib's OptimizerV2; this
    one is a ``tf.compat.v1.train.Optimizer`` with the same non-slot variables
    (``global_step``, ``grad_buffer``, ``moment1``, ``flat_grad``, of the first
    variable's dtype, shared by all variables, which are concatenated in name
    order) and the same numbers. Each step::

        m1 = beta1 * m1 + (1 - beta1) * g;  buffer[(t - 1) mod window] = m1
        M = buffer^T / sqrt(min(t, window));  U diag(s) U^T = svd(M^T M + svd_eps I)
        step = M U diag(1 / (sqrt(s) + sigma_eps)**3) U^T M^T m1
               + [sqrt(min s) > eps] (m1 - M U diag(1/s) U^T M^T m1) / sqrt(min s)
        var -= lr * step

    Dense gradients only (sparse ones raise ``NotImplementedError``, as in TF 1.15).
    One replica only: under a ``tf.distribute`` strategy with more (e.g.
    ``MirroredStrategy``) ``apply_gradients`` raises ``NotImplementedError``
    (TF 1.15 failed there too, inside TensorFlow).
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta1=0.9,
        use_locking=False,
        name="GGT",
        window=10,
        eps=1e-4,
        svd_eps=1e-6,
        sigma_eps=1e-2,
    ):
        super().__init__(use_locking, name)
        self._hypers = {
            "lr": learning_rate,
            "beta1": beta1,
            "window": window,
            "eps": eps,
            "svd_eps": svd_eps,
            "sigma_eps": sigma_eps,
        }
        self.index_dict = {}
        self.shape_dict = {}
        self._variables = []

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """``tf.compat.v1.train.Optimizer.apply_gradients``; refuses more than one replica."""
        replicas = tf.distribute.get_strategy().num_replicas_in_sync
        if replicas > 1:
            raise NotImplementedError(
                "GGTOptimizer does not support more than one replica (num_replicas_in_sync=%d): its "
                "non-slot buffers hold the concatenation of every variable." % replicas
            )
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _hyper(self, name, dtype=None):
        value = self._hypers[name]
        if callable(value):
            value = value()
        value = tf.convert_to_tensor(value, name=name)
        return value if dtype is None else tf.cast(value, dtype)

    def _create_slots(self, var_list):
        shape_dict = {v.name: int(np.prod(v.get_shape().as_list())) for v in var_list}
        self.shape_dict = collections.OrderedDict(sorted(shape_dict.items(), key=lambda t: t[0]))
        idx = 0
        for v_name, v_dim in self.shape_dict.items():
            self.index_dict[v_name] = idx
            idx += v_dim
        dtype = var_list[0].dtype.base_dtype
        first = min(var_list, key=lambda x: x.name)
        window = self._hypers["window"]
        for name, init in (
            ("global_step", tf.cast(0.0, dtype=dtype)),
            ("grad_buffer", tf.zeros([window, idx], dtype=dtype)),
            ("moment1", tf.zeros((idx,), dtype=dtype)),
            ("flat_grad", tf.zeros((idx,), dtype=dtype)),
        ):
            _tf.create_non_slot_variable(self, init, name, first)

    def _non_slot(self, name):
        graph = None if tf.executing_eagerly() else v1.get_default_graph()
        return _tf.get_non_slot_variable(self, name, graph=graph)

    def _get_global_step(self, state=None):
        return self._non_slot("global_step")

    def _get_moment1(self, state=None):
        return self._non_slot("moment1")

    def _get_grad_buffer(self, state=None):
        return self._non_slot("grad_buffer")

    def _get_flat_grad(self, state=None):
        return self._non_slot("flat_grad")

    def _prepare(self):
        self._variables = []

    def _apply_sparse(self, grad, var):
        raise NotImplementedError("Sparse gradient updates are not supported.")

    def _resource_apply_sparse(self, grad, var, indices):
        raise NotImplementedError("Sparse gradient updates are not supported.")

    def _apply_dense(self, grad, var):
        self._variables.append(var)
        start = self.index_dict[var.name]
        end = start + self.shape_dict[var.name]
        return _common.scatter_update(self._non_slot("flat_grad"), tf.range(start, end), tf.reshape(grad, [-1]))

    def _resource_apply_dense(self, grad, var):
        return self._apply_dense(grad, var)

    def _finish(self, update_ops, name_scope):
        with tf.control_dependencies(update_ops):
            return tf.group(self._step(), name=name_scope)

    def _step(self):
        dtype = self._variables[0].dtype.base_dtype
        global_step = self._non_slot("global_step")
        update_global_step = _common.assign_add(global_step, 1.0, read=True)
        beta1 = self._hyper("beta1", dtype)
        moment1 = self._non_slot("moment1")
        flat_grad = self._non_slot("flat_grad")
        update_moment1 = _common.assign(moment1, beta1 * moment1 + (1.0 - beta1) * flat_grad, read=True)
        window = self._hyper("window")
        grad_buffer = self._non_slot("grad_buffer")
        next_index = tf.math.floormod(tf.cast(update_global_step - 1.0, tf.int32), window)
        update_grad_buffer = _common.scatter_update(grad_buffer, next_index, update_moment1, read=True)
        eps = self._hyper("eps", dtype)
        svd_eps = self._hyper("svd_eps", dtype)
        sigma_eps = self._hyper("sigma_eps", dtype)
        lr = self._hyper("lr", dtype)
        denom = tf.sqrt(tf.minimum(tf.convert_to_tensor(update_global_step), tf.cast(window, dtype=dtype)))
        moment1_2d = tf.expand_dims(update_moment1, -1)
        m = tf.transpose(tf.divide(update_grad_buffer, denom))
        mm = tf.matmul(m, m, transpose_a=True)
        damping = tf.cast(tf.eye(window), dtype=dtype) * svd_eps
        sigma, u, _ = tf.linalg.svd(mm + damping)
        sigma_sqrt = tf.sqrt(sigma)
        sigma_sqrt_min = tf.reduce_min(sigma_sqrt)
        sigma_sqrt_inv = tf.divide(tf.cast(1.0, dtype=dtype), tf.pow(sigma_sqrt + sigma_eps, 3))
        new_step = tf.expand_dims(tf.zeros(flat_grad.get_shape(), dtype=dtype), -1)
        projected = tf.matmul(u, tf.matmul(m, moment1_2d, transpose_a=True), transpose_a=True)
        head = tf.matmul(m, tf.matmul(u, tf.matmul(tf.linalg.diag(sigma_sqrt_inv), projected)))
        inv_sigma = tf.divide(tf.cast(1.0, dtype=dtype), sigma)
        tail = moment1_2d - tf.matmul(m, tf.matmul(u, tf.matmul(tf.linalg.diag(inv_sigma), projected)))
        scaled_tail = tf.divide(tail, sigma_sqrt_min)
        update_new_step = tf.cond(
            sigma_sqrt_min > eps, lambda: tf.add(head, scaled_tail), lambda: tf.add(new_step, head)
        )
        updates = []
        for var in self._variables:
            start = self.index_dict[var.name]
            end = start + self.shape_dict[var.name]
            step = tf.reshape(update_new_step[start:end], var.get_shape())
            updates.append(_common.assign_sub(var, lr * step))
        return updates
