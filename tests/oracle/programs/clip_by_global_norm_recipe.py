"""The 2016 recipe: compute_gradients, tf.clip_by_global_norm, apply_gradients (Momentum, a sparse embedding).

Like tensorflow/models' ptb_word_lm and seq2seq tutorials: a bag-of-words classifier with an
embedding lookup (IndexedSlices gradient) and a dense layer, gradients clipped together.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
VOCAB, DIM = 20, 5

out, ckpt_dir, mode = oracle_io.parse_args()
ids = tf.placeholder(tf.int32, [None, 3], name="ids")
labels = tf.placeholder(tf.float32, [None, 1], name="labels")
embedding = tf.get_variable(
    "embedding", initializer=tf.constant(np.linspace(-1.0, 1.0, VOCAB * DIM).reshape(VOCAB, DIM), tf.float32)
)
with tf.variable_scope("dense"):
    w = tf.get_variable("kernel", initializer=tf.constant(np.full((DIM, 1), 0.3), tf.float32))
    b = tf.get_variable("bias", [1], initializer=tf.zeros_initializer())
features = tf.reduce_sum(tf.nn.embedding_lookup(embedding, ids), axis=1)
loss = tf.reduce_mean(tf.square(tf.matmul(features, w) + b - labels))

global_step = tf.train.get_or_create_global_step()
optimizer = tf.train.MomentumOptimizer(0.1, momentum=0.9)
grads, tvars = zip(*optimizer.compute_gradients(loss))
clipped, norm = tf.clip_by_global_norm(grads, 1.5)
train_op = optimizer.apply_gradients(zip(clipped, tvars), global_step=global_step)
saver = tf.train.Saver()

losses, norms = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        rng = np.random.RandomState(step)
        feed = {ids: rng.randint(0, VOCAB, (8, 3)), labels: rng.randn(8, 1) * 10}
        loss_value, norm_value, _ = sess.run([loss, norm, train_op], feed)
        losses.append(float(loss_value))
        norms.append(float(norm_value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(losses=losses, norms=norms)
oracle_io.write(out, values)
