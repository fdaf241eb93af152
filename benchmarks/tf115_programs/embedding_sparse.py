"""An embedding model with sparse gradients (a 50,000 x 64 table, bag of words), Adagrad,
optimize_loss with clip_gradients=5.0 (the global norm over the IndexedSlices and dense gradients)."""

import numpy as np
import tensorflow as tf

import bench_io

out, clip = bench_io.parse_args()
ids = tf.placeholder(tf.int32, [128, 20])
labels = tf.placeholder(tf.int32, [128])
table = tf.get_variable("embedding", [50000, 64], initializer=tf.random_uniform_initializer(-0.05, 0.05, seed=1))
features = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
hidden = tf.layers.dense(features, 64, activation=tf.nn.relu, name="hidden")
logits = tf.layers.dense(hidden, 2, name="logits")
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
train_op = tf.contrib.layers.optimize_loss(
    loss,
    tf.train.get_or_create_global_step(),
    learning_rate=0.1,
    optimizer="Adagrad",
    clip_gradients=5.0 if clip else None,
    summaries=[],
)

rng = np.random.RandomState(0)
batches = [{ids: rng.randint(0, 50000, (128, 20)), labels: rng.randint(0, 2, 128)} for _ in range(8)]
with tf.Session(config=bench_io.config()) as sess:
    sess.run(tf.global_variables_initializer())
    times = bench_io.time_steps(sess, train_op, lambda step: batches[step % 8])
bench_io.write(out, times)
