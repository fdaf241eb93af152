"""An attention seq2seq model in the style of 2017-2019 tf.contrib.seq2seq code (tensorflow/nmt, tutorials):
an embedding + LSTM encoder; a decoder LSTM in an ``AttentionWrapper`` with normalized ``BahdanauAttention``,
trained with ``TrainingHelper`` + ``BasicDecoder`` (Dense output projection) + ``dynamic_decode``,
``sequence_loss``, ``tf.clip_by_global_norm`` and Adam; a greedy (``GreedyEmbeddingHelper``) and a beam-search
(``BeamSearchDecoder``, beam 4, ``tile_batch``-ed memory) decoder share the variables.

``seq2seq_attention.py OUT.json train|greedy|beam`` times one training step, one greedy or one beam-search
decode of a batch (the same graph, the variant picks the fetch). The weights are random, so decoding
rarely stops early: both decoders run their ``maximum_iterations``.
"""

import numpy as np
import tensorflow as tf

import bench_io

SRC_VOCAB, TGT_VOCAB, EMBED, UNITS, BATCH, SRC_LEN, TGT_LEN, BEAM = 1000, 1000, 64, 128, 32, 16, 16, 4
MAX_DECODE = 20
GO, EOS = 1, 2

out, variant = bench_io.parse_args()[0], bench_io.variant()
source = tf.placeholder(tf.int32, [BATCH, SRC_LEN], name="source")
source_length = tf.placeholder(tf.int32, [BATCH], name="source_length")
target_in = tf.placeholder(tf.int32, [BATCH, TGT_LEN], name="target_in")
target_out = tf.placeholder(tf.int32, [BATCH, TGT_LEN], name="target_out")
target_length = tf.placeholder(tf.int32, [BATCH], name="target_length")


def decoder_cell(memory, memory_length, encoder_state, batch_size):
    mechanism = tf.contrib.seq2seq.BahdanauAttention(
        UNITS, memory, memory_sequence_length=memory_length, normalize=True
    )
    cell = tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.LSTMCell(UNITS), mechanism, attention_layer_size=UNITS)
    return cell, cell.zero_state(batch_size, tf.float32).clone(cell_state=encoder_state)


with tf.variable_scope("nmt", initializer=tf.random_uniform_initializer(-0.1, 0.1, seed=11)):
    encoder_embedding = tf.get_variable("encoder_embedding", [SRC_VOCAB, EMBED])
    decoder_embedding = tf.get_variable("decoder_embedding", [TGT_VOCAB, EMBED])
    with tf.variable_scope("encoder"):
        encoder_outputs, encoder_state = tf.nn.dynamic_rnn(
            tf.nn.rnn_cell.LSTMCell(UNITS),
            tf.nn.embedding_lookup(encoder_embedding, source),
            sequence_length=source_length,
            dtype=tf.float32,
        )
    projection = tf.layers.Dense(TGT_VOCAB, use_bias=False, name="output_projection")

    with tf.variable_scope("decoder") as scope:
        cell, initial_state = decoder_cell(encoder_outputs, source_length, encoder_state, BATCH)
        helper = tf.contrib.seq2seq.TrainingHelper(tf.nn.embedding_lookup(decoder_embedding, target_in), target_length)
        decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, initial_state, output_layer=projection)
        outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(decoder, impute_finished=True, scope=scope)
    logits = outputs.rnn_output
    weights = tf.sequence_mask(target_length, tf.shape(logits)[1], dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(logits, target_out[:, : tf.shape(logits)[1]], weights)
    params = tf.trainable_variables()
    clipped, _ = tf.clip_by_global_norm(tf.gradients(loss, params), 5.0)
    train_op = tf.train.AdamOptimizer(1e-3).apply_gradients(
        zip(clipped, params), global_step=tf.train.get_or_create_global_step()
    )

    with tf.variable_scope("decoder", reuse=True) as scope:
        cell, initial_state = decoder_cell(encoder_outputs, source_length, encoder_state, BATCH)
        greedy_helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(decoder_embedding, tf.fill([BATCH], GO), EOS)
        greedy_decoder = tf.contrib.seq2seq.BasicDecoder(cell, greedy_helper, initial_state, output_layer=projection)
        greedy, _, _ = tf.contrib.seq2seq.dynamic_decode(greedy_decoder, maximum_iterations=MAX_DECODE, scope=scope)

    with tf.variable_scope("decoder", reuse=True) as scope:
        cell, initial_state = decoder_cell(
            tf.contrib.seq2seq.tile_batch(encoder_outputs, multiplier=BEAM),
            tf.contrib.seq2seq.tile_batch(source_length, multiplier=BEAM),
            tf.contrib.seq2seq.tile_batch(encoder_state, multiplier=BEAM),
            BATCH * BEAM,
        )
        beam_decoder = tf.contrib.seq2seq.BeamSearchDecoder(
            cell, decoder_embedding, tf.fill([BATCH], GO), EOS, initial_state, BEAM, output_layer=projection
        )
        beam, _, _ = tf.contrib.seq2seq.dynamic_decode(beam_decoder, maximum_iterations=MAX_DECODE, scope=scope)

fetch = {"train": train_op, "greedy": greedy.sample_id, "beam": beam.predicted_ids}[variant]


def make_batch(seed):
    rng = np.random.RandomState(seed)
    tgt = rng.randint(3, TGT_VOCAB, size=(BATCH, TGT_LEN + 1))
    tgt[:, 0] = GO
    return {
        source: rng.randint(3, SRC_VOCAB, size=(BATCH, SRC_LEN)),
        source_length: rng.randint(SRC_LEN // 2, SRC_LEN + 1, size=BATCH),
        target_in: tgt[:, :-1],
        target_out: tgt[:, 1:],
        target_length: rng.randint(TGT_LEN // 2, TGT_LEN + 1, size=BATCH),
    }


batches = [make_batch(i) for i in range(8)]
with tf.Session(config=bench_io.config()) as sess:
    sess.run(tf.global_variables_initializer())
    times = bench_io.time_steps(sess, fetch, lambda step: batches[step % 8])
bench_io.write(out, times)
