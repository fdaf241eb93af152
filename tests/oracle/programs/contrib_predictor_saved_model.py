"""A 2017 serving export: train a small classifier, export it with ``tf.saved_model.builder.SavedModelBuilder``
(a predict signature as ``serving_default`` plus a ``logits`` one, built from ``build_tensor_info``), then predict
from the export directory with ``tf.contrib.predictor.from_saved_model``: the default signature, a
``signature_def_key``, explicit ``input_names`` / ``output_names``, and a ``signature_def`` read back with
``saved_model_predictor.get_meta_graph_def``. Every mode exports what it trained and predicts from it.
"""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib.predictor import saved_model_predictor

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
x = tf.placeholder(tf.float32, [None, 4], name="features")
labels = tf.placeholder(tf.int64, [None], name="labels")
hidden = tf.layers.dense(x, 5, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.3), name="h")
logits = tf.layers.dense(
    hidden, 3, kernel_initializer=tf.constant_initializer(np.linspace(-0.5, 0.5, 15).reshape(5, 3)), name="logits"
)
probabilities = tf.nn.softmax(logits, name="probabilities")
classes = tf.argmax(logits, 1, name="classes")
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=global_step)
saver = tf.train.Saver()


def batch(step):
    features, target = oracle_io.batch(step)
    return {x: features, labels: np.digitize(target[:, 0], [-1.0, 1.0]).astype(np.int64)}


export_dir = os.path.join(tempfile.mkdtemp(), "export")
losses = []
start, stop = oracle_io.step_range(mode, STEPS)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(start, stop):
        losses.append(float(sess.run([train_op, loss], batch(step))[1]))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    info = tf.saved_model.utils.build_tensor_info
    predict_signature = tf.saved_model.signature_def_utils.build_signature_def(
        inputs={"features": info(x)},
        outputs={"classes": info(classes), "probabilities": info(probabilities)},
        method_name=tf.saved_model.signature_constants.PREDICT_METHOD_NAME,
    )
    logits_signature = tf.saved_model.signature_def_utils.predict_signature_def({"x": x}, {"logits": logits})
    builder = tf.saved_model.builder.SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(
        sess,
        [tf.saved_model.tag_constants.SERVING],
        signature_def_map={
            tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature,
            "logits": logits_signature,
        },
    )
    builder.save()

test_x = oracle_io.batch(100)[0]
default = tf.contrib.predictor.from_saved_model(export_dir)
by_key = tf.contrib.predictor.from_saved_model(export_dir, signature_def_key="logits")
by_name = tf.contrib.predictor.from_saved_model(
    export_dir, input_names={"in": "features:0"}, output_names={"p": "probabilities:0"}
)
meta = saved_model_predictor.get_meta_graph_def(export_dir, tf.saved_model.tag_constants.SERVING)
by_def = tf.contrib.predictor.from_saved_model(export_dir, signature_def=meta.signature_def["logits"])
predictions = default({"features": test_x})
values.update(
    losses=losses,
    classes=predictions["classes"].tolist(),
    probabilities=predictions["probabilities"].tolist(),
    logits=by_key({"x": test_x})["logits"].tolist(),
    named=by_name({"in": test_x})["p"].tolist(),
    by_def=by_def({"x": test_x})["logits"].tolist(),
    feed={k: t.name for k, t in default.feed_tensors.items()},
    fetch={k: t.name for k, t in default.fetch_tensors.items()},
    signatures=sorted(meta.signature_def),
)
shutil.rmtree(os.path.dirname(export_dir))
oracle_io.write(out, values)
