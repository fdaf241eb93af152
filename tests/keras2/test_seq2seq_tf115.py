"""tf1clip.contrib.seq2seq in TF 1 mode (v1 control flow, reference variables: what tf1clip-upgrade gives a TF 1
program) against TF 1.15.5's recorded numbers.

Decoding (tests/data/tf115_seq2seq_decode): every case of cases.py (sequence_loss reductions, TrainingHelper /
GreedyEmbeddingHelper / BasicDecoder / dynamic_decode, BeamSearchDecoder with length and coverage penalties,
gather_tree, the sampling and custom helpers), three Adam steps clipped by global norm, and the errors of bad
inputs; tests/oracle/test_contrib_seq2seq_decode.py runs the cases again with control flow v2. Attention
(tests/data/tf115_seq2seq/attention): the mechanisms and wrappers that build in a few seconds;
tests/oracle/test_contrib_seq2seq_attention.py runs every case with control flow v2. Each case restores TF 1.15's
checkpoint and must have its variables, outputs and gradients (rtol 1e-5).
"""

import json
import os
import re
import types

import numpy as np
import pytest
import tensorflow as tf
from helpers import assert_matches_recorded, load_cases

import tf1clip
from tf1clip.contrib import seq2seq

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECODE = os.path.join(TESTS, "data", "tf115_seq2seq_decode")
ATTENTION = os.path.join(TESTS, "data", "tf115_seq2seq", "attention")
decode_cases = load_cases(DECODE)
attention_cases = load_cases(ATTENTION, "attention_cases")
with open(os.path.join(DECODE, "refs.json")) as _f:
    DECODE_REFS = json.load(_f)
with open(os.path.join(ATTENTION, "refs.json")) as _f:
    ATTENTION_REFS = json.load(_f)

v1 = tf.compat.v1
# The decoding cases that take longer than a few seconds to build: in the full suite only.
SLOW_DECODE = ("beam_attention_coverage", "sampling_helpers", "output_sampling_aux", "multi_dropout")
QUICK_ATTENTION = (
    "bahdanau",
    "bahdanau_normalize",
    "luong_scale",
    "bahdanau_monotonic_parallel",
    "luong_monotonic_hard",
    "encoder_state",
    "float64",
    "functions",
)


def test_refs_cover_every_case():
    assert DECODE_REFS["tensorflow"].startswith("1.15") and ATTENTION_REFS["tensorflow"].startswith("1.15")
    assert sorted(DECODE_REFS["cases"]) == sorted(decode_cases.CASES)
    assert set(SLOW_DECODE) < set(decode_cases.CASES) and set(QUICK_ATTENTION) < set(attention_cases.CASES)


@pytest.mark.parametrize(
    "name", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_DECODE else c for c in decode_cases.CASES]
)
def test_decoding_matches_tf115(name):
    checkpoint = os.path.join(DECODE, "ckpt", name)
    got = decode_cases.run_case(tf, seq2seq, name, checkpoint, save=False)
    assert_matches_recorded(got, DECODE_REFS["cases"][name])


@pytest.mark.parametrize("name", QUICK_ATTENTION)
def test_attention_matches_tf115(name):
    M = types.SimpleNamespace(s2s=seq2seq)
    checkpoint = os.path.join(ATTENTION, "ckpt", name)
    got = attention_cases.run_case(tf, M, name, checkpoint, save=False)
    assert_matches_recorded(got, ATTENTION_REFS["cases"][name], none_gradient_is_zeros=True)


def _wrapped_adam(optimizer, loss):
    return tf1clip.clip_gradients_by_norm(optimizer, 0.5).minimize(loss)


@pytest.mark.parametrize("label", ["clip_by_global_norm", "clip_gradients_by_norm"])
def test_clipped_adam_steps_match_tf115(label):
    clip = decode_cases.clip_global_norm(tf) if label == "clip_by_global_norm" else _wrapped_adam
    got = decode_cases.run_training(tf, seq2seq, clip, os.path.join(DECODE, "ckpt", "train"), save=False)
    ref = DECODE_REFS["train"]
    np.testing.assert_allclose(got["losses"], ref["losses"], rtol=1e-5)
    assert sorted(got["values"]) == sorted(ref["values"])
    for name, value in ref["values"].items():
        np.testing.assert_allclose(got["values"][name], value, rtol=1e-4, atol=1e-6, err_msg=name)


def _cell():
    return v1.nn.rnn_cell.LSTMCell(3)


def _helper():
    return seq2seq.TrainingHelper(tf.zeros([2, 3, 4]), [3, 2])


def _beam(batch, **kwargs):
    cell = _cell()
    return seq2seq.BeamSearchDecoder(cell, tf.zeros([5, 2]), [1, 1], 2, cell.zero_state(batch, tf.float32), 3, **kwargs)


def _loss(**kwargs):
    return lambda: seq2seq.sequence_loss(tf.zeros([2, 3, 4]), tf.zeros([2, 3], tf.int32), tf.zeros([2, 3]), **kwargs)


def _bad(message, make):
    return make, message


