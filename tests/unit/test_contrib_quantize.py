"""tf1clip.contrib.quantize in TF 2 behavior (resource variables, control flow v2): quant_ops against NumPy, the
rewrite of a resource-variable layer against TF 1.15's numbers, and its bad inputs.

The layer cases (tf.layers, slim: Keras 2, TF 1 mode) are compared with TF 1.15's recorded rewrites in
tests/keras2/test_contrib_quantize_tf115.py.
"""

import json
import os

import numpy as np
import pytest
import tensorflow as tf
from helpers import load_cases

from tf1clip.contrib import quantize
from tf1clip.contrib.quantize import quant_ops
from tf1clip.contrib.quantize.graph_matcher import GraphMatcher, OneofPattern, OpTypePattern

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_quantize")
cases = load_cases(DATA, "quantize_cases")
with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

v1 = tf.compat.v1


def np_fake_quant(x, lo, hi, bits=8, narrow_range=False):
    """TensorFlow's FakeQuantWithMinMaxVars: the range nudged so that 0 is a level, then rounded to the levels."""
    qmin, qmax = (1 if narrow_range else 0), 2**bits - 1
    lo, hi = np.float32(lo), np.float32(hi)
    scale = (hi - lo) / np.float32(qmax - qmin)
    zero = np.float32(qmin) - lo / scale
    nudged_zero = np.clip(np.floor(zero + np.float32(0.5)), qmin, qmax)
    nlo, nhi = (qmin - nudged_zero) * scale, (qmax - nudged_zero) * scale
    clamped = np.clip(np.asarray(x, np.float32), nlo, nhi)
    return np.floor((clamped - nlo) / scale + np.float32(0.5)) * scale + nlo


def _values(sess, *names):
    by_name = {v.op.name: v for v in v1.global_variables()}
    return [float(x) for x in sess.run([by_name[n] for n in names])]


def test_last_value_quantize_assigns_the_range_with_zero(graph):
    x = v1.placeholder(tf.float32, [None, 3])
    y = quant_ops.LastValueQuantize(x, name_prefix="layer/weights_quant", narrow_range=True)
    data = np.array([[0.3, 1.7, 0.9], [1.2, 0.05, 2.5]], np.float32)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        got = sess.run(y, {x: data})
        lo, hi = _values(sess, "layer/weights_quant/min", "layer/weights_quant/max")
    assert (lo, hi) == (0.0, 2.5)  # min(0, 0.05), max(0, 2.5)
    np.testing.assert_allclose(got, np_fake_quant(data, 0.0, 2.5, narrow_range=True), rtol=1e-6)


def test_moving_avg_quantize_is_a_zero_debiased_ema(graph):
    x = v1.placeholder(tf.float32, [None])
    y = quant_ops.MovingAvgQuantize(x, name_prefix="act_quant", ema_decay=0.9)
    names = sorted(v.op.name for v in v1.global_variables())
    assert names == [
        "act_quant/act_quant/max/biased",
        "act_quant/act_quant/max/local_step",
        "act_quant/act_quant/min/biased",
        "act_quant/act_quant/min/local_step",
        "act_quant/max",
        "act_quant/min",
    ]
    batches = [np.array(b, np.float32) for b in ([-1.0, 2.0], [-3.0, 0.5], [0.25, 4.0])]
    biased, expected = np.zeros(2), []
    for t, batch in enumerate(batches, 1):
        biased = biased - (biased - [min(batch.min(), 0), max(batch.max(), 0)]) * (1 - 0.9)
        expected.append(biased / (1 - 0.9**t))
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for batch, (lo, hi) in zip(batches, expected):
            got = sess.run(y, {x: batch})
            np.testing.assert_allclose(_values(sess, "act_quant/min", "act_quant/max"), [lo, hi], rtol=1e-5)
            np.testing.assert_allclose(got, np_fake_quant(batch, lo, hi), rtol=1e-5, atol=1e-6)


