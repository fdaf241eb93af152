"""tf.contrib.opt.LazyAdamOptimizer (t2t / recommender code, 2018): an embedding whose sparse
gradients update only the looked-up rows and their slots, and a dense layer (plain Adam there).
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
VOCAB, DIM = 30, 4

out, ckpt_dir, mode = oracle_io.parse_args()
ids = tf.placeholder(tf.int32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
embedding = tf.get_variable(
    "embedding", initializer=tf.constant(np.linspace(-1.0, 1.0, VOCAB * DIM).reshape(VOCAB, DIM), tf.float32)
)
w = tf.get_variable("w", initializer=tf.constant(np.linspace(0.5, -0.5, DIM).reshape(DIM, 1), tf.float32))
features = tf.reduce_sum(tf.nn.embedding_lookup(embedding, ids), axis=1)
loss = tf.reduce_mean(tf.square(tf.matmul(features, w) - y))
global_step = tf.train.get_or_create_global_step()
optimizer = tf.contrib.opt.LazyAdamOptimizer(0.05)
grads_and_vars = optimizer.compute_gradients(loss)
clipped, _ = tf.clip_by_global_norm([g for g, _ in grads_and_vars], 2.0)
train_op = optimizer.apply_gradients(zip(clipped, [v for _, v in grads_and_vars]), global_step=global_step)
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        rng = np.random.RandomState(step)
        feed = {ids: rng.randint(0, VOCAB // 2, (6, 2)), y: rng.randn(6, 1) * 3}
        losses.append(float(sess.run([loss, train_op], feed)[0]))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(losses=losses)
oracle_io.write(out, values)
