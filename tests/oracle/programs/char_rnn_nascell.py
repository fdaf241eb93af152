"""A char-RNN in the style of 2016-2017 public code (char-rnn-tensorflow and its forks): an embedding, a
MultiRNNCell of tf.contrib.rnn.NASCell layers in DropoutWrappers under tf.nn.dynamic_rnn, legacy_seq2seq's
sequence_loss_by_example, tf.clip_by_global_norm over tf.gradients, and Adam. The dropout masks are seeded.
"""

import numpy as np
import tensorflow as tf
from tensorflow.contrib import legacy_seq2seq
from tensorflow.contrib import rnn

import oracle_io

STEPS = 6
MODEL, NUM_LAYERS, RNN_SIZE, VOCAB = "nas", 2, 8, 11
BATCH, SEQ_LENGTH, GRAD_CLIP, KEEP_PROB = 4, 5, 1.0, 0.8

out, ckpt_dir, mode = oracle_io.parse_args()

if MODEL == "rnn":
    cell_fn = rnn.BasicRNNCell
elif MODEL == "gru":
    cell_fn = rnn.GRUCell
elif MODEL == "lstm":
    cell_fn = rnn.LSTMCell
elif MODEL == "nas":
    cell_fn = rnn.NASCell
else:
    raise Exception("model type not supported: {}".format(MODEL))

cells = []
for layer in range(NUM_LAYERS):
    cell = cell_fn(RNN_SIZE)
    cell = rnn.DropoutWrapper(cell, input_keep_prob=KEEP_PROB, output_keep_prob=KEEP_PROB, seed=11 + layer)
    cells.append(cell)
cell = rnn.MultiRNNCell(cells, state_is_tuple=True)

input_data = tf.placeholder(tf.int32, [BATCH, SEQ_LENGTH])
targets = tf.placeholder(tf.int32, [BATCH, SEQ_LENGTH])
initial_state = cell.zero_state(BATCH, tf.float32)

with tf.variable_scope("rnnlm", initializer=tf.random_uniform_initializer(-0.3, 0.3, seed=5)):
    softmax_w = tf.get_variable(
        "softmax_w",
        initializer=tf.constant(np.linspace(-0.5, 0.5, RNN_SIZE * VOCAB).reshape(RNN_SIZE, VOCAB), tf.float32),
    )
    softmax_b = tf.get_variable("softmax_b", initializer=tf.constant(np.linspace(0.1, -0.1, VOCAB), tf.float32))
    embedding = tf.get_variable(
        "embedding", initializer=tf.constant(np.cos(np.arange(VOCAB * RNN_SIZE)).reshape(VOCAB, RNN_SIZE), tf.float32)
    )
    inputs = tf.nn.embedding_lookup(embedding, input_data)
    inputs = tf.nn.dropout(inputs, KEEP_PROB, seed=3)
    # One iteration at a time: a dropout mask's random op depends only on a static shape, so with parallel
    # iterations the time steps draw their masks in whatever order they run (a race in TF 1.15 too).
    outputs, last_state = tf.nn.dynamic_rnn(
        cell, inputs, initial_state=initial_state, parallel_iterations=1, scope="rnnlm"
    )

output = tf.reshape(outputs, [-1, RNN_SIZE])
logits = tf.matmul(output, softmax_w) + softmax_b
probs = tf.nn.softmax(logits)
loss = legacy_seq2seq.sequence_loss_by_example([logits], [tf.reshape(targets, [-1])], [tf.ones([BATCH * SEQ_LENGTH])])
cost = tf.reduce_sum(loss) / BATCH / SEQ_LENGTH
global_step = tf.train.get_or_create_global_step()
lr = tf.Variable(0.0, trainable=False)
tvars = tf.trainable_variables()
grads, global_norm = tf.clip_by_global_norm(tf.gradients(cost, tvars), GRAD_CLIP)
optimizer = tf.train.AdamOptimizer(lr)
train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)
saver = tf.train.Saver(tf.global_variables())

text = np.array([(7 * i * i + 3 * i) % VOCAB for i in range(200)], np.int32)
losses, norms, final_states = [], [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        sess.run(tf.assign(lr, 0.02 * (0.97**step)))
        start = (step * BATCH * SEQ_LENGTH) % (len(text) - BATCH * SEQ_LENGTH - 1)
        x = text[start : start + BATCH * SEQ_LENGTH].reshape(BATCH, SEQ_LENGTH)
        y = text[start + 1 : start + 1 + BATCH * SEQ_LENGTH].reshape(BATCH, SEQ_LENGTH)
        train_loss, norm, state, _ = sess.run([cost, global_norm, last_state, train_op], {input_data: x, targets: y})
        losses.append(float(train_loss))
        norms.append(float(norm))
        final_states.append(np.asarray(state[1].h).tolist())
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(losses=losses, global_norms=norms, final_h=final_states)
oracle_io.write(out, values)
