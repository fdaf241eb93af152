"""Records TF 1.15's contrib.opt numbers and checkpoints for tests/oracle/test_contrib_opt_tf115.py.

Run once, with TensorFlow 1.15 (tf.contrib), from the repository root:

    env -u TF2_BEHAVIOR /work/venvs/tf115/bin/python tests/data/tf115_opt/make_refs.py

Writes refs.json (every global variable after each step, for each case and
dtype, on reference variables, TF 1.15's default) and ckpt/<case>.* (a Saver
checkpoint, float32, after CKPT_STEP steps; no meta graph).
"""

import json
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib import opt

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402


def main():
    refs = {"tensorflow": tf.__version__, "cases": {}}
    os.makedirs(os.path.join(HERE, "ckpt"), exist_ok=True)
    for name, (_, dtypes, _) in sorted(cases.specs(opt).items()):
        refs["cases"][name] = {}
        for dtype in dtypes:
            with tf.Graph().as_default():
                train_op, feeds = cases.build(opt, name, dtype)
                saver = tf.compat.v1.train.Saver()
                with tf.compat.v1.Session() as sess:
                    sess.run(tf.compat.v1.global_variables_initializer())
                    steps = []
                    for step in range(cases.STEPS):
                        sess.run(train_op, feeds(step))
                        steps.append(cases.snapshot(sess))
                        if dtype == "float32" and step + 1 == cases.CKPT_STEP:
                            saver.save(sess, os.path.join(HERE, "ckpt", name), write_meta_graph=False)
            refs["cases"][name][dtype] = steps
            print(name, dtype, "w after %d steps:" % cases.STEPS, np.asarray(steps[-1]["w"]).ravel()[:3])
    for stale in os.listdir(os.path.join(HERE, "ckpt")):
        if stale == "checkpoint":
            os.remove(os.path.join(HERE, "ckpt", stale))
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, sort_keys=True, separators=(",", ":"))


if __name__ == "__main__":
    main()
