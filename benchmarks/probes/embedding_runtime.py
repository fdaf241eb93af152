"""Probe: is the upgraded embedding program's extra step time TF 2's runtime or tf1clip's optimize_loss?

    python benchmarks/probes/embedding_runtime.py plain|optimize_loss

The embedding_sparse model of benchmarks/tf115_programs (50,000 x 64 table, Adagrad) with one-thread
pools, trained either with ``AdagradOptimizer.minimize`` (``plain``, no tf1clip) or with
``optimize_loss`` (contrib's on TF 1.x, tf1clip's on TF 2). Prints the median step time of 300 steps.
Run it with the TF 1.15 venv (TF2_BEHAVIOR unset) and with the current TensorFlow, interleaved.
"""

import sys
import time
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
if tf.__version__.startswith("2"):
    v1.disable_v2_behavior()
mode = sys.argv[1]
ids = v1.placeholder(tf.int32, [128, 20])
labels = v1.placeholder(tf.int32, [128])
table = v1.get_variable("embedding", [50000, 64], initializer=v1.random_uniform_initializer(-0.05, 0.05, seed=1))
features = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
w1 = v1.get_variable("w1", [64, 64])
w2 = v1.get_variable("w2", [64, 2])
logits = tf.matmul(tf.nn.relu(tf.matmul(features, w1)), w2)
loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
gs = v1.train.get_or_create_global_step()
if mode == "plain":
    train_op = v1.train.AdagradOptimizer(0.1).minimize(loss, global_step=gs)
else:
    if tf.__version__.startswith("1."):
        train_op = tf.contrib.layers.optimize_loss(loss, gs, 0.1, "Adagrad", summaries=[])
    else:
        import tf1clip.contrib.layers as L

        train_op = L.optimize_loss(loss, gs, 0.1, "Adagrad", summaries=[])
rng = np.random.RandomState(0)
batches = [{ids: rng.randint(0, 50000, (128, 20)), labels: rng.randint(0, 2, 128)} for _ in range(8)]
cfg = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
with v1.Session(config=cfg) as sess:
    sess.run(v1.global_variables_initializer())
    for i in range(20):
        sess.run(train_op, batches[i % 8])
    ts = []
    for i in range(300):
        t = time.perf_counter()
        sess.run(train_op, batches[i % 8])
        ts.append(time.perf_counter() - t)
print(mode, tf.__version__, "%.3f ms" % (1000 * np.median(ts)))