# TF 1.15's messages for bad inputs (tests/oracle/test_contrib_seq2seq_decode.py held them before).
BAD_INPUTS = {
    "logits_rank": _bad(
        r"ValueError: Logits must be a \[batch_size x sequence_length x logits\] tensor",
        lambda: seq2seq.sequence_loss(tf.zeros([2, 3]), tf.zeros([2, 3], tf.int32), tf.zeros([2, 3])),
    ),
    "targets_rank": _bad(
        r"ValueError: Targets must be a \[batch_size x sequence_length\] tensor",
        lambda: seq2seq.sequence_loss(tf.zeros([2, 3, 4]), tf.zeros([2], tf.int32), tf.zeros([2, 3])),
    ),
    "weights_rank": _bad(
        r"ValueError: Weights must be a \[batch_size x sequence_length\] tensor",
        lambda: seq2seq.sequence_loss(tf.zeros([2, 3, 4]), tf.zeros([2, 3], tf.int32), tf.zeros([2, 3, 4])),
    ),
    "avg_and_sum_t": _bad(
        r"ValueError: average_across_timesteps and sum_over_timesteps cannot be set to True",
        _loss(sum_over_timesteps=True),
    ),
    "avg_and_sum_b": _bad(
        r"ValueError: average_across_batch and sum_over_batch cannot be set to True",
        _loss(average_across_timesteps=False, sum_over_batch=True),
    ),
    "not_a_decoder": _bad(
        r"TypeError: Expected decoder to be type Decoder, but saw: <class 'str'>",
        lambda: seq2seq.dynamic_decode("decoder"),
    ),
    "max_iter_vector": _bad(
        r"ValueError: maximum_iterations must be a scalar",
        lambda: seq2seq.dynamic_decode(
            seq2seq.BasicDecoder(_cell(), _helper(), _cell().zero_state(2, tf.float32)), maximum_iterations=[3]
        ),
    ),
    "not_a_cell": _bad(
        r"TypeError: The argument 'cell' \(cell\) is not an RNNCell: 'output_size' property is missing",
        lambda: seq2seq.BasicDecoder("cell", _helper(), None),
    ),
    "not_a_helper": _bad(
        r"TypeError: helper must be a Helper, received: <class 'str'>",
        lambda: seq2seq.BasicDecoder(_cell(), "helper", None),
    ),
    "not_a_layer": _bad(
        r"TypeError: output_layer must be a Layer, received: <class 'str'>",
        lambda: seq2seq.BasicDecoder(_cell(), _helper(), None, output_layer="dense"),
    ),
    "length_matrix": _bad(
        r"ValueError: Expected sequence_length to be a vector, but received shape: \(1, 2\)",
        lambda: seq2seq.TrainingHelper(tf.zeros([2, 3, 4]), [[3, 2]]),
    ),
    "start_scalar": _bad(
        r"ValueError: start_tokens must be a vector", lambda: seq2seq.GreedyEmbeddingHelper(tf.zeros([5, 2]), 1, 2)
    ),
    "end_vector": _bad(
        r"ValueError: end_token must be a scalar",
        lambda: seq2seq.GreedyEmbeddingHelper(tf.zeros([5, 2]), [1, 1], [2]),
    ),
    "probability_matrix": _bad(
        r"ValueError: sampling_probability must be either a scalar or a vector. saw shape: \(1, 1\)",
        lambda: seq2seq.ScheduledOutputTrainingHelper(tf.zeros([2, 3, 4]), [3, 2], [[0.5]]),
    ),
    "custom_batch": _bad(
        r"ValueError: batch_size accessed before initialize was called",
        lambda: seq2seq.CustomHelper(None, None, None).batch_size,
    ),
    "beam_start": _bad(
        r"ValueError: start_tokens must be a vector",
        lambda: seq2seq.BeamSearchDecoder(_cell(), tf.zeros([5, 2]), 1, 2, _cell().zero_state(6, tf.float32), 3),
    ),
    "beam_state": _bad(r"ValueError: .*reshape a tensor with 15 elements to shape \[2,3,3\]", lambda: _beam(5)),
    "coverage_no_attention": _bad(
        r"ValueError: coverage_penalty_weight must be 0.0 if no cell is attentional.",
        lambda: seq2seq.dynamic_decode(_beam(6, coverage_penalty_weight=0.5)),
    ),
    "tile_scalar": _bad(
        r"ValueError: t must have statically known rank", lambda: seq2seq.tile_batch(tf.constant(1.0), 2)
    ),
    "gather_tree_rank": _bad(
        r"ValueError: step_ids must be a 3-tensor, saw shape: \(2, 3\)",
        lambda: seq2seq.gather_tree(tf.zeros([2, 3], tf.int32), tf.zeros([2, 3], tf.int32), [3, 3], 1),
    ),
    "probability_fn": _bad(
        r"TypeError: probability_fn must be callable, saw type: int$",
        lambda: seq2seq.LuongAttention(3, tf.zeros([2, 5, 3]), probability_fn=3),
    ),
}


@pytest.mark.parametrize("label", sorted(BAD_INPUTS))
def test_bad_inputs_fail_as_in_tf115(label):
    make, message = BAD_INPUTS[label]
    with tf.Graph().as_default():
        with pytest.raises(Exception) as caught:
            make()
    assert re.match(message, "%s: %s" % (type(caught.value).__name__, caught.value), re.S), caught.value


def test_every_public_name_resolves():
    assert [n for n in seq2seq.__all__ if getattr(seq2seq, n) is None] == []
    with pytest.raises(AttributeError, match="has no attribute 'BahdanauAttentionV2'"):
        seq2seq.BahdanauAttentionV2  # noqa: B018  (never in tf.contrib.seq2seq)
