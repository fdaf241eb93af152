"""``tensorflow.examples.tutorials.mnist.input_data``, re-created: TF 1.15's MNIST reader on TF 2.

TF 1.15's module (``tensorflow/contrib/learn/python/learn/datasets/mnist.py``,
re-exported by ``tensorflow/examples/tutorials/mnist/input_data.py``) is gone with
``tf.contrib``. This one reads the same four idx ``.gz`` files from ``train_dir``
and returns the same ``Datasets(train, validation, test)`` of :class:`DataSet`
objects, whose ``next_batch`` shuffles with NumPy's global generator exactly as TF
1.15 did: the same batches for the same files, ``seed`` and graph-level seed
(checked against TF 1.15 in tests/oracle/test_mnist_input_data.py). Like TF 1.15,
building a :class:`DataSet` seeds NumPy's global generator
(``numpy.random.seed``) from ``tf.compat.v1.random.get_seed(seed)``.

Differences from TF 1.15: a missing file is downloaded only where the network
allows; otherwise an ``OSError`` says which file to put where (TF 1.15 raised
urllib's error after its retries). Images and labels of different lengths raise
``ValueError`` (TF 1.15: ``AssertionError``). No deprecation warnings are logged.
"""

import collections
import gzip
import os
import tempfile
import urllib.error
import urllib.request

import numpy

from tf1clip.compat._tf import tf

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
DOWNLOAD_TIMEOUT = 30.0
TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def _read32(stream):
    return int(numpy.frombuffer(stream.read(4), dtype=numpy.dtype(numpy.uint32).newbyteorder(">"))[0])


def _open_idx(f, magic, kind):
    print("Extracting", f.name)
    stream = gzip.GzipFile(fileobj=f)
    found = _read32(stream)
    if found != magic:
        raise ValueError("Invalid magic number %d in MNIST %s file: %s" % (found, kind, f.name))
    return stream


def extract_images(f):
    """The images of the idx file object ``f`` (gzipped) as a uint8 array ``[index, y, x, 1]``."""
    with _open_idx(f, 2051, "image") as stream:
        count, rows, cols = _read32(stream), _read32(stream), _read32(stream)
        data = numpy.frombuffer(stream.read(rows * cols * count), dtype=numpy.uint8)
        return data.reshape(count, rows, cols, 1)


def dense_to_one_hot(labels_dense, num_classes):
    """Class labels ``[n]`` as float64 one-hot rows ``[n, num_classes]``."""
    one_hot = numpy.zeros((labels_dense.shape[0], num_classes))
    one_hot[numpy.arange(labels_dense.shape[0]), labels_dense.ravel()] = 1
    return one_hot


def extract_labels(f, one_hot=False, num_classes=10):
    """The labels of the idx file object ``f`` (gzipped): uint8 ``[index]``, or one-hot with ``one_hot``."""
    with _open_idx(f, 2049, "label") as stream:
        labels = numpy.frombuffer(stream.read(_read32(stream)), dtype=numpy.uint8)
    return dense_to_one_hot(labels, num_classes) if one_hot else labels


class DataSet:
    """Images and labels served in batches, reshuffled each epoch (TF 1.15's ``DataSet``).

    ``dtype`` ``float32`` rescales the images to ``[0, 1]``, ``uint8`` keeps them;
    ``reshape`` flattens ``[n, rows, cols, 1]`` to ``[n, rows * cols]``;
    ``fake_data``: 10000 examples of ones (``one_hot`` applies to them only).
    """

    def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=tf.float32, reshape=True, seed=None):
        seed1, seed2 = tf.compat.v1.random.get_seed(seed)
        numpy.random.seed(seed1 if seed is None else seed2)
        dtype = tf.as_dtype(dtype).base_dtype
        if dtype not in (tf.uint8, tf.float32):
            raise TypeError("Invalid image dtype %r, expected uint8 or float32" % dtype)
        if fake_data:
            self._num_examples = 10000
            self.one_hot = one_hot
        else:
            if images.shape[0] != labels.shape[0]:
                raise ValueError(
                    "images and labels must have as many rows, got images.shape: %s labels.shape: %s"
                    % (images.shape, labels.shape)
                )
            self._num_examples = images.shape[0]
            if reshape:
                if images.shape[3] != 1:
                    raise ValueError("reshape needs images of depth 1, got images.shape: %s" % (images.shape,))
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if dtype == tf.float32:
                images = numpy.multiply(images.astype(numpy.float32), 1.0 / 255.0)
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self):
        return self._images

    @property
    def labels(self):
        return self._labels

    @property
    def num_examples(self):
        return self._num_examples

    @property
    def epochs_completed(self):
        return self._epochs_completed

    def _shuffle(self):
        order = numpy.arange(self._num_examples)
        numpy.random.shuffle(order)
        self._images = self._images[order]
        self._labels = self._labels[order]

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        """The next ``batch_size`` ``(images, labels)``; an epoch's last batch is completed from the next epoch."""
        if fake_data:
            label = [1] + [0] * 9 if self.one_hot else 0
            return [[1] * 784 for _ in range(batch_size)], [label for _ in range(batch_size)]
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch += batch_size
            return self._images[start : self._index_in_epoch], self._labels[start : self._index_in_epoch]
        self._epochs_completed += 1
        images_rest = self._images[start : self._num_examples]
        labels_rest = self._labels[start : self._num_examples]
        if shuffle:
            self._shuffle()
        self._index_in_epoch = batch_size - (self._num_examples - start)
        end = self._index_in_epoch
        return (
            numpy.concatenate((images_rest, self._images[:end]), axis=0),
            numpy.concatenate((labels_rest, self._labels[:end]), axis=0),
        )


