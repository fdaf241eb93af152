"""tf.contrib.cudnn_rnn's layers (tf1clip.contrib.cudnn_rnn: CudnnLSTM, CudnnGRU, CudnnRNNTanh, CudnnRNNRelu) on the
CPU, in TF 1 mode (Keras 2: they are tf.compat.v1.layers), against: TF 1.15.5's cuDNN-compatible cells restored from the same canonical
weights (tests/data/tf115_cudnn, refs.json), NumPy's cuDNN equations with two distinct bias vectors, a NumPy
model of cuDNN's opaque layout, and the variable and checkpoint names TF 1.15 gives a CudnnLSTM.
"""

import json
import os
import sys

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import cudnn_rnn

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_cudnn")
sys.path.insert(0, DATA)

import cudnn_cases as cases  # noqa: E402

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

v1 = tf.compat.v1
LAYERS = {
    "lstm": cudnn_rnn.CudnnLSTM,
    "gru": cudnn_rnn.CudnnGRU,
    "rnn_tanh": cudnn_rnn.CudnnRNNTanh,
    "rnn_relu": cudnn_rnn.CudnnRNNRelu,
}
GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


def _initial_state(mode, direction, hv):
    h = hv if direction == "bidirectional" else hv[: cases.LAYERS]
    return (tf.constant(h), tf.constant(h * 0.5)) if mode == "lstm" else (tf.constant(h),)


def _write_canonical_checkpoint(path, weights):
    graph = tf.Graph()
    with graph.as_default():
        variables = [v1.Variable(value, name=name) for name, value in weights.items()]
        with v1.Session() as sess:
            sess.run(v1.variables_initializer(variables))
            v1.train.Saver(variables).save(sess, path, write_meta_graph=False)


