"""A model seeded only by tf.set_random_seed (2017 tutorial style): every initializer and the dropout
masks take their op seeds from the graph. An LSTM over a short sequence, dense layers with dropout
between them, tf.random_uniform noise on the input, Adam.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
BATCH, TIME, DIM, UNITS = 4, 3, 5, 6

out, ckpt_dir, mode = oracle_io.parse_args()
tf.set_random_seed(1234)
x = tf.placeholder(tf.float32, [None, TIME, DIM])
y = tf.placeholder(tf.float32, [None, 1])
keep_prob = tf.placeholder_with_default(0.8, [])
noisy = x + 0.01 * tf.random_uniform(tf.shape(x))
cell = tf.nn.rnn_cell.LSTMCell(UNITS)
outputs, _ = tf.nn.dynamic_rnn(cell, noisy, dtype=tf.float32)
hidden = tf.layers.dense(outputs[:, -1], 8, activation=tf.nn.relu)
hidden = tf.nn.dropout(hidden, keep_prob)
hidden = tf.layers.dense(hidden, 8, activation=tf.nn.tanh)
hidden = tf.layers.dropout(hidden, rate=0.25, training=True)
w = tf.get_variable("w_out", [8, 1])
b = tf.Variable(tf.truncated_normal([1], stddev=0.1), name="b_out")
loss = tf.reduce_mean(tf.square(tf.matmul(hidden, w) + b - y))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=global_step)
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    initial = oracle_io.variables(sess)
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        rng = np.random.RandomState(step)
        feed = {x: rng.randn(BATCH, TIME, DIM), y: rng.randn(BATCH, 1)}
        losses.append(float(sess.run([loss, train_op], feed)[0]))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(("initial/" + name, value) for name, value in initial.items())
values.update(losses=losses)
oracle_io.write(out, values)
