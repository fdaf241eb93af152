"""``tf.contrib.slim`` as a whole namespace: tf1clip's training part, tf-slim for the rest.

Legacy ``slim = tf.contrib.slim`` becomes ``slim = tf1clip.contrib.slim``.
tf1clip's own: ``slim.learning`` (``create_train_op`` with per-tensor
``clip_gradient_norm``, the gradient helpers, ``train``), ``optimize_loss``,
``adaptive_clipping_fn``, ``OPTIMIZER_CLS_NAMES``, ``OPTIMIZER_SUMMARIES``,
``get_global_step``, ``get_or_create_global_step``, and ``slim.losses``,
``slim.metrics``, ``slim.training`` (= ``tf1clip.contrib.losses`` ...).
Every other public name (``arg_scope``, ``conv2d``, ``batch_norm``,
``fully_connected``, ``get_variables_to_restore``, ``evaluation``,
``tfexample_decoder``, ``nets`` ...) is tf-slim's (``import tf_slim``),
resolved on first use and patched for TF 2 (docs/slim.rst); it needs
``pip install 'tf1clip[slim]'``.
"""

from tf1clip.compat import _slim
from tf1clip.contrib import losses  # noqa: F401  (slim.losses, as in tf.contrib.slim)
from tf1clip.contrib import metrics  # noqa: F401
from tf1clip.contrib import training  # noqa: F401
from tf1clip.contrib.framework import get_global_step  # noqa: F401
from tf1clip.contrib.framework import get_or_create_global_step  # noqa: F401
from tf1clip.contrib.layers import OPTIMIZER_CLS_NAMES  # noqa: F401
from tf1clip.contrib.layers import OPTIMIZER_SUMMARIES  # noqa: F401
from tf1clip.contrib.layers import adaptive_clipping_fn  # noqa: F401
from tf1clip.contrib.layers import optimize_loss  # noqa: F401
from tf1clip.contrib.slim import learning  # noqa: F401
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

# Every other public name: tf-slim's (``_slim.DELEGATES["slim"]``), resolved on first use.
__getattr__ = _slim.module_getattr("slim", globals())
__dir__ = _slim.module_dir("slim", globals())
