"""tf1clip.examples.tutorials.mnist.input_data against TF 1.15's, on tiny idx files the tests write.

tests/data/tf115_mnist/refs.json holds what TF 1.15.5's ``tensorflow.examples.tutorials.mnist.input_data``
returned for the calls of tests/data/tf115_mnist/cases.py (make_refs.py); here tf1clip's module makes the
same calls on the same files.
"""

import json
import os
import urllib.error

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.examples.tutorials.mnist import input_data
from helpers import load_cases

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_mnist")
cases = load_cases(HERE)


def test_batches_shuffles_and_errors_are_tf115s(tmp_path):
    with open(os.path.join(HERE, "refs.json")) as f:
        refs = json.load(f)
    cases.write_idx(str(tmp_path))
    assert cases.run(input_data, tf, str(tmp_path)) == refs["values"]


def test_one_hot_and_scaling_follow_the_files(tmp_path):
    cases.write_idx(str(tmp_path))
    sets = input_data.read_data_sets(str(tmp_path), one_hot=True, validation_size=2, seed=1)
    assert isinstance(sets, input_data.Datasets) and sets._fields == ("train", "validation", "test")
    assert sets.validation.labels.tolist() == np.eye(10)[[2, 9]].tolist()  # labels (7 * i + 12) % 10
    assert sets.validation.images.dtype == np.float32 and sets.validation.images.shape == (2, 6)
    assert sets.validation.images[1].tolist() == pytest.approx(np.array([37, 42, 48, 53, 59, 64]) / 255.0)


def test_bad_magic_number_is_a_value_error(tmp_path):
    cases.write_idx(str(tmp_path), bad_magic=True)
    with pytest.raises(ValueError, match="Invalid magic number 2052 in MNIST image file: .*train-images"):
        input_data.read_data_sets(str(tmp_path))


def test_mismatched_images_and_labels_name_both():
    with pytest.raises(ValueError, match=r"images and labels must have as many rows, .*\(3, 2, 2, 1\).*\(2,\)"):
        input_data.DataSet(np.zeros((3, 2, 2, 1), np.uint8), np.zeros(2, np.uint8))


def test_missing_file_without_network_says_what_to_put_where(tmp_path, monkeypatch):
    def offline(url, timeout):
        raise urllib.error.URLError("network is unreachable")

    monkeypatch.setattr(input_data.urllib.request, "urlopen", offline)
    with pytest.raises(OSError, match=r"train-images-idx3-ubyte.gz is not in .*mnist and could not be downloaded "):
        input_data.read_data_sets(str(tmp_path / "mnist"), source_url="http://127.0.0.1:9/")
    assert os.listdir(tmp_path / "mnist") == []


def test_missing_file_is_downloaded_from_source_url(tmp_path, monkeypatch):
    cases.write_idx(str(tmp_path / "server"))
    fetched = []

    def serve(url, timeout):
        fetched.append(url)
        return open(os.path.join(str(tmp_path / "server"), url.rsplit("/", 1)[1]), "rb")

    monkeypatch.setattr(input_data.urllib.request, "urlopen", serve)
    sets = input_data.read_data_sets(str(tmp_path / "data"), validation_size=0, source_url="http://mirror/mnist/")
    assert fetched == ["http://mirror/mnist/" + name for name in cases.FILES]
    assert sets.train.num_examples == 12 and sorted(os.listdir(tmp_path / "data")) == sorted(cases.FILES)
