"""tf1clip.contrib.rnn / legacy_seq2seq / cudnn_rnn reproduce TF 1.15's numbers from TF 1.15's checkpoints.

tests/data/tf115_rnn/make_refs.py ran each model of cases.py once on TF 1.15.5 with tf.contrib, saved its
variables (ckpt/) and recorded outputs and gradients (refs.json). One subprocess (tests/_rnn_worker.py, Keras 2)
builds the same models with tf1clip.contrib, restores those checkpoints by variable name and records the same
values; every case must have exactly TF 1.15's variables and match its outputs and gradients to rtol 1e-5.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data", "tf115_rnn")
sys.path.insert(0, DATA)

import cases  # noqa: E402

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
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out) as f:
        return json.load(f)["cases"]


def test_refs_cover_every_case():
    assert REFS["tensorflow"].startswith("1.15")
    assert sorted(REFS["cases"]) == sorted(cases.CASES)


@pytest.mark.parametrize("name", cases.CASES)
def test_matches_tf115(actual, name):
    got, ref = actual[name], REFS["cases"][name]
    assert "error" not in got, got.get("error")
    assert got["variables"] == ref["variables"]
    assert sorted(got["outputs"]) == sorted(ref["outputs"])
    for key, value in ref["outputs"].items():
        np.testing.assert_allclose(got["outputs"][key], value, rtol=1e-5, atol=1e-6, err_msg="output " + key)
    assert sorted(got["grads"]) == sorted(ref["grads"])
    for key, value in ref["grads"].items():
        np.testing.assert_allclose(got["grads"][key], value, rtol=1e-5, atol=1e-6, err_msg="gradient " + key)
