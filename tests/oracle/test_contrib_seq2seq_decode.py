"""tf1clip.contrib.seq2seq's decoding half reproduces TF 1.15's numbers from TF 1.15's checkpoints.

tests/data/tf115_seq2seq_decode/make_refs.py ran each model of cases.py once on TF 1.15.5 with tf.contrib.seq2seq
(sequence_loss reductions; TrainingHelper/GreedyEmbeddingHelper/BasicDecoder/dynamic_decode with a Dense output
layer, train and inference graphs sharing variables, MultiRNNCell/DropoutWrapper; BeamSearchDecoder with length
penalty; gather_tree; the sampling, inference and custom helpers; three Adam steps clipped by global norm), saved
its variables (ckpt/) and recorded outputs, gradients and variable names (refs.json). tests/keras2/test_seq2seq_tf115.py
compares every case, the clipped steps and the errors of bad inputs in TF 1 mode (``disable_v2_behavior()``, what
tf1clip-upgrade adds); here a subprocess (tests/oracle/_seq2seq_decode_worker.py, Keras 2) builds the same models
with control flow v2 and resource variables and restores those checkpoints. gather_tree and sequence_loss are also
checked here against NumPy.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib.seq2seq import beam_search_ops, loss

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_seq2seq_decode")

from helpers import assert_matches_recorded, load_cases  # noqa: E402

cases = load_cases(DATA)

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

# Seeded random ops inside the decoding loop (DropoutWrapper, the sampling helpers) draw TF 1.15's numbers under
# v1 control flow only; with control flow v2 the same op seeds give other draws.
RANDOM_IN_LOOP = ("multi_dropout", "sampling_helpers", "output_sampling_aux")


@pytest.fixture(scope="module")
def actual_v2(tmp_path_factory):
    out = tmp_path_factory.mktemp("seq2seq_v2") / "actual.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "_seq2seq_decode_worker.py"), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out) as f:
        return json.load(f)


def test_refs_cover_every_case():
    assert REFS["tensorflow"].startswith("1.15")
    assert sorted(REFS["cases"]) == sorted(cases.CASES)


@pytest.mark.parametrize("name", [c for c in cases.CASES if c not in RANDOM_IN_LOOP])
def test_matches_tf115_with_control_flow_v2(actual_v2, name):
    assert_matches_recorded(actual_v2["cases"][name], REFS["cases"][name])


def _numpy_gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token):
    """TF 1.15's GatherTree kernel, written out (a parent id equal to beam_width reads the flat next element)."""
    max_time, batch_size, beam_width = step_ids.shape
    flat_steps, flat_parents = step_ids.reshape(-1), parent_ids.reshape(-1)
    beams = np.full(step_ids.shape, end_token, np.int32)
    for b in range(batch_size):
        length = min(max_time, max_sequence_lengths[b])
        for w in range(beam_width):
            if length <= 0:
                continue
            beams[length - 1, b, w] = step_ids[length - 1, b, w]
            parent = parent_ids[length - 1, b, w]
            for level in range(length - 2, -1, -1):
                assert 0 <= parent <= beam_width
                index = (level * batch_size + b) * beam_width + parent
                beams[level, b, w] = flat_steps[index]
                parent = flat_parents[index]
            finished = False
            for t in range(length):
                if finished:
                    beams[t, b, w] = end_token
                elif beams[t, b, w] == end_token:
                    finished = True
    return beams


@pytest.mark.parametrize("seed", range(6))
def test_gather_tree_matches_numpy_backtrack(seed):
    rng = np.random.RandomState(seed)
    max_time, batch_size, beam_width = rng.randint(1, 7), rng.randint(1, 4), rng.randint(1, 5)
    step_ids = rng.randint(0, 6, size=(max_time, batch_size, beam_width)).astype(np.int32)
    parent_ids = rng.randint(0, beam_width + (seed % 2), size=step_ids.shape).astype(np.int32)
    lengths = rng.randint(-1, max_time + 3, size=batch_size).astype(np.int32)
    end_token = int(rng.randint(0, 6))
    expected = _numpy_gather_tree(step_ids, parent_ids, lengths, end_token)
    with tf.Graph().as_default():
        out = beam_search_ops.gather_tree(step_ids, parent_ids, lengths, end_token)
        assert out.shape.as_list() == list(step_ids.shape)
        with tf.compat.v1.Session() as sess:
            np.testing.assert_array_equal(sess.run(out), expected)


def test_gather_tree_end_token_and_beyond_length():
    step_ids = np.array([[[1, 2]], [[3, 9]], [[9, 4]], [[5, 6]]], np.int32)  # [time 4, batch 1, beam 2]
    parent_ids = np.array([[[0, 0]], [[0, 0]], [[1, 0]], [[0, 1]]], np.int32)
    with tf.Graph().as_default():
        out = beam_search_ops.gather_tree(step_ids, parent_ids, [3], 9)
        with tf.compat.v1.Session() as sess:
            got = sess.run(out)[:, 0, :].T.tolist()
    # beam 0 traces 9 <- 3 (via parent 1 of step 2 = 9? no: step 2 beam 0 is 9 itself) and ends at step 2.
    assert got == [[1, 9, 9, 9], [1, 3, 4, 9]]


def test_gather_tree_invalid_parent_fails_at_run_time():
    step_ids = np.zeros([3, 1, 2], np.int32)
    with tf.Graph().as_default():
        out = beam_search_ops.gather_tree(step_ids, np.full([3, 1, 2], -1, np.int32), [3], 1)
        with tf.compat.v1.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Saw invalid parent id"):
                sess.run(out)


def _numpy_sequence_loss(logits, targets, weights, at, ab, st, sb):
    shifted = logits - logits.max(-1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    ce = -np.take_along_axis(logp, targets[..., None], -1)[..., 0] * weights

    def div(a, b):
        return np.where(b == 0, 0.0, a / np.where(b == 0, 1.0, b))

    if at and ab:
        return div(ce.sum(), weights.sum())
    if st and sb:
        return div(ce.sum(), np.count_nonzero(weights))
    if at or ab:
        axis = 0 if ab else 1
        return div(ce.sum(axis), weights.sum(axis))
    if st or sb:
        axis = 0 if sb else 1
        return div(ce.sum(axis), np.count_nonzero(weights, axis=axis))
    return ce


@pytest.mark.parametrize(
    "flags", [f for f in np.ndindex(2, 2, 2, 2) if not (f[0] and f[2]) and not (f[1] and f[3])], ids=str
)
def test_sequence_loss_matches_numpy(flags):
    rng = np.random.RandomState(sum(flags) + 8 * flags[0])
    logits = rng.normal(size=(3, 4, 5)).astype(np.float32)
    targets = rng.randint(0, 5, size=(3, 4)).astype(np.int32)
    weights = (rng.uniform(size=(3, 4)) > 0.4).astype(np.float32) * rng.uniform(0.5, 2.0, size=(3, 4))
    weights[2] = 0.0
    weights[:, 3] = 0.0
    weights = weights.astype(np.float32)
    at, ab, st, sb = (bool(f) for f in flags)
    expected = _numpy_sequence_loss(logits, targets, weights, at, ab, st, sb)
    with tf.Graph().as_default():
        out = loss.sequence_loss(
            logits,
            targets,
            weights,
            average_across_timesteps=at,
            average_across_batch=ab,
            sum_over_timesteps=st,
            sum_over_batch=sb,
        )
        with tf.compat.v1.Session() as sess:
            np.testing.assert_allclose(sess.run(out), expected, rtol=1e-5, atol=1e-6)
