"""Records TF 1.15's op seeds and initial values for tests/oracle/test_seeds.py. Run ONCE, in the TF 1.15.5 oracle:

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_seeds/make_refs.py

For every case and seeding style of cases.py: the (name, seed, seed2) of each random op, and a summary of
every variable's initial value and of every fetched tensor (shape, sum, first 24 values), and the
variables of estimator_case's Estimators, to refs.json.
"""

import json
import os
import sys
import types

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402
import estimator_case  # noqa: E402


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    ns = types.SimpleNamespace(
        layers=tf.layers,
        contrib_layers=tf.contrib.layers,
        slim=tf.contrib.slim,
        rnn_cell=tf.nn.rnn_cell,
        contrib_rnn=tf.contrib.rnn,
        seq2seq=tf.contrib.seq2seq,
        ones_like=tf.ones_like,
    )
    refs = {"tensorflow": tf.__version__, "cases": {}}
    for name, (_, op_seeds) in sorted(cases.CASES.items()):
        for style in cases.STYLES if op_seeds else cases.STYLES[:1]:
            refs["cases"]["%s/%s" % (name, style)] = cases.run_case(tf, ns, name, style)
            print(name, style, len(refs["cases"]["%s/%s" % (name, style)]["seeds"]), "random ops")
    refs["estimator"] = dict((kind, estimator_case.run(tf, tf.estimator, kind)) for kind in ("custom", "dnn"))
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
