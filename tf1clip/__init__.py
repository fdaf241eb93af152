"""tf1clip: TF1-style gradient clipping for TensorFlow 2.x ``tf.compat.v1`` code.

The compute -> cap -> apply pipeline over ``(gradient, variable)`` pairs, the
optimizer decorators that replace ``tf.contrib``'s, and ``tf1clip.contrib``
drop-ins for the removed contrib APIs.
"""

from tf1clip._tf import MIN_TF_VERSION
from tf1clip.adaptive import AGC
from tf1clip.adaptive import AutoClip
from tf1clip.adaptive import NormRecorder
from tf1clip.adaptive import ZClip
from tf1clip.cappers import STATE_UPDATES
from tf1clip.cappers import attach_state_updates
from tf1clip.cappers import chain
from tf1clip.cappers import clip_by_average_norm_fn
from tf1clip.cappers import clip_by_global_norm_fn
from tf1clip.cappers import clip_by_norm_fn
from tf1clip.cappers import clip_by_value_fn
from tf1clip.clipping import clip_by_average_norm
from tf1clip.clipping import clip_by_global_norm
from tf1clip.clipping import clip_by_norm
from tf1clip.clipping import clip_by_value
from tf1clip.clipping import global_norm
from tf1clip.clipping import sum_duplicate_indices
from tf1clip.optimizer import GradientNorms
from tf1clip.optimizer import TransformGradientsOptimizer
from tf1clip.optimizer import clip_gradients_by_norm
from tf1clip.optimizer import transform_gradients

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "MIN_TF_VERSION",
    "global_norm",
    "clip_by_value",
    "clip_by_norm",
    "clip_by_average_norm",
    "clip_by_global_norm",
    "clip_by_value_fn",
    "clip_by_norm_fn",
    "clip_by_average_norm_fn",
    "clip_by_global_norm_fn",
    "chain",
    "sum_duplicate_indices",
    "AutoClip",
    "AGC",
    "ZClip",
    "NormRecorder",
    "attach_state_updates",
    "STATE_UPDATES",
    "transform_gradients",
    "clip_gradients_by_norm",
    "TransformGradientsOptimizer",
    "GradientNorms",
]
