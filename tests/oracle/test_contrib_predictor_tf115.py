"""SavedModels across TensorFlow 1.15 and tf1clip.contrib.predictor, live both ways: TF 1.15.5's
tf.contrib.predictor predicts from a SavedModel exported here (tf.compat.v1's SavedModelBuilder with ref variables,
as an upgraded TF 1 program under disable_v2_behavior() makes them: TF 1.15 cannot read the ``debug_name`` attr TF 2
gives resource variables' VarHandleOp) what tf1clip's predicts, and tf1clip's predicts from a SavedModel TF 1.15 exports what TF 1.15's did (the recorded
form of the second: tests/unit/test_contrib_predictor.py)."""

import json
import os
import subprocess

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import predictor

TF115_PYTHON = os.path.expanduser("~/.cache/tf1clip/tf115-venv/bin/python")
pytestmark = pytest.mark.skipif(not os.path.exists(TF115_PYTHON), reason="the oracle's TensorFlow 1.15 is not built")
v1 = tf.compat.v1
X = [[1.0, -2.0, 0.5], [0.25, 0.0, 3.0], [-1.5, 1.0, 1.0]]

# Python 3.7 / TF 1.15 code run in a subprocess: {"export": ...} exports there, then it predicts from EXPORT.
TF115_CODE = """
import json, sys
import numpy as np
import tensorflow as tf
from tensorflow.contrib import predictor
args = json.loads(sys.argv[1])
if args.get("export"):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.get_variable("w", initializer=tf.constant(np.linspace(-1.0, 1.0, 6).reshape(3, 2).astype(np.float32)))
        y = tf.nn.sigmoid(tf.matmul(x, w), name="y")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            builder = tf.saved_model.builder.SavedModelBuilder(args["export"])
            sig = tf.saved_model.signature_def_utils.predict_signature_def({"x": x}, {"y": y})
            builder.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={"serving_default": sig})
            builder.save()
pred = predictor.from_saved_model(args["load"], signature_def_key=args.get("key"))
out = pred({args["input"]: args["x"]})
print(json.dumps({k: np.asarray(v).tolist() for k, v in out.items()}))
"""


def _tf115(**args):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TF2_BEHAVIOR")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    proc = subprocess.run(
        [TF115_PYTHON, "-c", TF115_CODE, json.dumps(args)], capture_output=True, text=True, timeout=300, env=env
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _export_here(path):
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        w = v1.get_variable("w", initializer=tf.constant([[0.5, -1.0], [0.25, 2.0], [-0.75, 1.5]]), use_resource=False)
        b = v1.get_variable("b", initializer=tf.constant([0.1, -0.2]), use_resource=False)
        logits = tf.identity(tf.matmul(x, w) + b, name="logits")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            builder = v1.saved_model.builder.SavedModelBuilder(path)
            signatures = {
                "serving_default": v1.saved_model.signature_def_utils.predict_signature_def(
                    {"x": x}, {"probs": tf.nn.softmax(logits)}
                ),
                "logits": v1.saved_model.signature_def_utils.predict_signature_def({"inputs": x}, {"logits": logits}),
            }
            builder.add_meta_graph_and_variables(sess, ["serve"], signature_def_map=signatures)
            builder.save()


def test_tf115_predicts_from_a_saved_model_exported_here_what_tf1clip_predicts(tmp_path):
    export = str(tmp_path / "here")
    _export_here(export)
    for key, name, output in [(None, "x", "probs"), ("logits", "inputs", "logits")]:
        ours = predictor.from_saved_model(export, signature_def_key=key)({name: X})
        theirs = _tf115(load=export, key=key, input=name, x=X)
        assert sorted(theirs) == [output]
        np.testing.assert_allclose(ours[output], theirs[output], rtol=1e-6)


def test_tf1clip_predicts_from_a_saved_model_tf115_exports_what_tf115_predicts(tmp_path):
    export = str(tmp_path / "tf115")
    theirs = _tf115(export=export, load=export, input="x", x=X)
    pred = predictor.from_saved_model(export)
    assert {k: t.name for k, t in pred.fetch_tensors.items()} == {"y": "y:0"}
    np.testing.assert_allclose(pred({"x": X})["y"], theirs["y"], rtol=1e-6)
