"""``tf.contrib.predictor``: TF 1.15's ``from_saved_model``, ``from_estimator`` and ``from_contrib_estimator``
(docs/contrib.rst, "staging and predictor").

Each returns a ``Predictor``: a callable taking a dict of NumPy inputs (the keys of ``feed_tensors``) and returning
the dict of ``fetch_tensors``' values, computed in its own ``graph`` and ``session`` (a ``tf.compat.v1.Session``, or
a ``MonitoredSession`` restoring an Estimator's checkpoint).
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)
__getattr__ = _manifest.module_getattr("tf1clip.contrib.predictor", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.predictor", globals())
