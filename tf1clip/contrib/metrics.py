"""``tf.contrib.metrics``: tf-slim's ``tf_slim.metrics``, resolved on first use.

``tf1clip.contrib.metrics.streaming_accuracy(...)``, ``aggregate_metric_map``
and every other public name of ``tf_slim.metrics`` (needs ``tf1clip[slim]``).
"""

from tf1clip.contrib import _slim_compat

__all__: list = []

__getattr__ = _slim_compat.module_getattr("metrics", globals())
__dir__ = _slim_compat.module_dir("metrics", globals())
