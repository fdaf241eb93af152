"""``tf.contrib.slim``'s training part: ``slim.learning`` and the global-step helpers.

Legacy ``slim = tf.contrib.slim`` becomes ``slim = tf1clip.contrib.slim``, so
``slim.learning.create_train_op(...)`` and ``slim.get_or_create_global_step()``
keep working. slim's layers, arg scopes and losses are not here.
"""

from tf1clip.contrib.framework import get_global_step
from tf1clip.contrib.framework import get_or_create_global_step
from tf1clip.contrib.slim import learning

__all__ = ["learning", "get_global_step", "get_or_create_global_step"]
