"""Small models over tf.contrib.rnn / legacy_seq2seq / cudnn_rnn, built the same way on TF 1.15 and on tf1clip.

Each builder takes ``M`` (a namespace: ``rnn``, ``seq2seq``, ``cudnn``: TF 1.15's contrib modules, or
tf1clip.contrib's) and returns ``(outputs, feed)``: a dict of output tensors and a feed dict. ``run_case``
builds one case in a fresh graph; on TF 1.15 it initializes the variables (seeded) and saves a checkpoint, on
tf1clip it restores that checkpoint; it returns the outputs and the gradients of a fixed weighted sum of the
outputs with respect to every trainable variable (by name) and every float input.

Runs on Python 3.7 (TF 1.15.5) and 3.11 (TF 2.15, 2.21).
"""

import copy

import numpy as np

B, T, D = 2, 3, 4  # batch, time, input depth


def _rng(name):
    return np.random.RandomState(sum(ord(c) for c in name) % 1000)


def _inputs(tf, name, shape, dtype=np.float32):
    value = _rng(name).uniform(-1.0, 1.0, size=shape).astype(dtype)
    return tf.compat.v1.placeholder(tf.as_dtype(dtype), shape, name=name), value


def _ints(tf, name, shape, high):
    value = _rng(name).randint(0, high, size=shape).astype(np.int32)
    return tf.compat.v1.placeholder(tf.int32, shape, name=name), value


def _seq(tf, name, steps=T, depth=D):
    x, xv = _inputs(tf, name, [B, steps, depth])
    return x, xv


def _dyn(tf, cell, x, scope, **kw):
    v1 = tf.compat.v1
    return v1.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope=scope, **kw)


def lstm_block(tf, M):
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.LSTMBlockCell(3), x, "a", sequence_length=[3, 2])
    out2, st2 = _dyn(tf, M.rnn.LSTMBlockCell(3, forget_bias=0.5, use_peephole=True, cell_clip=0.1), x, "b")
    return {"out": out, "c": st.c, "h": st.h, "out2": out2, "c2": st2.c}, {x: xv}


def gru_block(tf, M):
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.GRUBlockCell(3), x, "a")
    out2, st2 = _dyn(tf, M.rnn.GRUBlockCellV2(num_units=2), x, "b")
    return {"out": out, "st": st, "out2": out2, "st2": st2}, {x: xv}


def layer_norm_lstm(tf, M):
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.LayerNormBasicLSTMCell(3, norm_gain=0.9, norm_shift=0.1), x, "a")
    out2, st2 = _dyn(tf, M.rnn.LayerNormBasicLSTMCell(2, layer_norm=False, forget_bias=0.0), x, "b")
    return {"out": out, "c": st.c, "out2": out2, "c2": st2.c}, {x: xv}


