"""Records TF 1.15's rewrites and numbers for tests/unit/test_contrib_quantize.py. Run in the TF 1.15 oracle:

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_quantize/make_refs.py

Runs every case of quantize_cases.py with tf.contrib.quantize (and tf.contrib.slim) and writes refs.json, plus
the errors TF 1.15 raised for bad input.
"""

import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import quantize_cases as cases  # noqa: E402


def _error(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001 - recording what TF 1.15 raised
        return [type(err).__name__, str(err)]
    return None


def _errors():
    quantize = tf.contrib.quantize

    def with_training_op():
        with tf.Graph().as_default():
            w = tf.compat.v1.get_variable("w", [2], initializer=tf.compat.v1.zeros_initializer())
            tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w * w))
            quantize.create_training_graph()

    return {"training_op": _error(with_training_op)}


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    refs = {"tensorflow": tf.__version__, "cases": {}, "errors": _errors()}
    for name in cases.CASES:
        refs["cases"][name] = cases.run_case(tf, tf.contrib.quantize, tf.contrib.slim, name)
        print(name, len(refs["cases"][name]["added"]), refs["cases"][name]["losses"])
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
