"""``tf.contrib.layers``: ``optimize_loss``, ``adaptive_clipping_fn``, ``embed_sequence`` and the dense feature column
(``real_valued_column``, ``input_from_feature_columns``, ``weighted_sum_from_feature_columns``); tf-slim for the rest.

``optimizers``, ``encoders``, ``feature_column`` and ``feature_column_ops`` hold them, as TF 1.15's files of the same
names did. Other public names (``conv2d``,
``fully_connected``, ``batch_norm``, ``l2_regularizer``, ``xavier_initializer``, ``summarize_activations`` ...) are
``tf_slim.layers``', resolved on first use (needs ``tf1clip[slim]``).
"""

from tf1clip.contrib import _manifest
from tf1clip.compat import _slim
from tf1clip.contrib.layers.encoders import embed_sequence  # noqa: F401
from tf1clip.contrib.layers.feature_column import real_valued_column  # noqa: F401
from tf1clip.contrib.layers.feature_column_ops import check_feature_columns  # noqa: F401
from tf1clip.contrib.layers.feature_column_ops import infer_real_valued_columns  # noqa: F401
from tf1clip.contrib.layers.feature_column_ops import input_from_feature_columns  # noqa: F401
from tf1clip.contrib.layers.feature_column_ops import weighted_sum_from_feature_columns  # noqa: F401
from tf1clip.contrib.layers.optimizers import OPTIMIZER_CLS_NAMES  # noqa: F401
from tf1clip.contrib.layers.optimizers import OPTIMIZER_SUMMARIES  # noqa: F401
from tf1clip.contrib.layers.optimizers import adaptive_clipping_fn  # noqa: F401
from tf1clip.contrib.layers.optimizers import optimize_loss  # noqa: F401

__all__ = _manifest.names_of(__name__)

# Every other public name: tf-slim's (``_slim.DELEGATES["layers"]``), resolved on first use.
__getattr__ = _slim.module_getattr("layers", globals())
__dir__ = _slim.module_dir("layers", globals())
