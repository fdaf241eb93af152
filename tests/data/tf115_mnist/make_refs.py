"""Records TF 1.15's MNIST reader on tiny files for tests/oracle/test_mnist_input_data.py. Run ONCE, in the TF 1.15.5
oracle (Python 3.7):

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_mnist/make_refs.py
"""

import json
import os
import sys
import tempfile

import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    directory = tempfile.mkdtemp()
    cases.write_idx(directory)
    refs = {"tensorflow": tf.__version__, "values": cases.run(input_data, tf, directory)}
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
