"""Sign-decay schedules for ``PowerSignOptimizer`` and ``AddSignOptimizer`` (Bello et al., 2017).

``tf.contrib.opt.python.training.sign_decay``: each ``get_*_decay_fn`` returns a
function of ``global_step`` giving a float32 scalar tensor in [0, 1]. The
returned functions raise ``ValueError`` when ``global_step`` is ``None``.
"""

import math

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


def _require_step(global_step, what):
    if global_step is None:
        raise ValueError("global_step is required for %s." % what)


def get_linear_decay_fn(decay_steps):
    """``decay(step) = max(0, (decay_steps - min(step, decay_steps)) / decay_steps)``."""

    def linear_decay_fn(global_step):
        _require_step(global_step, "linear_decay")
        global_step = tf.minimum(global_step, decay_steps)
        remaining = tf.cast(decay_steps, tf.int32) - tf.cast(global_step, tf.int32)
        decayed = tf.cast(remaining, tf.float32) / tf.cast(decay_steps, tf.float32)
        return tf.maximum(0.0, decayed)

    return linear_decay_fn


def get_cosine_decay_fn(decay_steps, num_periods=0.5, zero_after=None):
    """``0.5 * (1 + cos(pi * 2 * num_periods * min(step, decay_steps) / decay_steps))``.

    With ``zero_after``: 0 once ``2 * num_periods * step / decay_steps >= 2 * zero_after``.
    """

    def cosine_decay_fn(global_step):
        _require_step(global_step, "cosine_decay")
        global_step = tf.minimum(global_step, decay_steps)
        completed = tf.cast(global_step, tf.float32) / tf.cast(decay_steps, tf.float32)
        fraction = 2.0 * num_periods * completed
        decayed = 0.5 * (1.0 + tf.cos(tf.constant(math.pi) * fraction))
        if zero_after is not None:
            decayed = tf.where(tf.greater_equal(fraction, 2 * zero_after), 0.0, decayed)
        return decayed

    return cosine_decay_fn


def get_restart_decay_fn(decay_steps, num_periods=1, zero_after=None):
    """Cosine decay restarted ``num_periods`` times: ``0.5 * (1 + cos(pi * ((num_periods * s) mod D) / D))``.

    ``s = min(step, decay_steps)``, ``D = decay_steps``. With ``zero_after``: 0 once
    ``num_periods * s / D >= zero_after``.
    """

    def restart_decay_fn(global_step):
        _require_step(global_step, "cosine_decay")
        global_step = tf.minimum(global_step, decay_steps)
        num = tf.math.floormod(num_periods * tf.cast(global_step, tf.float32), decay_steps)
        fraction = num / tf.cast(decay_steps, tf.float32)
        decayed = 0.5 * (1.0 + tf.cos(tf.constant(math.pi) * fraction))
        if zero_after is not None:
            tmp = tf.cast(num_periods * global_step, tf.float32) / tf.cast(decay_steps, tf.float32)
            decayed = tf.where(tf.greater_equal(tmp, zero_after), 0.0, decayed)
        return decayed

    return restart_decay_fn
