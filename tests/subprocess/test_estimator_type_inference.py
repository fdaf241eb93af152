"""The "Type inference failed" warning of Estimator runs on TensorFlow 2 is TensorFlow's and changes no number.

tests/subprocess/_estimator_type_inference_worker.py trains the same DNNClassifier twice in one fresh process (Keras 2, C++
warnings on): as tensorflow-estimator builds it, and with ``tf.compat.v1.experimental.output_all_intermediates(False)``,
which stops the hidden-layer summaries' ``zero_fraction`` cond from outputting its intermediates (the warning's
cause, docs/estimator.rst). Both runs must give the same loss at every step, the same evaluation loss and the same
variables, bit for bit, and only the first may print the warning.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKER = os.path.join(HERE, "_estimator_type_inference_worker.py")
WARNING = "Type inference failed"


def _run_worker():
    path = os.pathsep.join(p for p in [ROOT, os.environ.get("PYTHONPATH", "")] if p)
    env = dict(os.environ, PYTHONPATH=path, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="0")
    proc = subprocess.run(
        [sys.executable, WORKER], capture_output=True, text=True, timeout=600, env=env, cwd=ROOT, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    runs = {r["run"]: r for r in map(json.loads, proc.stdout.strip().splitlines())}
    before, _, after = proc.stderr.partition("=== run no_intermediates ===")
    return runs, before, after


def test_type_inference_warning_is_tensorflows_and_changes_no_number():
    runs, default_log, fixed_log = _run_worker()
    default, fixed = runs["default"], runs["no_intermediates"]
    assert len(default["losses"]) == 8
    assert default["losses"] == fixed["losses"]
    assert default["eval_loss"] == fixed["eval_loss"]
    assert default["variables"] == fixed["variables"]
    assert WARNING not in fixed_log
    if WARNING in default_log:
        assert "zero_fraction/cond" in default_log
