"""tf1clip.contrib.seq2seq's attention reproduces TF 1.15's numbers, variable names and errors.

tests/data/tf115_seq2seq/attention/make_refs.py ran each model of attention_cases.py once on TF 1.15.5 with
tf.contrib.seq2seq (every mechanism: plain, normalize/scale, monotonic parallel/recursive/hard/noise; alignment
history; attention_layer_size None/int/list; two mechanisms over MultiRNNCell/ResidualWrapper/DropoutWrapper;
initial_cell_state, clone, cell_input_fn, a custom attention_layer, output_attention=False; unknown batch size and
memory length; a hand-written tf.while_loop; decoders sharing variables; float64; hardmax, safe_cumprod,
monotonic_attention), saved its variables
(ckpt/) and recorded outputs, gradients and the errors of bad inputs (refs.json). One subprocess (tests/oracle/_seq2seq_attention_worker.py, Keras 2)
builds the same models with tf1clip.contrib.seq2seq, restores those checkpoints by variable name and records the
same values; every case must have exactly TF 1.15's variables, outputs and gradients (rtol 1e-5) and errors.
"""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_seq2seq", "attention")
sys.path.insert(0, DATA)

import attention_cases as cases  # noqa: E402
from helpers import assert_matches_recorded  # noqa: E402

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)


@pytest.fixture(scope="module")
def actual(tmp_path_factory):
    out = tmp_path_factory.mktemp("seq2seq_attention") / "actual.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "_seq2seq_attention_worker.py"), str(out)],
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


@pytest.mark.parametrize("name", cases.CASES)
def test_matches_tf115(actual, name):
    assert_matches_recorded(actual["cases"][name], REFS["cases"][name], none_gradient_is_zeros=True)


def test_variable_names_are_tf115s():
    """Spot checks of the names TF 1.15 checkpoints hold (the full lists are compared per case above)."""
    names = {n for case in REFS["cases"].values() for n in case["variables"]}
    for name in (
        "memory_layer/kernel",
        "memory_layer_1/kernel",
        "rnn/attention_wrapper/bahdanau_attention/query_layer/kernel",
        "rnn/attention_wrapper/bahdanau_attention/attention_v",
        "dec/attention_wrapper/bahdanau_attention/attention_g",
        "dec/attention_wrapper/bahdanau_attention/attention_b",
        "rnn/attention_wrapper/luong_attention/attention_g",
        "rnn/attention_wrapper/bahdanau_monotonic_attention/attention_score_bias",
        "rnn/attention_wrapper/luong_monotonic_attention/attention_score_bias",
        "rnn/attention_wrapper/attention_layer/kernel",
        "rnn/attention_wrapper/attention_layer_1/kernel",
        "b/attention_wrapper/my_attention/kernel",
    ):
        assert name in names, name


def test_initial_values_are_tf115s(actual):
    """attention_g (Bahdanau: sqrt(1/num_units), Luong: 1), attention_b (0) and attention_score_bias
    (score_bias_init) start where TF 1.15's did (its checkpoints hold its initial values)."""
    assert sorted(actual["initial"]) == [
        "bahdanau_monotonic_recursive",
        "bahdanau_normalize",
        "luong_monotonic_parallel",
        "luong_scale",
    ]
    for case, values in actual["initial"].items():
        reader = tf.train.load_checkpoint(os.path.join(DATA, "ckpt", case))
        assert values, case
        for name, value in values.items():
            np.testing.assert_allclose(value, reader.get_tensor(name), rtol=1e-7, err_msg=case + " " + name)


def _message(text):
    """An error's own first line: autograph's frames ('in converted code' on TF 1.15, 'in user code' on TF 2)
    dropped, shapes' unknown dimensions spelled None."""
    lines = text.split("\n")
    if "in converted code:" in lines[0] or "in user code:" in lines[0]:
        for line in reversed(lines):
            match = re.match(r"\s*(\w+(?:Error|Exception)): (.*)", line)
            if match:
                lines = ["%s: %s" % match.groups()]
                break
    if lines[0].endswith("Graph execution error:"):  # TF 2 puts the op's message further down
        lines = [lines[0].split(":")[0] + ": " + next(line for line in lines if "assertion failed" in line)]
    return re.sub(r"\?", "None", lines[0]).strip()


@pytest.mark.parametrize("label", sorted(REFS["checks"]))
def test_errors_match_tf115(actual, label):
    assert _message(actual["checks"][label]) == _message(REFS["checks"][label])


EXTRA = {
    # tf1clip checks these where TF 1.15 failed only on first use (a call without a message of its own).
    "probability_fn": r"TypeError: probability_fn must be callable, saw type: int$",
    "monotonic_mode": r"ValueError: mode must be 'recursive', 'parallel', or 'hard'.$",
    # What is not re-created: TF 1.15's Keras-style *V2 mechanisms were never in tf.contrib.seq2seq.
    "v2_not_recreated": r"AttributeError: module 'tf1clip.contrib.seq2seq' has no attribute 'BahdanauAttentionV2'",
    "query_layer": r"TypeError: query_layer is not a Layer: str$",
    "all_resolve": r"\[\]$",
    "state_size": r"AttentionWrapperState\(cell_state=3, attention=4, time=TensorShape\(\[\]\), alignments=5, "
    r"alignment_history=5, attention_state=5\) 4$",
}


@pytest.mark.parametrize("label", sorted(EXTRA))
def test_tf1clip_checks(actual, label):
    assert re.match(EXTRA[label], actual["extra"][label], re.S), actual["extra"][label]
