"""Records TF 1.15's numbers for tests/oracle/test_contrib_seq2seq_decode.py. Run in the TF 1.15.5 oracle (Python 3.7):

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_seq2seq_decode/make_refs.py

For every case of cases.py: builds it with tf.contrib.seq2seq, initializes the variables (seeded), saves them to
ckpt/<case> (tf.train.Saver, no meta graph) and writes the outputs, the gradients and the variable names to
refs.json; then three Adam steps clipped by tf.clip_by_global_norm of cases.train_program (ckpt/train).
"""

import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    os.makedirs(os.path.join(HERE, "ckpt"), exist_ok=True)
    refs = {"tensorflow": tf.__version__, "cases": {}}
    for name in cases.CASES:
        refs["cases"][name] = cases.run_case(tf, tf.contrib.seq2seq, name, os.path.join(HERE, "ckpt", name), True)
        print(name, len(refs["cases"][name]["variables"]), "variables")
    clip = cases.clip_global_norm(tf)
    refs["train"] = cases.run_training(tf, tf.contrib.seq2seq, clip, os.path.join(HERE, "ckpt", "train"), True)
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
