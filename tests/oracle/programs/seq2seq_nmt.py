"""An attention NMT model in the style of 2017-2019 tf.contrib.seq2seq code (tensorflow/nmt, tutorials).

An LSTM encoder over source embeddings; a decoder LSTM in an ``AttentionWrapper`` with normalized
``BahdanauAttention`` (alignment history), trained with ``TrainingHelper`` + ``BasicDecoder`` + a Dense output
projection, ``sequence_loss`` over a ``sequence_mask``, ``tf.clip_by_global_norm`` and Adam. A greedy
(``GreedyEmbeddingHelper``) and a beam-search (``BeamSearchDecoder`` over ``tile_batch``-ed memory and state, length
and coverage penalties) inference decoder share the trained variables through ``reuse=True``. Records the losses,
global norms, the variables and both decoders' outputs on a fixed batch.

Adam's epsilon is 1e-6: the attention bias's gradients are about 1e-7 (a softmax does not see a shift), and with
the default 1e-8 Adam turns their last-bit differences (TF 2's kernels sum in another order) into 4e-4 relative
differences of the bias.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
SRC_VOCAB, TGT_VOCAB, EMBED, UNITS, BATCH, SRC_LEN, TGT_LEN, BEAM = 9, 8, 4, 6, 3, 5, 4, 3
GO, EOS = 1, 2

out, ckpt_dir, mode = oracle_io.parse_args()
source = tf.placeholder(tf.int32, [BATCH, SRC_LEN], name="source")
source_length = tf.placeholder(tf.int32, [BATCH], name="source_length")
target_in = tf.placeholder(tf.int32, [BATCH, TGT_LEN], name="target_in")
target_out = tf.placeholder(tf.int32, [BATCH, TGT_LEN], name="target_out")
target_length = tf.placeholder(tf.int32, [BATCH], name="target_length")


def decoder_cell(memory, memory_length, encoder_state, batch_size, alignment_history):
    mechanism = tf.contrib.seq2seq.BahdanauAttention(
        UNITS, memory, memory_sequence_length=memory_length, normalize=True
    )
    cell = tf.contrib.seq2seq.AttentionWrapper(
        tf.nn.rnn_cell.LSTMCell(UNITS),
        mechanism,
        attention_layer_size=UNITS,
        alignment_history=alignment_history,
    )
    initial_state = cell.zero_state(batch_size, tf.float32).clone(cell_state=encoder_state)
    return cell, initial_state


with tf.variable_scope("nmt", initializer=tf.random_uniform_initializer(-0.4, 0.4, seed=11)):
    with tf.variable_scope("embeddings"):
        encoder_embedding = tf.get_variable("encoder", [SRC_VOCAB, EMBED])
        decoder_embedding = tf.get_variable("decoder", [TGT_VOCAB, EMBED])
    with tf.variable_scope("encoder"):
        encoder_inputs = tf.nn.embedding_lookup(encoder_embedding, source)
        encoder_outputs, encoder_state = tf.nn.dynamic_rnn(
            tf.nn.rnn_cell.LSTMCell(UNITS), encoder_inputs, sequence_length=source_length, dtype=tf.float32
        )
    projection = tf.layers.Dense(TGT_VOCAB, use_bias=False, name="output_projection")

    with tf.variable_scope("decoder") as decoder_scope:
        cell, initial_state = decoder_cell(encoder_outputs, source_length, encoder_state, BATCH, True)
        helper = tf.contrib.seq2seq.TrainingHelper(tf.nn.embedding_lookup(decoder_embedding, target_in), target_length)
        decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, initial_state, output_layer=projection)
        outputs, final_state, _ = tf.contrib.seq2seq.dynamic_decode(decoder, impute_finished=True, scope=decoder_scope)
    logits = outputs.rnn_output
    weights = tf.sequence_mask(target_length, tf.shape(logits)[1], dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(logits, target_out[:, : tf.shape(logits)[1]], weights)
    alignments = final_state.alignment_history.stack()

    global_step = tf.train.get_or_create_global_step()
    params = tf.trainable_variables()
    gradients = tf.gradients(loss, params)
    clipped, global_norm = tf.clip_by_global_norm(gradients, 1.0)
    train_op = tf.train.AdamOptimizer(0.02, epsilon=1e-6).apply_gradients(zip(clipped, params), global_step=global_step)

    with tf.variable_scope("decoder", reuse=True) as decoder_scope:
        cell, initial_state = decoder_cell(encoder_outputs, source_length, encoder_state, BATCH, False)
        greedy_helper = tf.contrib.seq2seq.GreedyEmbeddingHelper(decoder_embedding, tf.fill([BATCH], GO), EOS)
        greedy_decoder = tf.contrib.seq2seq.BasicDecoder(cell, greedy_helper, initial_state, output_layer=projection)
        greedy, _, greedy_length = tf.contrib.seq2seq.dynamic_decode(
            greedy_decoder, maximum_iterations=2 * SRC_LEN, scope=decoder_scope
        )

    with tf.variable_scope("decoder", reuse=True) as decoder_scope:
        tiled_memory = tf.contrib.seq2seq.tile_batch(encoder_outputs, multiplier=BEAM)
        tiled_length = tf.contrib.seq2seq.tile_batch(source_length, multiplier=BEAM)
        tiled_state = tf.contrib.seq2seq.tile_batch(encoder_state, multiplier=BEAM)
        cell, initial_state = decoder_cell(tiled_memory, tiled_length, tiled_state, BATCH * BEAM, False)
        beam_decoder = tf.contrib.seq2seq.BeamSearchDecoder(
            cell,
            decoder_embedding,
            tf.fill([BATCH], GO),
            EOS,
            initial_state,
            BEAM,
            output_layer=projection,
            length_penalty_weight=0.6,
            coverage_penalty_weight=0.2,
        )
        beam, beam_state, beam_length = tf.contrib.seq2seq.dynamic_decode(
            beam_decoder, maximum_iterations=2 * SRC_LEN, scope=decoder_scope
        )

saver = tf.train.Saver()


def batch(step):
    rng = np.random.RandomState(step)
    src_len = rng.randint(2, SRC_LEN + 1, size=BATCH)
    src_len[0] = SRC_LEN
    tgt_len = rng.randint(1, TGT_LEN + 1, size=BATCH)
    tgt_len[1] = TGT_LEN
    tgt = rng.randint(3, TGT_VOCAB, size=(BATCH, TGT_LEN + 1))
    tgt[:, 0] = GO
    for i, n in enumerate(tgt_len):
        tgt[i, n] = EOS
    return {
        source: rng.randint(3, SRC_VOCAB, size=(BATCH, SRC_LEN)),
        source_length: src_len,
        target_in: tgt[:, :-1],
        target_out: tgt[:, 1:],
        target_length: tgt_len,
    }


losses, norms = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        loss_value, norm_value, _ = sess.run([loss, global_norm, train_op], batch(step))
        losses.append(float(loss_value))
        norms.append(float(norm_value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    decoded = sess.run(
        {
            "train_logits": logits,
            "alignments": alignments,
            "greedy_ids": greedy.sample_id,
            "greedy_logits": greedy.rnn_output,
            "greedy_length": greedy_length,
            "beam_ids": beam.predicted_ids,
            "beam_scores": beam.beam_search_decoder_output.scores,
            "beam_log_probs": beam_state.log_probs,
            "beam_length": beam_length,
        },
        batch(100),
    )
    values.update(decoded=dict((k, v.tolist()) for k, v in decoded.items()))
values.update(
    losses=losses,
    global_norms=norms,
    trainable_variables=sorted(v.op.name for v in tf.trainable_variables()),
)
oracle_io.write(out, values)
