"""tf.contrib.layers.optimize_loss with a per-tensor clip_gradients function (Momentum, 40 variables)."""

import numpy as np
import tensorflow as tf

import bench_io


def clip_each(grads_and_vars):
    return [(tf.clip_by_norm(g, 0.5), v) for g, v in grads_and_vars]


out, clip = bench_io.parse_args()
x = tf.placeholder(tf.float32, [64, 64])
y = tf.placeholder(tf.float32, [64, 64])
net = x
for i in range(20):
    with tf.variable_scope("fc%d" % i):
        w = tf.get_variable("weights", [64, 64], initializer=tf.initializers.identity())
        b = tf.get_variable("biases", [64], initializer=tf.zeros_initializer())
        net = tf.nn.relu(tf.matmul(net, w) + b)
loss = tf.reduce_mean(tf.square(net - y))
train_op = tf.contrib.layers.optimize_loss(
    loss,
    tf.train.get_or_create_global_step(),
    learning_rate=0.01,
    optimizer=lambda lr: tf.train.MomentumOptimizer(lr, momentum=0.9),
    clip_gradients=clip_each if clip else None,
    summaries=[],
)

rng = np.random.RandomState(0)
data = {x: rng.randn(64, 64), y: rng.randn(64, 64)}
with tf.Session(config=bench_io.config()) as sess:
    sess.run(tf.global_variables_initializer())
    times = bench_io.time_steps(sess, train_op, lambda step: data)
bench_io.write(out, times)
