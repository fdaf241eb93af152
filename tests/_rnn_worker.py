"""Runs every case of tests/data/tf115_rnn/cases.py on tf1clip.contrib (restoring TF 1.15's checkpoints).

Usage: python tests/_rnn_worker.py OUT.json. Needs Keras 2, so it sets TF_USE_LEGACY_KERAS before TensorFlow
is imported; a case that raises is recorded with its traceback.
"""

import json
import os
import sys
import traceback
import types

os.environ["TF_USE_LEGACY_KERAS"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "tf115_rnn")
sys.path.insert(0, DATA)

import cases  # noqa: E402

from tf1clip.contrib import cudnn_rnn, legacy_seq2seq, rnn  # noqa: E402


def main(out_path):
    tf.compat.v1.disable_eager_execution()
    M = types.SimpleNamespace(rnn=rnn, seq2seq=legacy_seq2seq, cudnn=cudnn_rnn)
    results = {"tensorflow": tf.__version__, "cases": {}}
    for name in cases.CASES:
        try:
            results["cases"][name] = cases.run_case(tf, M, name, os.path.join(DATA, "ckpt", name), save=False)
        except Exception:  # noqa: BLE001  (reported per case by the test)
            results["cases"][name] = {"error": traceback.format_exc()}
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1])
