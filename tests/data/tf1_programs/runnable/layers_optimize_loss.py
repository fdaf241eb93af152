"""Linear regression trained with tf.contrib.layers.optimize_loss (Adam, clip_gradients=1.0)."""
from __future__ import print_function

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers import optimize_loss


def make_data():
    rng = np.random.RandomState(0)
    x_data = rng.randn(8, 3).astype(np.float32)
    y_data = (x_data.dot(np.array([[1.0], [-2.0], [3.0]])) + 0.5).astype(np.float32)
    return x_data, y_data


x = tf.placeholder(tf.float32, [None, 3], name="x")
y = tf.placeholder(tf.float32, [None, 1], name="y")
w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))

tf.train.create_global_step()
train_op = optimize_loss(
    loss,
    global_step=tf.contrib.framework.get_global_step(),
    learning_rate=0.1,
    optimizer="Adam",
    clip_gradients=1.0,
    summaries=tf.contrib.layers.OPTIMIZER_SUMMARIES,
    colocate_gradients_with_ops=True)
summary_op = tf.summary.merge_all()

x_data, y_data = make_data()
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        losses.append(float(sess.run(loss, {x: x_data, y: y_data})))
        _, summary = sess.run([train_op, summary_op], {x: x_data, y: y_data})
    w_value, b_value, step = sess.run([w, b, tf.train.get_global_step()])

print("RESULT " + json.dumps({"losses": losses, "w": w_value.ravel().tolist(),
                              "b": b_value.tolist(), "global_step": int(step),
                              "summary_bytes": len(summary) > 0}))
