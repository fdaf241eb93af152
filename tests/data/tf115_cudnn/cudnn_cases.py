"""cuDNN layer cases, shared by make_refs.py (TF 1.15.5, Python 3.7) and tests/oracle/test_contrib_cudnn_rnn.py.

TF 1.15 cannot run ``tf.contrib.cudnn_rnn.CudnnLSTM`` without a GPU, so its reference is the graph TF 1.15's own
docs restore a cuDNN checkpoint into: ``CudnnCompatibleLSTMCell``/``CudnnCompatibleGRUCell``/``BasicRNNCell``
in a ``MultiRNNCell`` under ``dynamic_rnn`` (unidirectional) or ``stack_bidirectional_dynamic_rnn``
(bidirectional), in the layer's variable scope, with canonical weights from ``canonical_weights``.
"""

import numpy as np

T, B, D, UNITS, LAYERS = 4, 2, 3, 3, 2
CASES = {
    "lstm_uni": ("lstm", "unidirectional"),
    "lstm_bi": ("lstm", "bidirectional"),
    "gru_bi": ("gru", "bidirectional"),
    "tanh_uni": ("rnn_tanh", "unidirectional"),
    "relu_bi": ("rnn_relu", "bidirectional"),
}
SCOPES = {"lstm": "cudnn_lstm", "gru": "cudnn_gru", "rnn_tanh": "cudnn_rnn_tanh", "rnn_relu": "cudnn_rnn_relu"}
LENGTHS = [4, 2]


def canonical_weights(name):
    """``{checkpoint name: array}``: the compatible cells' weights of case ``name`` (seeded)."""
    mode, direction = CASES[name]
    rng = np.random.RandomState(sum(map(ord, name)))
    dirs = ["fw"] if direction == "unidirectional" else ["fw", "bw"]
    out = {}
    for layer in range(LAYERS):
        width = D if layer == 0 else UNITS * len(dirs)
        for d in dirs:
            if direction == "unidirectional":
                prefix = "rnn/multi_rnn_cell/cell_%d/" % layer
            else:
                prefix = "stack_bidirectional_rnn/cell_%d/bidirectional_rnn/%s/" % (layer, d)
            prefix = SCOPES[mode] + "/" + prefix
            shapes = _cell_shapes(mode, width)
            for suffix, shape in shapes:
                out[prefix + suffix] = rng.uniform(-0.6, 0.6, shape).astype(np.float32)
    return out


def _cell_shapes(mode, width):
    n = UNITS
    if mode == "lstm":
        return [
            ("cudnn_compatible_lstm_cell/kernel", (width + n, 4 * n)),
            ("cudnn_compatible_lstm_cell/bias", (4 * n,)),
        ]
    if mode == "gru":
        c = "cudnn_compatible_gru_cell/"
        return [
            (c + "gates/kernel", (width + n, 2 * n)),
            (c + "gates/bias", (2 * n,)),
            (c + "candidate/input_projection/kernel", (width, n)),
            (c + "candidate/input_projection/bias", (n,)),
            (c + "candidate/hidden_projection/kernel", (n, n)),
            (c + "candidate/hidden_projection/bias", (n,)),
        ]
    return [("basic_rnn_cell/kernel", (width + n, n)), ("basic_rnn_cell/bias", (n,))]


def inputs():
    rng = np.random.RandomState(5)
    return rng.uniform(-1, 1, (T, B, D)).astype(np.float32), rng.uniform(-1, 1, (LAYERS * 2, B, UNITS)).astype(
        np.float32
    )


def compatible_graph(tf, name, x, h0, lengths):
    """TF 1.15's compatible-cell graph for case ``name``: ``(outputs, [final h per layer and direction])``."""
    mode, direction = CASES[name]
    v1 = tf.compat.v1
    cudnn = tf.contrib.cudnn_rnn

    def cell():
        if mode == "lstm":
            return cudnn.CudnnCompatibleLSTMCell(UNITS)
        if mode == "gru":
            return cudnn.CudnnCompatibleGRUCell(UNITS)
        return v1.nn.rnn_cell.BasicRNNCell(UNITS, activation=tf.tanh if mode == "rnn_tanh" else tf.nn.relu)

    def state(i):
        if mode == "lstm":
            return v1.nn.rnn_cell.LSTMStateTuple(h0[i] * 0.5, h0[i])
        return h0[i]

    with v1.variable_scope(SCOPES[mode]):
        if direction == "unidirectional":
            multi = v1.nn.rnn_cell.MultiRNNCell([cell() for _ in range(LAYERS)])
            init = tuple(state(i) for i in range(LAYERS))
            out, finals = v1.nn.dynamic_rnn(multi, x, sequence_length=lengths, initial_state=init, time_major=True)
            return out, [f.h if mode == "lstm" else f for f in finals]
        fw = [cell() for _ in range(LAYERS)]
        bw = [cell() for _ in range(LAYERS)]
        out, sfw, sbw = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
            fw,
            bw,
            tf.transpose(x, [1, 0, 2]),
            initial_states_fw=[state(2 * i) for i in range(LAYERS)],
            initial_states_bw=[state(2 * i + 1) for i in range(LAYERS)],
            sequence_length=lengths,
        )
        finals = []
        for a, b in zip(sfw, sbw):
            finals += [a.h, b.h] if mode == "lstm" else [a, b]
        return tf.transpose(out, [1, 0, 2]), finals
