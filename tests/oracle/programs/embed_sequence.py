"""A seq2seq-style embedding: tf.contrib.layers.embed_sequence shared by an encoder and a decoder.

The encoder makes ``embed/embeddings`` (with an L2 regularizer); the decoder reuses it with
``reuse=True`` and no sizes, through the ``unique=True`` lookup; a second, non-trainable table
comes from the default scope name. Records the variables' collections and the regularization loss.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
VOCAB, DIM = 7, 3

out, ckpt_dir, mode = oracle_io.parse_args()
src = tf.placeholder(tf.int32, [None, 5])
tgt = tf.placeholder(tf.int64, [None, 4])
table = np.linspace(-1.0, 1.0, VOCAB * DIM).reshape(VOCAB, DIM)
src_emb = tf.contrib.layers.embed_sequence(
    src,
    vocab_size=VOCAB,
    embed_dim=DIM,
    initializer=tf.constant_initializer(table),
    regularizer=tf.contrib.layers.l2_regularizer(0.01),
    scope="embed",
)
tgt_emb = tf.contrib.layers.embed_sequence(tgt, scope="embed", reuse=True, unique=True)
fixed_emb = tf.contrib.layers.embed_sequence(src, VOCAB, 2, initializer=tf.constant_initializer(0.5), trainable=False)
w = tf.get_variable("w", initializer=tf.constant(np.linspace(0.3, -0.3, DIM).reshape(DIM, 1), tf.float32))
encoded = tf.reduce_mean(src_emb, axis=1) + tf.reduce_sum(fixed_emb)
decoded = tf.reduce_mean(tgt_emb, axis=1)
reg_loss = tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
loss = tf.reduce_mean(tf.square(tf.matmul(encoded * decoded, w) - 1.0)) + reg_loss

global_step = tf.train.get_or_create_global_step()
train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=global_step)
saver = tf.train.Saver()


def batch(step):
    rng = np.random.RandomState(step)
    return {src: rng.randint(0, VOCAB, size=(4, 5)), tgt: rng.randint(0, VOCAB - 2, size=(4, 4))}


losses, reg = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        loss_value, reg_value, _ = sess.run([loss, reg_loss, train_op], batch(step))
        losses.append(float(loss_value))
        reg.append(float(reg_value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    embedded = sess.run({"src": src_emb, "tgt": tgt_emb, "fixed": fixed_emb}, batch(0))
    values.update(embedded=dict((k, v.tolist()) for k, v in embedded.items()))
values.update(
    losses=losses,
    regularization=reg,
    name_scopes=[t.name.split("/")[0] for t in (src_emb, tgt_emb, fixed_emb)],
    shapes=[t.shape.as_list() for t in (src_emb, tgt_emb, fixed_emb)],
    model_variables=sorted(v.op.name for v in tf.model_variables()),
    trainable_variables=sorted(v.op.name for v in tf.trainable_variables()),
    regularization_losses=[t.op.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)],
)
oracle_io.write(out, values)
