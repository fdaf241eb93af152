"""Non-finite policies under ``SyncReplicasOptimizer``: no nesting hangs, and each policy keeps its promise.

One subprocess (``tests/subprocess/_sync_nonfinite_worker.py``) trains the chief on the gradients x = 1, 2, NaN, 3 (SGD 0.1,
the clip never binds) for every policy x nesting x dense/sparse gradient; a run that does not return within 60 s
fails the test (the worker exits with ``HUNG case``).
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests import helpers

POLICIES = ("nan", "skip", "raise")
# inside: Sync(clip(sgd)); around: clip(Sync(sgd)); nested: Sync(clip(clip(sgd))); lso: Sync(clip(LossScale(sgd))).
NESTINGS = ("inside", "around", "nested", "lso")
KINDS = ("dense", "sparse")
CASES = ["%s/%s/%s" % (p, n, k) for p in POLICIES for n in NESTINGS for k in KINDS]
WORKER = os.path.join(os.path.dirname(__file__), "_sync_nonfinite_worker.py")
RAISED = "InvalidArgumentError: assertion failed: [tf1clip: the gradient of w:0 holds inf or NaN"


@pytest.fixture(scope="module")
def results():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([helpers.ROOT, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, WORKER, *CASES], capture_output=True, text=True, timeout=600, env=env, cwd=helpers.ROOT
    )
    assert "HUNG" not in proc.stdout, proc.stdout
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return {line["case"]: line for line in lines}


def _weights(kind, xs):
    """The weights after SGD(0.1) steps on gradients ``x`` (dense: both entries; sparse: rows 0 and 2)."""
    total = 0.1 * sum(xs)
    if kind == "dense":
        return (np.array([1.0, 2.0]) - total).tolist()
    return [[1.0 - total, 2.0 - total], [3.0, 4.0], [5.0 - total, 6.0 - total]]


def _check_weights(got, kind, xs):
    np.testing.assert_allclose(got, _weights(kind, xs), rtol=1e-6)


@pytest.mark.parametrize("case", CASES)
def test_sync_replicas_step_keeps_the_policy_promise(results, case):
    policy, nesting, kind = case.split("/")
    result = results[case]
    steps, error = result["steps"], result["error"]
    if policy != "nan" and nesting == "around":
        assert steps == [] and "on_nonfinite=%r cannot wrap a SyncReplicasOptimizer" % policy in error
        return
    if policy == "raise":
        assert error is not None and error.startswith(RAISED), error
        assert [s[1] for s in steps] == [1, 2]
        _check_weights(steps[1][0], kind, [1.0, 2.0])
        return
    assert error is None
    assert [s[1] for s in steps] == [1, 2, 3, 4]  # a skipped step advances global_step too
    applied_nan = policy == "nan" and nesting != "lso"  # a dynamic loss-scale optimizer skips the step itself
    if applied_nan:
        assert np.isnan(np.array(steps[2][0], dtype=float)).sum() == (2 if kind == "dense" else 4)
        return
    for step, xs in zip(steps, ([1.0], [1.0, 2.0], [1.0, 2.0], [1.0, 2.0, 3.0])):
        _check_weights(step[0], kind, xs)
    if policy == "skip":
        assert [s[2:] for s in steps] == [[c] * (2 if nesting == "nested" else 1) for c in (0, 0, 1, 1)]
