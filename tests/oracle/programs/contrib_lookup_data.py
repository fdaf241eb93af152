"""A 2018 input pipeline: ``tf.contrib.lookup`` vocabulary tables and ``tf.contrib.data`` transformations.

Words become ids through ``tf.contrib.lookup.index_table_from_tensor`` (with out-of-vocabulary buckets) inside
the dataset's map function; training batches come from ``tf.contrib.data.batch_and_drop_remainder`` over a
repeated dataset, evaluation batches from ``map_and_batch`` (imported from ``tensorflow.contrib.data``), both
through one reinitializable ``tf.data.Iterator``; ids go back to words with
``index_to_string_table_from_tensor``. A resumed run replays the first half's batches.
"""

import numpy as np
import tensorflow as tf
from tensorflow.contrib.data import map_and_batch

import oracle_io

STEPS = 6
VOCAB = ["the", "cat", "sat", "on", "mat", "dog"]
WORDS = ["the", "cat", "sat", "on", "the", "mat", "a", "dog", "ran", "cat", "on", "mat", "dog", "sat"]
LABELS = np.linspace(-1.0, 1.0, len(WORDS)).astype(np.float32)

out, ckpt_dir, mode = oracle_io.parse_args()
table = tf.contrib.lookup.index_table_from_tensor(mapping=tf.constant(VOCAB), num_oov_buckets=2, default_value=-1)
to_word = tf.contrib.lookup.index_to_string_table_from_tensor(mapping=VOCAB, default_value="<unk>")


def to_ids(word, label):
    return table.lookup(word), label


examples = tf.data.Dataset.from_tensor_slices((tf.constant(WORDS), LABELS))
train = examples.map(to_ids).repeat().apply(tf.contrib.data.batch_and_drop_remainder(4))
evaluation = examples.apply(map_and_batch(to_ids, 5))
iterator = tf.data.Iterator.from_structure(evaluation.output_types, evaluation.output_shapes)
train_init, eval_init = iterator.make_initializer(train), iterator.make_initializer(evaluation)
ids, labels = iterator.get_next()

embedding_init = np.linspace(-0.6, 0.6, 8 * 3).reshape(8, 3).astype(np.float32)
embeddings = tf.get_variable("embeddings", initializer=tf.constant(embedding_init))
w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.2))
prediction = tf.squeeze(tf.matmul(tf.nn.embedding_lookup(embeddings, ids), w), 1)
loss = tf.reduce_mean(tf.square(prediction - labels))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=global_step)
words_back = to_word.lookup(tf.minimum(ids, len(VOCAB)))
saver = tf.train.Saver()

losses = []
start, stop = oracle_io.step_range(mode, STEPS)
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    sess.run(train_init)
    for step in range(stop):
        if step < start:
            sess.run(ids)
            continue
        losses.append(float(sess.run([train_op, loss])[1]))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    sess.run(eval_init)
    eval_ids, eval_words = [], []
    for _ in range(3):
        batch_ids, batch_words = sess.run([ids, words_back])
        eval_ids.append(batch_ids.tolist())
        eval_words.append([word.decode() for word in batch_words])
values.update(losses=losses, eval_ids=eval_ids, eval_words=eval_words)
oracle_io.write(out, values)
