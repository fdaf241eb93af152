"""Records TF 1.15's numbers for tests/unit/test_contrib_crf.py. Run ONCE, in the TF 1.15.5 oracle (Python 3.7):

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_crf/make_refs.py

Builds every case of crf_cases.py with tf.contrib.crf and writes its outputs, gradients and variable names, and
viterbi_decode's results, to refs.json.
"""

import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import crf_cases as cases  # noqa: E402


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    crf = tf.contrib.crf
    refs = {"tensorflow": tf.__version__, "cases": {}, "viterbi": cases.viterbi_cases(crf)}
    for name in cases.CASES:
        refs["cases"][name] = cases.run_case(tf, crf, name)
        print(name, sorted(refs["cases"][name]["outputs"]))
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
