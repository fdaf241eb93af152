"""Small attention models over tf.contrib.seq2seq, built the same way on TF 1.15 and on tf1clip.

Each builder takes ``M`` (a namespace: ``s2s`` is TF 1.15's ``tf.contrib.seq2seq`` or
``tf1clip.contrib.seq2seq``) and returns ``(outputs, feed)``: a dict of output tensors and a feed dict.
``run_case`` builds one case in a fresh graph; on TF 1.15 it initializes the variables (seeded) and saves a
checkpoint, on tf1clip it restores that checkpoint; it returns the outputs and the gradients of a fixed
weighted sum of the float outputs with respect to every trainable variable (by name) and every float input.
``run_checks`` builds bad inputs and returns ``{label: "ExceptionType: message"}``.

Runs on Python 3.7 (TF 1.15.5) and 3.11 (TF 2.15, 2.21).
"""

import numpy as np

B, TM, DM, TD, DI = 2, 4, 3, 3, 2  # batch, memory time, memory depth, decoder time, decoder input depth


def _rng(name):
    return np.random.RandomState(sum(ord(c) for c in name) % 1000)


def _inputs(tf, name, shape, low=-1.0, high=1.0):
    value = _rng(name).uniform(low, high, size=shape).astype(np.float32)
    return tf.compat.v1.placeholder(tf.float32, shape, name=name), value


def _memory_and_decoder(tf):
    memory, mv = _inputs(tf, "memory", [B, TM, DM])
    dec, dv = _inputs(tf, "dec", [B, TD, DI])
    return memory, dec, {memory: mv, dec: dv}


def _run(tf, cell, dec, scope=None, **kw):
    v1 = tf.compat.v1
    init = cell.zero_state(B, tf.float32)
    return v1.nn.dynamic_rnn(cell, dec, initial_state=init, dtype=tf.float32, scope=scope, **kw)


def _state_outputs(state, prefix=""):
    out = {prefix + "attention": state.attention, prefix + "time": state.time}
    for i, a in enumerate(state.alignments if isinstance(state.alignments, tuple) else [state.alignments]):
        out[prefix + "alignments%d" % i] = a
    history = state.alignment_history
    for i, h in enumerate(history if isinstance(history, tuple) else [history]):
        if h != ():
            out[prefix + "history%d" % i] = h.stack()
    return out


def bahdanau(tf, M):
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    mech = M.s2s.BahdanauAttention(5, memory, memory_sequence_length=[4, 2])
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.LSTMCell(3), mech, attention_layer_size=4, alignment_history=True)
    out, st = _run(tf, cell, dec)
    outs = {"out": out, "c": st.cell_state.c, "h": st.cell_state.h, "keys": mech.keys, "values": mech.values}
    outs.update(_state_outputs(st))
    return outs, feed


def bahdanau_normalize(tf, M):
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    mech = M.s2s.BahdanauAttention(4, memory, memory_sequence_length=[3, 4], normalize=True)
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), mech, output_attention=False)
    out, st = _run(tf, cell, dec, scope="dec")
    outs = {"out": out, "cell_state": st.cell_state}
    outs.update(_state_outputs(st))
    return outs, feed


def luong(tf, M):
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    mech = M.s2s.LuongAttention(3, memory, memory_sequence_length=[2, 4])
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.LSTMCell(3), mech, attention_layer_size=2, alignment_history=True)
    out, st = _run(tf, cell, dec)
    outs = {"out": out, "h": st.cell_state.h}
    outs.update(_state_outputs(st))
    return outs, feed


def luong_scale(tf, M):
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    mech = M.s2s.LuongAttention(
        3, memory, memory_sequence_length=[2, 3], scale=True, score_mask_value=-2.0,
        custom_key_value_fn=lambda k, v: (k, v * 2.0))
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), mech, attention_layer_size=None)
    out, st = _run(tf, cell, dec)
    outs = {"out": out}
    outs.update(_state_outputs(st))
    return outs, feed


def _monotonic(tf, M, cls, mode, **kw):
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    mech = cls(3, memory, memory_sequence_length=[4, 3], mode=mode, **kw)
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), mech, attention_layer_size=3, alignment_history=True)
    out, st = _run(tf, cell, dec)
    outs = {"out": out, "attention_state": st.attention_state}
    outs.update(_state_outputs(st))
    return outs, feed