def intersection(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    cell = v1.nn.rnn_cell.MultiRNNCell([M.rnn.IntersectionRNNCell(4, num_in_proj=4), M.rnn.IntersectionRNNCell(4)])
    out, st = _dyn(tf, cell, x, "a")
    return {"out": out, "s0": st[0], "s1": st[1]}, {x: xv}


def highway(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    out, _ = _dyn(tf, M.rnn.HighwayWrapper(v1.nn.rnn_cell.GRUCell(D)), x, "a")
    cell = M.rnn.HighwayWrapper(v1.nn.rnn_cell.BasicRNNCell(D), couple_carry_transform_gates=False, carry_bias_init=0.5)
    out2, _ = _dyn(tf, cell, x, "b")
    return {"out": out, "out2": out2}, {x: xv}


def attention_cell(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.AttentionCellWrapper(v1.nn.rnn_cell.LSTMCell(3), attn_length=2), x, "a")
    cell = M.rnn.AttentionCellWrapper(v1.nn.rnn_cell.GRUCell(3), 2, attn_size=4, attn_vec_size=5, input_size=6,
                                      state_is_tuple=False)
    out2, st2 = _dyn(tf, cell, x, "b")
    return {"out": out, "attns": st[1], "attn_states": st[2], "out2": out2, "st2": st2}, {x: xv}


def projection_wrappers(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    ids, idv = _ints(tf, "ids", [B, T, 1], 7)
    out, _ = _dyn(tf, M.rnn.InputProjectionWrapper(v1.nn.rnn_cell.GRUCell(3), 5, activation=tf.tanh), x, "a")
    out2, st2 = _dyn(tf, M.rnn.OutputProjectionWrapper(v1.nn.rnn_cell.LSTMCell(3), 2), x, "b")
    emb = M.rnn.EmbeddingWrapper(v1.nn.rnn_cell.GRUCell(3), embedding_classes=7, embedding_size=4)
    out3, st3 = v1.nn.static_rnn(emb, tf.unstack(ids, axis=1), dtype=tf.float32, scope="c")
    return {"out": out, "out2": out2, "c2": st2.c, "out3": tf.stack(out3), "st3": st3}, {x: xv, ids: idv}


def stack_bidirectional(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    cells_fw = [M.rnn.LSTMBlockCell(3), M.rnn.LSTMBlockCell(2)]
    cells_bw = [M.rnn.LSTMBlockCell(3), M.rnn.LSTMBlockCell(2)]
    out, fw, bw = M.rnn.stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, x, dtype=tf.float32,
                                                        sequence_length=[3, 1])
    gru = v1.nn.rnn_cell.GRUCell
    init = [tf.ones([B, 2]) * 0.5]
    out2, fw2, bw2 = M.rnn.stack_bidirectional_rnn([gru(2)], [gru(2)], tf.unstack(x, axis=1), initial_states_fw=init,
                                                   dtype=tf.float32, scope="static")
    return {"out": out, "fw_h1": fw[1].h, "bw_c0": bw[0].c, "out2": tf.stack(out2), "fw2": fw2[0], "bw2": bw2[0]}, {
        x: xv
    }


def cudnn_compatible(tf, M):
    v1 = tf.compat.v1
    x, xv = _inputs(tf, "x", [T, B, D])  # time major, as cuDNN
    cell = v1.nn.rnn_cell.MultiRNNCell([M.cudnn.CudnnCompatibleLSTMCell(3) for _ in range(2)])
    out, st = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32, time_major=True)
    gcell = v1.nn.rnn_cell.MultiRNNCell([M.cudnn.CudnnCompatibleGRUCell(3)])
    out2, st2 = v1.nn.dynamic_rnn(gcell, x, dtype=tf.float32, time_major=True, scope="gru")
    return {"out": out, "c1": st[1].c, "out2": out2, "st2": st2[0]}, {x: xv}


def _enc_dec(tf, enc_len=3, dec_len=2, symbols=6):
    enc = [_ints(tf, "enc%d" % i, [B], symbols) for i in range(enc_len)]
    dec = [_ints(tf, "dec%d" % i, [B], 4) for i in range(dec_len)]
    feed = dict(enc + dec)
    return [p for p, _ in enc], [p for p, _ in dec], feed


def seq2seq_basic(tf, M):
    v1 = tf.compat.v1
    enc = [_inputs(tf, "e%d" % i, [B, D]) for i in range(3)]
    dec = [_inputs(tf, "d%d" % i, [B, D]) for i in range(2)]
    feed = dict(enc + dec)
    enc, dec = [p for p, _ in enc], [p for p, _ in dec]
    out, st = M.seq2seq.basic_rnn_seq2seq(enc, dec, v1.nn.rnn_cell.GRUCell(D))
    out2, st2 = M.seq2seq.tied_rnn_seq2seq(enc, dec, v1.nn.rnn_cell.BasicLSTMCell(D), loop_function=lambda p, i: p * 0.5)
    with v1.variable_scope("plain"):
        out3, _ = M.seq2seq.rnn_decoder(dec, st, v1.nn.rnn_cell.GRUCell(D))
    return {"out": tf.stack(out), "st": st, "out2": tf.stack(out2), "h2": st2.h, "out3": tf.stack(out3)}, feed


def seq2seq_embedding(tf, M):
    v1 = tf.compat.v1
    enc, dec, feed = _enc_dec(tf)
    cell = v1.nn.rnn_cell.MultiRNNCell([v1.nn.rnn_cell.GRUCell(3) for _ in range(2)])
    fp = v1.placeholder_with_default(False, [], name="feed_previous")
    out, st = M.seq2seq.embedding_rnn_seq2seq(enc, dec, cell, 6, 5, embedding_size=4, feed_previous=fp)
    w = v1.get_variable("proj_w", [3, 5])
    b = v1.get_variable("proj_b", [5])
    cell2 = v1.nn.rnn_cell.BasicLSTMCell(3)
    out2, st2 = M.seq2seq.embedding_rnn_seq2seq(enc, dec, cell2, 6, 5, embedding_size=4, output_projection=(w, b),
                                                feed_previous=True, scope="proj")
    out3, st3 = M.seq2seq.embedding_tied_rnn_seq2seq(enc, dec, v1.nn.rnn_cell.GRUCell(3), 6, 4, feed_previous=True)
    out4, st4 = M.seq2seq.embedding_tied_rnn_seq2seq(enc, dec, v1.nn.rnn_cell.LSTMCell(3), 6, 4, num_decoder_symbols=5,
                                                     feed_previous=fp, scope="tied_cond")
    outs = {"out": tf.stack(out), "st1": st[1], "out2": tf.stack(out2), "h2": st2.h, "out3": tf.stack(out3),
            "st3": st3, "out4": tf.stack(out4), "c4": st4.c}
    return outs, feed


def seq2seq_attention(tf, M):
    v1 = tf.compat.v1
    enc, dec, feed = _enc_dec(tf)
    cell = v1.nn.rnn_cell.MultiRNNCell([v1.nn.rnn_cell.BasicLSTMCell(3) for _ in range(2)])
    fp = v1.placeholder_with_default(False, [], name="feed_previous")
    out, st = M.seq2seq.embedding_attention_seq2seq(enc, dec, cell, 6, 5, embedding_size=4, num_heads=2,
                                                    feed_previous=fp, initial_state_attention=True)
    w = v1.get_variable("proj_w", [3, 5])
    b = v1.get_variable("proj_b", [5])
    out2, st2 = M.seq2seq.embedding_attention_seq2seq(enc, dec, v1.nn.rnn_cell.GRUCell(3), 6, 5, embedding_size=4,
                                                      output_projection=(w, b), feed_previous=True, scope="proj")
    attn, attn_v = _inputs(tf, "attn", [B, 3, 2])
    dec_in = [_inputs(tf, "di%d" % i, [B, D]) for i in range(2)]
    feed.update(dict(dec_in))
    feed[attn] = attn_v
    init = tf.fill([B, 3], 0.25)
    out3, st3 = M.seq2seq.attention_decoder([p for p, _ in dec_in], init, attn, v1.nn.rnn_cell.GRUCell(3),
                                            output_size=4, loop_function=lambda p, i: tf.tanh(p))
    outs = {"out": tf.stack(out), "c0": st[0].c, "h1": st[1].h, "out2": tf.stack(out2), "st2": st2,
            "out3": tf.stack(out3), "st3": st3}
    return outs, feed


def seq2seq_buckets(tf, M):
    """The 2016 translate tutorial's model: buckets, sampled-free softmax, shared variables."""
    v1 = tf.compat.v1
    enc, dec, feed = _enc_dec(tf, enc_len=4, dec_len=3)
    last, last_v = _ints(tf, "last", [B], 6)
    targets = dec[1:] + [last]
    feed[last] = last_v
    weights = [_inputs(tf, "w%d" % i, [B])[0] for i in range(3)]
    for i, wt in enumerate(weights):
        feed[wt] = (_rng("w%d" % i).uniform(size=[B]) > 0.3).astype(np.float32)
    cell = v1.nn.rnn_cell.GRUCell(3)

    def seq2seq_f(e, d):  # translate's seq2seq_model.py: a fresh copy of the (never built) cell per bucket
        return M.seq2seq.embedding_attention_seq2seq(e, d, copy.deepcopy(cell), 6, 6, embedding_size=4,
                                                     feed_previous=False)

    outs, losses = M.seq2seq.model_with_buckets(enc, dec, targets, weights, [(2, 2), (4, 3)], seq2seq_f)
    per_ex = M.seq2seq.sequence_loss_by_example(outs[1], targets, weights, average_across_timesteps=False)
    loss_sum = M.seq2seq.sequence_loss(outs[1], targets, weights, average_across_timesteps=False,
                                       average_across_batch=False)
    one2many, states = M.seq2seq.one2many_rnn_seq2seq(
        enc, {"a": dec[:2], "b": dec}, v1.nn.rnn_cell.GRUCell(3),
        {"a": v1.nn.rnn_cell.GRUCell(3), "b": v1.nn.rnn_cell.GRUCell(3)}, 6, {"a": 4, "b": 5}, 4, feed_previous=True)
    return {"out0": tf.stack(outs[0]), "out1": tf.stack(outs[1]), "loss0": losses[0], "loss1": losses[1],
            "per_ex": per_ex, "loss_sum": loss_sum, "o2m_a": tf.stack(one2many["a"]), "o2m_b_st": states["b"]}, feed


def nas(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.NASCell(3), x, "a", sequence_length=[3, 2])
    cell = v1.nn.rnn_cell.MultiRNNCell([M.rnn.NASCell(3, num_proj=2, use_bias=True), M.rnn.NASCell(2)])
    out2, st2 = _dyn(tf, cell, x, "b")
    return {"out": out, "c": st.c, "h": st.h, "out2": out2, "c2": st2[0].c, "h2": st2[1].h}, {x: xv}


def lstm_block_fused(tf, M):
    v1 = tf.compat.v1
    x, xv = _inputs(tf, "x", [T, B, D])  # time major
    out, st = M.rnn.LSTMBlockFusedCell(3)(x, dtype=tf.float32, sequence_length=[3, 1])
    cell = M.rnn.LSTMBlockFusedCell(2, forget_bias=0.5, cell_clip=0.2, use_peephole=True, name="peep")
    init = (tf.fill([B, 2], 0.1), tf.fill([B, 2], -0.2))
    out2, st2 = cell(x, initial_state=init)
    rev = M.rnn.TimeReversedFusedRNN(M.rnn.LSTMBlockFusedCell(2, name="rev"))
    out3, st3 = rev(x, dtype=tf.float32, sequence_length=[2, 3])
    dyn = M.rnn.FusedRNNCellAdaptor(v1.nn.rnn_cell.GRUCell(2), use_dynamic_rnn=True)
    out4, st4 = dyn(x, dtype=tf.float32, scope="dyn")
    static = M.rnn.TimeReversedFusedRNN(M.rnn.FusedRNNCellAdaptor(v1.nn.rnn_cell.BasicRNNCell(2)))
    out5, st5 = static(tf.unstack(x), dtype=tf.float32, scope="static")
    outs = {"out": out, "c": st.c, "h": st.h, "out2": out2, "c2": st2.c, "out3": out3, "h3": st3.h,
            "out4": out4, "st4": st4, "out5": tf.stack(out5), "st5": st5}
    return outs, {x: xv}


def cifg(tf, M):
    x, xv = _seq(tf, "x")
    cell = M.rnn.CoupledInputForgetGateLSTMCell(3, use_peepholes=True, num_proj=2, proj_clip=0.3, num_unit_shards=2,
                                                num_proj_shards=2, forget_bias=0.5)
    out, st = _dyn(tf, cell, x, "a")
    cell2 = M.rnn.CoupledInputForgetGateLSTMCell(3, state_is_tuple=False, layer_norm=True, norm_gain=0.8,
                                                 norm_shift=0.1)
    out2, st2 = _dyn(tf, cell2, x, "b")
    return {"out": out, "c": st.c, "h": st.h, "out2": out2, "st2": st2}, {x: xv}


def ugrnn_glstm(tf, M):
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.UGRNNCell(3, forget_bias=0.5), x, "a")
    out2, st2 = _dyn(tf, M.rnn.GLSTMCell(4, num_proj=2, number_of_groups=2), x, "b")
    out3, st3 = _dyn(tf, M.rnn.GLSTMCell(2, forget_bias=0.0, activation=tf.nn.relu), x, "c")
    return {"out": out, "st": st, "out2": out2, "c2": st2.c, "out3": out3, "c3": st3.c}, {x: xv}


def sru_ind(tf, M):
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.SRUCell(3), x, "a")
    out2, st2 = _dyn(tf, M.rnn.IndRNNCell(3, activation=tf.nn.relu), x, "b")
    out3, st3 = _dyn(tf, M.rnn.IndyGRUCell(3), x, "c")
    out4, st4 = _dyn(tf, M.rnn.IndyLSTMCell(3, forget_bias=0.5), x, "d", sequence_length=[2, 3])
    return {"out": out, "st": st, "out2": out2, "st2": st2, "out3": out3, "st3": st3, "out4": out4, "c4": st4.c}, {
        x: xv
    }