def test_eval_quantize_reads_the_variables(graph):
    x = v1.placeholder(tf.float32, [None])
    y = quant_ops.MovingAvgQuantize(x, name_prefix="q", is_training=False, init_min=-1.0, init_max=3.0, num_bits=4)
    assert not [
        op
        for op in graph.get_operations()
        if op.type in ("Assign", "AssignVariableOp", "Min")
        and "Initializer" not in op.name
        and not op.name.endswith("/Assign")
    ]
    data = np.linspace(-2, 4, 13).astype(np.float32)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        np.testing.assert_allclose(sess.run(y, {x: data}), np_fake_quant(data, -1.0, 3.0, bits=4), rtol=1e-6)


def test_symmetric_range():
    """symmetric=True widens the smaller side: [-m, m] for a narrow range, else [-m * 128/126, m]."""
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None])
        quant_ops.LastValueQuantize(x, symmetric=True, narrow_range=False, name_prefix="wide")
        quant_ops.LastValueQuantize(x, symmetric=True, narrow_range=True, name_prefix="narrow")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(["wide/FakeQuantWithMinMaxVars:0", "narrow/FakeQuantWithMinMaxVars:0"], {x: [-0.5, 2.0]})
            wide, narrow = _values(sess, "wide/min", "wide/max"), _values(sess, "narrow/min", "narrow/max")
    np.testing.assert_allclose(wide, [-2.0 * 256 / 254, 2.0], rtol=1e-6)
    np.testing.assert_allclose(narrow, [-2.0, 2.0], rtol=1e-6)


def test_resource_variable_layer_matches_tf115():
    """The recorded case whose layer is built from tf.nn and resource variables: TF 1.15's numbers, variables."""
    got, ref = cases.run_case(tf, quantize, None, "resource"), REFS["cases"]["resource"]
    assert got["variables"] == ref["variables"]
    assert [(n, t) for n, t, _ in got["added"] if t.startswith("FakeQuant")] == [
        (n, t) for n, t, _ in ref["added"] if t.startswith("FakeQuant")
    ]
    np.testing.assert_allclose(got["losses"], ref["losses"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["outputs"], ref["outputs"], rtol=1e-5, atol=1e-5)


def test_matcher_keeps_what_an_abandoned_permutation_matched(graph):
    """TF 1.15's unordered match merges a failed permutation's partial result; the rewrite relies on it."""
    a, b = tf.constant(1.0, name="a"), tf.constant(2.0, name="b")
    add = tf.add(tf.identity(a, name="ia"), b, name="add")
    ident = OpTypePattern("Identity")
    const = OpTypePattern("Const")
    pattern = OpTypePattern("AddV2", inputs=[const, OneofPattern([ident])], ordered_inputs=False)
    match = GraphMatcher(pattern).match_op(add.op)
    assert match.get_op(pattern) is add.op
    assert match.get_op(ident).name == "ia" and match.get_op(const).name == "b"
    assert GraphMatcher(OpTypePattern("MatMul")).match_op(add.op) is None


def _layer():
    x = v1.placeholder(tf.float32, [None, 2])
    w = v1.get_variable("fc/kernel", [2, 2])
    return tf.nn.relu(tf.matmul(x, w, name="fc/MatMul"), name="fc/Relu")


def test_training_op_in_graph_is_tf115s_error(graph):
    loss = tf.reduce_sum(_layer())
    v1.train.GradientDescentOptimizer(0.1).minimize(loss)
    kind, message = REFS["errors"]["training_op"]
    with pytest.raises(ValueError) as err:
        quantize.create_training_graph()
    assert (type(err.value).__name__, str(err.value)) == (
        kind,
        message.replace("ApplyGradientDescent", "ResourceApplyGradientDescent"),
    )


def test_inference_batch_norm_folds_into_the_weights(graph):
    """gamma * (conv(x, w) - mean) / sqrt(var + eps) + beta == conv(x, w * gamma / sqrt(var + eps)) + folded bias."""
    rng = np.random.RandomState(0)
    x = v1.placeholder(tf.float32, [None, 4, 4, 1])
    w = v1.get_variable("conv/weights", initializer=rng.randn(3, 3, 1, 2).astype(np.float32))
    conv = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME", name="conv/Conv2D")
    gamma, beta, mean, var = (np.array(v, np.float32) for v in ([1.5, 0.5], [0.1, -0.2], [0.3, -0.1], [0.8, 2.0]))
    y, _, _ = v1.nn.fused_batch_norm(
        conv, gamma, beta, mean, var, epsilon=0.001, is_training=False, name="conv/BatchNorm/FusedBatchNormV3"
    )
    out = tf.identity(y, name="out")
    data = rng.uniform(-1, 1, (2, 4, 4, 1)).astype(np.float32)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        unfolded = sess.run(out, {x: data})
        from tf1clip.contrib.quantize import fold_batch_norms

        fold_batch_norms.FoldBatchNorms(graph, is_training=False)
        assert out.op.inputs[0].op.name == "conv/add_fold" and out.op.inputs[0].op.type == "Add"
        folded = sess.run(out, {x: data})
        multiplier = gamma / np.sqrt(var + np.float32(0.001))
        np.testing.assert_allclose(sess.run("conv/mul_fold:0"), sess.run(w) * multiplier, rtol=1e-6)
    np.testing.assert_allclose(folded, unfolded, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"input_graph": "graph"}, TypeError, "input_graph must be a tf.Graph or None, got 'graph'"),
        ({"quant_delay": "5"}, TypeError, "quant_delay must be an int or None, got '5'"),
        ({"quant_delay": 2.5}, TypeError, "quant_delay must be an int or None, got 2.5"),
        ({"weight_bits": 1}, ValueError, r"weight_bits must be an int in \[2, 16\], got 1"),
        ({"activation_bits": 8.0}, ValueError, r"activation_bits must be an int in \[2, 16\], got 8.0"),
        ({"freeze_bn_delay": "x"}, TypeError, "freeze_bn_delay must be an int or None, got 'x'"),
        ({"scope": 3}, TypeError, "scope must be a str or None, got 3"),
    ],
)
def test_bad_arguments(graph, kwargs, error, match):
    _layer()
    with pytest.raises(error, match=match):
        quantize.experimental_create_training_graph(**kwargs)


