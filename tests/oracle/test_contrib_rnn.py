"""tf1clip.contrib.rnn / legacy_seq2seq / cudnn_rnn reproduce TF 1.15's numbers from TF 1.15's checkpoints.

tests/data/tf115_rnn/make_refs.py ran each model of cases.py once on TF 1.15.5 with tf.contrib, saved its
variables (ckpt/) and recorded outputs and gradients (refs.json). One subprocess (tests/oracle/_rnn_worker.py, Keras 2)
builds the same models with tf1clip.contrib, restores those checkpoints by variable name and records the same
values; every case must have exactly TF 1.15's variables and match its outputs and gradients to rtol 1e-5.
"""

import ast
import json
import os
import subprocess
import sys

import re

import pytest
import tensorflow as tf
from helpers import assert_matches_recorded, load_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_rnn")
cases = load_cases(DATA)

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)


@pytest.fixture(scope="module")
def actual(tmp_path_factory):
    out = tmp_path_factory.mktemp("rnn") / "actual.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "_rnn_worker.py"), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out) as f:
        return json.load(f)


def test_refs_cover_every_case():
    assert REFS["tensorflow"].startswith("1.15")
    assert sorted(REFS["cases"]) == sorted(cases.CASES)


def test_every_public_name_of_tf115_contrib_rnn_is_provided(actual):
    assert "NASCell" in REFS["names"] and len(REFS["names"]) == 50
    assert sorted(set(REFS["names"]) - set(ast.literal_eval(actual["checks"]["names"]))) == []


@pytest.mark.parametrize("name", cases.CASES)
def test_matches_tf115(actual, name):
    assert_matches_recorded(actual["cases"][name], REFS["cases"][name])


CHECKS = {
    "num_units": r"ValueError: num_units: expected a positive integer, got 0",
    "gru_sizes": r"ValueError: Exactly one of num_units or cell_size must be provided",
    "not_a_cell": r"TypeError: cell: expected an RNN cell, got 'nope' \(it lacks output_size, state_size",
    "output_size": r"ValueError: Parameter output_size must be > 0: 0",
    "no_fw_cells": r"ValueError: Must specify at least one fw cell for BidirectionalRNN",
    "depths": r"ValueError: Forward and Backward cells must have the same depth",
    # The cuDNN layers are re-created (tests/oracle/test_contrib_cudnn_rnn.py tests them).
    "cudnn_lstm": r"\(4, 'lstm'\)$",
    "cudnn_gru": r"'unidirectional'$",
    "loss_lengths": r"ValueError: Lengths of logits, weights, and targets must be the same 1, 1, 2",
    "buckets": r"ValueError: Length of encoder_inputs \(1\) must be at least that of last bucket \(2\)",
    "no_decoder_inputs": r"ValueError: Must provide at least 1 input to attention decoder",
    "core_alias": r"True",
    "glstm_groups": r"ValueError: num_units must be divisible by number_of_groups$",
    "grid_blocks": r"ValueError: Must specify num_frequency_blocks$",
    "conv_shape": r"ValueError: Invalid input_shape \[3, 2\] for conv_ndims=2\.$",
    "fused_dtype": r"ValueError: .*Either initial_state or dtype needs to be specified\n?$",
    "fused_rank": r"ValueError: Input 0 of layer \"?lstm_fused_cell(_\d+)?\"? is incompatible with the layer: expected ndim=3",
    "adaptor_cell": r"TypeError: cell: expected an RNN cell, got 'nope'",
    "sru_rank": r"ValueError: Input 0 of layer \"?sru_cell(_\d+)?\"? is incompatible with the layer: expected ndim=2, found ndim=3",
    "batch_size": r"\(5, 'int32', \[5, 3, 2\], \[4, None, 2, 1\], \[3\]\)$",
    "batch_rank": r"ValueError: Expected input tensor .* to have rank at least 2$",
    "all_resolve": r"\[\]$",  # every name in the three modules' __all__ resolves
}


@pytest.mark.parametrize("label", sorted(CHECKS))
def test_errors_and_aliases(actual, label):
    assert re.match(CHECKS[label], actual["checks"][label], re.S), actual["checks"][label]


@pytest.mark.skipif(
    tuple(int(n) for n in tf.__version__.split(".")[:2]) < (2, 16), reason="TF 2.15 has Keras 2 built in"
)
def test_without_keras2_the_error_says_what_to_do():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env.pop("TF_USE_LEGACY_KERAS", None)
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    code = "import tf1clip.contrib as c; print('imported'); c.rnn.LSTMBlockCell"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert proc.stdout.strip() == "imported"
    assert "ImportError: tf1clip.contrib.rnn, legacy_seq2seq and cudnn_rnn build on tf.compat.v1.nn.rnn_cell" in (
        proc.stderr
    )
    assert 'python3 -m tf1clip.install_extras legacy-keras) and set os.environ["TF_USE_LEGACY_KERAS"] = "1"' in (
        proc.stderr
    )
