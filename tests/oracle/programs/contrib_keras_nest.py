"""A 2017 graph model built with ``tf.contrib.keras`` layers and ``tf.contrib.framework.nest``.

Variable-length token lists are padded with ``tf.contrib.keras.preprocessing.sequence.pad_sequences``; a
``tf.contrib.keras.layers`` stack (``Embedding``, ``GlobalAveragePooling1D``, ``Dense``, ``Dropout``) on a placeholder
makes the logits, trained with a ``tf.train`` optimizer in a Session, as TF 1.3 code did before ``tf.keras``. The
model's outputs travel as a nested dict that ``tf.contrib.framework.nest`` flattens and maps. Each of these TF 1.15
objects was ``tf.keras``' or ``tf.nest``' (tf1clip-upgrade: those names, with Keras 2 for the graph).
"""

import numpy as np
import tensorflow as tf

import oracle_io

keras = tf.contrib.keras
nest = tf.contrib.framework.nest
STEPS = 6
VOCAB, DIM, LENGTH = 9, 4, 5

out, ckpt_dir, mode = oracle_io.parse_args()
tokens = tf.placeholder(tf.int32, [None, LENGTH])
targets = tf.placeholder(tf.float32, [None, 1])
training = tf.placeholder_with_default(False, [])
embedding = keras.layers.Embedding(
    VOCAB, DIM, embeddings_initializer=keras.initializers.Constant(np.linspace(-1, 1, VOCAB * DIM).reshape(VOCAB, DIM))
)
pooled = keras.layers.GlobalAveragePooling1D()(embedding(tokens))
hidden = keras.layers.Dense(3, activation="tanh", kernel_initializer=tf.constant_initializer(0.3))(pooled)
hidden = keras.layers.Dropout(0.5)(hidden, training=training)
logits = keras.layers.Dense(1, kernel_initializer=tf.constant_initializer(-0.2), bias_initializer="zeros")(hidden)
outputs = {"logits": logits, "extra": [pooled, hidden]}
flat = nest.flatten(outputs)
means = nest.map_structure(tf.reduce_mean, outputs)
loss = tf.reduce_mean(keras.losses.mean_squared_error(targets, logits)) + 0.01 * tf.add_n(nest.flatten(means["extra"]))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=global_step)
saver = tf.train.Saver()


def batch(step):
    rng = np.random.RandomState(step)
    lists = [list(rng.randint(1, VOCAB, size=rng.randint(1, LENGTH + 2))) for _ in range(4)]
    padded = keras.preprocessing.sequence.pad_sequences(lists, maxlen=LENGTH, padding="post", truncating="pre")
    return {tokens: padded, targets: rng.randn(4, 1).astype(np.float32)}


losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        losses.append(float(sess.run([loss, train_op], batch(step))[0]))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    flat_values = sess.run(flat, batch(0))
values.update(
    losses=losses,
    padded=batch(1)[tokens].tolist(),
    flat=dict((str(i), np.asarray(v).tolist()) for i, v in enumerate(flat_values)),
    flat_names=[t.op.name.split("/")[0] for t in flat],
    packed=sorted(nest.pack_sequence_as(outputs, list(range(len(flat))))),
)
oracle_io.write(out, values)
