"""Norm accumulation rules (private module).

* squares are summed in float32 at least (float16 and bfloat16 are cast up first,
  so their squares cannot overflow), and in float64 when any gradient is float64;
* a non-finite norm makes the factor it governs NaN (``nan_if_nonfinite``).
"""

from tf1clip.core import _pairs
from tf1clip.compat._tf import tf


def acc_dtype(grads):
    """float64 when any of ``grads`` is float64, else float32."""
    return tf.float64 if any(g.dtype.base_dtype == tf.float64 for g in grads) else tf.float32


def widest(tensors):
    """The accumulation dtype of a list of norms: float64 if any is float64, else float32."""
    return acc_dtype(tensors)


def at_least_float32(values):
    """float16 and bfloat16 values cast to float32; others unchanged."""
    if values.dtype.base_dtype in (tf.float16, tf.bfloat16):
        return tf.cast(values, tf.float32)
    return values


def cast(value, dtype):
    """``value`` as a tensor of ``dtype`` (no op when it already is)."""
    value = tf.convert_to_tensor(value)
    return value if value.dtype == dtype else tf.cast(value, dtype)


def half_sq_norm(grad, dtype):
    """sum(grad**2) / 2 of one gradient's values (one ``L2Loss``), as ``dtype``."""
    return cast(tf.raw_ops.L2Loss(t=at_least_float32(_pairs.values(grad))), dtype)


def nan_if_nonfinite(factor, norm):
    """``factor + (norm - norm)``: unchanged for a finite norm, NaN otherwise."""
    return factor + (norm - norm)


def norm_of_norms(norms):
    """sqrt(sum n_i^2) in the widest dtype among ``norms`` (0.0 float32 for none)."""
    if not norms:
        return tf.constant(0.0, tf.float32)
    dtype = widest(norms)
    return tf.sqrt(tf.math.add_n([tf.square(cast(n, dtype)) for n in norms]))
