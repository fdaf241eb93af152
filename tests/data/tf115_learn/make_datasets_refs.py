"""Records TF 1.15.5's tf.contrib.learn.datasets, contrib real_valued_column and infer_real_valued_columns results
for tests/unit/test_contrib_learn_datasets.py.

Run with the oracle's TensorFlow 1.15 from this directory:
    env -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python make_datasets_refs.py
Writes datasets_refs.json.
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib import learn
from tensorflow.contrib.learn.python.learn.datasets import synthetic


def array(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "values": a.tolist()}


def dataset(d):
    return {"data": array(d.data), "target": array(d.target)}


def error(fn):
    try:
        fn()
    except (TypeError, ValueError) as e:
        return [type(e).__name__, str(e)]
    return None


refs = {
    "iris": dataset(learn.datasets.load_iris()),
    "boston": dataset(learn.datasets.load_dataset("boston")),
    "dbpedia_fake": {
        "train": dataset(learn.datasets.load_dataset("dbpedia", test_with_fake_data=True).train),
        "test": dataset(learn.datasets.text_datasets.load_dbpedia(test_with_fake_data=True).test),
    },
    "circles": dataset(learn.datasets.make_dataset("circles", n_samples=11, noise=0.1)),
    "circles3": dataset(synthetic.circles(n_samples=10, seed=5, factor=0.5, n_classes=3)),
    "spirals": dict(
        (mode, dataset(synthetic.spirals(n_samples=9, noise=0.05, seed=7, mode=mode, n_loops=1)))
        for mode in ("archimedes", "bernoulli", "fermat")
    ),
    "spirals_default": dataset(learn.datasets.make_dataset("spirals", n_samples=6)),
    "errors": {
        "dataset": error(lambda: learn.datasets.load_dataset("nope")),
        "synthetic": error(lambda: learn.datasets.make_dataset("nope")),
        "spiral_mode": error(lambda: synthetic.spirals(mode="nope")),
    },
}

columns = {
    "default": tf.contrib.layers.real_valued_column("a"),
    "int_default_float": tf.contrib.layers.real_valued_column("b", dimension=2, default_value=3),
    "int_default_int": tf.contrib.layers.real_valued_column("c", dimension=2, default_value=3, dtype=tf.int64),
    "float_default": tf.contrib.layers.real_valued_column("d", dimension=3, default_value=0.5),
    "list_default": tf.contrib.layers.real_valued_column("e", dimension=2, default_value=[1, 2.5]),
    "int_list_int": tf.contrib.layers.real_valued_column("f", dimension=2, default_value=[1, 2], dtype=tf.int32),
}
refs["columns"] = dict((k, {"key": c.key, "name": c.name, "default": c.default_value, "dtype": c.dtype.name,
                            "dimension": c.dimension}) for k, c in columns.items())
refs["column_errors"] = {
    "dimension_none": error(lambda: tf.contrib.layers.real_valued_column("a", dimension=None)),
    "dimension_float": error(lambda: tf.contrib.layers.real_valued_column("a", dimension=2.0)),
    "dimension_zero": error(lambda: tf.contrib.layers.real_valued_column("a", dimension=0)),
    "dtype": error(lambda: tf.contrib.layers.real_valued_column("a", dtype=tf.string)),
    "float_default_int_dtype": error(lambda: tf.contrib.layers.real_valued_column("a", default_value=0.5, dtype=tf.int32)),
    "list_length": error(lambda: tf.contrib.layers.real_valued_column("a", dimension=2, default_value=[1.0])),
    "string_default": error(lambda: tf.contrib.layers.real_valued_column("a", default_value="x")),
}


def infer(x):
    return [{"name": c.name, "dimension": c.dimension, "dtype": c.dtype.name, "key": c.key}
            for c in sorted(learn.infer_real_valued_columns_from_input(x), key=lambda c: c.name)]


refs["infer"] = {
    "float32_matrix": infer(np.zeros((5, 4), np.float32)),
    "float64_vector": infer(np.zeros(5)),
    "int_cube": infer(np.zeros((3, 2, 3), np.int32)),
    "dict": infer({"a": np.zeros((4, 2), np.float32), "b": np.zeros(4, np.int64)}),
}
refs["infer_fn"] = [
    {"name": c.name, "dimension": c.dimension, "dtype": c.dtype.name}
    for c in sorted(
        learn.infer_real_valued_columns_from_input_fn(
            lambda: ({"p": tf.zeros([2, 3, 2]), "q": tf.zeros([2], tf.int32)}, None)
        ),
        key=lambda c: c.name,
    )
]
refs["infer_errors"] = {
    "sparse": error(lambda: learn.infer_real_valued_columns_from_input_fn(
        lambda: (tf.SparseTensor([[0, 0]], [1.0], [2, 2]), None))),
    "string": error(lambda: learn.infer_real_valued_columns_from_input_fn(lambda: (tf.constant(["a"]), None))),
}

with open("datasets_refs.json", "w") as f:
    json.dump(refs, f, sort_keys=True)
