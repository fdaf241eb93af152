"""``tf.contrib.training``: gradient helpers, ``create_train_op``, ``train`` and ``HParams``; tf-slim for the rest.

``training`` and ``hparam`` hold them, as TF 1.15's files of the same names did. Other public names
(``evaluate_once``, ``evaluate_repeatedly``, ``checkpoints_iterator``, ``StopAfterNEvalsHook`` ...) are tf-slim's,
resolved on first use (needs ``tf1clip[slim]``).
"""

from tf1clip.contrib import _manifest
from tf1clip.compat import _slim
from tf1clip.contrib.training.hparam import HParams  # noqa: F401
from tf1clip.contrib.training.training import add_gradients_summaries  # noqa: F401
from tf1clip.contrib.training.training import clip_gradient_norms  # noqa: F401
from tf1clip.contrib.training.training import clip_gradient_norms_fn  # noqa: F401
from tf1clip.contrib.training.training import create_train_op  # noqa: F401
from tf1clip.contrib.training.training import multiply_gradients  # noqa: F401
from tf1clip.contrib.training.training import train  # noqa: F401

__all__ = _manifest.names_of(__name__)


# Every other public name: tf-slim's (``_slim.DELEGATES["training"]``), resolved on first use.
__getattr__ = _slim.module_getattr("training", globals())
__dir__ = _slim.module_dir("training", globals())
