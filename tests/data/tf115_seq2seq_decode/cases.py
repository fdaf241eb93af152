"""Small decoders over tf.contrib.seq2seq, built the same way on TF 1.15 and on tf1clip.contrib.seq2seq.

Each builder takes ``tf`` and ``S`` (TF 1.15's ``tf.contrib.seq2seq`` or ``tf1clip.contrib.seq2seq``) and
returns ``(outputs, feed)``. ``run_case`` builds one case in a fresh graph; on TF 1.15 it initializes the
variables and saves a checkpoint, on tf1clip it restores it; it returns the outputs, the gradients of a fixed
weighted sum of the float outputs with respect to every trainable variable, and the variable names.
``TRAIN`` cases instead run three clipped Adam steps and return the losses and the variables after them.

The scheduled-sampling helpers and DropoutWrapper draw with random ops that do not depend on the loop's data, so
with parallel iterations their steps may draw in any order, on TF 1.15 as on TF 2: those cases decode with
``parallel_iterations=1``.

Runs on Python 3.7 (TF 1.15.5) and 3.11 (TF 2.15, 2.21).
"""

import numpy as np

B, T, V, E, H = 3, 5, 7, 4, 6  # batch, time, vocabulary, embedding depth, cell units
START, END = 1, 5


def _rng(name):
    return np.random.RandomState(sum(ord(c) for c in name) % 1000)


def _floats(tf, name, shape):
    value = _rng(name).uniform(-1.0, 1.0, size=shape).astype(np.float32)
    return tf.compat.v1.placeholder(tf.float32, shape, name=name), value


def _ints(tf, name, shape, high, low=0):
    value = _rng(name).randint(low, high, size=shape).astype(np.int32)
    return tf.compat.v1.placeholder(tf.int32, shape, name=name), value


def _cell(tf, kind="lstm", units=H):
    rnn_cell = tf.compat.v1.nn.rnn_cell
    return {"lstm": rnn_cell.LSTMCell, "gru": rnn_cell.GRUCell}[kind](units)


def _embedded_targets(tf, lengths=(5, 3, 4)):
    v1 = tf.compat.v1
    emb = v1.get_variable("embedding", [V, E])
    ids, idsv = _ints(tf, "ids", [B, T], V)
    lengths = np.asarray(lengths, np.int32)
    return emb, ids, idsv, v1.nn.embedding_lookup(emb, ids), lengths


def loss_reductions(tf, S):
    logits, lv = _floats(tf, "logits", [B, T, V])
    targets, tv = _ints(tf, "targets", [B, T], V)
    weights, wv = _floats(tf, "weights", [B, T])
    wv = np.where(wv > 0.3, 0.0, wv + 1.0).astype(np.float32)
    wv[1, :] = 0.0
    out = {"default": S.sequence_loss(logits, targets, weights)}
    for at in (False, True):
        for ab in (False, True):
            for st in (False, True):
                for sb in (False, True):
                    if (at and st) or (ab and sb) or (at and ab):
                        continue
                    out["r%d%d%d%d" % (at, ab, st, sb)] = S.sequence_loss(
                        logits,
                        targets,
                        weights,
                        average_across_timesteps=at,
                        average_across_batch=ab,
                        sum_over_timesteps=st,
                        sum_over_batch=sb,
                    )

    def hinge(labels, logits):
        return tf.reduce_sum(tf.nn.relu(logits - tf.one_hot(labels, V)), axis=-1)

    out["custom"] = S.sequence_loss(logits, targets, weights, softmax_loss_function=hinge, name="custom_loss")
    return out, {logits: lv, targets: tv, weights: wv}


def _basic(tf, S, helper, cell, initial_state, layer=None, **decode_kw):
    decoder = S.BasicDecoder(cell, helper, initial_state, output_layer=layer)
    return S.dynamic_decode(decoder, **decode_kw)


