"""Records TF 1.15's numbers for tests/oracle/test_contrib_rnn.py. Run ONCE, in the TF 1.15.5 oracle (Python 3.7):

    env -u TF2_BEHAVIOR /work/venvs/tf115/bin/python tests/data/tf115_rnn/make_refs.py [CASE ...]

With case names, records only those cases and keeps the others of refs.json as they are.

For every case of cases.py: builds it with tf.contrib.rnn / legacy_seq2seq / cudnn_rnn, initializes the
variables (seeded), saves them to ckpt/<case> (tf.train.Saver, no meta graph) and writes the outputs, the
gradients and the variable names to refs.json, with the public names of tf.contrib.rnn ("names").
"""

import json
import os
import sys
import types

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    M = types.SimpleNamespace(rnn=tf.contrib.rnn, seq2seq=tf.contrib.legacy_seq2seq, cudnn=tf.contrib.cudnn_rnn)
    os.makedirs(os.path.join(HERE, "ckpt"), exist_ok=True)
    public = sorted(n for n in dir(tf.contrib.rnn) if not n.startswith("_"))
    refs = {"tensorflow": tf.__version__, "cases": {}, "names": public}
    names = sys.argv[1:] or cases.CASES
    if sys.argv[1:]:
        with open(os.path.join(HERE, "refs.json")) as f:
            refs["cases"] = json.load(f)["cases"]
    for name in names:
        refs["cases"][name] = cases.run_case(tf, M, name, os.path.join(HERE, "ckpt", name), save=True)
        print(name, len(refs["cases"][name]["variables"]), "variables")
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