def bahdanau_monotonic_parallel(tf, M):
    return _monotonic(tf, M, M.s2s.BahdanauMonotonicAttention, "parallel")


def bahdanau_monotonic_recursive(tf, M):
    return _monotonic(tf, M, M.s2s.BahdanauMonotonicAttention, "recursive", normalize=True, score_bias_init=-0.5)


def bahdanau_monotonic_hard(tf, M):
    return _monotonic(tf, M, M.s2s.BahdanauMonotonicAttention, "hard", score_bias_init=0.25)


def bahdanau_monotonic_noise(tf, M):
    """Pre-sigmoid noise, outside a loop (in dynamic_rnn the noise ops of different steps may run in any order)."""
    memory, mv = _inputs(tf, "memory", [B, TM, DM])
    query, qv = _inputs(tf, "query", [B, 3])
    mech = M.s2s.BahdanauMonotonicAttention(
        3, memory, memory_sequence_length=[4, 3], sigmoid_noise=0.5, sigmoid_noise_seed=5, score_bias_init=0.1)
    alignments, state = mech(query, mech.initial_alignments(B, tf.float32))
    alignments2, _ = mech(query * 0.5, state)
    return {"alignments": alignments, "alignments2": alignments2}, {memory: mv, query: qv}


def luong_monotonic_parallel(tf, M):
    return _monotonic(tf, M, M.s2s.LuongMonotonicAttention, "parallel", scale=True, score_bias_init=0.5)


def luong_monotonic_recursive(tf, M):
    return _monotonic(tf, M, M.s2s.LuongMonotonicAttention, "recursive")


def luong_monotonic_hard(tf, M):
    return _monotonic(tf, M, M.s2s.LuongMonotonicAttention, "hard", scale=True)


def two_mechanisms(tf, M):
    """Bahdanau + Luong over a MultiRNNCell with a ResidualWrapper and a DropoutWrapper (keep 1)."""
    v1 = tf.compat.v1
    rnn = v1.nn.rnn_cell
    memory, dec, feed = _memory_and_decoder(tf)
    mechs = [M.s2s.BahdanauAttention(4, memory, memory_sequence_length=[4, 2]), M.s2s.LuongAttention(4, memory)]
    cell = rnn.MultiRNNCell([rnn.LSTMCell(4), rnn.ResidualWrapper(rnn.DropoutWrapper(rnn.GRUCell(4)))])
    cell = M.s2s.AttentionWrapper(cell, mechs, attention_layer_size=[3, 2], alignment_history=True)
    out, st = _run(tf, cell, dec)
    outs = {"out": out, "c0": st.cell_state[0].c, "s1": st.cell_state[1]}
    outs.update(_state_outputs(st))
    return outs, feed


def list_of_one(tf, M):
    """A one-element list of mechanisms and sizes (tuple state); a custom attention_layer in a second wrapper."""
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    mech = M.s2s.BahdanauAttention(3, memory)
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), [mech], attention_layer_size=[4])
    out, st = _run(tf, cell, dec, scope="a")
    layer = v1.layers.Dense(2, activation=tf.tanh, name="my_attention")
    cell2 = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), mech, attention_layer=layer, output_attention=False)
    out2, st2 = _run(tf, cell2, dec, scope="b")
    outs = {"out": out, "out2": out2}
    outs.update(_state_outputs(st))
    outs.update(_state_outputs(st2, "b_"))
    return outs, feed


