"""tf1clip.contrib.rnn, cudnn_rnn's compatible cells and legacy_seq2seq in TF 1 mode: TF 1.15's numbers and NumPy's.

The quick half of tests/oracle/test_contrib_rnn.py: the cases of tests/data/tf115_rnn/cases.py that build in a few
seconds, in this process (the companion: Keras 2, ``disable_v2_behavior()``, as an upgraded TF 1 program runs),
restored from TF 1.15.5's checkpoints and compared with its recorded outputs and gradients. The oracle test runs
every case with control flow v2 and resource variables. The cells' equations are also checked against NumPy.
"""

import json
import os
import types

import numpy as np
import pytest
import tensorflow as tf
from helpers import assert_matches_recorded, load_cases

from tf1clip.contrib import cudnn_rnn, legacy_seq2seq, rnn

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_rnn")
cases = load_cases(DATA)
with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

v1 = tf.compat.v1
# Build in a few seconds each; grid_lstm, the embedding/attention/bucket seq2seq models, cifg, phased_lstm and
# compiled take 10-60 s and stay in the oracle test.
QUICK = [
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
    "nas",
    "lstm_block_fused",
    "ugrnn_glstm",
    "sru_ind",
    "time_freq_lstm",
    "conv_lstm",
]


def test_quick_cases_are_recorded_cases():
    assert set(QUICK) < set(cases.CASES) and sorted(REFS["cases"]) == sorted(cases.CASES)


@pytest.mark.parametrize("name", QUICK)
def test_matches_tf115(name):
    M = types.SimpleNamespace(rnn=rnn, seq2seq=legacy_seq2seq, cudnn=cudnn_rnn)
    got = cases.run_case(tf, M, name, os.path.join(DATA, "ckpt", name), save=False)
    assert_matches_recorded(got, REFS["cases"][name])


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _run_cell(cell, x, state):
    """One step of ``cell`` on ``x`` from ``state`` (NumPy; a tuple makes an LSTMStateTuple), with every variable
    set to a fixed pattern; returns the variables' values (by name suffix), the output and the new state."""
    with tf.Graph().as_default():
        state = rnn.LSTMStateTuple(*map(tf.constant, state)) if isinstance(state, tuple) else tf.constant(state)
        out, new_state = cell(tf.constant(x), state)
        variables = v1.trainable_variables()
        values = {
            v.op.name.rsplit("/", 1)[-1]: np.cos(np.arange(v.shape.num_elements())).reshape(v.shape) * 0.5
            for v in variables
        }
        with v1.Session() as sess:
            for v in variables:
                v.load(values[v.op.name.rsplit("/", 1)[-1]], sess)
            got = sess.run([out, new_state])
    return values, got


def test_lstm_block_cell_is_the_peephole_lstm_of_tf115s_kernel():
    """LSTMBlockCell's gates in TF 1.15's LSTMBlockCell kernel order (i, cs, f, o), forget_bias, peepholes, cell
    clip."""
    rng = np.random.RandomState(0)
    x, c, h = (rng.uniform(-1, 1, shape).astype(np.float32) for shape in [(2, 3), (2, 4), (2, 4)])
    cell = rnn.LSTMBlockCell(4, forget_bias=0.7, use_peephole=True, cell_clip=0.3)
    values, (out, (new_c, new_h)) = _run_cell(cell, x, (c, h))
    i, ci, f, o = np.split(np.concatenate([x, h], 1) @ values["kernel"] + values["bias"], 4, axis=1)
    i = _sigmoid(i + c * values["w_i_diag"])
    f = _sigmoid(f + 0.7 + c * values["w_f_diag"])
    want_c = np.clip(f * c + i * np.tanh(ci), -0.3, 0.3)
    want_h = _sigmoid(o + want_c * values["w_o_diag"]) * np.tanh(want_c)
    np.testing.assert_allclose(new_c, want_c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(new_h, want_h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out, want_h, rtol=1e-5, atol=1e-6)


def test_gru_block_cell_is_tf115s_gru():
    """GRUBlockCell: r and u from one kernel (r first), the candidate from the reset state; h = u*h + (1-u)*c."""
    rng = np.random.RandomState(1)
    x, h = rng.uniform(-1, 1, (2, 3)).astype(np.float32), rng.uniform(-1, 1, (2, 4)).astype(np.float32)
    values, (out, new_h) = _run_cell(rnn.GRUBlockCell(4), x, h)
    r, u = np.split(_sigmoid(np.concatenate([x, h], 1) @ values["w_ru"] + values["b_ru"]), 2, axis=1)
    cand = np.tanh(np.concatenate([x, r * h], 1) @ values["w_c"] + values["b_c"])
    np.testing.assert_allclose(new_h, u * h + (1 - u) * cand, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out, new_h)


def test_sequence_loss_by_example_is_weighted_cross_entropy():
    rng = np.random.RandomState(2)
    logits = [rng.normal(size=(3, 5)).astype(np.float32) for _ in range(2)]
    targets = [rng.randint(0, 5, 3).astype(np.int32) for _ in range(2)]
    weights = [np.array([1.0, 0.5, 0.0], np.float32), np.array([1.0, 0.0, 0.0], np.float32)]
    with tf.Graph().as_default():
        args = ([tf.constant(t) for t in logits], [tf.constant(t) for t in targets], [tf.constant(w) for w in weights])
        per_example = legacy_seq2seq.sequence_loss_by_example(*args)
        total = legacy_seq2seq.sequence_loss(*args, average_across_timesteps=False, average_across_batch=False)
        with v1.Session() as sess:
            per_example, total = sess.run([per_example, total])
    xent = np.stack([np.log(np.exp(lg).sum(1)) - lg[np.arange(3), t] for lg, t in zip(logits, targets)])
    crossed = (xent * np.stack(weights)).sum(0)
    # TF 1.15 divides by the summed weights plus 1e-12, so a row of zero weights gives 0.
    np.testing.assert_allclose(per_example, crossed / (np.stack(weights).sum(0) + 1e-12), rtol=1e-5)
    np.testing.assert_allclose(total, crossed.sum(), rtol=1e-5)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: rnn.LSTMBlockCell(0), ValueError, r"num_units: expected a positive integer, got 0"),
        (lambda: rnn.GRUBlockCell(), ValueError, r"Exactly one of num_units or cell_size must be provided"),
        (lambda: rnn.InputProjectionWrapper("nope", 3), TypeError, r"cell: expected an RNN cell, got 'nope'"),
        (lambda: rnn.GLSTMCell(5, number_of_groups=2), ValueError, r"num_units must be divisible by number_of_groups"),
        (
            lambda: legacy_seq2seq.attention_decoder([], None, tf.zeros([2, 3, 4]), rnn.GRUCell(2)),
            ValueError,
            r"Must provide at least 1 input to attention decoder",
        ),
    ],
)
def test_bad_arguments_fail_as_in_tf115(make, error, message):
    with tf.Graph().as_default():
        with pytest.raises(error, match=message):
            make()


def test_every_public_name_of_tf115s_modules_resolves():
    assert "NASCell" in REFS["names"] and len(REFS["names"]) == 50
    assert sorted(set(REFS["names"]) - set(rnn.__all__)) == []
    for module in (rnn, legacy_seq2seq, cudnn_rnn):
        assert [n for n in module.__all__ if getattr(module, n) is None] == []
    assert rnn.LSTMCell is v1.nn.rnn_cell.LSTMCell and rnn.static_rnn is v1.nn.static_rnn
