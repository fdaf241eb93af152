"""Tiny models, one per re-created tf.contrib.rnn / cudnn_rnn cell, trained 300 steps of Adam from numpy weights.

Each builder takes ``tf`` and ``M`` (a namespace: ``rnn``, ``cudnn``: TF 1.15's contrib modules or tf1clip.contrib's)
and returns ``(cell, inputs_are_ids)``. ``train_case`` wraps the cell in ``dynamic_rnn`` over fixed data
(batch 4, 5 steps, 8 features or ids, 8 units), sets every variable from a numpy RNG keyed by its name, and trains
``tf.compat.v1.train.AdamOptimizer(0.01)`` on the mean squared distance of the outputs to a fixed target. Cases
named ``core_*`` use TF's own cells (not re-created): they show how far TF itself moved between 1.15 and 2.x.

Runs on Python 3.7 (TF 1.15.5) and 3.11 (TF 2.15 .. 2.21).
"""

import zlib

import numpy as np

B, T, D, N = 4, 5, 8, 8  # batch, time, input depth, units
STEPS = 300
RECORD = (0, 1, 20, 300)  # loss after this many Adam steps


def layer_norm_lstm(tf, M):
    return M.rnn.LayerNormBasicLSTMCell(N), False


def layer_norm_lstm_no_norm(tf, M):
    return M.rnn.LayerNormBasicLSTMCell(N, layer_norm=False, forget_bias=0.5), False


def lstm_block(tf, M):
    return M.rnn.LSTMBlockCell(N), False


def lstm_block_peephole(tf, M):
    return M.rnn.LSTMBlockCell(N, forget_bias=0.5, use_peephole=True), False


def gru_block(tf, M):
    return M.rnn.GRUBlockCell(N), False


def gru_block_v2(tf, M):
    return M.rnn.GRUBlockCellV2(num_units=N), False


def intersection(tf, M):
    return M.rnn.IntersectionRNNCell(N), False


def highway(tf, M):
    return M.rnn.HighwayWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(N), couple_carry_transform_gates=False), False


def attention(tf, M):
    return M.rnn.AttentionCellWrapper(tf.compat.v1.nn.rnn_cell.LSTMCell(N), attn_length=3), False


def embedding(tf, M):
    return M.rnn.EmbeddingWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(N), embedding_classes=10, embedding_size=D), True


def input_projection(tf, M):
    return M.rnn.InputProjectionWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(N), N, activation=tf.tanh), False


def output_projection(tf, M):
    return M.rnn.OutputProjectionWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(N), N), False


def cudnn_compatible_lstm(tf, M):
    return M.cudnn.CudnnCompatibleLSTMCell(N), False


def cudnn_compatible_gru(tf, M):
    return M.cudnn.CudnnCompatibleGRUCell(N), False


def core_layer_norm_lstm(tf, M):
    """``layer_norm_lstm``'s equations in plain TensorFlow ops (same variable names): TF's own drift."""
    return _twin_class(tf)(N), False


def _twin_class(tf):
    v1 = tf.compat.v1

    class LayerNormBasicLSTMCell(v1.nn.rnn_cell.RNNCell):
        def __init__(self, num_units):
            super(LayerNormBasicLSTMCell, self).__init__()
            self._n = num_units

        @property
        def state_size(self):
            return v1.nn.rnn_cell.LSTMStateTuple(self._n, self._n)

        @property
        def output_size(self):
            return self._n

        def _norm(self, inp, scope):
            with v1.variable_scope(scope):
                gamma = v1.get_variable("gamma", [self._n], initializer=v1.ones_initializer())
                beta = v1.get_variable("beta", [self._n], initializer=v1.zeros_initializer())
            mean, variance = tf.nn.moments(inp, [1], keepdims=True)
            return tf.nn.batch_normalization(inp, mean, variance, beta, gamma, 1e-12)

        def call(self, inputs, state):
            c, h = state
            args = tf.concat([inputs, h], 1)
            kernel = v1.get_variable("kernel", [args.get_shape()[-1], 4 * self._n])
            i, j, f, o = tf.split(tf.matmul(args, kernel), 4, axis=1)
            i, j, f, o = (self._norm(t, s) for t, s in zip((i, j, f, o), ("input", "transform", "forget", "output")))
            new_c = self._norm(c * tf.sigmoid(f + 1.0) + tf.sigmoid(i) * tf.tanh(j), "state")
            new_h = tf.tanh(new_c) * tf.sigmoid(o)
            return new_h, v1.nn.rnn_cell.LSTMStateTuple(new_c, new_h)

    return LayerNormBasicLSTMCell


