import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402


@pytest.fixture
def graph():
    """A fresh default graph (TF1 graph mode) for one test."""
    with tf.Graph().as_default() as g:
        yield g


@pytest.fixture
def sess(graph):
    with tf.compat.v1.Session(graph=graph) as s:
        yield s
