# -*- coding: utf-8 -*-
"""A Python 2 TF 1 training script in 2016-2017 style, for tests/subprocess/test_python2_program_upgraded.py.

Python 2 on purpose: print statements, xrange loops, dict.iteritems over a feed dict, cPickle, map/zip/keys used as
lists, sizes, ranges and indices computed with integer `/`, tf.contrib.layers. make_refs.py runs it unchanged on
TF 1.15 under Python 2.7 and records what it wrote; the test converts it with tf1clip-upgrade and runs it on TF 2.
"""
import cPickle
import time

import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_integer('batch_size', 16, 'examples per step')
flags.DEFINE_integer('hidden', 12, 'units of the first layer (the second has half)')
flags.DEFINE_integer('epochs', 3, 'passes over the data')
flags.DEFINE_float('learning_rate', 0.5, 'SGD step size')
flags.DEFINE_string('layer_sizes', '8,3', 'input and output sizes')
flags.DEFINE_string('out', '', 'where to pickle the results')
FLAGS = flags.FLAGS


def make_data(n, dim, classes):
    rng = np.random.RandomState(1234)
    x = rng.randn(n, dim).astype(np.float32)
    w = rng.randn(dim, classes)
    return x, np.argmax(np.dot(x, w), 1)


def batches(n, size):
    starts = range(0, n, size)
    ends = map(lambda s: s + size, starts)
    return zip(starts, ends)


def main(_):
    tf.set_random_seed(42)
    dim, classes = map(int, FLAGS.layer_sizes.split(','))
    x_data, y_data = make_data(100, dim, classes)
    num_batches = len(x_data) / FLAGS.batch_size  # 6 full batches: Python 2 floors
    spans = batches(num_batches * FLAGS.batch_size, FLAGS.batch_size)
    assert len(spans) == num_batches

    x = tf.placeholder(tf.float32, [None, dim], name='x')
    y = tf.placeholder(tf.int64, [None], name='y')
    keep_prob = tf.placeholder(tf.float32, name='keep_prob')
    hidden = tf.contrib.layers.fully_connected(x, FLAGS.hidden, activation_fn=tf.nn.relu, scope='hidden')
    half = tf.contrib.layers.fully_connected(hidden, FLAGS.hidden / 2, activation_fn=tf.nn.tanh, scope='half')
    logits = tf.contrib.layers.fully_connected(tf.nn.dropout(half, keep_prob), classes, activation_fn=None,
                                               scope='logits')
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train_op = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(loss)
    correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.int32))

    losses, accuracies = [], []
    start_time = time.time()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in xrange(FLAGS.epochs):
            for step, (begin, end) in enumerate(spans):
                arrays = {x: x_data[begin:end], y: y_data[begin:end], keep_prob: 1.0}
                feed = {}
                for placeholder, value in arrays.iteritems():
                    feed[placeholder] = value
                _, value = sess.run([train_op, loss], feed_dict=feed)
                losses.append(float(value))
            n_correct = sess.run(correct, {x: x_data, y: y_data, keep_prob: 1.0})
            accuracies.append(100 * n_correct / len(x_data))
            print "epoch %d: loss %.4f, %d of %d right" % (epoch, losses[-1], n_correct, len(x_data))
        shapes = {}
        for v in tf.trainable_variables():
            shapes[v.op.name] = v.get_shape().as_list()
        names = shapes.keys()
        names.sort()
        for name in names:
            print name, shapes[name]
        weights = sess.run(tf.trainable_variables())
    elapsed = time.time() - start_time
    print >>sys_stdout(), 'trained in %.1f s' % (elapsed / 1)

    middle = losses[len(losses) / 2]
    results = {
        'losses': losses,
        'middle': middle,
        'accuracies': [int(a) for a in accuracies],
        'shapes': shapes,
        'names': names,
        'steps': len(losses),
        'checksum': float(sum(np.sum(w) for w in weights)),
    }
    if FLAGS.out:
        cPickle.dump(results, open(FLAGS.out, 'w'))


def sys_stdout():
    import sys
    return sys.stdout


if __name__ == '__main__':
    tf.app.run()
