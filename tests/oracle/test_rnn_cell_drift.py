"""The re-created tf.contrib.rnn / cudnn_rnn cells train like TF 1.15 over 300 Adam steps from the same weights.

tests/data/tf115_rnn_drift/make_refs.py trained each tiny model of cases.py (batch 4, 5 steps, 8 units, numpy
initial weights, fixed data) 300 steps of Adam on TF 1.15.5 and recorded the loss after 0, 1, 20 and 300 steps
and checksums of the final weights (refs.json). One subprocess (tests/oracle/_rnn_drift_worker.py, Keras 2) trains the
same models with tf1clip.contrib.

Where TF 2's own sigmoid/tanh/softmax/conv kernels round differently from TF 1.15's
(benchmarks/probes/rnn_cell_kernels.py), a model whose training amplifies float32 rounding drifts on TF 2
whatever builds it. ``core_*`` cases are TF-only twins of three such cells: they must give tf1clip's numbers bit for
bit on TF 2 and contrib's bit for bit on TF 1.15, so the drift left is TF's (docs/rnn.rst, "Numerics").
"""

import json
import os
import subprocess
import sys

import pytest
from helpers import load_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_rnn_drift")
cases = load_cases(DATA)

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

# Cells whose 300-step drift is TF 2's kernels': (twin case or None, relative bound on the final loss and weights).
KERNEL_DRIFT = {
    "layer_norm_lstm": ("core_layer_norm_lstm", 0.1),
    "cudnn_compatible_gru": ("core_cudnn_gru", 1e-2),
    "attention": (None, 0.2),
    "embedding": ("core_embedding", 1e-2),
}
STRICT = [name for name in cases.CASES if name not in KERNEL_DRIFT and not name.startswith("core_")]


@pytest.fixture(scope="module")
def actual(tmp_path_factory):
    out = tmp_path_factory.mktemp("rnn_drift") / "actual.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "_rnn_drift_worker.py"), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out) as f:
        return json.load(f)["cases"]


def _relative(got, ref):
    return abs(got - ref) / max(abs(ref), 1e-3)


def _weights_drift(got, ref):
    """Largest difference of a final-weight checksum, relative to max(1, |checksum|)."""
    return max(
        abs(a - b) / max(1.0, abs(b))
        for name in ref["weights"]
        for a, b in zip(got["weights"][name], ref["weights"][name])
    )


def test_refs_cover_every_case():
    assert REFS["tensorflow"].startswith("1.15")
    assert sorted(REFS["cases"]) == sorted(cases.CASES)
    assert set(STRICT) | set(KERNEL_DRIFT) | {n for n in cases.CASES if n.startswith("core_")} == set(cases.CASES)


@pytest.mark.parametrize("name", cases.CASES)
def test_first_step_matches_tf115(actual, name):
    got, ref = actual[name], REFS["cases"][name]
    assert "error" not in got, got.get("error")
    assert got["variables"] == ref["variables"]
    for step in ("0", "1"):
        assert _relative(got["losses"][step], ref["losses"][step]) <= 1e-6, (step, got["losses"], ref["losses"])


@pytest.mark.parametrize("name", STRICT)
def test_300_steps_match_tf115(actual, name):
    got, ref = actual[name], REFS["cases"][name]
    assert "error" not in got, got.get("error")
    for step in ("20", "300"):
        assert _relative(got["losses"][step], ref["losses"][step]) <= 1e-4, (step, got["losses"], ref["losses"])
    assert _weights_drift(got, ref) <= 1e-4


@pytest.mark.parametrize("name", sorted(KERNEL_DRIFT))
def test_kernel_drift_is_tensorflows(actual, name):
    twin, bound = KERNEL_DRIFT[name]
    got, ref = actual[name], REFS["cases"][name]
    assert "error" not in got, got.get("error")
    assert _relative(got["losses"]["20"], ref["losses"]["20"]) <= 1e-4
    assert _relative(got["losses"]["300"], ref["losses"]["300"]) <= bound
    assert _weights_drift(got, ref) <= bound
    if twin is not None:
        # Plain TensorFlow ops give contrib's numbers on TF 1.15 and tf1clip's on TF 2, bit for bit.
        assert REFS["cases"][twin]["losses"] == ref["losses"]
        assert REFS["cases"][twin]["weights"] == ref["weights"]
        assert actual[twin]["losses"] == got["losses"]
        assert actual[twin]["weights"] == got["weights"]
