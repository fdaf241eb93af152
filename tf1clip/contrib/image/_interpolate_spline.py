"""``tf.contrib.image.interpolate_spline`` (``contrib/image/python/ops/interpolate_spline.py``), re-created.

Polyharmonic spline interpolation: TF 1.15's linear system (``matrix_solve`` of the RBF and linear blocks), its
``phi`` for each order and its ``EPSILON`` floor, op for op.
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1

EPSILON = 0.0000000001


def _cross_squared_distance_matrix(x, y):
    """``[b, n, m]`` squared distances between the rows of ``x`` ``[b, n, d]`` and ``y`` ``[b, m, d]``."""
    x_norm = tf.expand_dims(tf.reduce_sum(tf.square(x), 2), 2)
    y_norm = tf.expand_dims(tf.reduce_sum(tf.square(y), 2), 1)
    return x_norm - 2 * tf.matmul(x, y, adjoint_b=True) + y_norm


def _pairwise_squared_distance_matrix(x):
    """``[b, n, n]`` squared distances among the rows of ``x`` ``[b, n, d]``."""
    gram = tf.matmul(x, x, adjoint_b=True)
    norm = tf.expand_dims(tf.linalg.diag_part(gram), 2)
    return norm - 2 * gram + tf.transpose(norm, [0, 2, 1])


def _phi(r, order):
    """The radial basis function of ``order`` at squared distances ``r``."""
    with v1.name_scope("phi"):
        if order == 1:
            return tf.sqrt(tf.maximum(r, EPSILON))
        if order == 2:
            return 0.5 * r * tf.math.log(tf.maximum(r, EPSILON))
        if order == 4:
            return 0.5 * tf.square(r) * tf.math.log(tf.maximum(r, EPSILON))
        r = tf.maximum(r, EPSILON)
        if order % 2 == 0:
            return 0.5 * tf.pow(r, 0.5 * order) * tf.math.log(r)
        return tf.pow(r, 0.5 * order)


def _solve_interpolation(train_points, train_values, order, regularization_weight):
    """Weights ``w`` ``[b, n, k]`` of the centres and ``v`` ``[b, d + 1, k]`` of the linear term."""
    b, n, _ = tf.unstack(tf.shape(train_points), num=3)
    d = tf.compat.dimension_value(train_points.shape[-1])
    if d is None:
        raise ValueError(
            "interpolate_spline: the dimensionality of the input points (d) must be statically-inferrable."
        )
    k = tf.compat.dimension_value(train_values.shape[-1])
    if k is None:
        raise ValueError(
            "interpolate_spline: the dimensionality of the output values (k) must be statically-inferrable."
        )
    c, f = train_points, train_values
    with v1.name_scope("construct_linear_system"):
        matrix_a = _phi(_pairwise_squared_distance_matrix(c), order)
        if regularization_weight > 0:
            matrix_a += regularization_weight * tf.expand_dims(tf.eye(n, dtype=c.dtype), 0)
        matrix_b = tf.concat([c, tf.ones_like(c[..., :1], dtype=c.dtype)], 2)
        left_block = tf.concat([matrix_a, tf.transpose(matrix_b, [0, 2, 1])], 1)
        lhs_zeros = tf.zeros([b, d + 1, d + 1], train_points.dtype)
        right_block = tf.concat([matrix_b, lhs_zeros], 1)
        lhs = tf.concat([left_block, right_block], 2)
        rhs = tf.concat([f, tf.zeros([b, d + 1, k], train_points.dtype)], 1)
    with v1.name_scope("solve_linear_system"):
        w_v = tf.linalg.solve(lhs, rhs)
        return w_v[:, :n, :], w_v[:, n:, :]


def _apply_interpolation(query_points, train_points, w, v, order):
    """The interpolant at ``query_points`` ``[b, m, d]``: ``[b, m, k]``."""
    rbf = tf.matmul(_phi(_cross_squared_distance_matrix(query_points, train_points), order), w)
    padded = tf.concat([query_points, tf.ones_like(query_points[..., :1], train_points.dtype)], 2)
    return rbf + tf.matmul(padded, v)


def interpolate_spline(
    train_points, train_values, query_points, order, regularization_weight=0.0, name="interpolate_spline"
):
    r"""Polyharmonic spline through ``train_points`` ``[b, n, d]`` with values ``train_values`` ``[b, n, k]``,
    evaluated at ``query_points`` ``[b, m, d]``: ``[b, m, k]``.

    ``order``: 1 (``phi(r) = r``), 2 (thin-plate, ``r^2 log r``), 3 (``r^3``) or any positive integer.
    ``regularization_weight`` > 0 trades the fit at the training points for smoothness. ``d`` and ``k`` must be
    static; differentiable in every input but ``order``.
    """
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise ValueError("interpolate_spline: order must be a positive int, got %r" % (order,))
    with v1.name_scope(name):
        train_points = tf.convert_to_tensor(train_points)
        train_values = tf.convert_to_tensor(train_values)
        query_points = tf.convert_to_tensor(query_points)
        with v1.name_scope("solve"):
            w, v = _solve_interpolation(train_points, train_values, order, regularization_weight)
        with v1.name_scope("predict"):
            return _apply_interpolation(query_points, train_points, w, v, order)
