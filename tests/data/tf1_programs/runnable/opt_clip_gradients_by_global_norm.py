"""tf.contrib.opt.clip_gradients_by_global_norm between compute and apply (TF 1.15)."""
from __future__ import print_function

import json

import numpy as np
import tensorflow as tf


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
optimizer = tf.train.MomentumOptimizer(0.05, momentum=0.9)
grads_and_vars, grad_norm = tf.contrib.opt.clip_gradients_by_global_norm(
    optimizer.compute_gradients(loss), clip_norm=1.0)
train_op = optimizer.apply_gradients(grads_and_vars,
                                     global_step=tf.contrib.framework.get_global_step())

x_data, y_data = make_data()
losses, norms = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        loss_value, norm = sess.run([loss, grad_norm], {x: x_data, y: y_data})
        losses.append(float(loss_value))
        norms.append(float(norm))
        sess.run(train_op, {x: x_data, y: y_data})
    w_value, b_value, step = sess.run([w, b, tf.train.get_global_step()])

print("RESULT " + json.dumps({"losses": losses, "norms": norms, "w": w_value.ravel().tolist(),
                              "b": b_value.tolist(), "global_step": int(step)}))