def train_and_greedy(tf, S):
    v1 = tf.compat.v1
    emb, ids, idsv, inputs, lengths = _embedded_targets(tf)
    cell = _cell(tf)
    layer = v1.layers.Dense(V, name="output_projection")
    init = cell.zero_state(B, tf.float32)
    helper = S.TrainingHelper(inputs, lengths)
    out, state, seq_len = _basic(tf, S, helper, cell, init, layer, impute_finished=True)
    loss = S.sequence_loss(out.rnn_output, ids, tf.sequence_mask(lengths, T, dtype=tf.float32))
    greedy = S.GreedyEmbeddingHelper(emb, tf.fill([B], START), END)
    g_out, g_state, g_len = _basic(tf, S, greedy, cell, init, layer, maximum_iterations=6, scope="decoder")
    result = {"rnn_output": out.rnn_output, "sample_id": out.sample_id, "c": state.c, "h": state.h}
    result.update({"len": seq_len, "loss": loss, "g_logits": g_out.rnn_output, "g_ids": g_out.sample_id})
    result.update({"g_len": g_len, "g_h": g_state.h})
    return result, {ids: idsv}


def time_major_gru(tf, S):
    x, xv = _floats(tf, "x", [T, B, E])
    cell = _cell(tf, "gru")
    helper = S.TrainingHelper(x, [5, 2, 0], time_major=True)
    out, state, seq_len = _basic(
        tf, S, helper, cell, cell.zero_state(B, tf.float32), output_time_major=True, scope="dec"
    )
    out2, state2, len2 = _basic(tf, S, S.TrainingHelper(x, [5, 2, 0], time_major=True), cell, state, scope="dec2")
    return {"out": out.rnn_output, "ids": out.sample_id, "st": state, "len": seq_len, "out2": out2.rnn_output}, {x: xv}


def multi_dropout(tf, S):
    rnn_cell = tf.compat.v1.nn.rnn_cell
    emb, ids, idsv, inputs, lengths = _embedded_targets(tf)
    cells = [rnn_cell.DropoutWrapper(_cell(tf), output_keep_prob=0.8, seed=7), _cell(tf, "gru", V)]
    cell = rnn_cell.MultiRNNCell(cells)
    init = cell.zero_state(B, tf.float32)
    out, state, seq_len = _basic(tf, S, S.TrainingHelper(inputs, lengths), cell, init, parallel_iterations=1)
    greedy = S.GreedyEmbeddingHelper(lambda i: tf.nn.embedding_lookup(emb, i), tf.fill([B], START), END)
    with tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope(), reuse=True):
        g_out, g_state, g_len = _basic(
            tf, S, greedy, cell, init, maximum_iterations=4, impute_finished=True, parallel_iterations=1
        )
    return {"out": out.rnn_output, "st1": state[1], "g_out": g_out.rnn_output, "g_ids": g_out.sample_id}, {ids: idsv}


def _beam(tf, S, width, **kw):
    v1 = tf.compat.v1
    emb = v1.get_variable("embedding", [V, E])
    enc, encv = _floats(tf, "enc", [B, H])
    cell = _cell(tf)
    layer = v1.layers.Dense(V, name="output_projection")
    init = cell.zero_state(B * width, tf.float32)
    init = init._replace(h=S.tile_batch(enc, width))
    decode_kw = {k: kw.pop(k) for k in list(kw) if k in ("output_time_major", "maximum_iterations")}
    decoder = S.BeamSearchDecoder(cell, emb, tf.fill([B], START), END, init, width, output_layer=layer, **kw)
    out, state, seq_len = S.dynamic_decode(decoder, **decode_kw)
    result = {"ids": out.predicted_ids, "scores": out.beam_search_decoder_output.scores}
    result.update({"parents": out.beam_search_decoder_output.parent_ids, "raw": out.beam_search_decoder_output})
    result.update({"log_probs": state.log_probs, "lengths": state.lengths, "finished": state.finished})
    result.update({"h": state.cell_state.h, "len": seq_len})
    del result["raw"]
    return result, {enc: encv}


