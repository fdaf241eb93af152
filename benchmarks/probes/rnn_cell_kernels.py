"""TF-only probe: which kernels the drifting tf.contrib.rnn cells use give other float32 bits on TF 2.x than on 1.15.

Run on both and diff the output (each line: expression, then a hash of the float32 bits and the value sum):
    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python benchmarks/probes/rnn_cell_kernels.py
    /work/venvs/tf221/bin/python benchmarks/probes/rnn_cell_kernels.py
Uses only tf.compat.v1 ops (no tf1clip), fixed numpy inputs, one CPU thread.
"""

import hashlib
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

v1 = tf.compat.v1
v1.disable_eager_execution()


def _arr(seed, shape, low=-1.0, high=1.0):
    return np.random.RandomState(seed).uniform(low, high, size=shape).astype(np.float32)


def expressions():
    x = tf.constant(_arr(1, [4, 8]) * 3.0 + 0.5)
    g = tf.constant(_arr(2, [4, 8]))
    gamma, beta = tf.constant(_arr(3, [8], 0.8, 1.2)), tf.constant(_arr(4, [8]))
    mean, var = tf.nn.moments(x, [1], keepdims=True)
    ln = tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-12)
    small = tf.constant(_arr(5, [4, 1], 0.01, 3.0))
    img = tf.constant(_arr(6, [4, 3, 1, 8]))
    filt = tf.constant(_arr(7, [1, 1, 8, 8]))
    conv = tf.nn.conv2d(img, filt, [1, 1, 1, 1], "SAME")
    gconv = tf.constant(_arr(8, [4, 3, 1, 8]))
    yield "reduce_mean axis1", tf.reduce_mean(x, [1], keepdims=True)
    yield "moments variance", var
    yield "rsqrt", tf.math.rsqrt(small)
    yield "rsqrt grad", tf.gradients(tf.math.rsqrt(small), small, small * 0.7)[0]
    yield "layer_norm forward", ln
    for name, t in zip(("x", "gamma", "beta"), tf.gradients(ln, [x, gamma, beta], g)):
        yield "layer_norm grad " + name, t
    yield "squared_difference grad", tf.gradients(tf.math.squared_difference(x, mean), x, g)[0]
    yield "reduce_mean grad", tf.gradients(tf.reduce_mean(x, [1], keepdims=True), x, small)[0]
    yield "sigmoid", tf.sigmoid(x)
    yield "tanh", tf.tanh(x)
    yield "sigmoid grad", tf.gradients(tf.sigmoid(x), x, g)[0]
    yield "tanh grad", tf.gradients(tf.tanh(x), x, g)[0]
    yield "matmul 4x8 8x8", tf.matmul(x, filt[0, 0])
    yield "conv2d 1x1", conv
    for name, t in zip(("input", "filter"), tf.gradients(conv, [img, filt], gconv)):
        yield "conv2d grad " + name, t
    yield "softmax", tf.nn.softmax(x)
    yield "softmax grad", tf.gradients(tf.nn.softmax(x), x, g)[0]
    yield "reduce_sum axes 2,3", tf.reduce_sum(conv, [2, 3])


def main():
    config = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    with v1.Session(config=config) as sess:
        for label, tensor in expressions():
            value = np.asarray(sess.run(tensor), np.float32)
            print("%-26s %s %.9g" % (label, hashlib.sha1(value.tobytes()).hexdigest()[:12], value.sum()))


if __name__ == "__main__":
    main()
