"""tf1clip.contrib.crf computes TF 1.15's tf.contrib.crf.

tests/data/tf115_crf/make_refs.py ran the graphs of crf_cases.py once on TF 1.15.5 (refs.json: outputs, gradients,
variable names, viterbi_decode); here the same graphs are built with tf1clip.contrib.crf and must match to
rtol 1e-5. Independently, every score is checked against a NumPy brute force over all tag sequences of tiny
problems (log norm, Viterbi argmax, multitag scores) and the gradients of the log norm against the CRF's
marginals, for sequence lengths 0, 1 and the full length.
"""

import itertools
import json
import os
import sys

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import crf

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_crf")
sys.path.insert(0, DATA)

import crf_cases as cases  # noqa: E402

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

v1 = tf.compat.v1


def test_refs_cover_every_case():
    assert REFS["tensorflow"].startswith("1.15")
    assert sorted(REFS["cases"]) == sorted(cases.CASES)


# dynamic_shapes takes 15-30 s (measured at load 4-13), the others under 6 s: in the full suite only.
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n == "dynamic_shapes" else n for n in sorted(cases.CASES)]
)
def test_matches_tf115(name):
    got, ref = cases.run_case(tf, crf, name), REFS["cases"][name]
    assert got["variables"] == ref["variables"]
    assert sorted(got["outputs"]) == sorted(ref["outputs"])
    for key, value in ref["outputs"].items():
        assert np.shape(got["outputs"][key]) == np.shape(value), key
        np.testing.assert_allclose(got["outputs"][key], value, rtol=1e-5, atol=1e-6, err_msg="output " + key)
    assert sorted(got["grads"]) == sorted(ref["grads"])
    for key, value in ref["grads"].items():
        np.testing.assert_allclose(got["grads"][key], value, rtol=1e-5, atol=1e-6, err_msg="gradient " + key)


def test_viterbi_decode_matches_tf115():
    assert cases.viterbi_cases(crf) == REFS["viterbi"]


def test_transitions_variable_is_tf115s():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.zeros([2, 3, 4])
        tags = tf.zeros([2, 3], tf.int32)
        with v1.variable_scope("tagger"):
            _, trans = crf.crf_log_likelihood(x, tags, tf.constant([3, 2]))
        assert trans.op.name == "tagger/transitions"
        assert trans.shape.as_list() == [4, 4]
        assert v1.trainable_variables() == [trans]
        with pytest.raises(ValueError, match="Variable tagger/transitions already exists"):
            with v1.variable_scope("tagger"):
                crf.crf_log_likelihood(x, tags, tf.constant([3, 2]))


def _brute(unary, trans, length, allowed=None):
    """All tag sequences of ``length``: (log-sum-exp of scores, best sequence, best score, marginals)."""
    num_tags = unary.shape[1]
    scores, seqs = [], []
    for seq in itertools.product(range(num_tags), repeat=length):
        if allowed is not None and not all(allowed[t, s] for t, s in enumerate(seq)):
            continue
        score = sum(unary[t, s] for t, s in enumerate(seq)) + sum(trans[a, b] for a, b in zip(seq, seq[1:]))
        scores.append(score)
        seqs.append(seq)
    scores = np.array(scores, np.float64)
    log_norm = np.logaddexp.reduce(scores)
    probs = np.exp(scores - log_norm)
    marg_unary, marg_trans = np.zeros(unary.shape), np.zeros(trans.shape)
    for p, seq in zip(probs, seqs):
        for t, s in enumerate(seq):
            marg_unary[t, s] += p
        for a, b in zip(seq, seq[1:]):
            marg_trans[a, b] += p
    best = int(np.argmax(scores))
    return log_norm, list(seqs[best]), scores[best], marg_unary, marg_trans


def _run(unary, tags, lengths, trans, bitmap):
    graph = tf.Graph()
    with graph.as_default():
        x, t = tf.constant(unary), tf.constant(trans)
        lens = tf.constant(lengths)
        log_norm = crf.crf_log_norm(x, lens, t)
        grads = [g if g is not None else tf.zeros_like(t) for g in tf.gradients(tf.reduce_sum(log_norm), [x, t])]
        fetches = {
            "log_norm": log_norm,
            "grads": grads,
            "sequence": crf.crf_sequence_score(x, tf.constant(tags), lens, t),
            "ll": crf.crf_log_likelihood(x, tf.constant(tags), lens, t)[0],
            "decode": crf.crf_decode(x, t, lens),
            "multitag": crf.crf_multitag_sequence_score(x, tf.constant(bitmap), lens, t),
        }
        with v1.Session(graph=graph) as sess:
            return sess.run(fetches)