def beam_search(tf, S):
    return _beam(tf, S, 3, maximum_iterations=7)


def beam_length_penalty(tf, S):
    return _beam(tf, S, 4, maximum_iterations=6, length_penalty_weight=0.8, output_time_major=True)


def beam_width_one(tf, S):
    return _beam(tf, S, 1, maximum_iterations=5, length_penalty_weight=0.3)


def beam_attention_coverage(tf, S):
    v1 = tf.compat.v1
    width = 3
    emb = v1.get_variable("embedding", [V, E])
    memory, mv = _floats(tf, "memory", [B, 4, H])
    memory_length = np.asarray([4, 2, 3], np.int32)
    tiled_memory, tiled_length = S.tile_batch((memory, memory_length), width)
    mechanism = S.BahdanauAttention(H, tiled_memory, memory_sequence_length=tiled_length)
    cell = S.AttentionWrapper(_cell(tf), mechanism, attention_layer_size=H, alignment_history=True)
    init = cell.zero_state(B * width, tf.float32)
    decoder = S.BeamSearchDecoder(
        cell,
        emb,
        tf.fill([B], START),
        END,
        init,
        width,
        output_layer=v1.layers.Dense(V, name="output_projection"),
        length_penalty_weight=0.5,
        coverage_penalty_weight=0.4,
    )
    out, state, seq_len = S.dynamic_decode(decoder, maximum_iterations=6)
    result = {"ids": out.predicted_ids, "scores": out.beam_search_decoder_output.scores, "len": seq_len}
    history = state.cell_state.alignment_history
    history = history.stack() if isinstance(history, tf.TensorArray) else history  # TF 1.15 did not reorder it
    result.update({"history": history, "coverage": state.accumulated_attention_probs})
    result.update({"log_probs": state.log_probs, "attention": state.cell_state.attention})
    return result, {memory: mv}


def gather_trees(tf, S):
    step, sv = _ints(tf, "step", [6, 2, 3], 5)
    parent, pv = _ints(tf, "parent", [6, 2, 3], 3)
    out = {}
    for name, lengths, end in (("a", [6, 4], 4), ("b", [9, 0], 1), ("c", [3, 5], 0), ("d", [1, 2], 3)):
        out[name] = S.gather_tree(step, parent, np.asarray(lengths, np.int32), end)
    out["edge"] = S.gather_tree(step, tf.fill(tf.shape(parent), 3), np.asarray([6, 4], np.int32), 9)
    tiled = S.tile_batch({"x": tf.reshape(tf.range(6.0), [2, 3]), "y": tf.constant([[1, 2]])}, 3)
    out.update({"tiled_x": tiled["x"], "tiled_y": tiled["y"]})
    return out, {step: sv, parent: pv}


def sampling_helpers(tf, S):
    v1 = tf.compat.v1
    emb, ids, idsv, inputs, lengths = _embedded_targets(tf)
    cell = _cell(tf, "gru", V)
    init = cell.zero_state(B, tf.float32)
    sample = S.SampleEmbeddingHelper(emb, tf.fill([B], START), END, softmax_temperature=0.5, seed=11)
    s_out, _, s_len = _basic(tf, S, sample, cell, init, maximum_iterations=6)
    reuse = v1.variable_scope(v1.get_variable_scope(), reuse=True)
    with reuse:
        sched = S.ScheduledEmbeddingTrainingHelper(inputs, lengths, emb, 0.5, seed=3, scheduling_seed=4)
        e_out, _, e_len = _basic(tf, S, sched, cell, init, parallel_iterations=1)
        o_helper = S.ScheduledOutputTrainingHelper(
            tf.concat([inputs, inputs[:, :, :3]], -1), lengths, tf.constant(0.6), seed=5
        )
    o_out, _, _ = _basic(tf, S, o_helper, _cell(tf, "gru", V), init, scope="sched_out", parallel_iterations=1)
    result = {"s_ids": s_out.sample_id, "s_out": s_out.rnn_output, "s_len": s_len}
    result.update({"e_ids": e_out.sample_id, "e_out": e_out.rnn_output, "e_len": e_len})
    result.update({"o_ids": o_out.sample_id, "o_out": o_out.rnn_output})
    return result, {ids: idsv}


