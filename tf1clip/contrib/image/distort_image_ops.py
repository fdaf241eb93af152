"""``tf.contrib.image``'s YIQ colour adjustments (``contrib/image/python/ops/distort_image_ops.py``), re-created.

``adjust_hsv_in_yiq`` is TF 1.15's ``AdjustHsvInYiq`` kernel as TensorFlow ops: the 3 x 3 matrix
``yiq_inverse * hsv * yiq`` (the kernel's constants), applied to each pixel's RGB in the kernel's order of sums, in
float32 between ``convert_image_dtype`` calls. ``random_hsv_in_yiq`` draws its factors with TF 1.15's
``random_uniform`` calls, in its order, with the one ``seed`` for all three.
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1

_YIQ = ((0.299, 0.587, 0.114), (0.596, -0.274, -0.322), (0.211, -0.523, 0.312))
_YIQ_INVERSE = ((1.0, 0.95617069, 0.62143257), (1.0, -0.2726886, -0.64681324), (1.0, -1.103744, 1.70062309))


def _product(a, b):
    """``a @ b`` of 3 x 3 nested lists of float32 scalars, each entry summed in index order."""
    return [[(a[i][0] * b[0][j] + a[i][1] * b[1][j]) + a[i][2] * b[2][j] for j in range(3)] for i in range(3)]


def _constant(rows):
    return [[tf.constant(x, tf.float32) for x in row] for row in rows]


def _matrix(delta_hue, scale_saturation, scale_value):
    vsu = scale_value * scale_saturation * tf.cos(delta_hue)
    vsw = scale_value * scale_saturation * tf.sin(delta_hue)
    zero = tf.zeros([], tf.float32)
    hsv = [[scale_value, zero, zero], [zero, vsu, -vsw], [zero, vsw, vsu]]
    return _product(_product(_constant(_YIQ_INVERSE), hsv), _constant(_YIQ))


def _scalar(value, name):
    value = tf.convert_to_tensor(value, tf.float32, name=name)
    if value.shape.ndims not in (None, 0):
        raise ValueError("adjust_hsv_in_yiq: %s must be a scalar, got shape %s" % (name, value.shape))
    return value


def adjust_hsv_in_yiq(image, delta_hue=0, scale_saturation=1, scale_value=1, name=None):
    """Rotates the hue of RGB ``image`` (last dimension 3) by ``delta_hue`` radians around YIQ's Y axis, scales I
    and Q by ``scale_saturation`` and Y, I, Q by ``scale_value``; same shape and dtype as ``image``."""
    with v1.name_scope(name, "adjust_hsv_in_yiq", [image]):
        image = tf.convert_to_tensor(image, name="image")
        if image.shape.ndims is not None and image.shape.ndims < 3:
            raise ValueError("adjust_hsv_in_yiq: image must be at least 3-D, got shape %s" % image.shape)
        channels = tf.compat.dimension_value(image.shape[-1]) if image.shape.ndims else None
        if channels is not None and channels != 3:
            raise ValueError("adjust_hsv_in_yiq: image must have 3 channels, got shape %s" % image.shape)
        matrix = _matrix(
            _scalar(delta_hue, "delta_hue"),
            _scalar(scale_saturation, "scale_saturation"),
            _scalar(scale_value, "scale_value"),
        )
        orig_dtype = image.dtype
        rgb = tf.unstack(tf.image.convert_image_dtype(image, tf.float32), 3, axis=-1)
        out = [(rgb[0] * matrix[q][0] + rgb[1] * matrix[q][1]) + rgb[2] * matrix[q][2] for q in range(3)]
        return tf.image.convert_image_dtype(tf.stack(out, axis=-1), orig_dtype)


def random_hsv_in_yiq(
    image, max_delta_hue=0, lower_saturation=1, upper_saturation=1, lower_value=1, upper_value=1, seed=None
):
    """``adjust_hsv_in_yiq`` with ``delta_hue`` uniform in ``[-max_delta_hue, max_delta_hue]``, ``scale_saturation``
    in ``[lower_saturation, upper_saturation]`` and ``scale_value`` in ``[lower_value, upper_value]`` (a bound pair
    that is equal, or ``max_delta_hue`` 0, draws nothing)."""
    if max_delta_hue < 0:
        raise ValueError("random_hsv_in_yiq: max_delta_hue must be non-negative, got %r" % (max_delta_hue,))
    if lower_saturation < 0:
        raise ValueError("random_hsv_in_yiq: lower_saturation must be non-negative, got %r" % (lower_saturation,))
    if lower_value < 0:
        raise ValueError("random_hsv_in_yiq: lower_value must be non-negative, got %r" % (lower_value,))
    if lower_saturation > upper_saturation:
        raise ValueError(
            "random_hsv_in_yiq: lower_saturation must be <= upper_saturation, got %r > %r"
            % (lower_saturation, upper_saturation)
        )
    if lower_value > upper_value:
        raise ValueError(
            "random_hsv_in_yiq: lower_value must be <= upper_value, got %r > %r" % (lower_value, upper_value)
        )
    delta_hue = 0 if max_delta_hue == 0 else v1.random_uniform([], -max_delta_hue, max_delta_hue, seed=seed)
    if lower_saturation == upper_saturation:
        scale_saturation = lower_saturation
    else:
        scale_saturation = v1.random_uniform([], lower_saturation, upper_saturation, seed=seed)
    if lower_value == upper_value:
        scale_value = lower_value
    else:
        scale_value = v1.random_uniform([], lower_value, upper_value, seed=seed)
    return adjust_hsv_in_yiq(image, delta_hue, scale_saturation, scale_value)
