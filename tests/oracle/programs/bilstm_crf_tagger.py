"""A BiLSTM-CRF sequence tagger in the style of 2017-2018 NER code (sequence_tagging, NeuroNER).

Word embeddings, ``tf.nn.bidirectional_dynamic_rnn`` over ``tf.contrib.rnn.LSTMCell``s, a dense projection to
tag scores, ``tf.contrib.crf.crf_log_likelihood`` (its ``transitions`` variable), Adam with
``tf.clip_by_global_norm``, and ``tf.contrib.crf.crf_decode`` / ``viterbi_decode`` for the predictions.
Batches have sequence lengths 0 and 1 among others; seeded op-level initializers.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
NWORDS, DIM, HIDDEN, NTAGS, MAXLEN = 11, 4, 3, 4, 5

out, ckpt_dir, mode = oracle_io.parse_args()
word_ids = tf.placeholder(tf.int32, shape=[None, None], name="word_ids")
sequence_lengths = tf.placeholder(tf.int32, shape=[None], name="sequence_lengths")
labels = tf.placeholder(tf.int32, shape=[None, None], name="labels")

with tf.variable_scope("words"):
    _word_embeddings = tf.get_variable(
        "_word_embeddings", shape=[NWORDS, DIM], initializer=tf.random_uniform_initializer(-0.5, 0.5, seed=1)
    )
    word_embeddings = tf.nn.embedding_lookup(_word_embeddings, word_ids, name="word_embeddings")

with tf.variable_scope("bi-lstm"):
    cell_fw = tf.contrib.rnn.LSTMCell(HIDDEN, initializer=tf.glorot_uniform_initializer(seed=2))
    cell_bw = tf.contrib.rnn.LSTMCell(HIDDEN, initializer=tf.glorot_uniform_initializer(seed=3))
    (output_fw, output_bw), _ = tf.nn.bidirectional_dynamic_rnn(
        cell_fw, cell_bw, word_embeddings, sequence_length=sequence_lengths, dtype=tf.float32
    )
    output = tf.concat([output_fw, output_bw], axis=-1)

with tf.variable_scope("proj"):
    W = tf.get_variable("W", shape=[2 * HIDDEN, NTAGS], initializer=tf.glorot_uniform_initializer(seed=4))
    b = tf.get_variable("b", shape=[NTAGS], initializer=tf.zeros_initializer())
    nsteps = tf.shape(output)[1]
    pred = tf.matmul(tf.reshape(output, [-1, 2 * HIDDEN]), W) + b
    logits = tf.reshape(pred, [-1, nsteps, NTAGS])

with tf.variable_scope("crf", initializer=tf.random_uniform_initializer(-0.3, 0.3, seed=5)):
    log_likelihood, trans_params = tf.contrib.crf.crf_log_likelihood(logits, labels, sequence_lengths)
loss = tf.reduce_mean(-log_likelihood)
viterbi_sequence, viterbi_score = tf.contrib.crf.crf_decode(logits, trans_params, sequence_lengths)

global_step = tf.train.get_or_create_global_step()
optimizer = tf.train.AdamOptimizer(0.05)
grads, vs = zip(*optimizer.compute_gradients(loss))
grads, gnorm = tf.clip_by_global_norm(grads, 1.0)
train_op = optimizer.apply_gradients(zip(grads, vs), global_step=global_step)
saver = tf.train.Saver()


def batch(step):
    rng = np.random.RandomState(100 + step)
    lengths = np.array([MAXLEN, 3, 1, 0, 4])
    words = rng.randint(0, NWORDS, size=(len(lengths), MAXLEN))
    tags = (words + np.arange(MAXLEN)) % NTAGS
    return {word_ids: words, sequence_lengths: lengths, labels: tags}


losses, norms = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        loss_value, norm_value, _ = sess.run([loss, gnorm, train_op], batch(step))
        losses.append(float(loss_value))
        norms.append(float(norm_value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    feed = batch(99)
    tags, scores, logit_values, trans = sess.run([viterbi_sequence, viterbi_score, logits, trans_params], feed)
    ll_values = sess.run(log_likelihood, feed)
numpy_paths, numpy_scores = [], []
for logit, length in zip(logit_values, feed[sequence_lengths]):
    if length:
        path, score = tf.contrib.crf.viterbi_decode(logit[:length], trans)
        numpy_paths.append(" ".join(str(p) for p in path))
        numpy_scores.append(float(score))
values.update(
    losses=losses,
    global_norms=norms,
    crf_decode_tags=tags.tolist(),
    crf_decode_scores=scores.tolist(),
    log_likelihood=ll_values.tolist(),
    viterbi_decode_paths=numpy_paths,
    viterbi_decode_scores=numpy_scores,
    transitions_name=trans_params.op.name,
    trainable_variables=sorted(v.op.name for v in tf.trainable_variables()),
)
oracle_io.write(out, values)