def core_cudnn_gru(tf, M):
    """``cudnn_compatible_gru``'s equations in plain TensorFlow ops (same variable names): TF's own drift."""
    v1 = tf.compat.v1

    class CudnnCompatibleGRUCell(v1.nn.rnn_cell.RNNCell):
        state_size = output_size = N

        def call(self, inputs, state):
            def var(name, shape):
                return v1.get_variable(name, shape)

            gates = tf.nn.bias_add(
                tf.matmul(tf.concat([inputs, state], 1), var("gates/kernel", [D + N, 2 * N])),
                var("gates/bias", [2 * N]),
            )
            r, u = tf.split(tf.sigmoid(gates), 2, axis=1)
            kx, bx = var("candidate/input_projection/kernel", [D, N]), var("candidate/input_projection/bias", [N])
            kh, bh = var("candidate/hidden_projection/kernel", [N, N]), var("candidate/hidden_projection/bias", [N])
            candidate = tf.nn.bias_add(tf.matmul(inputs, kx), bx)
            candidate += r * tf.nn.bias_add(tf.matmul(state, kh), bh)
            new_h = (1 - u) * tf.tanh(candidate) + u * state
            return new_h, new_h

    return CudnnCompatibleGRUCell(), False


def core_embedding(tf, M):
    """``embedding``'s equations in plain TensorFlow ops (same variable names): TF's own drift."""
    v1 = tf.compat.v1

    class EmbeddingWrapper(v1.nn.rnn_cell.RNNCell):
        state_size = output_size = N

        def __init__(self):
            super(EmbeddingWrapper, self).__init__()
            self._cell = v1.nn.rnn_cell.GRUCell(N)

        def call(self, inputs, state):
            with tf.device("/cpu:0"):
                embedding = v1.get_variable("embedding", [10, D])
                return self._cell(tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1])), state)

    return EmbeddingWrapper(), True


def core_lstm(tf, M):
    return tf.compat.v1.nn.rnn_cell.LSTMCell(N), False


def core_gru(tf, M):
    return tf.compat.v1.nn.rnn_cell.GRUCell(N), False


CASES = [
    "layer_norm_lstm",
    "layer_norm_lstm_no_norm",
    "lstm_block",
    "lstm_block_peephole",
    "gru_block",
    "gru_block_v2",
    "intersection",
    "highway",
    "attention",
    "embedding",
    "input_projection",
    "output_projection",
    "cudnn_compatible_lstm",
    "cudnn_compatible_gru",
    "core_layer_norm_lstm",
    "core_cudnn_gru",
    "core_embedding",
    "core_lstm",
    "core_gru",
]


def initial_value(name, shape):
    """The starting value of variable ``name``: uniform on [-0.5, 0.5), or around 1 for a layer-norm gamma."""
    rng = np.random.RandomState(zlib.crc32(name.encode()) % (2**31))
    value = rng.uniform(-0.5, 0.5, size=shape)
    if name.endswith("gamma"):
        value = 1.0 + 0.2 * value
    return value.astype(np.float32)


def checksum(value):
    """``[sum, sum of squares, cosine-weighted sum]`` of an array, in float64."""
    flat = np.asarray(value, np.float64).ravel()
    return [float(flat.sum()), float((flat**2).sum()), float((flat * np.cos(np.arange(flat.size))).sum())]


def build(tf, M, name):
    """Builds case ``name`` in the default graph; returns ``(loss, train_op)``."""
    v1 = tf.compat.v1
    cell, ids = globals()[name](tf, M)
    rng = np.random.RandomState(11)
    if ids:
        x = tf.constant(rng.randint(0, 10, size=[B, T, 1]).astype(np.int32))
    else:
        x = tf.constant(rng.uniform(-1.0, 1.0, size=[B, T, D]).astype(np.float32))
    target = tf.constant(rng.uniform(-0.8, 0.8, size=[B, T, N]).astype(np.float32))
    outputs, _ = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope="rnn")
    loss = tf.reduce_mean(tf.square(outputs - target))
    train_op = v1.train.AdamOptimizer(0.01).minimize(loss)
    return loss, train_op


def train_case(tf, M, name, steps=STEPS):
    """Builds and trains case ``name`` in a fresh graph; returns losses, final-weight checksums and variable names."""
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        loss, train_op = build(tf, M, name)
        variables = v1.trainable_variables()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for var in variables:
                var.load(initial_value(var.op.name, var.get_shape().as_list()), sess)
            losses = {"0": float(sess.run(loss))}
            for step in range(1, steps + 1):
                sess.run(train_op)
                if step in RECORD:
                    losses[str(step)] = float(sess.run(loss))
            weights = sess.run(variables)
        return {
            "variables": sorted(v.op.name for v in variables),
            "losses": losses,
            "weights": {v.op.name: checksum(w) for v, w in zip(variables, weights)},
        }
