"""The TF 1 MNIST tutorial: ``input_data.read_data_sets`` and ``next_batch`` feeding a softmax regression.

The most copied lines of 2016-2018 tutorials. The four idx files are tiny ones written here (14 training
images of 4x3 pixels, 3 of them the validation set); batches of 5 cross epochs, so next_batch's reshuffles
decide the losses. A resumed run replays the first half's batches before training on.
"""

import gzip
import os
import struct
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

import oracle_io

STEPS = 8


def write_mnist(directory, counts=(("train", 14), ("t10k", 4))):
    for prefix, count in counts:
        index = np.arange(count)
        pixels = (index[:, None] * 53 + np.arange(12) * 19) % 256
        with gzip.open(os.path.join(directory, "%s-images-idx3-ubyte.gz" % prefix), "wb") as f:
            f.write(struct.pack(">IIII", 2051, count, 4, 3) + pixels.astype(np.uint8).tobytes())
        with gzip.open(os.path.join(directory, "%s-labels-idx1-ubyte.gz" % prefix), "wb") as f:
            f.write(struct.pack(">II", 2049, count) + (index * 3 % 10).astype(np.uint8).tobytes())


out, ckpt_dir, mode = oracle_io.parse_args()
data_dir = tempfile.mkdtemp()
write_mnist(data_dir)
mnist = input_data.read_data_sets(data_dir, one_hot=True, validation_size=3, seed=11)

x = tf.placeholder(tf.float32, [None, 12])
y_ = tf.placeholder(tf.float32, [None, 10])
W = tf.Variable(tf.zeros([12, 10]), name="W")
b = tf.Variable(tf.zeros([10]), name="b")
y = tf.matmul(x, W) + b
cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=y))
global_step = tf.train.get_or_create_global_step()
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy, global_step=global_step)
correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
saver = tf.train.Saver()

losses = []
start, stop = oracle_io.step_range(mode, STEPS)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(stop):
        batch_xs, batch_ys = mnist.train.next_batch(5)
        if step < start:
            continue
        _, loss = sess.run([train_step, cross_entropy], {x: batch_xs, y_: batch_ys})
        losses.append(float(loss))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    values.update(
        test_accuracy=float(sess.run(accuracy, {x: mnist.test.images, y_: mnist.test.labels})),
        validation_labels=mnist.validation.labels.tolist(),
        epochs=mnist.train.epochs_completed,
    )
values.update(losses=losses)
oracle_io.write(out, values)