# The bidirectional LSTM and GRU take the longest to build: in the full suite only.
SLOW = ("gru_bi", "lstm_bi")


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(cases.CASES)]
)
def test_restores_tf115_canonical_weights_and_computes_the_compatible_cells(name, tmp_path):
    mode, direction = cases.CASES[name]
    weights = cases.canonical_weights(name)
    _write_canonical_checkpoint(str(tmp_path / "canonical"), weights)
    graph = tf.Graph()
    with graph.as_default():
        xv, hv = cases.inputs()
        x = tf.constant(xv)
        layer = LAYERS[mode](cases.LAYERS, cases.UNITS, direction=direction)
        out, states = layer(x, _initial_state(mode, direction, hv), sequence_lengths=tf.constant(cases.LENGTHS))
        loss = tf.reduce_sum(out * np.linspace(0.5, 1.5, out.shape[-1]).astype(np.float32))
        grad = tf.gradients(loss, x)[0]
        # As in TF 1.15: a compatible-cell checkpoint has no opaque_kernel; restore through the saveable alone.
        restorer = v1.train.Saver(v1.get_collection(v1.GraphKeys.SAVEABLE_OBJECTS))
        with v1.Session() as sess:
            restorer.restore(sess, str(tmp_path / "canonical"))
            o, h, g = sess.run([out, states[0], grad])
            v1.train.Saver().save(sess, str(tmp_path / "again"), write_meta_graph=False)
    ref = REFS["cases"][name]
    np.testing.assert_allclose(o, ref["outputs"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, ref["final_h"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g, ref["grad_x"], rtol=1e-5, atol=1e-6)
    reader = tf.train.load_checkpoint(str(tmp_path / "again"))
    for key, value in weights.items():
        np.testing.assert_array_equal(reader.get_tensor(key), value, err_msg=key)


def test_variables_and_checkpoint_names_are_tf115s(tmp_path):
    # What TF 1.15.5's Saver writes for CudnnLSTM(2, 4) + Adam (read from its graph's SaveV2 op).
    tf115 = [
        "beta1_power",
        "beta2_power",
        "cudnn_lstm/opaque_kernel",
        "cudnn_lstm/opaque_kernel/Adam",
        "cudnn_lstm/opaque_kernel/Adam_1",
        "cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/bias",
        "cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/kernel",
        "cudnn_lstm/rnn/multi_rnn_cell/cell_1/cudnn_compatible_lstm_cell/bias",
        "cudnn_lstm/rnn/multi_rnn_cell/cell_1/cudnn_compatible_lstm_cell/kernel",
    ]
    graph = tf.Graph()
    with graph.as_default():
        layer = cudnn_rnn.CudnnLSTM(2, 4)
        out, (h, c) = layer(tf.ones([5, 2, 3]))
        train = v1.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(out))
        assert [v.op.name for v in layer.trainable_variables] == ["cudnn_lstm/opaque_kernel"]
        assert out.shape.as_list() == [5, 2, 4] and h.shape.as_list() == c.shape.as_list() == [2, 2, 4]
        assert layer.saveable.name == "cudnn_lstm/opaque_kernel_saveable"
        saver = v1.train.Saver()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            path = saver.save(sess, str(tmp_path / "m"), write_meta_graph=False)
    shapes = tf.train.load_checkpoint(path).get_variable_to_shape_map()
    assert sorted(shapes) == tf115
    assert shapes["cudnn_lstm/opaque_kernel"] == [4 * 4 * (3 + 4) + 4 * 4 * (4 + 4) + 16 * 4]
    assert shapes["cudnn_lstm/rnn/multi_rnn_cell/cell_1/cudnn_compatible_lstm_cell/kernel"] == [8, 16]


def _numpy_cu_canonical(mode, direction, input_size, rng):
    """cuDNN canonical weights/biases in opaque order, and the opaque buffer by cuDNN's packed layout."""
    dirs = 1 if direction == "unidirectional" else 2
    gates, n = GATES[mode], cases.UNITS
    weights, biases = [], []
    for layer in range(cases.LAYERS):
        width = input_size if layer == 0 else n * dirs
        for _ in range(dirs):
            weights += [rng.uniform(-0.7, 0.7, (n, width)).astype(np.float32) for _ in range(gates)]
            weights += [rng.uniform(-0.7, 0.7, (n, n)).astype(np.float32) for _ in range(gates)]
            biases += [rng.uniform(-0.5, 0.5, n).astype(np.float32) for _ in range(2 * gates)]
    opaque = np.concatenate([w.ravel() for w in weights] + biases)
    return weights, biases, opaque


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _numpy_step(mode, w, b, x, h, c):
    """cuDNN's equations (cudnnRNNMode_t) for one step, with its input-side and recurrent biases apart."""
    g = len(w) // 2

    def lin(k):
        return x @ w[k].T + b[k] + h @ w[g + k].T + b[g + k]

    if mode == "lstm":
        i, f, o = _sigmoid(lin(0)), _sigmoid(lin(1)), _sigmoid(lin(3))
        c = f * c + i * np.tanh(lin(2))
        return o * np.tanh(c), c
    if mode == "gru":
        r, u = _sigmoid(lin(0)), _sigmoid(lin(1))
        candidate = np.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
        return (1 - u) * candidate + u * h, None
    return (np.tanh if mode == "rnn_tanh" else lambda z: np.maximum(z, 0))(lin(0)), None


def _numpy_forward(mode, direction, weights, biases, x, h0, c0):
    dirs = 1 if direction == "unidirectional" else 2
    per = 2 * GATES[mode]
    finals_h, finals_c = [], []
    for layer in range(cases.LAYERS):
        outs = []
        for d in range(dirs):
            p = layer * dirs + d
            w, b = weights[p * per : (p + 1) * per], biases[p * per : (p + 1) * per]
            h, c = h0[p], c0[p]
            steps = range(x.shape[0]) if d == 0 else reversed(range(x.shape[0]))
            out = np.zeros(x.shape[:2] + (cases.UNITS,))
            for t in steps:
                h, c = _numpy_step(mode, w, b, x[t], h, c)
                out[t] = h
            outs.append(out)
            finals_h.append(h)
            finals_c.append(c)
        x = np.concatenate(outs, axis=2)
    return x, np.stack(finals_h), (np.stack(finals_c) if mode == "lstm" else None)


@pytest.mark.parametrize("mode", sorted(LAYERS))
@pytest.mark.parametrize("direction", ["unidirectional", "bidirectional"])
def test_numpy_cudnn_equations_with_two_biases(mode, direction):
    rng = np.random.RandomState(len(mode) + len(direction))
    weights, biases, opaque = _numpy_cu_canonical(mode, direction, cases.D, rng)
    dirs = 1 if direction == "unidirectional" else 2
    xv = rng.uniform(-1, 1, (cases.T, cases.B, cases.D)).astype(np.float32)
    h0 = rng.uniform(-1, 1, (cases.LAYERS * dirs, cases.B, cases.UNITS)).astype(np.float32)
    c0 = rng.uniform(-1, 1, h0.shape).astype(np.float32)
    graph = tf.Graph()
    with graph.as_default():
        layer = LAYERS[mode](cases.LAYERS, cases.UNITS, direction=direction)
        state = (tf.constant(h0), tf.constant(c0)) if mode == "lstm" else (tf.constant(h0),)
        out, states = layer(tf.constant(xv), state, training=False)
        with v1.Session() as sess:
            sess.run(v1.assign(layer.kernel, opaque, validate_shape=False))
            got = sess.run([out, states])
    want_out, want_h, want_c = _numpy_forward(mode, direction, weights, biases, xv, h0, c0)
    np.testing.assert_allclose(got[0], want_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1][0], want_h, rtol=1e-5, atol=1e-6)
    if mode == "lstm":
        np.testing.assert_allclose(got[1][1], want_c, rtol=1e-5, atol=1e-6)


