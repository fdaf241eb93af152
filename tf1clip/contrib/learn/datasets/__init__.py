"""``tf.contrib.learn.datasets`` (TF 1.15): only ``base`` (CSV loaders, ``Dataset``, ``Datasets``) is re-created."""

from tf1clip.contrib.learn.datasets import base
from tf1clip.contrib.learn.datasets.base import Dataset
from tf1clip.contrib.learn.datasets.base import Datasets
from tf1clip.contrib.learn.datasets.base import load_csv_with_header
from tf1clip.contrib.learn.datasets.base import load_csv_without_header
from tf1clip.contrib.learn.datasets.base import shrink_csv

__all__ = ["Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header", "shrink_csv", "base"]
