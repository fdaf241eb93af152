"""A 2018 fine-tuning script: a classifier warm-started with ``tf.contrib.framework.init_from_checkpoint``.

A pre-training graph trains an encoder a few steps and saves it; a new graph with the same encoder and a new
3-class head takes the encoder from that checkpoint (``checkpoint_dir=`` and an ``assignment_map`` by scope, then a
variable object mapped by name, positionally), trains it, and reports ``tf.contrib.metrics.confusion_matrix`` of
its predictions. tf1clip-upgrade renames both: tf.compat.v1.train.init_from_checkpoint (``ckpt_dir_or_file=``)
and tf.compat.v1.math.confusion_matrix.
"""

import os
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
PRE_STEPS = 3


def encoder(x):
    with tf.variable_scope("encoder"):
        w = tf.get_variable("w", initializer=tf.constant(np.linspace(-0.5, 0.5, 20).reshape(4, 5), tf.float32))
        b = tf.get_variable("b", [5], initializer=tf.constant_initializer(0.05))
        return tf.nn.tanh(tf.matmul(x, w) + b)


def labels_of(y):
    return np.digitize(y[:, 0], [-1.0, 1.0]).astype(np.int64)


out, ckpt_dir, mode = oracle_io.parse_args()
pre_dir = tempfile.mkdtemp(prefix="pretrained")

with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.float32, [None, 1])
    h = encoder(x)
    with tf.variable_scope("pre"):
        w_out = tf.get_variable("w_out", initializer=tf.constant(np.linspace(0.2, -0.2, 5).reshape(5, 1), tf.float32))
        bias = tf.get_variable("bias", [1], initializer=tf.constant_initializer(0.3))
    pre_loss = tf.reduce_mean(tf.square(tf.matmul(h, w_out) + bias - y))
    pre_train = tf.train.GradientDescentOptimizer(0.1).minimize(pre_loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(PRE_STEPS):
            bx, by = oracle_io.batch(step, seed=3)
            sess.run(pre_train, {x: bx, y: by})
        tf.train.Saver().save(sess, os.path.join(pre_dir, "model.ckpt"), global_step=PRE_STEPS)

x = tf.placeholder(tf.float32, [None, 4])
labels = tf.placeholder(tf.int64, [None])
h = encoder(x)
with tf.variable_scope("head"):
    w_head = tf.get_variable("w", initializer=tf.constant(np.linspace(-0.3, 0.3, 15).reshape(5, 3), tf.float32))
    offset = tf.get_variable("offset", [1], initializer=tf.zeros_initializer())
tf.contrib.framework.init_from_checkpoint(checkpoint_dir=pre_dir, assignment_map={"encoder/": "encoder/"})
tf.contrib.framework.init_from_checkpoint(pre_dir, {"pre/bias": offset})
logits = tf.matmul(h, w_head) + offset
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.MomentumOptimizer(0.2, 0.9).minimize(loss, global_step=global_step)
predictions = tf.argmax(logits, axis=1)
confusion = tf.contrib.metrics.confusion_matrix(labels, predictions, num_classes=3)
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    warm = sess.run({"encoder_w": tf.trainable_variables()[0], "offset": offset})
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        bx, by = oracle_io.batch(step)
        loss_value, _ = sess.run([loss, train_op], {x: bx, labels: labels_of(by)})
        losses.append(float(loss_value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    bx, by = oracle_io.batch(0, n=32, seed=7)
    matrix = sess.run(confusion, {x: bx, labels: labels_of(by)})
values.update(
    losses=losses,
    warm_started=dict((k, np.asarray(v).tolist()) for k, v in warm.items()),
    confusion=np.asarray(matrix).tolist(),
)
oracle_io.write(out, values)
