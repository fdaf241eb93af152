"""Shared by make_refs.py (TF 1.15's input_data) and tests/oracle/test_mnist_input_data.py (tf1clip's): tiny idx
files and the calls whose results are compared. Python 3.7 compatible."""

import gzip
import os
import struct

import numpy as np

FILES = {
    "train-images-idx3-ubyte.gz": (2051, 12),
    "train-labels-idx1-ubyte.gz": (2049, 12),
    "t10k-images-idx3-ubyte.gz": (2051, 5),
    "t10k-labels-idx1-ubyte.gz": (2049, 5),
}
ROWS, COLS = 3, 2


def write_idx(directory, bad_magic=False):
    """Writes the four MNIST files (12 training and 5 test images of 3x2 pixels) to ``directory``."""
    if not os.path.isdir(directory):
        os.makedirs(directory)
    for name, (magic, count) in FILES.items():
        index = np.arange(count)
        if magic == 2051:
            values = (index[:, None, None] * 37 + np.arange(ROWS)[:, None] * 11 + np.arange(COLS) * 5) % 256
            data = struct.pack(">IIII", magic + int(bad_magic), count, ROWS, COLS) + values.astype(np.uint8).tobytes()
        else:
            data = struct.pack(">II", magic, count) + ((index * 7 + count) % 10).astype(np.uint8).tobytes()
        with gzip.open(os.path.join(directory, name), "wb") as f:
            f.write(data)


def _batches(dataset, sizes, shuffle=True):
    out = []
    for size in sizes:
        images, labels = dataset.next_batch(size, shuffle=shuffle)
        out.append(
            {
                "images": np.asarray(images).tolist(),
                "labels": np.asarray(labels).tolist(),
                "dtype": str(np.asarray(images).dtype),
                "epochs": dataset.epochs_completed,
            }
        )
    return out


def _error(call):
    try:
        call()
    except (ValueError, TypeError) as err:
        return "%s: %s" % (type(err).__name__, err)
    return None


def run(input_data, tf, directory):
    """The values compared between TF 1.15 and tf1clip (``tf``: the TensorFlow module of the side)."""
    out = {}
    with tf.Graph().as_default():
        sets = input_data.read_data_sets(directory, one_hot=True, validation_size=3, seed=5)
        out["seeded"] = {
            "sizes": [sets.train.num_examples, sets.validation.num_examples, sets.test.num_examples],
            "train": _batches(sets.train, [4, 4, 4, 5, 9, 30]),
            "validation": _batches(sets.validation, [2, 2]),
            "test": _batches(sets.test, [5, 5, 1]),
            "after": np.random.randint(0, 1000, 3).tolist(),
        }
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(7)
        sets = input_data.read_data_sets(directory, dtype=tf.uint8, reshape=False, validation_size=0)
        out["graph_seed"] = {
            "shape": list(sets.train.images.shape),
            "train": _batches(sets.train, [5, 5, 5]),
            "unshuffled": _batches(sets.test, [3, 3], shuffle=False),
        }
    with tf.Graph().as_default():
        fake = input_data.read_data_sets(directory, fake_data=True, one_hot=True)
        images, labels = fake.train.next_batch(2, fake_data=True)
        out["fake"] = [fake.train.num_examples, len(images), len(images[0]), labels]
    out["errors"] = [
        _error(lambda: input_data.read_data_sets(directory, validation_size=13)),
        _error(lambda: input_data.read_data_sets(directory, dtype=tf.int32, validation_size=0)),
    ]
    return out
