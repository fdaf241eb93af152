"""optimize_loss with contrib's adaptive_clipping_fn and a gradient multiplier (TF 1.15)."""
from __future__ import print_function

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers.python.layers import optimizers as optimizers_lib


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

global_step = tf.train.get_or_create_global_step()
train_op = tf.contrib.layers.optimize_loss(
    loss, global_step, learning_rate=0.1,
    optimizer=tf.contrib.layers.OPTIMIZER_CLS_NAMES["SGD"],
    gradient_multipliers={b: 2.0},
    clip_gradients=optimizers_lib.adaptive_clipping_fn(decay=0.9))
adaptive_vars = [v.op.name for v in tf.global_variables() if "AdaptiveMaxNorm" in v.op.name]

x_data, y_data = make_data()
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        losses.append(float(sess.run(loss, {x: x_data, y: y_data})))
        sess.run(train_op, {x: x_data, y: y_data})
    w_value, b_value, step = sess.run([w, b, global_step])

print("RESULT " + json.dumps({"losses": losses, "w": w_value.ravel().tolist(),
                              "b": b_value.tolist(), "global_step": int(step),
                              "adaptive_vars": sorted(adaptive_vars)}))