def test_eval_graph_names_equal_the_training_graph_names():
    """A checkpoint of the training graph restores the eval graph: the same variable names but the EMA's."""

    def variables(rewrite):
        with tf.Graph().as_default():
            _layer()
            rewrite()
            return {v.op.name for v in v1.global_variables()}

    train = variables(lambda: quantize.create_training_graph(quant_delay=3))
    evaluation = variables(quantize.create_eval_graph)
    assert evaluation == {
        "fc/kernel",
        "fc/weights_quant/min",
        "fc/weights_quant/max",
        "fc/act_quant/min",
        "fc/act_quant/max",
    }
    assert evaluation < train


def test_public_names():
    assert sorted(quantize.__all__) == sorted(
        [
            "create_eval_graph",
            "create_training_graph",
            "experimental_create_eval_graph",
            "experimental_create_training_graph",
        ]
    )


def test_quant_delay_with_control_flow_v2(graph):
    """With control flow v2 (TF 2 behavior) the delay is a v2 cond, which TF 1.15 built too in that mode: the first
    run is float, the next ones quantized, and the step counts the runs."""
    x = v1.placeholder(tf.float32, [None, 2])
    w = v1.get_variable("fc/kernel", initializer=[[0.3, -0.7], [1.1, 0.2]])
    y = tf.nn.relu6(tf.matmul(x, w, name="fc/MatMul"), name="fc/Relu6")
    quantize.create_training_graph(quant_delay=2)
    assert {"If", "StatelessIf"} & {op.type for op in graph.get_operations()}
    feed = {x: [[0.5, -1.0], [0.25, 0.75]]}
    exact = np.maximum(np.dot(feed[x], [[0.3, -0.7], [1.1, 0.2]]), 0)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        runs = [sess.run(y, feed) for _ in range(3)]
        assert _values(sess, "fake_quantization_step") == [3.0]
    np.testing.assert_allclose(runs[0], exact, rtol=1e-6)
    for run in runs[1:]:
        assert not np.allclose(run, exact, rtol=1e-6, atol=0)
