"""``train_and_evaluate`` with ``TF_CONFIG`` on a real local cluster: chief, 2 workers, 1 ps and an evaluator.

Five processes (tests/subprocess/_estimator_cluster_worker.py) on 127.0.0.1 with free ports, a bounded wait, and every
process stopped at the end whatever happens. The optimizer is tf1clip's decorator around Adam; ``async``:
each worker applies its own steps; ``sync``: ``SyncReplicasOptimizer`` around it, through its hook. Asserted:
the global step reached ``max_steps``, the chief wrote checkpoints, the evaluator's last metrics are those
of the final checkpoint's weights (NumPy), every process exited 0; in ``sync`` mode the weights equal
``max_steps`` steps of clipped Adam (NumPy; all tasks train on the same batch).
"""

import glob
import importlib.util
import json
import os
import sys

import numpy as np
import pytest
import tensorflow as tf
from helpers import skip_without_estimator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "legacy_examples"))
from _local_cluster import LocalCluster, free_ports, task_env  # noqa: E402  (legacy_examples/)

WORKER = os.path.join(ROOT, "tests", "subprocess", "_estimator_cluster_worker.py")
TIMEOUT = 150
# With SyncReplicasOptimizer the chief exits 120 s after its last step, as on TF 1.x: its MonitoredSession
# joins the sync queue runner (blocked on an aggregate the stopped workers never complete) for the whole
# stop grace period before it closes the session (docs/estimator.rst).
SYNC_GRACE = 120
MAX_STEPS = 12


def _estimator_missing():
    if importlib.util.find_spec("tensorflow_estimator") is None:
        return "tensorflow-estimator is not installed"
    return None


@pytest.fixture(autouse=True)
def _estimator_available():
    missing = _estimator_missing()
    if missing:
        skip_without_estimator(missing)


def _run_cluster(model_dir, mode, timeout):
    """Starts the five tasks, waits for chief, workers and evaluator, then lets the ps go; returns exit codes."""
    chief, w0, w1, ps = ["127.0.0.1:%d" % p for p in free_ports(4)]
    cluster = {"chief": [chief], "worker": [w0, w1], "ps": [ps]}
    tasks = [("ps", 0), ("chief", 0), ("worker", 0), ("worker", 1), ("evaluator", 0)]
    with LocalCluster(timeout) as processes:
        procs = {}
        for kind, index in tasks:
            env = task_env(
                TF_CPP_MIN_LOG_LEVEL="2",
                TF_USE_LEGACY_KERAS="1",
                TF_CONFIG=json.dumps({"cluster": cluster, "task": {"type": kind, "index": index}}),
                PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]),
            )
            procs[kind, index] = processes.start([sys.executable, WORKER, model_dir, mode, str(MAX_STEPS)], env)
        try:
            codes = {key: processes.wait(procs[key]) for key in tasks[1:]}
            open(os.path.join(model_dir, "done"), "w").close()
            codes["ps", 0] = processes.wait(procs["ps", 0])
        except RuntimeError as exc:
            pytest.fail(str(exc), pytrace=False)
        return codes, {key: processes.output(proc) for key, proc in procs.items()}


X = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0], [-2.0, 1.0]])
Y = np.array([[3.0], [-2.0], [10.0], [1.0]])


def _adam_reference(steps):
    """Adam (0.1) on the MSE gradients of the batch, clipped to global norm 1 (tests/subprocess/_estimator_cases.py)."""
    params = [np.array([[0.5], [-0.5]]), np.array([0.25])]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for t in range(1, steps + 1):
        r = X @ params[0] + params[1] - Y
        grads = [2.0 * X.T @ r / len(X), 2.0 * r.sum(0) / len(X)]
        norm = np.sqrt(sum(float(np.sum(g * g)) for g in grads))
        grads = [g * min(1.0, 1.0 / norm) for g in grads]
        lr_t = 0.1 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        for i, g in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] = params[i] - lr_t * m[i] / (np.sqrt(v[i]) + 1e-8)
    return params


@pytest.mark.parametrize("mode", ["async", "sync_replicas"])
def test_train_and_evaluate_on_a_local_cluster(tmp_path, mode):
    model_dir = str(tmp_path)
    timeout = TIMEOUT + (SYNC_GRACE if mode == "sync_replicas" else 0)
    codes, logs = _run_cluster(model_dir, mode.replace("_replicas", ""), timeout)
    for key, code in codes.items():
        assert code == 0, "%s %d exited with %s:\n%s" % (key + (code, logs[key][-3000:]))
        assert "RESULT " in logs[key]

    final = tf.train.latest_checkpoint(model_dir)
    reader = tf.train.load_checkpoint(final)
    step = int(reader.get_tensor("global_step"))
    assert step >= MAX_STEPS
    saved = sorted(
        int(p.rsplit("-", 1)[1].split(".")[0]) for p in glob.glob(os.path.join(model_dir, "model.ckpt-*.index"))
    )
    assert len(saved) >= 2 and saved[-1] == step  # the chief saved on the way (every 4 steps) and at the end

    w, b = reader.get_tensor("w").astype(np.float64), reader.get_tensor("b").astype(np.float64)
    evals = {}
    for path in glob.glob(os.path.join(model_dir, "eval", "events.out.tfevents.*")):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag == "loss":
                    evals[event.step] = value.simple_value
    assert step in evals, "the evaluator did not evaluate the final checkpoint: %s" % sorted(evals)
    np.testing.assert_allclose(evals[step], np.mean(np.square(X @ w + b - Y)), rtol=1e-5)
    if (
        mode == "sync_replicas"
    ):  # MAX_STEPS, or one more when the chief's last aggregate was saved (the worker's end hook)
        assert step in (MAX_STEPS, MAX_STEPS + 1)
        want_w, want_b = _adam_reference(MAX_STEPS)
        np.testing.assert_allclose(w, want_w, rtol=1e-4)
        np.testing.assert_allclose(b, want_b, rtol=1e-4)