def encoder_state(tf, M):
    """An encoder's outputs as memory, its state as initial_cell_state or via clone; a custom cell_input_fn."""
    v1 = tf.compat.v1
    enc_in, ev = _inputs(tf, "enc_in", [B, TM, DI])
    dec, dv = _inputs(tf, "dec", [B, TD, DI])
    enc_out, enc_state = v1.nn.dynamic_rnn(v1.nn.rnn_cell.GRUCell(3), enc_in, dtype=tf.float32, scope="encoder")
    mech = M.s2s.BahdanauAttention(3, enc_out, memory_sequence_length=[4, 3])
    cell = M.s2s.AttentionWrapper(
        v1.nn.rnn_cell.GRUCell(3), mech, attention_layer_size=3, initial_cell_state=enc_state,
        cell_input_fn=lambda inputs, attention: tf.concat([inputs, attention * 0.5], -1))
    out, st = _run(tf, cell, dec, scope="a")
    cell2 = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), mech, attention_layer_size=2)
    init = cell2.zero_state(B, tf.float32).clone(cell_state=enc_state)
    out2, st2 = v1.nn.dynamic_rnn(cell2, dec, initial_state=init, dtype=tf.float32, scope="b")
    outs = {"out": out, "out2": out2, "cell_state2": st2.cell_state}
    outs.update(_state_outputs(st))
    return outs, {enc_in: ev, dec: dv}


def while_loop(tf, M):
    """The wrapper stepped by hand in tf.while_loop, with a dynamic batch size and alignment history."""
    v1 = tf.compat.v1
    memory = v1.placeholder(tf.float32, [None, TM, DM], name="memory")
    dec = v1.placeholder(tf.float32, [None, TD, DI], name="dec")
    feed = {memory: _inputs(tf, "memory", [B, TM, DM])[1], dec: _inputs(tf, "dec", [B, TD, DI])[1]}
    mech = M.s2s.LuongMonotonicAttention(3, memory, mode="recursive", score_bias_init=0.1)
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.LSTMCell(3), mech, attention_layer_size=3, alignment_history=True)
    state = cell.zero_state(tf.shape(dec)[0], tf.float32)
    inputs = tf.transpose(dec, [1, 0, 2])
    outputs = tf.TensorArray(tf.float32, size=TD)

    def body(t, state, outputs):
        out, state = cell(inputs[t], state)
        return t + 1, state, outputs.write(t, out)

    with v1.variable_scope("loop"):
        _, state, outputs = tf.while_loop(lambda t, *_: t < TD, body, [tf.constant(0), state, outputs])
    outs = {"out": outputs.stack()}
    outs.update(_state_outputs(state))
    return outs, feed


def dynamic_shapes(tf, M):
    """Memory and decoder inputs with unknown batch and time; fed lengths; no attention layer."""
    v1 = tf.compat.v1
    memory = v1.placeholder(tf.float32, [None, None, DM], name="memory")
    dec = v1.placeholder(tf.float32, [None, None, DI], name="dec")
    lengths = v1.placeholder(tf.int32, [None], name="lengths")
    feed = {memory: _inputs(tf, "memory", [B, TM, DM])[1], dec: _inputs(tf, "dec", [B, TD, DI])[1], lengths: [3, 4]}
    mechs = [
        M.s2s.BahdanauMonotonicAttention(3, memory, memory_sequence_length=lengths, mode="recursive"),
        M.s2s.LuongAttention(3, memory, memory_sequence_length=lengths, scale=True),
    ]
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), mechs, alignment_history=True)
    init = cell.zero_state(tf.shape(dec)[0], tf.float32)
    out, st = v1.nn.dynamic_rnn(cell, dec, initial_state=init, dtype=tf.float32)
    outs = {"out": out}
    outs.update(_state_outputs(st))
    return outs, feed


def shared_reuse(tf, M):
    """A training and an inference decoder sharing variables (the second built under reuse=True)."""
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    outs = {}
    for name, reuse in (("train", False), ("infer", True)):
        with v1.variable_scope("decoder", reuse=reuse):
            mech = M.s2s.BahdanauAttention(3, memory, memory_sequence_length=[4, 2], normalize=True)
            cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.GRUCell(3), mech, attention_layer_size=3)
            out, st = _run(tf, cell, dec * (1.0 if reuse else 0.5))
        outs[name] = out
        outs[name + "_attention"] = st.attention
    return outs, feed


