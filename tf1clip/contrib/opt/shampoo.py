"""``tf.contrib.opt.ShampooOptimizer``: preconditioned stochastic tensor optimization (Gupta, Koren & Singer, 2018)."""

import numpy as np

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib.opt import matrix_functions
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


def _param(value, timestep):
    return value(timestep) if callable(value) else value


class ShampooOptimizer(tf.compat.v1.train.Optimizer):
    """Shampoo: one preconditioner per dimension of each variable.

    ``tf.contrib.opt.ShampooOptimizer``, with TF 1.15's constructor, slots (``gbar``;
    ``Gbar_<i>`` per dimension: a matrix for dimensions up to ``max_matrix_size``,
    else a vector; ``H_<i>`` when ``svd_interval > 1``) and numbers. For dimension
    ``i`` of size ``d <= max_matrix_size``: ``Gbar_i += mat_gbar_weight * G_i``
    (``G_i`` the gradient's outer product over the other dimensions), and the
    gradient is multiplied along ``i`` by ``(Gbar_i / d + epsilon I) ** (-alpha / rank)``
    (SVD, or coupled Newton iterations with ``use_iterative_root``). Larger
    dimensions use a diagonal preconditioner. ``global_step``, ``learning_rate``
    and the ``*_decay``/``*_weight`` arguments may be functions of the step.
    """

    def __init__(
        self,
        global_step=0,
        max_matrix_size=768,
        gbar_decay=0.0,
        gbar_weight=1.0,
        mat_gbar_decay=1.0,
        mat_gbar_weight=1.0,
        learning_rate=1.0,
        svd_interval=1,
        precond_update_interval=1,
        epsilon=1e-4,
        alpha=0.5,
        use_iterative_root=False,
        use_locking=False,
        name="Shampoo",
    ):
        super().__init__(use_locking, name)
        self._global_step = tf.cast(global_step, tf.float32)
        self._max_matrix_size = max_matrix_size
        self._gbar_decay = gbar_decay
        self._gbar_weight = gbar_weight
        self._mat_gbar_decay = mat_gbar_decay
        self._mat_gbar_weight = mat_gbar_weight
        self._learning_rate = learning_rate
        self._svd_interval = svd_interval
        self._precond_update_interval = precond_update_interval
        self._epsilon = epsilon
        self._alpha = alpha
        self._use_iterative_root = use_iterative_root

    def _create_slots(self, var_list):
        for v in var_list:
            with v1.colocate_with(v):
                _tf.zeros_slot(self, v, "gbar", self.get_name())
                shape = np.array(v.get_shape().as_list())
                for i, d in enumerate(shape):
                    d_tensor = tf.convert_to_tensor(d)
                    if d <= self._max_matrix_size:
                        mat_g_init = tf.zeros_like(tf.eye(d_tensor))
                        if self._svd_interval > 1:
                            _tf.get_or_make_slot(self, v, tf.eye(d_tensor), "H_" + str(i), self.get_name())
                    else:
                        mat_g_init = tf.zeros([d_tensor])
                    _tf.get_or_make_slot(self, v, mat_g_init, "Gbar_" + str(i), self.get_name())

    def _resource_apply_dense(self, grad, var):
        return self._apply_gradient(grad, var)

    def _apply_dense(self, grad, var):
        return self._apply_gradient(grad, var)

    def _resource_apply_sparse(self, grad_values, var, grad_indices):
        return self._apply_sparse_shared(grad_values, grad_indices, var)

    def _apply_sparse(self, grad, var):
        return self._apply_sparse_shared(grad.values, grad.indices, var)

    def _apply_sparse_shared(self, grad_values, grad_indices, var):
        if var.get_shape()[0] <= self._max_matrix_size or self._gbar_decay != 0.0:
            dense_grad = tf.scatter_nd(
                tf.expand_dims(grad_indices, axis=1), grad_values, tf.shape(var, out_type=grad_indices.dtype)
            )
            return self._apply_gradient(dense_grad, var)
        return self._apply_gradient(grad_values, var, grad_indices)

    def _weighted_average(self, var, weight, weight_t, rest):
        if weight == 0.0:
            return rest
        if weight == 1.0:
            return _common.assign_add(var, rest, read=True)
        return _common.assign_add(var, (weight_t - 1) * var + rest, read=True)

    def _mat_g_value(self, mat_g, grad, axes, mat_gbar_decay, mat_gbar_weight, i):
        """``_weighted_average``'s new value for the statistics ``mat_g`` (a tensor), not stored."""
        grad_outer = tf.tensordot(grad, grad, axes=(axes, axes), name="grad_outer_" + str(i))
        rest = mat_gbar_weight * grad_outer
        if self._mat_gbar_decay == 0.0:
            return rest
        if self._mat_gbar_decay == 1.0:
            return mat_g + rest
        return mat_g + ((mat_gbar_decay - 1) * mat_g + rest)

    def _compute_power_svd(self, var, mat_g, mat_g_size, alpha, mat_h_slot_name):
        if mat_g_size == 1:
            mat_h = tf.pow(mat_g + self._epsilon, alpha)
        else:
            damping = self._epsilon * tf.eye(tf.cast(mat_g_size, tf.int32))
            diag_d, mat_u, mat_v = tf.linalg.svd(mat_g + damping, full_matrices=True)
            mat_h = tf.matmul(mat_v * tf.pow(tf.maximum(diag_d, self._epsilon), alpha), tf.transpose(mat_u))
        if mat_h_slot_name is not None:
            return _common.assign(self.get_slot(var, mat_h_slot_name), mat_h, read=True)
        return mat_h

    def _compute_power_iter(self, var, mat_g, mat_g_size, alpha, mat_h_slot_name, iter_count=100, epsilon=1e-6):
        mat_g_sqrt = matrix_functions.matrix_square_root(mat_g, mat_g_size, iter_count, self._epsilon)
        mat_h = matrix_functions.matrix_inverse_pth_root(
            mat_g_sqrt, mat_g_size, 2 * alpha, iter_count, epsilon, ridge_epsilon=0.0
        )
        if mat_h_slot_name is not None:
            return _common.assign(self.get_slot(var, mat_h_slot_name), mat_h, read=True)
        return mat_h

    def _compute_power(self, var, mat_g, mat_g_size, alpha, mat_h_slot_name=None):
        with tf.name_scope("matrix_iterative_power"):
            if self._use_iterative_root:
                return self._compute_power_iter(var, mat_g, mat_g_size, alpha, mat_h_slot_name)
            return self._compute_power_svd(var, mat_g, mat_g_size, alpha, mat_h_slot_name)

    def _precondition_matrix(self, var, grad, mat_g, i, axes, dim, steps):
        """Multiplies along dimension ``i`` by the power of its statistics matrix ``mat_g``; returns ``mat_h``."""
        global_step, mat_gbar_decay_t, mat_gbar_weight_t, neg_alpha, svd_interval, precond_update_interval = steps
        # The conditions select values; variables are read before and written after
        # (a v2 tf.cond cannot update reference variables inside a branch).
        mat_g_old = tf.identity(mat_g)
        mat_g_new = tf.cond(
            tf.math.floormod(global_step, precond_update_interval) < 1,
            lambda: self._mat_g_value(
                mat_g_old, grad, axes, mat_gbar_decay_t, mat_gbar_weight_t * precond_update_interval, i
            ),
            lambda: mat_g_old,
        )
        if self._mat_gbar_decay != 0.0:
            mat_g_new = _common.assign(mat_g, mat_g_new, read=True)
        mat_g_updated = mat_g_new / float(dim)
        if self._svd_interval == 1:
            return self._compute_power(var, mat_g_updated, dim, neg_alpha)
        h_slot = self.get_slot(var, "H_" + str(i))
        h_old = tf.identity(h_slot)
        mat_h = tf.cond(
            tf.math.floormod(global_step, svd_interval) < 1,
            lambda: self._compute_power(var, mat_g_updated, dim, neg_alpha),
            lambda: h_old,
        )
        return _common.assign(h_slot, mat_h, read=True)

    def _precondition_diagonal(self, grad, mat_g, i, axes, dim, indices, steps):
        """The diagonal preconditioner ``mat_h`` of dimension ``i`` (larger than ``max_matrix_size``)."""
        _, mat_gbar_decay_t, mat_gbar_weight_t, neg_alpha, _, _ = steps
        if axes:
            normalizer = 1.0 if indices is not None else float(dim)
            grad_outer = tf.reduce_sum(grad * grad, axis=axes) / normalizer
        else:
            grad_outer = grad * grad
        if i == 0 and indices is not None:
            if self._mat_gbar_decay != 1.0:
                raise ValueError(
                    "`mat_gbar_decay` must be 1.0 for sparse updates of a dimension larger than "
                    "`max_matrix_size`; received %r." % (self._mat_gbar_decay,)
                )
            mat_g_updated = _common.scatter_add(mat_g, indices, mat_gbar_weight_t * grad_outer, read=True)
            slice_ = tf.gather(mat_g_updated, indices)
            return tf.where(tf.greater(slice_, 0), tf.pow(slice_, neg_alpha), tf.zeros_like(slice_))
        mat_g_updated = self._weighted_average(
            mat_g, self._mat_gbar_decay, mat_gbar_decay_t, mat_gbar_weight_t * grad_outer
        )
        return tf.where(tf.greater(mat_g_updated, 0), tf.pow(mat_g_updated, neg_alpha), tf.zeros_like(mat_g_updated))

    def _apply_gradient(self, grad, var, indices=None):
        global_step = self._global_step + 1
        gbar = self.get_slot(var, "gbar")
        gbar_decay_t = _param(self._gbar_decay, global_step)
        gbar_weight_t = _param(self._gbar_weight, global_step)
        if indices is not None:
            if self._gbar_decay != 0.0:
                tf.compat.v1.logging.warning("Not applying momentum for variable: %s" % var.name)
            gbar_updated = grad
        else:
            gbar_updated = self._weighted_average(gbar, self._gbar_decay, gbar_decay_t, gbar_weight_t * grad)
        dims = var.get_shape().as_list()
        mat_g_list = [self.get_slot(var, "Gbar_" + str(i)) for i in range(len(dims))]
        mat_gbar_decay_t = _param(self._mat_gbar_decay, global_step)
        mat_gbar_weight_t = _param(self._mat_gbar_weight, global_step)
        preconditioned_grad = gbar_updated
        v_rank = len(mat_g_list)
        neg_alpha = -_param(self._alpha, global_step) / v_rank
        svd_interval = _param(self._svd_interval, global_step)
        precond_update_interval = _param(self._precond_update_interval, global_step)
        steps = (global_step, mat_gbar_decay_t, mat_gbar_weight_t, neg_alpha, svd_interval, precond_update_interval)
        for i, mat_g in enumerate(mat_g_list):
            axes = list(range(i)) + list(range(i + 1, v_rank))
            if dims[i] <= self._max_matrix_size:
                mat_h = self._precondition_matrix(var, grad, mat_g, i, axes, dims[i], steps)
                preconditioned_grad = tf.tensordot(
                    preconditioned_grad, mat_h, axes=([0], [0]), name="precond_" + str(i)
                )
            else:
                mat_h = self._precondition_diagonal(grad, mat_g, i, axes, dims[i], indices, steps)
                preconditioned_grad = tf.transpose(preconditioned_grad, perm=list(range(1, v_rank)) + [0]) * mat_h
        learning_rate_t = _param(self._learning_rate, global_step)
        if indices is not None:
            return _common.scatter_add(var, indices, -learning_rate_t * preconditioned_grad)
        return _common.assign_sub(var, learning_rate_t * preconditioned_grad)