def output_sampling_aux(tf, S):
    x, xv = _floats(tf, "x", [B, T, 3])
    aux, av = _floats(tf, "aux", [B, T, 2])
    cell = _cell(tf, "lstm", 3)
    init = cell.zero_state(B, tf.float32)
    helper = S.ScheduledOutputTrainingHelper(
        x, [5, 4, 2], 0.7, seed=9, next_inputs_fn=tf.tanh, auxiliary_inputs=aux, name="sched"
    )
    out, state, seq_len = _basic(tf, S, helper, cell, init, impute_finished=True, parallel_iterations=1)
    helper2 = S.ScheduledOutputTrainingHelper(x, [5, 4, 2], 0.5, seed=8, auxiliary_inputs=aux)
    cell2 = _cell(tf, "lstm", 3)
    out2, _, _ = _basic(tf, S, helper2, cell2, init, scope="second", parallel_iterations=1)
    return {"out": out.rnn_output, "ids": out.sample_id, "st": state.c, "out2": out2.rnn_output}, {x: xv, aux: av}


def inference_custom(tf, S):
    x, xv = _floats(tf, "x", [B, E])
    cell = _cell(tf, "lstm", E)
    init = cell.zero_state(B, tf.float32)
    helper = S.InferenceHelper(
        sample_fn=lambda outputs: outputs,
        sample_shape=[E],
        sample_dtype=tf.float32,
        start_inputs=x,
        end_fn=lambda sample_ids: tf.reduce_sum(sample_ids, -1) > 0.05,
        next_inputs_fn=lambda s: s * 2.0,
    )
    out, state, seq_len = _basic(tf, S, helper, cell, init, maximum_iterations=5, scope="inf")

    def initialize_fn():
        return tf.constant([False, False, True]), x

    def sample_fn(time, outputs, state):
        return tf.argmax(outputs, -1, output_type=tf.int32)

    def next_inputs_fn(time, outputs, state, sample_ids):
        return time + 1 >= tf.constant([2, 4, 1]), outputs + 1.0, state

    custom = S.CustomHelper(initialize_fn, sample_fn, next_inputs_fn)
    c_out, c_state, c_len = _basic(tf, S, custom, cell, init, impute_finished=True, scope="custom")
    result = {"out": out.rnn_output, "ids": out.sample_id, "len": seq_len, "c_out": c_out.rnn_output}
    result.update({"c_ids": c_out.sample_id, "c_len": c_len, "c_h": c_state.h})
    return result, {x: xv}


CASES = [
    "loss_reductions",
    "train_and_greedy",
    "time_major_gru",
    "multi_dropout",
    "beam_search",
    "beam_length_penalty",
    "beam_width_one",
    "beam_attention_coverage",
    "gather_trees",
    "sampling_helpers",
    "output_sampling_aux",
    "inference_custom",
]


def _weighted_sum(tf, outputs):
    loss = 0.0
    for key in sorted(outputs):
        t = outputs[key]
        if t.dtype != tf.float32:
            continue
        shape = tf.shape(t)
        coeff = tf.cos(tf.cast(tf.range(tf.size(t)) + len(key), tf.float32))
        loss += tf.reduce_sum(t * tf.reshape(coeff, shape))
    return loss


def _flat(outputs):
    flat = {}
    for key, value in outputs.items():
        if isinstance(value, tuple):
            for i, item in enumerate(value):
                flat["%s.%d" % (key, i)] = item
        else:
            flat[key] = value
    return flat