def float64(tf, M):
    v1 = tf.compat.v1
    memory, dec, feed = _memory_and_decoder(tf)
    memory, dec = tf.cast(memory, tf.float64), tf.cast(dec, tf.float64)
    mechs = [
        M.s2s.BahdanauAttention(3, memory, normalize=True, dtype=tf.float64),
        M.s2s.LuongMonotonicAttention(3, memory, scale=True, score_bias_init=np.float64(0.5), dtype=tf.float64),
    ]
    cell = M.s2s.AttentionWrapper(v1.nn.rnn_cell.LSTMCell(3, dtype=tf.float64), mechs, attention_layer_size=[2, 2])
    out, st = v1.nn.dynamic_rnn(cell, dec, initial_state=cell.zero_state(B, tf.float64), dtype=tf.float64)
    outs = {"out": out}
    outs.update(_state_outputs(st))
    return {k: tf.cast(v, tf.float32) if v.dtype == tf.float64 else v for k, v in outs.items()}, feed


def functions(tf, M):
    logits, lv = _inputs(tf, "logits", [B, 5])
    p, pv = _inputs(tf, "p_choose", [B, 5], 0.05, 0.95)
    prev, prv = _inputs(tf, "previous", [B, 5], 0.0, 1.0)
    hard_p = tf.cast(p > 0.5, tf.float32)
    outs = {
        "hardmax": M.s2s.hardmax(logits),
        "safe_cumprod": M.s2s.safe_cumprod(p, axis=1),
        "safe_cumprod_ex": M.s2s.safe_cumprod(p, axis=1, exclusive=True, reverse=True),
        "parallel": M.s2s.monotonic_attention(p, prev, "parallel"),
        "recursive": M.s2s.monotonic_attention(p, prev, "recursive"),
        "hard": M.s2s.monotonic_attention(hard_p, tf.one_hot([0, 2], 5), "hard"),
    }
    return outs, {logits: lv, p: pv, prev: prv}


CASES = [
    "bahdanau",
    "bahdanau_normalize",
    "luong",
    "luong_scale",
    "bahdanau_monotonic_parallel",
    "bahdanau_monotonic_recursive",
    "bahdanau_monotonic_hard",
    "bahdanau_monotonic_noise",
    "luong_monotonic_parallel",
    "luong_monotonic_recursive",
    "luong_monotonic_hard",
    "two_mechanisms",
    "list_of_one",
    "encoder_state",
    "while_loop",
    "dynamic_shapes",
    "shared_reuse",
    "float64",
    "functions",
]


def run_case(tf, M, name, checkpoint, save):
    """Builds case ``name``; saves (``save=True``) or restores ``checkpoint``; returns values and gradients."""
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        v1.set_random_seed(7)
        v1.get_variable_scope().set_initializer(v1.random_uniform_initializer(-0.6, 0.6, seed=3))
        outputs, feed = globals()[name](tf, M)
        keys = sorted(outputs)
        loss = 0.0
        for key in keys:
            t = outputs[key]
            if not t.dtype.is_floating:
                continue
            index = tf.cast(tf.reshape(tf.range(tf.size(t)), tf.shape(t)), tf.float32)
            loss += tf.reduce_sum(t * tf.cos(index + float(len(key))))
        variables = v1.trainable_variables()
        floats = sorted([p for p in feed if p.dtype == tf.float32], key=lambda p: p.name)
        grads = tf.gradients(loss, variables + floats)
        grads = [tf.convert_to_tensor(g) if g is not None else tf.constant(0.0) for g in grads]
        saver = v1.train.Saver(v1.global_variables()) if v1.global_variables() else None
        with v1.Session() as sess:
            if saver is not None and save:
                sess.run(v1.global_variables_initializer())
                saver.save(sess, checkpoint, write_meta_graph=False, write_state=False)
            elif saver is not None:
                saver.restore(sess, checkpoint)
            result = {"outputs": {}, "grads": {}, "variables": sorted(v.op.name for v in v1.global_variables())}
            values = sess.run([outputs[k] for k in keys] + grads, feed)
            for key, value in zip(keys, values[: len(keys)]):
                result["outputs"][key] = _round(value)
            for var, value in zip(variables + floats, values[len(keys):]):
                result["grads"][var.op.name] = _round(value)
        return result


def _round(value):
    """Values as nested lists of floats with 8 significant digits."""
    return np.vectorize(lambda x: float("%.8g" % x), otypes=[np.float64])(np.asarray(value, np.float64)).tolist()


