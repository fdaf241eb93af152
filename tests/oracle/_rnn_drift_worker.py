"""Trains every case of tests/data/tf115_rnn_drift/cases.py with tf1clip.contrib; writes the results as JSON.

Usage: python tests/oracle/_rnn_drift_worker.py OUT.json [CASE ...]. Needs Keras 2, so it sets TF_USE_LEGACY_KERAS before
TensorFlow is imported, and runs under ``disable_v2_behavior()`` as an upgraded program does.
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
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "data", "tf115_rnn_drift"))

import cases  # noqa: E402

from tf1clip.contrib import cudnn_rnn, rnn  # noqa: E402


def main(out_path, names):
    tf.compat.v1.disable_v2_behavior()
    M = types.SimpleNamespace(rnn=rnn, cudnn=cudnn_rnn)
    results = {"tensorflow": tf.__version__, "cases": {}}
    for name in names or cases.CASES:
        try:
            results["cases"][name] = cases.train_case(tf, M, name)
        except Exception:  # noqa: BLE001  (reported per case by the test)
            results["cases"][name] = {"error": traceback.format_exc()}
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
