"""TF-only probe: the ops TF 1.15 and TF 2.x build for the same graph code, to find where op seeds diverge.

In a graph seeded only at the graph level, TF 1.15 gave a random op the op count as its op seed
(tf1clip.seeds, docs/oracle.rst "Seeds"), so every op TF 2 builds more or less before a random op changes its
numbers. Run on both, then diff (each line: op name, op type; one block per construct):
    env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python benchmarks/probes/seed_op_counts.py >tf1
    TF_USE_LEGACY_KERAS=1 /work/venvs/tf221/bin/python benchmarks/probes/seed_op_counts.py >tf2
    diff tf1 tf2
The constructs below are the gradient cases tf1clip does not correct (a minimize, broadcasting arithmetic,
sparse softmax cross-entropy, dropout, dynamic_rnn); add one to look at another.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

v1 = tf.compat.v1
v1.disable_v2_behavior()


def _x(shape):
    value = np.linspace(-1.0, 1.0, int(np.prod(shape))).reshape(shape).astype(np.float32)
    return v1.placeholder_with_default(value, [None] + list(shape[1:]))


def mean_square():
    loss = tf.reduce_mean(tf.square(tf.matmul(_x([3, 2]), v1.get_variable("w", [2, 1]))))
    v1.train.GradientDescentOptimizer(0.1).minimize(loss)


def mlp_dropout_sparse_xent():
    h = tf.nn.relu(tf.matmul(_x([4, 5]), v1.get_variable("w1", [5, 6])) + v1.get_variable("b1", [6]))
    logits = tf.matmul(v1.nn.dropout(h, keep_prob=0.5), v1.get_variable("w2", [6, 3]))
    labels = tf.constant([0, 1, 2, 1])
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    v1.train.AdamOptimizer(0.1).minimize(loss)


def lstm_gather():
    inputs = tf.gather(v1.get_variable("emb", [20, 4]), tf.constant([[1, 5, 3], [7, 3, 2]]))
    outputs, _ = v1.nn.dynamic_rnn(v1.nn.rnn_cell.LSTMCell(5), inputs, dtype=tf.float32)
    loss = tf.reduce_sum(outputs[:, -1])
    v1.gradients(loss, v1.trainable_variables())


def main():
    for build in (mean_square, mlp_dropout_sparse_xent, lstm_gather):
        graph = tf.Graph()
        with graph.as_default():
            v1.set_random_seed(7)
            build()
        print("== %s: %d ops" % (build.__name__, len(graph.get_operations())))
        for op in graph.get_operations():
            print(op.name, op.type.replace("AddV2", "Add"))


if __name__ == "__main__":
    main()
