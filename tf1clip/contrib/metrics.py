"""``tf.contrib.metrics``: tf-slim's ``tf_slim.metrics``, resolved on first use.

``tf1clip.contrib.metrics.streaming_accuracy(...)``, ``aggregate_metric_map``
and every other public name of ``tf_slim.metrics`` (needs ``tf1clip[slim]``).
"""

from tf1clip.compat import _slim

__all__: list = []

__getattr__ = _slim.module_getattr("metrics", globals())
__dir__ = _slim.module_dir("metrics", globals())
