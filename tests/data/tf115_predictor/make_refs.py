"""Writes, on TF 1.15.5, the SavedModel tests/unit/test_contrib_predictor.py loads with tf1clip.contrib.predictor
(``saved_model/``: a 2017-style ``SavedModelBuilder`` export with two signatures and a
``default_input_alternative:`` one) and ``refs.json``: what TF 1.15's ``tf.contrib.predictor`` predicted from it (``alt_tensors``: the empty inputs and
outputs TF 1.15 gave the key ``"alt"``, whose protobuf map lookup added an empty signature ``"alt"``).

    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python tests/data/tf115_predictor/make_refs.py
"""

import json
import os
import shutil

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
EXPORT = os.path.join(HERE, "saved_model")
X = [[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]]


def export():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.get_variable("w", initializer=tf.constant([[0.5, -1.0], [0.25, 2.0], [-0.75, 1.5]]))
        b = tf.get_variable("b", initializer=tf.constant([0.1, -0.2]))
        logits = tf.nn.xw_plus_b(x, w, b, name="logits")
        probs = tf.nn.softmax(logits, name="probs")
        classes = tf.argmax(logits, 1, name="classes")
        info = tf.saved_model.utils.build_tensor_info
        predict = tf.saved_model.signature_def_utils.build_signature_def(
            {"x": info(x)}, {"probs": info(probs), "classes": info(classes)}, "tensorflow/serving/predict"
        )
        logits_only = tf.saved_model.signature_def_utils.predict_signature_def({"inputs": x}, {"logits": logits})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            builder = tf.saved_model.builder.SavedModelBuilder(EXPORT)
            builder.add_meta_graph_and_variables(
                sess,
                [tf.saved_model.tag_constants.SERVING],
                signature_def_map={
                    tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict,
                    "logits": logits_only,
                    "default_input_alternative:alt": logits_only,
                },
            )
            builder.save()


def main():
    if os.path.exists(EXPORT):
        shutil.rmtree(EXPORT)
    export()
    from tensorflow.contrib import predictor

    default = predictor.from_saved_model(EXPORT)
    logits = predictor.from_saved_model(EXPORT, signature_def_key="logits")
    alt = predictor.from_saved_model(EXPORT, signature_def_key="alt")
    named = predictor.from_saved_model(EXPORT, input_names={"in": "x:0"}, output_names={"out": "probs:0"})
    refs = {
        "x": X,
        "default": {k: np.asarray(v).tolist() for k, v in default({"x": X}).items()},
        "logits": np.asarray(logits({"inputs": X})["logits"]).tolist(),
        "alt_tensors": [sorted(alt.feed_tensors), sorted(alt.fetch_tensors)],
        "named": np.asarray(named({"in": X})["out"]).tolist(),
        "feed": {k: v.name for k, v in default.feed_tensors.items()},
        "fetch": {k: v.name for k, v in default.fetch_tensors.items()},
        "repr_logits": repr(logits).replace("?", "None"),
    }
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
