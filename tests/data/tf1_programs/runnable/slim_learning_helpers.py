"""slim.learning's gradient helpers in a hand-written compute/apply loop (TF 1.15)."""
from __future__ import print_function

import json

import numpy as np
import tensorflow as tf

slim = tf.contrib.slim


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

optimizer = tf.train.GradientDescentOptimizer(0.1)
grads_and_vars = optimizer.compute_gradients(loss)
grads_and_vars = slim.learning.multiply_gradients(grads_and_vars, {w: 0.5})
grads_and_vars = slim.learning.clip_gradient_norms(grads_and_vars, 0.3)
slim.learning.add_gradients_summaries(grads_and_vars)
train_op = optimizer.apply_gradients(grads_and_vars,
                                     global_step=tf.train.get_or_create_global_step())

x_data, y_data = make_data()
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        losses.append(float(sess.run(loss, {x: x_data, y: y_data})))
        sess.run(train_op, {x: x_data, y: y_data})
    w_value, b_value, step = sess.run([w, b, tf.train.get_global_step()])

print("RESULT " + json.dumps({"losses": losses, "w": w_value.ravel().tolist(),
                              "b": b_value.tolist(), "global_step": int(step)}))
