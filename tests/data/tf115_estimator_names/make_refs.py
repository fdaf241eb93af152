"""Records TF 1.15's public ``tf.estimator`` names (two module levels deep) into names.json.

Run on TF 1.15: ``env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python make_refs.py``.
"""

import inspect
import json
import os

import tensorflow as tf


def walk(module, prefix, out, depth=0):
    for name in sorted(dir(module)):
        if name.startswith("_"):
            continue
        obj = getattr(module, name)
        path = prefix + "." + name
        if inspect.ismodule(obj):
            if depth < 2:
                walk(obj, path, out, depth + 1)
        else:
            out[path] = "class" if inspect.isclass(obj) else "function" if callable(obj) else "other"


names = {}
walk(tf.estimator, "tf.estimator", names)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "names.json"), "w") as f:
    json.dump({"tensorflow": tf.__version__, "names": names}, f, indent=1, sort_keys=True)
    f.write("\n")
