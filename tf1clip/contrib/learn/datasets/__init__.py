"""``tf.contrib.learn.datasets`` (TF 1.15): ``base`` (CSV loaders, ``Dataset``, ``Datasets``, ``load_iris``,
``load_boston``), ``mnist``, ``synthetic`` and ``text_datasets``, with ``load_dataset`` and ``make_dataset``.

``load_dataset('mnist')`` and ``load_dataset('dbpedia')`` download their files when they are missing (MNIST into
``MNIST-data``, DBpedia into ``$TF_EXP_BASE_DIR/dbpedia_data``); iris and boston are bundled CSV files.
"""

from tf1clip.contrib import _manifest
from tf1clip.contrib.learn.datasets import base  # noqa: F401
from tf1clip.contrib.learn.datasets import mnist  # noqa: F401
from tf1clip.contrib.learn.datasets import synthetic  # noqa: F401
from tf1clip.contrib.learn.datasets import text_datasets  # noqa: F401
from tf1clip.contrib.learn.datasets.base import Dataset  # noqa: F401
from tf1clip.contrib.learn.datasets.base import Datasets  # noqa: F401
from tf1clip.contrib.learn.datasets.base import load_boston
from tf1clip.contrib.learn.datasets.base import load_csv_with_header  # noqa: F401
from tf1clip.contrib.learn.datasets.base import load_csv_without_header  # noqa: F401
from tf1clip.contrib.learn.datasets.base import load_iris
from tf1clip.contrib.learn.datasets.base import shrink_csv  # noqa: F401

__all__ = _manifest.names_of(__name__)

DATASETS = {
    "iris": load_iris,
    "boston": load_boston,
    "mnist": mnist.load_mnist,
    "dbpedia": text_datasets.load_dbpedia,
}
"""Name -> loader of the datasets ``load_dataset`` knows."""

SYNTHETIC = {"circles": synthetic.circles, "spirals": synthetic.spirals}
"""Name -> generator of the datasets ``make_dataset`` knows."""


def load_dataset(name, size="small", test_with_fake_data=False):
    """The dataset ``name`` of ``DATASETS`` (``size`` and ``test_with_fake_data`` for ``'dbpedia'`` only)."""
    if name not in DATASETS:
        raise ValueError("Name of dataset is not found: %s" % name)
    if name == "dbpedia":
        return DATASETS[name](size, test_with_fake_data)
    return DATASETS[name]()


def make_dataset(name, n_samples=100, noise=None, seed=42, *args, **kwargs):
    """The synthetic dataset ``name`` of ``SYNTHETIC`` (``circles`` or ``spirals``), seeded as in TF 1.15."""
    if name not in SYNTHETIC:
        raise ValueError("Synthetic dataset not found or not implemeted: %s" % name)
    return SYNTHETIC[name](*args, n_samples=n_samples, noise=noise, seed=seed, **kwargs)
