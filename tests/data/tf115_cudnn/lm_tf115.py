"""TF 1.15 side of the CudnnLSTM language-model proof: lm.py's model with the cuDNN layer replaced by TF 1.15's
CudnnCompatibleLSTMCell MultiRNNCell (the graph TF 1.15's docs restore a CudnnLSTM checkpoint into), restored
from lm.py's checkpoint. ``python lm_tf115.py CKPT_PREFIX``: prints the held-out loss as JSON (recorded in
lm_refs.json as tf115_held_out).
"""

import json
import sys

import numpy as np
import tensorflow as tf

VOCAB, EMB, UNITS, LAYERS, STEPS, BATCH, TIME = 11, 4, 5, 2, 5, 3, 6


def batch(seed):
    ids = np.random.RandomState(seed).randint(0, VOCAB, size=(TIME + 1, BATCH))
    return ids[:-1], ids[1:]


inputs = tf.placeholder(tf.int32, [TIME, BATCH])
targets = tf.placeholder(tf.int32, [TIME, BATCH])
embedding = tf.get_variable("embedding", [VOCAB, EMB])
emb = tf.nn.embedding_lookup(embedding, inputs)
with tf.variable_scope("cudnn_lstm"):
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(UNITS) for _ in range(LAYERS)])
    outputs, _ = tf.nn.dynamic_rnn(cell, emb, time_major=True, dtype=tf.float32)
softmax_w = tf.get_variable("softmax_w", [UNITS, VOCAB])
softmax_b = tf.get_variable("softmax_b", [VOCAB])
logits = tf.matmul(tf.reshape(outputs, [-1, UNITS]), softmax_w) + softmax_b
loss = tf.reduce_mean(
    tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(targets, [-1]), logits=logits)
)
with tf.Session() as sess:
    tf.train.Saver().restore(sess, sys.argv[1])
    x, y = batch(100)
    print(json.dumps({"held_out": float(sess.run(loss, {inputs: x, targets: y})),
                      "variables": sorted(v.op.name for v in tf.global_variables())}))
