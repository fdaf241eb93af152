"""A word-level language model on tf.contrib.cudnn_rnn.CudnnLSTM, written for TF 1.x (PTB-tutorial style).

TF 1.15 ran this only on a GPU; tests/oracle/test_contrib_cudnn_rnn.py upgrades it with tf1clip-upgrade and runs it on
the CPU. ``python lm.py OUT.json CKPT_PREFIX``: trains a few steps (Adam, tf.clip_by_global_norm), saves a
checkpoint and writes the training losses and the loss of a held-out batch.
"""

import json
import sys

import numpy as np
import tensorflow as tf

VOCAB, EMB, UNITS, LAYERS, STEPS, BATCH, TIME = 11, 4, 5, 2, 5, 3, 6


def batch(seed):
    ids = np.random.RandomState(seed).randint(0, VOCAB, size=(TIME + 1, BATCH))
    return ids[:-1], ids[1:]


inputs = tf.placeholder(tf.int32, [TIME, BATCH], name="inputs")
targets = tf.placeholder(tf.int32, [TIME, BATCH], name="targets")
embedding = tf.get_variable(
    "embedding", initializer=tf.constant(np.linspace(-1, 1, VOCAB * EMB).reshape(VOCAB, EMB), tf.float32)
)
emb = tf.nn.embedding_lookup(embedding, inputs)
lstm = tf.contrib.cudnn_rnn.CudnnLSTM(
    LAYERS, UNITS, kernel_initializer=tf.random_uniform_initializer(-0.3, 0.3, seed=7), bias_initializer=tf.constant_initializer(0.1)
)
outputs, _ = lstm(emb, training=True)
softmax_w = tf.get_variable("softmax_w", [UNITS, VOCAB], initializer=tf.random_uniform_initializer(-0.5, 0.5, seed=8))
softmax_b = tf.get_variable("softmax_b", [VOCAB], initializer=tf.zeros_initializer())
logits = tf.matmul(tf.reshape(outputs, [-1, UNITS]), softmax_w) + softmax_b
loss = tf.reduce_mean(
    tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.reshape(targets, [-1]), logits=logits)
)
tvars = tf.trainable_variables()
grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), 1.0)
train_op = tf.train.AdamOptimizer(0.05).apply_gradients(zip(grads, tvars))
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(STEPS):
        x, y = batch(step)
        losses.append(float(sess.run([loss, train_op], {inputs: x, targets: y})[0]))
    x, y = batch(100)
    held_out = float(sess.run(loss, {inputs: x, targets: y}))
    saver.save(sess, sys.argv[2], write_meta_graph=False)
with open(sys.argv[1], "w") as f:
    json.dump({"losses": losses, "held_out": held_out, "variables": sorted(v.op.name for v in tf.global_variables())}, f)