def _numpy_tf_canonical(mode, weights, biases):
    """TF 1.15's canonical form of one layer-direction (its saveable's conversion, in NumPy)."""
    g = GATES[mode]
    if mode == "lstm":
        order = [0, 2, 1, 3]  # cuDNN i, f, c, o -> TF i, c, f, o
        kernel = np.concatenate([np.concatenate([weights[k], weights[g + k]], 1) for k in order], 0).T
        return [kernel], [np.concatenate([biases[k] + biases[g + k] for k in order])]
    if mode == "gru":
        gates = np.concatenate([np.concatenate([weights[k], weights[g + k]], 1) for k in (0, 1)], 0).T
        bias = np.concatenate([biases[0] + biases[3], biases[1] + biases[4]])
        return [gates, weights[2].T, weights[5].T], [bias, biases[2], biases[5]]
    return [np.concatenate([weights[0], weights[1]], 1).T], [biases[0] + biases[1]]


@pytest.mark.parametrize("mode", sorted(LAYERS))
def test_opaque_layout_against_numpy(mode):
    direction = "bidirectional"
    rng = np.random.RandomState(3)
    weights, biases, opaque = _numpy_cu_canonical(mode, direction, cases.D, rng)
    per = 2 * GATES[mode]
    want_w, want_b = [], []
    for p in range(cases.LAYERS * 2):
        w, b = _numpy_tf_canonical(mode, weights[p * per : (p + 1) * per], biases[p * per : (p + 1) * per])
        want_w += w
        want_b += b
    layer_cls = LAYERS[mode]
    graph = tf.Graph()
    with graph.as_default():
        conv = layer_cls._converter_cls(cases.LAYERS, cases.UNITS, cases.D, direction=direction)
        assert conv.opaque_size() == opaque.size
        packed = conv.cu_canonical_to_opaque([tf.constant(w) for w in weights], [tf.constant(b) for b in biases])
        tf_w, tf_b = conv.opaque_to_tf_canonical(tf.constant(opaque))
        back = conv.tf_canonical_to_opaque([tf.constant(a) for a in want_w + want_b])
        with v1.Session() as sess:
            packed_v, tf_w_v, tf_b_v, back_v = sess.run([packed, tf_w, tf_b, back])
    np.testing.assert_array_equal(packed_v, opaque)
    for got, want in zip(tf_w_v + tf_b_v, want_w + want_b):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    # Back to opaque, a summed bias pair becomes two halves (TF 1.15's split); GRU's candidate biases stay apart.
    nw = sum(w.size for w in weights)
    np.testing.assert_array_equal(back_v[:nw], opaque[:nw])
    g = GATES[mode]
    want = []
    for p in range(cases.LAYERS * 2):
        b = biases[p * 2 * g : (p + 1) * 2 * g]
        pair = [0.5 * (b[k] + b[g + k]) for k in range(g)]
        if mode == "gru":
            pair[2] = None
        want += [b[k] if pair[k] is None else pair[k] for k in range(g)]
        want += [b[g + k] if pair[k] is None else pair[k] for k in range(g)]
    np.testing.assert_allclose(back_v[nw:], np.concatenate(want), rtol=1e-6)


