"""Records TF 1.15's numbers for tests/oracle/test_contrib_seq2seq_attention.py. Run ONCE, in the TF 1.15.5 oracle:

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python \
        tests/data/tf115_seq2seq/attention/make_refs.py

For every case of attention_cases.py: builds it with tf.contrib.seq2seq, initializes the variables (seeded),
saves them to ckpt/<case> (tf.train.Saver, no meta graph) and writes the outputs, the gradients and the
variable names to refs.json, with the errors of attention_cases.run_checks.
"""

import json
import os
import sys
import types

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import attention_cases as cases  # noqa: E402


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    M = types.SimpleNamespace(s2s=tf.contrib.seq2seq)
    os.makedirs(os.path.join(HERE, "ckpt"), exist_ok=True)
    refs = {"tensorflow": tf.__version__, "cases": {}}
    for name in cases.CASES:
        refs["cases"][name] = cases.run_case(tf, M, name, os.path.join(HERE, "ckpt", name), save=True)
        print(name, refs["cases"][name]["variables"])
    refs["checks"] = cases.run_checks(tf, M)
    for label, text in sorted(refs["checks"].items()):
        print(label, "->", text)
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
