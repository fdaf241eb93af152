"""``tf.contrib.estimator``'s gradient-clipping decorator.

``clip_gradients_by_norm(optimizer, clip_norm)`` clips by the GLOBAL norm, as
contrib's did despite its name; it is ``tf1clip.clip_gradients_by_norm``.
"""

from tf1clip.optimizer import clip_gradients_by_norm

__all__ = ["clip_gradients_by_norm"]
