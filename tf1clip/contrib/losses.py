"""``tf.contrib.losses``: tf-slim's ``tf_slim.losses``, resolved on first use.

``tf1clip.contrib.losses.softmax_cross_entropy(...)``, ``get_total_loss()``
and every other public name of ``tf_slim.losses`` (needs ``tf1clip[slim]``).
"""

from tf1clip.compat import _slim

__all__: list = []

__getattr__ = _slim.module_getattr("losses", globals())
__dir__ = _slim.module_dir("losses", globals())
