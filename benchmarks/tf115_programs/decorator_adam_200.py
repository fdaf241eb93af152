"""tf.contrib.estimator.clip_gradients_by_norm around Adam, 200 small variables (a deep narrow MLP)."""

import numpy as np
import tensorflow as tf

import bench_io

out, clip = bench_io.parse_args()
x = tf.placeholder(tf.float32, [32, 16])
y = tf.placeholder(tf.float32, [32, 16])
net = x
for i in range(100):
    with tf.variable_scope("layer%d" % i):
        w = tf.get_variable("w", [16, 16], initializer=tf.initializers.identity())
        b = tf.get_variable("b", [16], initializer=tf.zeros_initializer())
        net = tf.nn.tanh(tf.matmul(net, w) + b)
loss = tf.reduce_mean(tf.square(net - y))
optimizer = tf.train.AdamOptimizer(1e-3)
if clip:
    optimizer = tf.contrib.estimator.clip_gradients_by_norm(optimizer, clip_norm=1.0)
train_op = optimizer.minimize(loss, global_step=tf.train.get_or_create_global_step())

rng = np.random.RandomState(0)
data = {x: rng.randn(32, 16), y: rng.randn(32, 16)}
with tf.Session(config=bench_io.config()) as sess:
    sess.run(tf.global_variables_initializer())
    times = bench_io.time_steps(sess, train_op, lambda step: data)
bench_io.write(out, times)