def maybe_download(filename, work_directory, source_url):
    """The path of ``filename`` in ``work_directory``, downloaded from ``source_url`` first if missing.

    Raises ``OSError`` naming the file and the URL when it is missing and cannot be downloaded.
    """
    if not tf.io.gfile.exists(work_directory):
        tf.io.gfile.makedirs(work_directory)
    path = os.path.join(work_directory, filename)
    if tf.io.gfile.exists(path):
        return path
    with tempfile.TemporaryDirectory(prefix="tf1clip-mnist-") as tmp:
        temp = os.path.join(tmp, filename)
        try:
            with urllib.request.urlopen(source_url, timeout=DOWNLOAD_TIMEOUT) as response, open(temp, "wb") as out:
                out.write(response.read())
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise OSError(
                "%s is not in %s and could not be downloaded from %s (%s). Put the MNIST files %s there, or "
                "allow the download" % (filename, work_directory, source_url, err, ", ".join(_FILES))
            ) from None
        tf.io.gfile.copy(temp, path)
    print("Successfully downloaded", filename, tf.io.gfile.stat(path).length, "bytes.")
    return path


_FILES = (TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)


def _read(train_dir, source_url, name, extract, **kwargs):
    with tf.io.gfile.GFile(maybe_download(name, train_dir, source_url + name), "rb") as f:
        return extract(f, **kwargs)


def read_data_sets(
    train_dir,
    fake_data=False,
    one_hot=False,
    dtype=tf.float32,
    reshape=True,
    validation_size=5000,
    seed=None,
    source_url=DEFAULT_SOURCE_URL,
):
    """``Datasets(train, validation, test)`` from the four MNIST files in ``train_dir`` (downloaded if missing).

    The first ``validation_size`` training examples are the validation set.
    """
    if fake_data:
        fake = [DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed) for _ in range(3)]
        return Datasets(*fake)
    source_url = source_url or DEFAULT_SOURCE_URL
    train_images = _read(train_dir, source_url, TRAIN_IMAGES, extract_images)
    train_labels = _read(train_dir, source_url, TRAIN_LABELS, extract_labels, one_hot=one_hot)
    test_images = _read(train_dir, source_url, TEST_IMAGES, extract_images)
    test_labels = _read(train_dir, source_url, TEST_LABELS, extract_labels, one_hot=one_hot)
    if not 0 <= validation_size <= len(train_images):
        raise ValueError(
            "Validation size should be between 0 and {}. Received: {}.".format(len(train_images), validation_size)
        )
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    train = DataSet(train_images[validation_size:], train_labels[validation_size:], **options)
    validation = DataSet(train_images[:validation_size], train_labels[:validation_size], **options)
    test = DataSet(test_images, test_labels, **options)
    return Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir="MNIST-data"):
    """``read_data_sets(train_dir)``."""
    return read_data_sets(train_dir)


__all__ = [
    "DEFAULT_SOURCE_URL",
    "DataSet",
    "Datasets",
    "dense_to_one_hot",
    "extract_images",
    "extract_labels",
    "load_mnist",
    "maybe_download",
    "read_data_sets",
]
