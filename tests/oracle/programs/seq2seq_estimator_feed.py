"""A sequence-to-sequence Estimator in the style of 2017 blog and tutorial code: placeholders fed by a
``tf.train.FeedFnHook``, ``tf.contrib.layers.embed_sequence`` for source and target sharing one ``embed`` scope, a
GRU encoder, ``BahdanauAttention`` + ``AttentionWrapper`` with ``attention_layer_size=UNITS / 2`` (a float under
Python 3, which TF 1.15 took as a size), ``OutputProjectionWrapper``, a ``TrainingHelper`` decoder and a greedy one
sharing its variables, ``sequence_loss`` and ``optimize_loss`` with Adam. Seeded only by
``RunConfig(tf_random_seed=...)``: its initial values come from TF 1.15's op seeds. Records the ``loss`` summaries
and the variables; the second half resumes from the model_dir.
"""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
VOCAB, EMBED, UNITS, BATCH, MAX_LEN = 12, 4, 6, 4, 5
GO, EOS = 0, 1

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
model_dir = ckpt_dir or tempfile.mkdtemp()


def model_fn(features, labels, mode, params):
    source, target = features["source"], features["target"]
    batch_size = tf.shape(source)[0]
    go = tf.zeros([batch_size], dtype=tf.int64) + GO
    decoder_in = tf.concat([tf.expand_dims(go, 1), target[:, :-1]], 1)
    source_len = tf.reduce_sum(tf.to_int32(tf.not_equal(source, EOS)), 1) + 1
    target_len = tf.reduce_sum(tf.to_int32(tf.not_equal(target, EOS)), 1) + 1
    source_emb = tf.contrib.layers.embed_sequence(source, VOCAB, EMBED, scope="embed")
    target_emb = tf.contrib.layers.embed_sequence(decoder_in, VOCAB, EMBED, scope="embed", reuse=True)
    with tf.variable_scope("embed", reuse=True):
        embeddings = tf.get_variable("embeddings")
    encoder_out, _ = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUCell(UNITS), source_emb, source_len, dtype=tf.float32)

    def decode(helper, reuse=None):
        with tf.variable_scope("decode", reuse=reuse):
            attention = tf.contrib.seq2seq.BahdanauAttention(UNITS, encoder_out, memory_sequence_length=source_len)
            cell = tf.contrib.seq2seq.AttentionWrapper(
                tf.contrib.rnn.GRUCell(UNITS), attention, attention_layer_size=UNITS / 2
            )
            cell = tf.contrib.rnn.OutputProjectionWrapper(cell, VOCAB, reuse=reuse)
            decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, cell.zero_state(batch_size, tf.float32))
            outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(decoder, impute_finished=True, maximum_iterations=MAX_LEN)
            return outputs

    train_out = decode(tf.contrib.seq2seq.TrainingHelper(target_emb, target_len))
    greedy_out = decode(tf.contrib.seq2seq.GreedyEmbeddingHelper(embeddings, tf.to_int32(go), EOS), reuse=True)
    steps = tf.shape(train_out.rnn_output)[1]
    weights = tf.sequence_mask(target_len, steps, dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(train_out.rnn_output, target[:, :steps], weights)
    train_op = tf.contrib.layers.optimize_loss(
        loss, tf.train.get_global_step(), params["learning_rate"], "Adam", summaries=["loss"]
    )
    return tf.estimator.EstimatorSpec(mode, predictions=greedy_out.sample_id, loss=loss, train_op=train_op)


def input_fn():
    source = tf.placeholder(tf.int64, [None, None], name="source")
    target = tf.placeholder(tf.int64, [None, None], name="target")
    return {"source": source, "target": target}, None


def batches(first):
    """Feeds of reversed random token sequences, padded with EOS; the step ``first`` first."""
    step = first
    while True:
        rng = np.random.RandomState(step)
        source = np.full([BATCH, MAX_LEN], EOS, np.int64)
        target = np.full([BATCH, MAX_LEN], EOS, np.int64)
        for row in range(BATCH):
            words = rng.randint(2, VOCAB, rng.randint(2, MAX_LEN))
            source[row, : len(words)] = words
            target[row, : len(words)] = words[::-1]
        yield {"source:0": source, "target:0": target}
        step += 1


config = tf.estimator.RunConfig(
    tf_random_seed=17, save_summary_steps=1, save_checkpoints_steps=None, save_checkpoints_secs=3600
)
estimator = tf.estimator.Estimator(model_fn, model_dir, config=config, params={"learning_rate": 0.05})
feeds = batches(start)
estimator.train(input_fn, hooks=[tf.train.FeedFnHook(lambda: next(feeds))], steps=stop - start)

losses = {}
for path in tf.gfile.Glob(os.path.join(model_dir, "events.out.tfevents.*")):
    for event in tf.train.summary_iterator(path):
        for value in event.summary.value:
            if value.tag.endswith("loss") and event.step > start:
                losses[event.step] = value.simple_value
values = dict(
    (name, np.asarray(estimator.get_variable_value(name)).tolist()) for name in estimator.get_variable_names()
)
values.update(losses=[losses[step] for step in sorted(losses)], loss_steps=sorted(losses))
if ckpt_dir is None:
    shutil.rmtree(model_dir)
oracle_io.write(out, values)
