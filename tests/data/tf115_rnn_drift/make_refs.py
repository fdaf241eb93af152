"""Records refs.json: every case of cases.py trained on TF 1.15.5 with tf.contrib.

Run: env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_rnn_drift/make_refs.py
"""

import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import tensorflow as tf  # noqa: E402

import cases  # noqa: E402


def main():
    M = types.SimpleNamespace(rnn=tf.contrib.rnn, cudnn=tf.contrib.cudnn_rnn)
    refs = {"tensorflow": tf.__version__, "cases": {}}
    for name in sys.argv[1:] or cases.CASES:
        refs["cases"][name] = cases.train_case(tf, M, name)
        print(name, refs["cases"][name]["losses"], flush=True)
    if len(sys.argv) == 1:
        with open(os.path.join(HERE, "refs.json"), "w") as f:
            json.dump(refs, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