def _checks(tf, M):
    v1 = tf.compat.v1
    memory = tf.zeros([B, TM, DM])
    mech = lambda: M.s2s.BahdanauAttention(3, memory)  # noqa: E731
    gru = v1.nn.rnn_cell.GRUCell

    def call_with_tuple_state():
        cell = M.s2s.AttentionWrapper(gru(3), mech())
        return cell(tf.zeros([B, DI]), (tf.zeros([B, 3]),))

    def luong_call(units=3, **kw):
        cell = M.s2s.AttentionWrapper(gru(3), M.s2s.LuongAttention(units, memory, **kw))
        return cell(tf.zeros([B, DI]), cell.zero_state(B, tf.float32))

    def clone_shape():
        return M.s2s.AttentionWrapper(gru(3), mech()).zero_state(B, tf.float32).clone(cell_state=tf.zeros([3, 3]))

    def float64_score_bias():  # TF 1.15's score_bias_init=0. makes a float32 initial value
        memory64 = tf.zeros([B, TM, DM], tf.float64)
        cell = M.s2s.AttentionWrapper(
            gru(3, dtype=tf.float64), M.s2s.BahdanauMonotonicAttention(3, memory64, dtype=tf.float64))
        return cell(tf.zeros([B, DI], tf.float64), cell.zero_state(B, tf.float64))

    def batch_mismatch():
        return M.s2s.AttentionWrapper(gru(3), mech()).zero_state(3, tf.float32)

    return {
        "not_a_cell": lambda: M.s2s.AttentionWrapper("nope", mech()),
        "not_a_mechanism": lambda: M.s2s.AttentionWrapper(gru(3), "mech"),
        "list_not_mechanisms": lambda: M.s2s.AttentionWrapper(gru(3), [mech(), 3]),
        "cell_input_fn": lambda: M.s2s.AttentionWrapper(gru(3), mech(), cell_input_fn=3),
        "size_and_layer": lambda: M.s2s.AttentionWrapper(
            gru(3), mech(), attention_layer_size=2, attention_layer=v1.layers.Dense(2)),
        "sizes_length": lambda: M.s2s.AttentionWrapper(gru(3), mech(), attention_layer_size=[2, 3]),
        "layers_length": lambda: M.s2s.AttentionWrapper(
            gru(3), [mech(), mech()], attention_layer=[v1.layers.Dense(2)]),
        "inner_dims": lambda: M.s2s.LuongAttention(3, v1.placeholder(tf.float32, [B, TM, None], name="m")),
        "mode": lambda: M.s2s.monotonic_attention(tf.zeros([B, 3]), tf.zeros([B, 3]), "soft"),
        "state_type": call_with_tuple_state,
        "luong_depth": lambda: luong_call(4),
        "clone_shape": clone_shape,
        "batch_mismatch": batch_mismatch,
        "float64_score_bias": float64_score_bias,
        "static_zero_length": lambda: luong_call(memory_sequence_length=[4, 0]),
        "initial_cell_state": lambda: M.s2s.AttentionWrapper(gru(3), mech(), initial_cell_state=tf.zeros([3, 3])),
    }


def run_checks(tf, M):
    """Bad inputs: ``{label: "ExceptionType: message"}`` (or the repr of what was returned)."""
    found = {}
    for label in sorted(_checks(tf, M)):
        with tf.Graph().as_default():
            try:
                found[label] = repr(_checks(tf, M)[label]())
            except Exception as err:  # noqa: BLE001
                found[label] = "%s: %s" % (type(err).__name__, err)
    with tf.Graph().as_default():
        lengths = tf.compat.v1.placeholder(tf.int32, [B])
        mech = M.s2s.BahdanauAttention(3, tf.zeros([B, TM, DM]), memory_sequence_length=lengths)
        cell = M.s2s.AttentionWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(3), mech)
        out, _ = cell(tf.zeros([B, DI]), cell.zero_state(B, tf.float32))
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            try:
                sess.run(out, {lengths: [4, 0]})
                found["zero_length"] = "no error"
            except Exception as err:  # noqa: BLE001
                found["zero_length"] = "%s: %s" % (type(err).__name__, err.message)
    return found
