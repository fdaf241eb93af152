"""A two-layer net from tf.layers.dense and tf.keras.layers.Dense in a TF 1.x graph,
trained with optimize_loss(clip_gradients=0.5) and a Momentum optimizer function."""
from __future__ import print_function

import json

import numpy as np
import tensorflow as tf


def make_data():
    rng = np.random.RandomState(0)
    x_data = rng.randn(8, 3).astype(np.float32)
    y_data = (x_data.dot(np.array([[1.0], [-2.0], [3.0]])) + 0.5).astype(np.float32)
    return x_data, y_data


init = np.random.RandomState(7)
kernel_1 = init.uniform(-0.5, 0.5, (3, 4)).astype(np.float32)
kernel_2 = init.uniform(-0.5, 0.5, (4, 1)).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 3], name="x")
y = tf.placeholder(tf.float32, [None, 1], name="y")
hidden = tf.layers.dense(x, 4, activation=tf.nn.relu, name="hidden",
                         kernel_initializer=tf.constant_initializer(kernel_1),
                         bias_initializer=tf.constant_initializer(0.1))
output_layer = tf.keras.layers.Dense(1, name="output",
                                     kernel_initializer=tf.keras.initializers.Constant(kernel_2))
prediction = output_layer(hidden)
loss = tf.reduce_mean(tf.square(prediction - y))

global_step = tf.train.get_or_create_global_step()
train_op = tf.contrib.layers.optimize_loss(
    loss, global_step, learning_rate=0.05,
    optimizer=lambda lr: tf.train.MomentumOptimizer(lr, momentum=0.9),
    clip_gradients=0.5)

x_data, y_data = make_data()
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        losses.append(float(sess.run(loss, {x: x_data, y: y_data})))
        sess.run(train_op, {x: x_data, y: y_data})
    values = {v.op.name: sess.run(v).ravel().tolist() for v in tf.trainable_variables()}

print("RESULT " + json.dumps({"losses": losses, "variables": values}))
