"""Records TF 1.15's numbers for tests/oracle/test_contrib_cudnn_rnn.py. Run ONCE, in the TF 1.15.5 oracle (Python 3.7):

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_cudnn/make_refs.py

For every case of cudnn_cases.py: builds TF 1.15's cuDNN-compatible graph, loads the case's canonical weights by
variable name (they must be exactly the graph's variables), and records the outputs, the final h of every layer
and direction, and the gradient of a fixed weighted sum of the outputs with respect to the inputs. With
``lm CKPT``: the loss of lm_tf115.py's compatible-cell language model restored from CKPT.
"""

import json
import os
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cudnn_cases as cases  # noqa: E402


def run(name):
    graph = tf.Graph()
    with graph.as_default():
        xv, hv = cases.inputs()
        x = tf.constant(xv)
        mode, direction = cases.CASES[name]
        out, finals = cases.compatible_graph(tf, name, x, tf.constant(hv), tf.constant(cases.LENGTHS))
        weights = cases.canonical_weights(name)
        variables = {v.op.name: v for v in tf.global_variables()}
        assert sorted(variables) == sorted(weights), (sorted(variables), sorted(weights))
        loss = tf.reduce_sum(out * np.linspace(0.5, 1.5, out.shape[-1]).astype(np.float32))
        grad = tf.gradients(loss, x)[0]
        with tf.Session() as sess:
            for n, v in variables.items():
                v.load(weights[n], sess)
            o, f, g = sess.run([out, finals, grad])
    return {"outputs": o.tolist(), "final_h": [a.tolist() for a in f], "grad_x": g.tolist()}


def main():
    if not tf.__version__.startswith("1.15"):
        raise SystemExit("make_refs.py needs TensorFlow 1.15 (found %s)" % tf.__version__)
    refs = {"tensorflow": tf.__version__, "cases": {name: run(name) for name in cases.CASES}}
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