def test_time_major_false_and_inference_dropout():
    xv = np.random.RandomState(0).uniform(-1, 1, (4, 2, 3)).astype(np.float32)
    graph = tf.Graph()
    with graph.as_default():
        layer = cudnn_rnn.CudnnGRU(2, 3, dropout=0.5, seed=1, kernel_initializer=v1.constant_initializer(0.1))
        tm, _ = layer(tf.constant(xv), training=False)
        bm, _ = layer(tf.constant(xv.transpose(1, 0, 2)), time_major=False, training=False)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            tm_v, bm_v = sess.run([tm, bm])
        assert len(v1.global_variables()) == 1
    np.testing.assert_allclose(bm_v.transpose(1, 0, 2), tm_v, rtol=1e-6)


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: cudnn_rnn.CudnnLSTM(1, 2, direction="both"), ValueError, "Invalid direction: both, expecting"),
        (
            lambda: cudnn_rnn.CudnnLSTM(1, 2, input_mode="x"),
            ValueError,
            r"Invalid input_mode: x, expect one of \(linear_input, skip_input, auto_select\)",
        ),
        (lambda: cudnn_rnn.CudnnGRU(1, 2, dtype=tf.int32), ValueError, "Only support float16, float32, float64"),
        (lambda: cudnn_rnn.CudnnGRU(0, 2), ValueError, "num_layers: expected a positive integer, got 0"),
        (lambda: cudnn_rnn.CudnnLSTM(1, 2)(tf.ones([2, 3])), ValueError, "Expecting input_shape with 3 dims, got 2"),
        (
            lambda: cudnn_rnn.CudnnLSTM(1, 2)(tf.ones([2, 1, 3]), initial_state=[tf.zeros([1, 1, 2])] * 2),
            TypeError,
            "Invalid initial_state type",
        ),
        (
            lambda: cudnn_rnn.CudnnRNNTanh(1, 3, input_mode="skip_input")(tf.ones([2, 1, 3])),
            NotImplementedError,
            "run skip_input only on a GPU",
        ),
    ],
)
def test_bad_arguments(make, error, message):
    with tf.Graph().as_default():
        with pytest.raises(error, match=message):
            make()


@pytest.mark.skipif(not tf.config.list_physical_devices("GPU"), reason="needs a GPU (TF's cuDNN kernels)")
@pytest.mark.parametrize("mode", sorted(LAYERS))
def test_gpu_kernels_agree_with_the_cpu_path_and_layout(mode):
    from tf1clip.contrib.cudnn_rnn.python.ops import cudnn_rnn_ops

    rng = np.random.RandomState(9)
    weights, biases, opaque = _numpy_cu_canonical(mode, "bidirectional", cases.D, rng)
    xv = rng.uniform(-1, 1, (cases.T, cases.B, cases.D)).astype(np.float32)
    results = []
    for gpu in (True, False):
        graph = tf.Graph()
        with graph.as_default():
            layer = LAYERS[mode](cases.LAYERS, cases.UNITS, direction="bidirectional")
            original = cudnn_rnn_ops.gpu_available
            cudnn_rnn_ops.gpu_available = lambda gpu=gpu: gpu
            try:
                out, _ = layer(tf.constant(xv), training=False)
                opaque_t = layer._converter.cu_canonical_to_opaque(weights, biases)
            finally:
                cudnn_rnn_ops.gpu_available = original
            with v1.Session() as sess:
                packed = sess.run(opaque_t)
                sess.run(v1.assign(layer.kernel, packed, validate_shape=False))
                results.append((packed, sess.run(out)))
    if results[0][0].size == opaque.size:  # cuDNN versions that pad the buffer have another layout
        np.testing.assert_array_equal(results[0][0], opaque)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-4, atol=1e-5)
