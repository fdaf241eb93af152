"""tf1clip.contrib.learn.datasets and tf.contrib.layers' real_valued_column / infer_real_valued_columns against
TF 1.15.5's results (tests/data/tf115_learn/datasets_refs.json, recorded by make_datasets_refs.py)."""

import json
import os

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import layers
from tf1clip.contrib.learn import datasets
from tf1clip.contrib.learn.datasets import base
from tf1clip.contrib.learn.datasets import synthetic

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_learn")
with open(os.path.join(DATA, "datasets_refs.json")) as _f:
    REFS = json.load(_f)


def assert_array(actual, ref):
    actual = np.asarray(actual)
    assert str(actual.dtype) == ref["dtype"]
    assert list(actual.shape) == ref["shape"]
    if actual.dtype.kind in "fc":
        np.testing.assert_allclose(actual, np.array(ref["values"]), rtol=1e-12)
    else:
        assert actual.tolist() == ref["values"]


def assert_dataset(actual, ref):
    assert isinstance(actual, base.Dataset)
    assert_array(actual.data, ref["data"])
    assert_array(actual.target, ref["target"])


def test_load_iris_and_boston_are_tf115s_bundled_files():
    assert_dataset(datasets.load_iris(), REFS["iris"])
    assert_dataset(datasets.load_dataset("boston"), REFS["boston"])
    assert datasets.load_iris().data.dtype == np.float64 and datasets.load_iris().target.dtype == np.int64


def test_load_iris_reads_a_given_path(tmp_path):
    path = tmp_path / "iris.csv"
    path.write_text("2,2,a,b\n1.5,2.5,1\n3.0,4.0,0\n")
    data = base.load_iris(str(path))
    assert data.data.tolist() == [[1.5, 2.5], [3.0, 4.0]] and data.target.tolist() == [1, 0]


def test_dbpedia_fake_data_is_tf115s_without_network():
    fake = datasets.load_dataset("dbpedia", test_with_fake_data=True)
    assert fake.validation is None
    assert_dataset(fake.train, REFS["dbpedia_fake"]["train"])
    assert_dataset(datasets.text_datasets.load_dbpedia(test_with_fake_data=True).test, REFS["dbpedia_fake"]["test"])


def test_synthetic_datasets_draw_tf115s_numbers():
    assert_dataset(datasets.make_dataset("circles", n_samples=11, noise=0.1), REFS["circles"])
    assert_dataset(synthetic.circles(n_samples=10, seed=5, factor=0.5, n_classes=3), REFS["circles3"])
    for mode, ref in REFS["spirals"].items():
        assert_dataset(synthetic.spirals(n_samples=9, noise=0.05, seed=7, mode=mode, n_loops=1), ref)
    assert_dataset(datasets.make_dataset("spirals", n_samples=6), REFS["spirals_default"])


def test_unknown_dataset_names_raise_tf115s_errors():
    for name, fn in [
        ("dataset", lambda: datasets.load_dataset("nope")),
        ("synthetic", lambda: datasets.make_dataset("nope")),
        ("spiral_mode", lambda: synthetic.spirals(mode="nope")),
    ]:
        kind, message = REFS["errors"][name]
        with pytest.raises(ValueError, match="^%s$" % message):
            fn()
        assert kind == "ValueError"


def test_mnist_is_the_input_data_recreation():
    from tf1clip.examples.tutorials.mnist import input_data

    assert datasets.mnist.read_data_sets is input_data.read_data_sets
    assert datasets.DATASETS["mnist"] is input_data.load_mnist


def test_maybe_download_keeps_an_existing_file_and_downloads_a_missing_one(tmp_path, monkeypatch):
    (tmp_path / "have.csv").write_text("x")
    assert base.maybe_download("have.csv", str(tmp_path), "http://unused.invalid/") == str(tmp_path / "have.csv")
    source = tmp_path / "source.bin"
    source.write_bytes(b"12345")
    monkeypatch.setattr(base.urllib.request, "urlretrieve", lambda url, filename=None: (str(source), None))
    path = base.maybe_download("new.bin", str(tmp_path / "sub"), "http://unused.invalid/new.bin")
    assert open(path, "rb").read() == b"12345"