@pytest.mark.parametrize("max_len", [1, 2, 4])
def test_against_brute_force(max_len):
    rng = np.random.RandomState(max_len)
    num_tags, lengths = 3, [max_len, 1, 0, max(max_len - 1, 0)]
    unary = rng.uniform(-2, 2, (len(lengths), max_len, num_tags)).astype(np.float32)
    trans = rng.uniform(-2, 2, (num_tags, num_tags)).astype(np.float32)
    tags = rng.randint(0, num_tags, (len(lengths), max_len)).astype(np.int32)
    bitmap = rng.uniform(size=unary.shape) < 0.6
    bitmap[..., 0] = True
    got = _run(unary, tags, lengths, trans, bitmap)
    want_trans_grad = np.zeros_like(trans, np.float64)
    for b, length in enumerate(lengths):
        if length == 0:
            assert got["log_norm"][b] == 0 and got["sequence"][b] == 0 and got["ll"][b] == 0
            assert got["grads"][0][b].tolist() == np.zeros_like(unary[b]).tolist()
            continue
        log_norm, best, best_score, marg_unary, marg_trans = _brute(unary[b], trans, length)
        seq = tags[b, :length]
        score = unary[b, np.arange(length), seq].sum() + trans[seq[:-1], seq[1:]].sum()
        np.testing.assert_allclose(got["log_norm"][b], log_norm, rtol=1e-5)
        np.testing.assert_allclose(got["sequence"][b], score, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(got["ll"][b], score - log_norm, rtol=1e-5, atol=1e-5)
        assert got["decode"][0][b, :length].tolist() == best
        assert got["decode"][0][b, length:].tolist() == [0] * (max_len - length)
        np.testing.assert_allclose(got["decode"][1][b], best_score, rtol=1e-5)
        np.testing.assert_allclose(got["grads"][0][b, :length], marg_unary[:length], atol=1e-5)
        np.testing.assert_allclose(got["grads"][0][b, length:], 0, atol=0)
        want_trans_grad += marg_trans
        if max_len > 1:
            multitag = _brute(unary[b], trans, length, allowed=bitmap[b])[0]
            np.testing.assert_allclose(got["multitag"][b], multitag, rtol=1e-5)
    np.testing.assert_allclose(got["grads"][1], want_trans_grad, atol=1e-5)


def test_single_step_multitag_ignores_lengths_as_tf115():
    unary = np.array([[[1.0, 2.0, 3.0]], [[0.5, -1.0, 0.0]]], np.float32)
    bitmap = np.array([[[True, False, True]], [[False, True, False]]])
    got = _run(unary, np.zeros((2, 1), np.int32), [1, 0], np.zeros((3, 3), np.float32), bitmap)
    np.testing.assert_allclose(got["multitag"], [np.logaddexp(1.0, 3.0), -1.0], rtol=1e-6)
    assert got["decode"][0].tolist() == [[2], [0]]
    np.testing.assert_allclose(got["decode"][1], [3.0, 0.5])


def test_viterbi_decode_against_brute_force():
    rng = np.random.RandomState(7)
    for length in (1, 2, 3, 5):
        score = rng.uniform(-2, 2, (length, 4))
        trans = rng.uniform(-2, 2, (4, 4))
        _, best, best_score, _, _ = _brute(score, trans, length)
        path, value = crf.viterbi_decode(score, trans)
        assert [int(p) for p in path] == best
        np.testing.assert_allclose(value, best_score, rtol=1e-12)


def test_cells_run_under_dynamic_rnn_with_zero_state():
    graph = tf.Graph()
    with graph.as_default():
        cell = crf.CrfForwardRnnCell(tf.zeros([3, 3]))
        assert (cell.state_size, cell.output_size) == (3, 3)
        zero = cell.zero_state(2, tf.float32)
        assert zero.shape.as_list() == [2, 3]
        alphas, state = v1.nn.dynamic_rnn(cell, tf.ones([2, 4, 3]), dtype=tf.float32)
        with v1.Session(graph=graph) as sess:
            zero_v, alphas_v, state_v = sess.run([zero, alphas, state])
    assert zero_v.tolist() == [[0.0] * 3] * 2
    want = np.zeros(3)
    for step in range(4):
        want = 1.0 + np.logaddexp.reduce(want) + np.zeros(3)
        np.testing.assert_allclose(alphas_v[:, step], [want, want], rtol=1e-6)
    np.testing.assert_allclose(state_v, [want, want], rtol=1e-6)


def test_every_name_resolves_and_unknown_names_raise():
    import tf1clip.contrib.crf.crf as module

    assert [getattr(crf, name) for name in crf.__all__] == [getattr(module, name) for name in crf.__all__]
    assert sorted(crf.__all__) == sorted(module.__all__)
    with pytest.raises(AttributeError, match="module 'tf1clip.contrib.crf' has no attribute 'nope'"):
        crf.nope  # noqa: B018


def test_upgrade_converts_every_spelling_without_errors():
    from tf1clip.upgrade import upgrade_source

    source = """\
import tensorflow as tf
from tensorflow.contrib import crf
import tensorflow.contrib.crf as crf2
from tensorflow.contrib.crf import viterbi_decode
from tensorflow.contrib.crf.python.ops import crf as crf3
from tensorflow.contrib.crf.python.ops.crf import crf_decode
ll, t = tf.contrib.crf.crf_log_likelihood(x, tags, lengths)
a = [crf.crf_decode, crf2.crf_log_norm, crf3.CrfForwardRnnCell, viterbi_decode, crf_decode]
"""
    result = upgrade_source(source, target="modern")
    assert [(e.line, e.message) for e in result.log if e.severity == "ERROR"] == []
    assert result.text.splitlines() == [
        "import tensorflow as tf",
        "import tf1clip.contrib",
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior",
        "from tf1clip.contrib import crf",
        "import tf1clip.contrib.crf as crf2",
        "from tf1clip.contrib.crf import viterbi_decode",
        "from tf1clip.contrib import crf as crf3",
        "from tf1clip.contrib.crf import crf_decode",
        "ll, t = tf1clip.contrib.crf.crf_log_likelihood(x, tags, lengths)",
        "a = [crf.crf_decode, crf2.crf_log_norm, crf3.CrfForwardRnnCell, viterbi_decode, crf_decode]",
    ]
    unknown = upgrade_source("import tensorflow as tf\ny = tf.contrib.crf.crf_forward(x)\n", target="modern")
    errors = [e.message for e in unknown.log if e.severity == "ERROR"]
    assert len(errors) == 1 and "tf1clip.contrib.crf re-creates TF 1.15's public crf names" in errors[0]
