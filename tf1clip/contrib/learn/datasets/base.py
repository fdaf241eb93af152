"""``tf.contrib.learn.datasets.base`` (TF 1.15): ``Dataset``, ``Datasets`` and the CSV loaders (``tf.io.gfile`` paths).

``load_iris``/``load_boston`` (TF 1.15 bundled the CSV files) and the download helpers are not re-created.
"""

import collections
import csv
from typing import Any

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def load_csv_with_header(filename: str, target_dtype: Any, features_dtype: Any, target_column: int = -1) -> Dataset:
    """A CSV whose header row starts with the number of samples and of features; ``target_column`` is the target."""
    with tf.io.gfile.GFile(filename) as csv_file:
        rows = csv.reader(csv_file)
        header = next(rows)
        n_samples, n_features = int(header[0]), int(header[1])
        data = np.zeros((n_samples, n_features), dtype=features_dtype)
        target = np.zeros((n_samples,), dtype=target_dtype)
        for i, row in enumerate(rows):
            target[i] = np.asarray(row.pop(target_column), dtype=target_dtype)
            data[i] = np.asarray(row, dtype=features_dtype)
    return Dataset(data=data, target=target)


def load_csv_without_header(filename: str, target_dtype: Any, features_dtype: Any, target_column: int = -1) -> Dataset:
    """A CSV without a header row; ``target_column`` is the target."""
    data, target = [], []
    with tf.io.gfile.GFile(filename) as csv_file:
        for row in csv.reader(csv_file):
            target.append(row.pop(target_column))
            data.append(np.asarray(row, dtype=features_dtype))
    return Dataset(data=np.array(data), target=np.array(target, dtype=target_dtype))


def shrink_csv(filename: str, ratio: int) -> None:
    """Writes every ``ratio``-th row of ``filename`` to the same name with ``.`` replaced by ``_small.``."""
    with tf.io.gfile.GFile(filename.replace(".", "_small."), "w") as small:
        writer = csv.writer(small)
        with tf.io.gfile.GFile(filename) as csv_file:
            for i, row in enumerate(csv.reader(csv_file)):
                if i % ratio == 0:
                    writer.writerow(row)
