"""``tf.contrib.learn.datasets.text_datasets`` (TF 1.15): the DBpedia ontology dataset of the text-classification
examples.

``load_dbpedia`` downloads ``dbpedia_csv.tar.gz`` (``DBPEDIA_URL``) into ``$TF_EXP_BASE_DIR/dbpedia_data`` unless
its ``train.csv`` and ``test.csv`` are there; ``size='small'`` keeps every 1000th row (``base.shrink_csv``).
``test_with_fake_data=True`` reads the two tiny CSV files TF 1.15 bundled (bundled here too), without network.
"""

import os
import tarfile

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.learn.datasets import base

__all__ = _manifest.names_of(__name__)

DBPEDIA_URL = "https://github.com/le-scientifique/torchDatasets/raw/master/dbpedia_csv.tar.gz"


def maybe_download_dbpedia(data_dir: str) -> None:
    """Downloads and extracts the DBpedia CSV files into ``data_dir`` unless they are there."""
    train_path = os.path.join(data_dir, "dbpedia_csv/train.csv")
    test_path = os.path.join(data_dir, "dbpedia_csv/test.csv")
    if not (tf.io.gfile.exists(train_path) and tf.io.gfile.exists(test_path)):
        archive_path = base.maybe_download("dbpedia_csv.tar.gz", data_dir, DBPEDIA_URL)
        with tarfile.open(archive_path, "r:*") as archive:
            archive.extractall(data_dir)


def load_dbpedia(size: str = "small", test_with_fake_data: bool = False) -> base.Datasets:
    """``Datasets(train, None, test)`` of DBpedia rows: the class (int32) is the target, the name and the
    description (strings) the data."""
    if not test_with_fake_data:
        data_dir = os.path.join(os.getenv("TF_EXP_BASE_DIR", ""), "dbpedia_data")
        maybe_download_dbpedia(data_dir)
        train_path = os.path.join(data_dir, "dbpedia_csv", "train.csv")
        test_path = os.path.join(data_dir, "dbpedia_csv", "test.csv")
        if size == "small":
            base.shrink_csv(train_path, 1000)
            base.shrink_csv(test_path, 1000)
            train_path = train_path.replace("train.csv", "train_small.csv")
            test_path = test_path.replace("test.csv", "test_small.csv")
    else:
        data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
        train_path, test_path = os.path.join(data, "text_train.csv"), os.path.join(data, "text_test.csv")
    train = base.load_csv_without_header(train_path, target_dtype=np.int32, features_dtype=np.str_, target_column=0)
    test = base.load_csv_without_header(test_path, target_dtype=np.int32, features_dtype=np.str_, target_column=0)
    return base.Datasets(train=train, validation=None, test=test)
