"""Drop-ins for the ``tf.contrib`` gradient-clipping APIs that TensorFlow 2 removed.

Replace ``tf.contrib.X.Y`` by ``tf1clip.contrib.X.Y``: same signatures,
defaults, variable names, summary tags and numbers as TensorFlow 1.15, with
contrib's outright bugs fixed (see README, "Differences from tf.contrib").

* ``estimator.clip_gradients_by_norm`` (GLOBAL norm)
* ``layers.optimize_loss``, ``layers.adaptive_clipping_fn``,
  ``layers.OPTIMIZER_CLS_NAMES``, ``layers.OPTIMIZER_SUMMARIES``
* ``training.clip_gradient_norms`` (per tensor), ``clip_gradient_norms_fn``,
  ``multiply_gradients``, ``add_gradients_summaries``, ``create_train_op``
* ``slim.learning`` (the same helpers, slim's summary tags, and
  ``create_train_op(clip_gradient_norm=..., gradient_multipliers=...)``)
* ``opt.clip_gradients_by_global_norm``
* ``framework.get_global_step``, ``framework.get_or_create_global_step``
"""

from tf1clip.contrib import estimator
from tf1clip.contrib import framework
from tf1clip.contrib import layers
from tf1clip.contrib import opt
from tf1clip.contrib import slim
from tf1clip.contrib import training

__all__ = ["estimator", "framework", "layers", "opt", "slim", "training"]
