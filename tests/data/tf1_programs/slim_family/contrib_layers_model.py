"""A TF 1.15 model built with the tf-slim family (slim, layers, framework) next to contrib clipping."""
import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim
from tensorflow.contrib.layers import l2_regularizer, optimize_loss

arg_scope = tf.contrib.framework.arg_scope

x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
with arg_scope([slim.fully_connected], weights_regularizer=l2_regularizer(1e-4)):
    hidden = slim.fully_connected(x, 4)
prediction = tf.contrib.layers.fully_connected(hidden, 1, activation_fn=None)
loss = tf.losses.mean_squared_error(y, prediction)
train_op = optimize_loss(loss, tf.train.get_or_create_global_step(), 0.1, "SGD",
                         clip_gradients=1.0)
eval_op = slim.learning.create_train_op(loss, tf.train.AdamOptimizer(0.01))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train_op, {x: np.ones((2, 3)), y: np.ones((2, 1))})
