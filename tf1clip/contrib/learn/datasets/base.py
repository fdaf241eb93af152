"""``tf.contrib.learn.datasets.base`` (TF 1.15): ``Dataset``, ``Datasets``, the CSV loaders (``tf.io.gfile`` paths),
``load_iris`` and ``load_boston`` (the CSV files TF 1.15 bundled, bundled here too) and the download helpers
``maybe_download``, ``urlretrieve_with_retry`` and ``retry``.
"""

import collections
import csv
import functools
import os
import random
import time
import urllib.request
from typing import Any, Callable, Optional

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


_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def load_iris(data_path: Optional[str] = None) -> Dataset:
    """The 150 iris flowers (4 float64 features, int64 class 0-2) of ``data_path`` or the bundled ``iris.csv``."""
    return load_csv_with_header(data_path or os.path.join(_DATA, "iris.csv"), target_dtype=int, features_dtype=float)


def load_boston(data_path: Optional[str] = None) -> Dataset:
    """The 506 Boston houses (13 float64 features, float64 price) of ``data_path`` or the bundled CSV file."""
    path = data_path or os.path.join(_DATA, "boston_house_prices.csv")
    return load_csv_with_header(path, target_dtype=float, features_dtype=float)


def retry(initial_delay, max_delay, factor=2.0, jitter=0.25, is_retriable=None):
    """A decorator retrying a function after failures, the delays growing from ``initial_delay`` by ``factor``
    (each times ``uniform(1 - jitter, 1 + jitter)``) while they are at most ``max_delay``; then a last call.

    Without ``is_retriable`` every exception is retried at once (no sleep), as in TF 1.15; with it, an exception it
    rejects is raised.
    """
    if factor < 1:
        raise ValueError("factor must be >= 1; was %f" % (factor,))
    if jitter >= 1:
        raise ValueError("jitter must be < 1; was %f" % (jitter,))

    def delays():
        delay = initial_delay
        while delay <= max_delay:
            yield delay * random.uniform(1 - jitter, 1 + jitter)
            delay *= factor

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            for delay in delays():
                try:
                    return fn(*args, **kwargs)
                except Exception as error:  # noqa: BLE001 - TF 1.15 retried every exception
                    if is_retriable is None:
                        continue
                    if not is_retriable(error):
                        raise
                    time.sleep(delay)
            return fn(*args, **kwargs)

        return wrapped

    return wrap


def _is_retriable(error: BaseException) -> bool:
    return isinstance(error, IOError) and error.errno in {110}


@retry(initial_delay=1.0, max_delay=16.0, is_retriable=_is_retriable)
def urlretrieve_with_retry(url: str, filename: Optional[str] = None) -> Any:
    """``urllib.request.urlretrieve``, retried on connection timeouts."""
    return urllib.request.urlretrieve(url, filename)


def maybe_download(filename: str, work_directory: str, source_url: str) -> str:
    """The path of ``filename`` in ``work_directory``, downloaded from ``source_url`` first if missing."""
    if not tf.io.gfile.exists(work_directory):
        tf.io.gfile.makedirs(work_directory)
    filepath = os.path.join(work_directory, filename)
    if not tf.io.gfile.exists(filepath):
        temp_file_name, _ = urlretrieve_with_retry(source_url)
        tf.io.gfile.copy(temp_file_name, filepath)
        print("Successfully downloaded", filename, tf.io.gfile.stat(filepath).length, "bytes.")
    return filepath
