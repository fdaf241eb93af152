"""``tf.contrib.learn.datasets`` (TF 1.15): only ``base`` (CSV loaders, ``Dataset``, ``Datasets``) is re-created."""

from tf1clip.contrib.learn.datasets import base  # noqa: F401
from tf1clip.contrib.learn.datasets.base import Dataset  # noqa: F401
from tf1clip.contrib.learn.datasets.base import Datasets  # noqa: F401
from tf1clip.contrib.learn.datasets.base import load_csv_with_header  # noqa: F401
from tf1clip.contrib.learn.datasets.base import load_csv_without_header  # noqa: F401
from tf1clip.contrib.learn.datasets.base import shrink_csv  # noqa: F401
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)
