"""Writes, on TF 1.15.5, the SavedModel tests/unit/test_contrib_predictor.py loads with tf1clip.contrib.predictor
(``saved_model/``: a 2017-style ``SavedModelBuilder`` export with two signatures and a
``default_input_alternative:`` one) and ``refs.json``: what TF 1.15's ``tf.contrib.predictor`` predicted from it (``alt_tensors``: the empty inputs and
outputs TF 1.15 gave the key ``"alt"``, whose protobuf map lookup added an empty signature ``"alt"``). Also the
checkpoints of a ``tf.estimator.Estimator`` (``core_model/``) and a ``tf.contrib.learn.Estimator``
(``contrib_model/``) trained here, with ``from_estimator``'s and ``from_contrib_estimator``'s predictions from them
(``estimators`` in refs.json; tests/keras2/test_contrib_predictor_estimators.py restores them with the same
model functions).

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


EX = [[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.5]]
EY = [1.0, -0.5, 2.0, 0.25]
W0 = [[0.5], [-0.25]]


def core_model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(W0))
    pred = tf.matmul(features["x"], w)
    predictions = {"pred": pred, "double": 2.0 * pred}
    if mode == tf.estimator.ModeKeys.PREDICT:
        outputs = {
            "serving_default": tf.estimator.export.PredictOutput(predictions),
            "half": tf.estimator.export.PredictOutput({"half": 0.5 * pred}),
        }
        return tf.estimator.EstimatorSpec(mode, predictions=predictions, export_outputs=outputs)
    loss = tf.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), pred)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def learn_model_fn(features, labels, mode):
    from tensorflow.contrib import learn

    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(W0))
    pred = tf.matmul(features["x"], w)
    if mode == learn.ModeKeys.INFER:
        return {"pred": pred, "double": 2.0 * pred}, None, None
    loss = tf.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), pred)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return {"pred": pred, "double": 2.0 * pred}, loss, train_op


def _keep_checkpoint_only(model_dir):
    """Leaves the latest checkpoint's data and index, and a ``checkpoint`` file naming it by a relative path."""
    latest = os.path.basename(tf.train.latest_checkpoint(model_dir))
    for name in os.listdir(model_dir):
        path = os.path.join(model_dir, name)
        if name.startswith(latest + ".") and not name.endswith(".meta"):
            continue
        shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    tf.train.update_checkpoint_state(model_dir, latest, [latest])


def estimators():
    from tensorflow.contrib import learn, predictor

    x, y = np.array(EX, np.float32), np.array(EY, np.float32)
    core_dir, contrib_dir = os.path.join(HERE, "core_model"), os.path.join(HERE, "contrib_model")
    for d in (core_dir, contrib_dir):
        if os.path.exists(d):
            shutil.rmtree(d)
    est = tf.estimator.Estimator(core_model_fn, model_dir=core_dir)
    est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=None, shuffle=False), steps=3)

    def receiver_fn():
        features = tf.placeholder(tf.float32, [None, 2], name="x")
        return tf.estimator.export.ServingInputReceiver({"x": features}, {"inputs": features})

    core_pred = predictor.from_estimator(est, receiver_fn)({"inputs": x})
    half = predictor.from_estimator(est, receiver_fn, output_key="half")({"inputs": x})
    contrib = learn.Estimator(model_fn=learn_model_fn, model_dir=contrib_dir)
    contrib.fit(input_fn=lambda: ({"x": tf.constant(x)}, tf.constant(y)), steps=2)

    def prediction_input_fn():
        features = tf.placeholder(tf.float32, [None, 2])
        return learn.InputFnOps({"x": features}, None, {"x": features})

    contrib_pred = predictor.from_contrib_estimator(contrib, prediction_input_fn)({"x": x})
    _keep_checkpoint_only(core_dir)
    _keep_checkpoint_only(contrib_dir)
    as_lists = lambda d: {k: np.asarray(v).tolist() for k, v in d.items()}  # noqa: E731
    return {"x": EX, "core": as_lists(core_pred), "half": as_lists(half), "contrib": as_lists(contrib_pred)}


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
        "estimators": estimators(),
    }
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