def test_retry_retries_then_calls_a_last_time(monkeypatch):
    calls, sleeps = [], []
    monkeypatch.setattr(base.time, "sleep", sleeps.append)

    @base.retry(initial_delay=1.0, max_delay=4.0, jitter=0.0, is_retriable=lambda e: isinstance(e, OSError))
    def flaky():
        calls.append(1)
        if len(calls) < 4:
            raise OSError("again")
        return "done"

    assert flaky() == "done" and len(calls) == 4 and sleeps == [1.0, 2.0, 4.0]

    @base.retry(initial_delay=1.0, max_delay=4.0, is_retriable=lambda e: False)
    def fails():
        raise KeyError("no")

    with pytest.raises(KeyError):
        fails()
    with pytest.raises(ValueError, match="factor must be >= 1"):
        base.retry(1.0, 2.0, factor=0.5)


COLUMNS = {
    "default": lambda: layers.real_valued_column("a"),
    "int_default_float": lambda: layers.real_valued_column("b", dimension=2, default_value=3),
    "int_default_int": lambda: layers.real_valued_column("c", dimension=2, default_value=3, dtype=tf.int64),
    "float_default": lambda: layers.real_valued_column("d", dimension=3, default_value=0.5),
    "list_default": lambda: layers.real_valued_column("e", dimension=2, default_value=[1, 2.5]),
    "int_list_int": lambda: layers.real_valued_column("f", dimension=2, default_value=[1, 2], dtype=tf.int32),
}


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_real_valued_column_is_tf115s(name):
    column, ref = COLUMNS[name](), REFS["columns"][name]
    assert column.key == ref["key"] and column.name == ref["name"] and column.dimension == ref["dimension"]
    assert column.dtype.name == ref["dtype"]
    assert (list(column.default_value) if column.default_value is not None else None) == ref["default"]


ERRORS = {
    "dimension_none": lambda: layers.real_valued_column("a", dimension=None),
    "dimension_float": lambda: layers.real_valued_column("a", dimension=2.0),
    "dimension_zero": lambda: layers.real_valued_column("a", dimension=0),
    "dtype": lambda: layers.real_valued_column("a", dtype=tf.string),
    "float_default_int_dtype": lambda: layers.real_valued_column("a", default_value=0.5, dtype=tf.int32),
    "list_length": lambda: layers.real_valued_column("a", dimension=2, default_value=[1.0]),
    "string_default": lambda: layers.real_valued_column("a", default_value="x"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_real_valued_column_raises_tf115s_errors(name):
    kind, message = REFS["column_errors"][name]
    with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[kind]) as info:
        ERRORS[name]()
    assert str(info.value) == message


def test_infer_real_valued_columns_flattens_each_feature():
    with tf.Graph().as_default():
        features = {"p": tf.zeros([2, 3, 2]), "q": tf.zeros([2], tf.int32)}
        found = sorted(layers.infer_real_valued_columns(features), key=lambda c: c.name)
        assert [(c.name, c.dimension, c.dtype.name) for c in found] == [
            (r["name"], r["dimension"], r["dtype"]) for r in REFS["infer_fn"]
        ]
        with pytest.raises(ValueError, match="SparseTensor is not supported for auto detection"):
            layers.infer_real_valued_columns(tf.SparseTensor([[0, 0]], [1.0], [2, 2]))
        with pytest.raises(ValueError, match="Non integer or non floating types are not supported"):
            layers.infer_real_valued_columns(tf.constant(["a"]))


def test_input_from_feature_columns_and_weighted_sum_make_tf115s_graph():
    with tf.Graph().as_default():
        a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        b = tf.constant([5.0, 6.0])
        columns = [layers.real_valued_column("b"), layers.real_valued_column("a", dimension=2)]
        net = layers.input_from_feature_columns({"a": a, "b": b}, columns)
        logits, by_column, bias = layers.weighted_sum_from_feature_columns(
            {"a": a, "b": b}, columns, num_outputs=3, scope="linear"
        )
        names = sorted(v.op.name for v in tf.compat.v1.global_variables())
        assert names == ["linear/a/weight", "linear/b/weight", "linear/bias_weight"]
        assert bias.op.name == "linear/bias_weight" and len(by_column) == 2
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            # columns in the order of their keys ("a" before "b"), each as a rank-2 float tensor
            np.testing.assert_array_equal(sess.run(net), [[1.0, 2.0, 5.0], [3.0, 4.0, 6.0]])
            np.testing.assert_array_equal(sess.run(logits), np.zeros((2, 3)))
        with pytest.raises(ValueError, match="Duplicate feature column key"):
            layers.input_from_feature_columns({"a": a}, [columns[1], layers.real_valued_column("a", dimension=2)])