def run_case(tf, S, name, checkpoint, save):
    """Builds case ``name``; saves (``save=True``) or restores ``checkpoint``; returns values and gradients."""
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        v1.get_variable_scope().set_initializer(v1.random_uniform_initializer(-0.6, 0.6, seed=3))
        outputs, feed = globals()[name](tf, S)
        outputs = _flat(outputs)
        keys = sorted(outputs)
        variables = v1.trainable_variables()
        loss = _weighted_sum(tf, outputs)
        grads = [] if isinstance(loss, float) else tf.gradients(loss, variables)
        grads = [tf.convert_to_tensor(g) if g is not None else tf.constant(0.0) for g in grads]
        result = {"outputs": {}, "grads": {}, "variables": sorted(v.op.name for v in v1.global_variables())}
        with v1.Session() as sess:
            if result["variables"]:
                saver = v1.train.Saver(v1.global_variables())
                if save:
                    sess.run(v1.global_variables_initializer())
                    saver.save(sess, checkpoint, write_meta_graph=False, write_state=False)
                else:
                    saver.restore(sess, checkpoint)
            values = sess.run([outputs[k] for k in keys] + grads, feed)
        for key, value in zip(keys, values[: len(keys)]):
            result["outputs"][key] = _round(value)
        for var, value in zip(variables, values[len(keys) :]):
            result["grads"][var.op.name] = _round(value)
        return result


def train_program(tf, S, clip):
    """An NMT-style training graph: ``(train_op, loss, feed)``; ``clip(optimizer, loss)`` makes the train op."""
    v1 = tf.compat.v1
    emb, ids, idsv, inputs, lengths = _embedded_targets(tf)
    src, srcv = _floats(tf, "src", [B, T, E])
    enc_out, enc_state = v1.nn.dynamic_rnn(_cell(tf), src, dtype=tf.float32, scope="encoder")
    cell = _cell(tf)
    layer = v1.layers.Dense(V, use_bias=False, name="output_projection")
    out, _, _ = _basic(tf, S, S.TrainingHelper(inputs, lengths), cell, enc_state, layer)
    loss = S.sequence_loss(out.rnn_output, ids, tf.sequence_mask(lengths, T, dtype=tf.float32))
    return clip(v1.train.AdamOptimizer(0.05), loss), loss, {ids: idsv, src: srcv}


def clip_global_norm(tf):
    def make(optimizer, loss):
        grads, variables = zip(*optimizer.compute_gradients(loss))
        clipped, _ = tf.clip_by_global_norm(grads, 0.5)
        return optimizer.apply_gradients(zip(clipped, variables))

    return make


def run_training(tf, S, clip, checkpoint, save, steps=3):
    """``{"losses": [...], "values": {variable: value}}`` after ``steps`` clipped Adam steps."""
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        v1.get_variable_scope().set_initializer(v1.random_uniform_initializer(-0.6, 0.6, seed=3))
        train_op, loss, feed = train_program(tf, S, clip)
        saver = v1.train.Saver(v1.trainable_variables())
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            if save:
                saver.save(sess, checkpoint, write_meta_graph=False, write_state=False)
            else:
                saver.restore(sess, checkpoint)
            losses = [float(sess.run([train_op, loss], feed)[1]) for _ in range(steps)]
            values = sess.run({v.op.name: v for v in v1.global_variables()})
        return {"losses": _round(losses), "values": {k: _round(v) for k, v in values.items()}}


def _round(value):
    """Values as nested lists of floats (8 significant digits) or ints."""
    value = np.asarray(value)
    if value.dtype.kind in "iub":
        return value.astype(np.int64).tolist()
    return np.vectorize(lambda x: float("%.8g" % x), otypes=[np.float64])(np.asarray(value, np.float64)).tolist()
