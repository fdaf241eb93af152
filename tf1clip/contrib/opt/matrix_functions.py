"""Matrix roots for ``tf.contrib.opt.ShampooOptimizer`` (TF 1.15's ``matrix_functions.py``)."""

from tf1clip.compat._tf import tf

__all__ = ["matrix_square_root", "matrix_inverse_pth_root"]


def matrix_square_root(mat_a, mat_a_size, iter_count=100, ridge_epsilon=1e-4):
    """Coupled Newton iterations for the square root of a symmetric PSD matrix (as TF 1.15's)."""
    identity = tf.eye(tf.cast(mat_a_size, tf.int32))
    mat_a = mat_a + ridge_epsilon * identity
    norm = tf.sqrt(tf.reduce_sum(mat_a * mat_a))

    def cond(i, unused_y, unused_old_y, unused_z, unused_old_z, err, old_err):
        return tf.logical_and(i < iter_count, err < old_err)

    def body(i, mat_y, unused_old_y, mat_z, unused_old_z, err, unused_old_err):
        current = 0.5 * (3.0 * identity - tf.matmul(mat_z, mat_y))
        current_y = tf.matmul(mat_y, current)
        current_z = tf.matmul(current, mat_z)
        mat_sqrt_a = current_y * tf.sqrt(norm)
        residual = mat_a - tf.matmul(mat_sqrt_a, mat_sqrt_a)
        current_err = tf.sqrt(tf.reduce_sum(residual * residual)) / norm
        return i + 1, current_y, mat_y, current_z, mat_z, current_err, err

    init_y = mat_a / norm
    _, _, prev_y, _, _, _, _ = tf.while_loop(cond, body, [0, init_y, init_y, identity, identity, norm, norm + 1.0])
    return prev_y * tf.sqrt(norm)


def matrix_inverse_pth_root(mat_g, mat_g_size, alpha, iter_count=100, epsilon=1e-6, ridge_epsilon=1e-6):
    """``mat_g ** alpha`` (``alpha = -1/p``) by coupled Newton iterations (as TF 1.15's)."""
    identity = tf.eye(tf.cast(mat_g_size, tf.int32))

    def mat_power(mat_m, p):
        power = None
        p = int(p)
        while p > 0:
            if p % 2 == 1:
                power = tf.matmul(mat_m, power) if power is not None else mat_m
            p //= 2
            mat_m = tf.matmul(mat_m, mat_m)
        return power

    def cond(i, mat_m, _):
        return tf.logical_and(i < iter_count, tf.reduce_max(tf.abs(mat_m - identity)) > epsilon)

    def body(i, mat_m, mat_x):
        mat_m_i = (1 - alpha) * identity + alpha * mat_m
        return i + 1, tf.matmul(mat_power(mat_m_i, -1.0 / alpha), mat_m), tf.matmul(mat_x, mat_m_i)

    if mat_g_size == 1:
        return tf.pow(mat_g + ridge_epsilon, alpha)
    damped = mat_g + ridge_epsilon * identity
    z = (1 - 1 / alpha) / (2 * tf.norm(damped))
    _, _, mat_h = tf.while_loop(cond, body, [0, damped * z, identity * tf.pow(z, -alpha)])
    return mat_h