def phased_lstm(tf, M):
    x, xv = _seq(tf, "x")
    times = np.array([[[1.0], [2.5], [4.0]], [[0.5], [7.0], [30.0]]], np.float32)
    t = tf.compat.v1.placeholder(tf.float32, [B, T, 1], name="t")
    cell = M.rnn.PhasedLSTMCell(3, period_init_min=1.0, period_init_max=8.0, ratio_on=0.3)
    out, st = _dyn(tf, cell, (t, x), "a")
    out2, st2 = _dyn(tf, M.rnn.PhasedLSTMCell(2, use_peepholes=True, leak=0.1, trainable_ratio_on=False), (t, x), "b")
    return {"out": out, "c": st.c, "out2": out2, "h2": st2.h}, {x: xv, t: times}


def time_freq_lstm(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    cell = M.rnn.TimeFreqLSTMCell(2, use_peepholes=True, cell_clip=0.4, feature_size=2, frequency_skip=2)
    init = tf.fill([B, 8], 0.1)  # two windows of [c, m]: TF 1.15's state_size (4) counts one window
    out, st = v1.nn.static_rnn(cell, tf.unstack(x, axis=1), initial_state=init, scope="a")
    cell2 = M.rnn.TimeFreqLSTMCell(3, feature_size=4, forget_bias=0.0, num_unit_shards=2)
    out2, st2 = _dyn(tf, cell2, x, "b")
    return {"out": tf.stack(out), "st": st, "out2": out2, "st2": st2}, {x: xv}


def grid_lstm(tf, M):
    x, xv = _seq(tf, "x")
    cell = M.rnn.GridLSTMCell(2, use_peepholes=True, feature_size=2, frequency_skip=2, num_frequency_blocks=[2],
                              cell_clip=0.5)
    out, st = _dyn(tf, cell, x, "a")
    cell2 = M.rnn.GridLSTMCell(2, use_peepholes=True, share_time_frequency_weights=True, couple_input_forget_gates=True,
                               feature_size=2, frequency_skip=1, num_frequency_blocks=[1, 2],
                               start_freqindex_list=[0, 1], end_freqindex_list=[2, 4], state_is_tuple=False)
    out2, st2 = _dyn(tf, cell2, x, "b")
    cell3 = M.rnn.BidirectionalGridLSTMCell(2, use_peepholes=True, feature_size=2, frequency_skip=2,
                                            num_frequency_blocks=[2], backward_slice_offset=1)
    out3, st3 = _dyn(tf, cell3, x, "c")
    return {"out": out, "st_c": st[2], "out2": out2, "st2": st2, "out3": out3, "bwd_m": st3.bwd_state_f01_b00_m}, {
        x: xv
    }


def conv_lstm(tf, M):
    x, xv = _inputs(tf, "x", [B, T, 3, 3, 2])
    cell = M.rnn.Conv2DLSTMCell(input_shape=[3, 3, 2], output_channels=2, kernel_shape=[2, 2])
    out, st = _dyn(tf, cell, x, "a")
    y, yv = _inputs(tf, "y", [B, T, 4, 1])
    cell2 = M.rnn.Conv1DLSTMCell(input_shape=[4, 1], output_channels=2, kernel_shape=[3], forget_bias=0.0,
                                 use_bias=False)
    out2, st2 = _dyn(tf, cell2, y, "b")
    # skip_connection: the output (and so the next hidden state) gains the input's channels: one step only.
    skip = M.rnn.Conv1DLSTMCell(input_shape=[4, 1], output_channels=2, kernel_shape=[2], skip_connection=True)
    out4, _ = tf.compat.v1.nn.static_rnn(skip, [y[:, 0]], dtype=tf.float32, scope="d")
    z, zv = _inputs(tf, "z", [B, 2, 2, 2, 2, 1])
    cell3 = M.rnn.ConvLSTMCell(3, [2, 2, 2, 1], 1, [2, 2, 2])
    out3, st3 = _dyn(tf, cell3, z, "c")
    outs = {"out": out, "c": st.c, "out2": out2, "c2": st2.c, "out3": out3, "c3": st3.c, "out4": out4[0]}
    return outs, {x: xv, y: yv, z: zv}


def compiled(tf, M):
    v1 = tf.compat.v1
    x, xv = _seq(tf, "x")
    out, st = _dyn(tf, M.rnn.CompiledWrapper(v1.nn.rnn_cell.LSTMCell(3)), x, "a")
    out2, st2 = _dyn(tf, M.rnn.CompiledWrapper(v1.nn.rnn_cell.GRUCell(2), compile_stateful=True), x, "b")
    return {"out": out, "c": st.c, "out2": out2, "st2": st2}, {x: xv}


CASES = [
    "lstm_block",
    "gru_block",
    "layer_norm_lstm",
    "intersection",
    "highway",
    "attention_cell",
    "projection_wrappers",
    "stack_bidirectional",
    "cudnn_compatible",
    "seq2seq_basic",
    "seq2seq_embedding",
    "seq2seq_attention",
    "seq2seq_buckets",
    "nas",
    "lstm_block_fused",
    "cifg",
    "ugrnn_glstm",
    "sru_ind",
    "phased_lstm",
    "time_freq_lstm",
    "grid_lstm",
    "conv_lstm",
    "compiled",
]


def run_case(tf, M, name, checkpoint, save):
    """Builds case ``name``; saves (``save=True``) or restores ``checkpoint``; returns values and gradients.

    A case with a ``feed_previous`` placeholder runs twice: as built (False) and fed True (keys ``...@fed``).
    """
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        v1.set_random_seed(7)
        v1.get_variable_scope().set_initializer(v1.random_uniform_initializer(-0.6, 0.6, seed=3))
        outputs, feed = globals()[name](tf, M)
        keys = sorted(outputs)
        loss = 0.0
        for key in keys:
            t = outputs[key]
            size = int(np.prod(t.get_shape().as_list())) or 1
            coeff = np.cos(np.arange(size) + len(key)).reshape(t.get_shape().as_list()).astype(np.float32)
            loss += tf.reduce_sum(t * coeff)
        variables = v1.trainable_variables()
        floats = sorted([p for p in feed if p.dtype == tf.float32], key=lambda p: p.name)
        grads = tf.gradients(loss, variables + floats)
        grads = [tf.convert_to_tensor(g) if g is not None else tf.constant(0.0) for g in grads]
        saver = v1.train.Saver(v1.global_variables())
        with v1.Session() as sess:
            if save:
                sess.run(v1.global_variables_initializer())
                saver.save(sess, checkpoint, write_meta_graph=False, write_state=False)
            else:
                saver.restore(sess, checkpoint)
            runs = [("", feed)]
            names = [op.name for op in v1.get_default_graph().get_operations()]
            if "feed_previous" in names:
                fed = dict(feed)
                fed[v1.get_default_graph().get_tensor_by_name("feed_previous:0")] = True
                runs.append(("@fed", fed))
            result = {"outputs": {}, "grads": {}, "variables": sorted(v.op.name for v in v1.global_variables())}
            for suffix, run_feed in runs:
                values = sess.run([outputs[k] for k in keys] + grads, run_feed)
                for key, value in zip(keys, values[: len(keys)]):
                    result["outputs"][key + suffix] = _round(value)
                for var, value in zip(variables + floats, values[len(keys) :]):
                    result["grads"][var.op.name + suffix] = _round(value)
        return result


def _round(value):
    """float32 values as nested lists of floats with 8 significant digits."""
    return np.vectorize(lambda x: float("%.8g" % x), otypes=[np.float64])(np.asarray(value, np.float64)).tolist()
