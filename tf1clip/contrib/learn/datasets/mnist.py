"""``tf.contrib.learn.datasets.mnist`` (TF 1.15): TF 1.15's MNIST reader, which ``tensorflow.examples.tutorials.mnist
.input_data`` re-exported. The names are ``tf1clip.examples.tutorials.mnist.input_data``'s (one implementation; its
docstring lists the differences: a missing file is downloaded only where the network allows, else an ``OSError``
names the file to put in ``train_dir``).
"""

from tf1clip.contrib import _manifest
from tf1clip.examples.tutorials.mnist.input_data import DEFAULT_SOURCE_URL  # noqa: F401
from tf1clip.examples.tutorials.mnist.input_data import DataSet  # noqa: F401
from tf1clip.examples.tutorials.mnist.input_data import dense_to_one_hot  # noqa: F401
from tf1clip.examples.tutorials.mnist.input_data import extract_images  # noqa: F401
from tf1clip.examples.tutorials.mnist.input_data import extract_labels  # noqa: F401
from tf1clip.examples.tutorials.mnist.input_data import load_mnist  # noqa: F401
from tf1clip.examples.tutorials.mnist.input_data import read_data_sets  # noqa: F401

__all__ = _manifest.names_of(__name__)
