"""``tf.contrib.learn.utils``: ``input_fn_utils`` and ``saved_model_export_utils`` (imported on first use)."""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.learn.utils", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.learn.utils", globals())
