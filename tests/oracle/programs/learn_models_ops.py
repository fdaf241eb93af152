"""2016 programs built on tf.contrib.learn.models and tf.contrib.learn.ops in a Session: logistic_regression and
linear_regression (their default and random_normal initializers, from the graph seed), a categorical_variable
embedding of ids feeding softmax_classifier, embedding_lookup, and sequence_classifier over seq2seq_inputs; trained
with plain gradient descent, saved and resumed with a Saver.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
tf.set_random_seed(11)

rng = np.random.RandomState(2)
X = rng.randn(12, 4).astype(np.float32)
LABELS = np.eye(3, dtype=np.float32)[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)]
R = X.dot(np.array([[1.0], [-1.0], [0.5], [2.0]], np.float32)) + 0.25
IDS = np.array([[0, 1], [2, 3], [4, 0], [1, 1], [3, 2], [0, 4]] * 2, np.int64)

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 3])
r = tf.placeholder(tf.float32, [None, 1])
ids = tf.placeholder(tf.int64, [None, 2])

probabilities, logistic_loss = tf.contrib.learn.models.logistic_regression(x, y)
predictions, linear_loss = tf.contrib.learn.models.linear_regression(x, r, init_mean=0.1, init_stddev=0.5)
with tf.variable_scope("zero"):
    zero_predictions, zero_loss = tf.contrib.learn.models.linear_regression_zero_init(x, r)
embedded = tf.contrib.learn.ops.categorical_variable(ids, n_classes=5, embedding_size=3, name="words")
flat = tf.reshape(embedded, [-1, 6])
w = tf.get_variable("softmax_w", [6, 3])
b = tf.get_variable("softmax_b", [3], initializer=tf.zeros_initializer())
word_probabilities, word_loss = tf.contrib.learn.ops.softmax_classifier(flat, y, w, b, class_weight=[1.0, 2.0, 0.5])
looked_up = tf.contrib.learn.ops.embedding_lookup(w, ids)
w_sequence = tf.get_variable("sequence_w", [3, 3])
in_x, in_y, out_y = tf.contrib.learn.ops.seq2seq_inputs(embedded, tf.one_hot(ids, 3), 2, 2)
sequence_predictions, sequence_loss = tf.contrib.learn.ops.sequence_classifier(
    [tf.matmul(step, w_sequence) for step in in_x] + [tf.matmul(in_x[0], w_sequence)], out_y
)
total = logistic_loss + linear_loss + zero_loss + word_loss + 0.1 * sequence_loss
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(total, global_step=global_step)
saver = tf.train.Saver()

feed = {x: X, y: LABELS, r: R, ids: IDS}
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for _ in range(start, stop):
        _, loss = sess.run([train_op, total], feed)
        losses.append(float(loss))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    fetched = sess.run(
        [probabilities, predictions, zero_predictions, word_probabilities, looked_up, sequence_predictions], feed
    )
names = ["probabilities", "predictions", "zero_predictions", "word_probabilities", "looked_up", "sequence_predictions"]
values.update(dict((name, value.tolist()) for name, value in zip(names, fetched)))
values.update(losses=losses)
oracle_io.write(out, values)
