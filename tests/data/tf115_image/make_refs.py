"""Records tf.contrib.image's numbers on TF 1.15 into refs.json (tests/data/tf115_image/cases.py).

env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_image/make_refs.py [CASE ...]
"""

import json
import os
import sys

import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REFS = os.path.join(HERE, "refs.json")


def main(names):
    refs = {}
    if os.path.exists(REFS):
        with open(REFS) as f:
            refs = json.load(f)
    refs["tensorflow"] = tf.__version__
    for name in names or sorted(cases.CASES):
        with tf.Graph().as_default():
            tensors = cases.CASES[name](tf, tf.contrib.image)
            with tf.Session() as sess:
                values = sess.run(tensors)
        refs[name] = {k: {"dtype": str(v.dtype), "value": v.tolist()} for k, v in sorted(values.items())}
    with open(REFS, "w") as f:
        json.dump(refs, f, sort_keys=True, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
