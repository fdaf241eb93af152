"""Runs every case of tests/data/tf115_seq2seq_decode/cases.py on tf1clip.contrib.seq2seq (restoring TF 1.15's
checkpoints) with control flow v2 and resource variables (``disable_eager_execution()`` alone).

Usage: python tests/oracle/_seq2seq_decode_worker.py OUT.json. Needs Keras 2, so it sets TF_USE_LEGACY_KERAS before
TensorFlow is imported; a case that raises is recorded with its traceback. TF 1 mode (``disable_v2_behavior()``),
the clipped steps and the errors of bad inputs: tests/keras2/test_seq2seq_tf115.py.
"""

import json
import os
import sys
import traceback

os.environ["TF_USE_LEGACY_KERAS"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_seq2seq_decode")
sys.path.insert(0, DATA)

import cases  # noqa: E402

from tf1clip.contrib import seq2seq  # noqa: E402


def main(out_path):
    tf.compat.v1.disable_eager_execution()
    results = {"tensorflow": tf.__version__, "cases": {}}
    for name in cases.CASES:
        try:
            results["cases"][name] = cases.run_case(tf, seq2seq, name, os.path.join(DATA, "ckpt", name), save=False)
        except Exception:  # noqa: BLE001  (reported per case by the test)
            results["cases"][name] = {"error": traceback.format_exc()}
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1])
