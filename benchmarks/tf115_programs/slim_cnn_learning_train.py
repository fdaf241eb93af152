"""A slim CNN (two conv layers, batch norm, two fully connected) under slim.learning.train with
clip_gradient_norm; the step time is measured in a train_step_fn around slim's train_step."""

import shutil
import tempfile
import time

import numpy as np
import tensorflow as tf

import bench_io

slim = tf.contrib.slim
out, clip = bench_io.parse_args()
warmup, n = bench_io.steps()
logdir = tempfile.mkdtemp()

rng = np.random.RandomState(0)
images = tf.constant(rng.rand(16, 28, 28, 1).astype(np.float32))
labels = tf.constant(rng.randint(0, 10, 16).astype(np.int32))
with slim.arg_scope([slim.conv2d, slim.fully_connected], weights_regularizer=slim.l2_regularizer(1e-4)):
    with slim.arg_scope([slim.conv2d], normalizer_fn=slim.batch_norm):
        net = slim.conv2d(images, 16, [5, 5], scope="conv1")
        net = slim.max_pool2d(net, [2, 2], scope="pool1")
        net = slim.conv2d(net, 32, [5, 5], scope="conv2")
        net = slim.max_pool2d(net, [2, 2], scope="pool2")
    net = slim.flatten(net)
    net = slim.fully_connected(net, 64, scope="fc3")
    logits = slim.fully_connected(net, 10, activation_fn=None, scope="fc4")
tf.losses.sparse_softmax_cross_entropy(labels, logits)
total_loss = tf.losses.get_total_loss()
train_op = slim.learning.create_train_op(
    total_loss, tf.train.MomentumOptimizer(0.01, momentum=0.9), clip_gradient_norm=5.0 if clip else 0
)
times = []


def train_step_fn(sess, train_op, global_step, train_step_kwargs):
    start = time.perf_counter()
    result = slim.learning.train_step(sess, train_op, global_step, train_step_kwargs)
    times.append(time.perf_counter() - start)
    return result


slim.learning.train(
    train_op,
    logdir,
    train_step_fn=train_step_fn,
    number_of_steps=warmup + n,
    session_config=bench_io.config(),
    save_summaries_secs=3600,
    save_interval_secs=3600,
    log_every_n_steps=10**6,
)
shutil.rmtree(logdir)
bench_io.write(out, times[warmup:])
