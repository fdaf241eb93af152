"""``tf.contrib.learn.utils``: ``input_fn_utils`` and ``saved_model_export_utils`` (imported on first use)."""

import importlib
from typing import Any

__all__ = ["input_fn_utils", "saved_model_export_utils"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return importlib.import_module(__name__ + "." + name)
    raise AttributeError("module 'tf1clip.contrib.learn.utils' has no attribute %r" % name)
