"""Quantization-aware training in the style of 2018 mobile models (the TF 1.x quantize README, TFLite tutorials).

A small conv net (``tf.layers.conv2d`` with ReLU6, max pooling, a second conv with ReLU, ``tf.layers.dense``
logits), ``tf.contrib.quantize.create_training_graph(quant_delay=QUANT_DELAY)`` before the optimizer, momentum
SGD across the delay (float steps, then quantized ones), a checkpoint; then a separate eval graph built the same
way, ``tf.contrib.quantize.create_eval_graph()``, restored from that checkpoint and run on a fixed batch.
"""

import os
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS, QUANT_DELAY = 8, 3


def network(images):
    net = tf.layers.conv2d(
        images,
        4,
        3,
        padding="same",
        activation=tf.nn.relu6,
        kernel_initializer=tf.glorot_uniform_initializer(seed=1),
        name="conv1",
    )
    net = tf.layers.max_pooling2d(net, 2, 2, name="pool1")
    net = tf.layers.conv2d(
        net,
        6,
        3,
        padding="same",
        activation=tf.nn.relu,
        kernel_initializer=tf.glorot_uniform_initializer(seed=2),
        name="conv2",
    )
    net = tf.reshape(net, [-1, 4 * 4 * 6])
    return tf.layers.dense(net, 3, kernel_initializer=tf.glorot_uniform_initializer(seed=3), name="logits")


def batch(step):
    rng = np.random.RandomState(500 + step)
    images = rng.uniform(0.0, 1.0, size=(8, 8, 8, 1)).astype(np.float32)
    labels = (images.reshape(8, -1)[:, :3].argmax(axis=1)).astype(np.int64)
    return images, labels


out, ckpt_dir, mode = oracle_io.parse_args()
images = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
labels = tf.placeholder(tf.int64, [None], name="labels")
logits = network(images)
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
tf.contrib.quantize.create_training_graph(quant_delay=QUANT_DELAY)
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, global_step=global_step)
saver = tf.train.Saver()
fake_quant_ops = sorted(op.name for op in tf.get_default_graph().get_operations() if op.type.startswith("FakeQuant"))

losses = []
eval_dir = ckpt_dir if mode == "save" else tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        x, y = batch(step)
        loss_value, _ = sess.run([loss, train_op], {images: x, labels: y})
        losses.append(float(loss_value))
    values = oracle_io.variables(sess)
    path = oracle_io.save(saver, sess, eval_dir, global_step)

eval_graph = tf.Graph()
with eval_graph.as_default():
    eval_images = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
    eval_logits = network(eval_images)
    tf.contrib.quantize.create_eval_graph()
    eval_variables = sorted(v.op.name for v in tf.global_variables())
    eval_fake_quant_ops = sorted(op.name for op in eval_graph.get_operations() if op.type.startswith("FakeQuant"))
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, path)
        eval_outputs = sess.run(eval_logits, {eval_images: batch(99)[0]})

values.update(
    losses=losses,
    fake_quant_ops=fake_quant_ops,
    eval_fake_quant_ops=eval_fake_quant_ops,
    eval_variables=eval_variables,
    eval_outputs=np.asarray(eval_outputs).tolist(),
    checkpoint_names=sorted(oracle_io.checkpoint_values(os.path.dirname(path))),
)
oracle_io.write(out, values)
