"""``tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager`` as a TF 2 ``tf.compat.v1`` loss scale.

``tf1clip-upgrade`` rewrites ``tf.contrib.mixed_precision.LossScaleOptimizer(opt,
manager)`` to ``tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer(opt,
loss_scale)``. A manager that TF 2's ``DynamicLossScale`` reproduces
(``decr_every_n_nan_or_inf=1``, ``decr_ratio == 1 / incr_ratio``) becomes one; any
other becomes :class:`ExponentialUpdateLossScale`, which follows contrib's rule
exactly: after ``incr_every_n_steps`` consecutive finite steps the scale is
multiplied by ``incr_ratio`` (if the product is finite); after
``decr_every_n_nan_or_inf`` accumulated non-finite steps it becomes
``max(1, scale * decr_ratio)``; a non-finite step resets the finite count, and a
change of scale resets both counts.
"""

import math

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


def _all_finite(grads):
    finite = [
        tf.reduce_all(tf.math.is_finite(g.values if isinstance(g, tf.IndexedSlices) else g))
        for g in grads
        if g is not None
    ]
    return tf.reduce_all(finite)


class ExponentialUpdateLossScale(tf.compat.v1.mixed_precision.DynamicLossScale):
    """contrib's exponential-update loss-scale policy for ``MixedPrecisionLossScaleOptimizer``.

    A ``DynamicLossScale`` subclass because the optimizer updates (and skips steps
    for) only those; ``DynamicLossScale``'s own variables and rule are not used.
    """

    def __init__(
        self,
        init_loss_scale: float,
        incr_every_n_steps: int,
        decr_every_n_nan_or_inf: int = 2,
        incr_ratio: float = 2,
        decr_ratio: float = 0.8,
    ):
        _tf.init_loss_scale_base(self)
        for name, value, low in (
            ("init_loss_scale", init_loss_scale, 1.0),
            ("incr_every_n_steps", incr_every_n_steps, 1.0),
            ("decr_every_n_nan_or_inf", decr_every_n_nan_or_inf, 1.0),
            ("incr_ratio", incr_ratio, 1.0),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
                or value < low
            ):
                raise ValueError("%s must be a finite number >= %g, got %r" % (name, low, value))
        if isinstance(decr_ratio, bool) or not isinstance(decr_ratio, (int, float)) or not 0 < decr_ratio <= 1:
            raise ValueError("decr_ratio must be a number in (0, 1], got %r" % (decr_ratio,))
        self._init_loss_scale = float(init_loss_scale)
        self._incr_every_n_steps = int(incr_every_n_steps)
        self._decr_every_n_nan_or_inf = int(decr_every_n_nan_or_inf)
        self._incr_ratio = float(incr_ratio)
        self._decr_ratio = float(decr_ratio)
        _tf.set_dynamic_loss_scale_config(self, self._init_loss_scale, self._incr_every_n_steps, self._incr_ratio)
        self._loss_scale = _tf.add_loss_scale_weight(self, "loss_scale", self._init_loss_scale, tf.float32)
        self._good_steps = _tf.add_loss_scale_weight(self, "good_steps", 0, tf.int64)
        self._bad_steps = _tf.add_loss_scale_weight(self, "bad_steps", 0, tf.int64)

    def __call__(self):
        return tf.convert_to_tensor(self._loss_scale)

    def _is_finite(self, grads):
        grads = tf.nest.flatten(grads)
        if not tf.distribute.has_strategy():
            return _all_finite(grads)
        strategy = tf.distribute.get_strategy()
        finite = strategy.extended.call_for_each_replica(lambda g: tf.cast(_all_finite(g), tf.float32), args=(grads,))
        total = strategy.reduce(tf.distribute.ReduceOp.SUM, finite, axis=None)
        return tf.equal(total, strategy.num_replicas_in_sync)

    def update(self, grads):
        """Updates the scale after a step; returns ``(update op, whether to apply the gradients)``."""
        finite = self._is_finite(grads)
        scale, good, bad = (tf.identity(v) for v in (self._loss_scale, self._good_steps, self._bad_steps))
        zero = tf.zeros_like(good)
        grow = tf.logical_and(finite, good + 1 >= self._incr_every_n_steps)
        shrink = tf.logical_and(tf.logical_not(finite), bad + 1 >= self._decr_every_n_nan_or_inf)
        grown = scale * self._incr_ratio
        new_scale = tf.where(
            grow,
            tf.where(tf.math.is_finite(grown), grown, scale),
            tf.where(shrink, tf.maximum(1.0, scale * self._decr_ratio), scale),
        )
        new_good = tf.where(finite, tf.where(grow, zero, good + 1), zero)
        new_bad = tf.where(finite, tf.where(grow, zero, bad), tf.where(shrink, zero, bad + 1))
        with tf.control_dependencies([new_scale, new_good, new_bad]):
            update = tf.group(
                self._loss_scale.assign(new_scale), self._good_steps.assign(new_good), self._bad_steps.assign(new_bad)
            )
        return update, finite

    def get_config(self):
        return {
            "init_loss_scale": self._init_loss_scale,
            "incr_every_n_steps": self._incr_every_n_steps,
            "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
            "incr_ratio": self._incr_ratio,
            "decr_ratio": self._decr_ratio,
        }
