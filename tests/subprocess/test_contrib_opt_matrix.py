"""contrib.opt's optimizers and wrappers under MirroredStrategy, in ``slim.learning.train`` and in Estimators.

Every case of tests/subprocess/_contrib_opt_cases.py (the optimizers of tests/unit/test_contrib_opt_optimizers.py, AGN
and GGT, and the four wrappers) trains a tiny dense + embedding model (dense only for GGT) a few steps:

- MirroredStrategy over 2 logical CPUs (graph mode, tests/subprocess/_contrib_opt_mirrored_worker.py in one
  subprocess), each replica on its own loss, against one device on the summed loss; the cases that
  cannot run there (as in TF 1.15) are refused with a clear error;
- ``slim.learning.train`` with ``slim.learning.create_train_op(..., clip_gradient_norm=...)`` against a
  plain Session applying the per-tensor clipped gradients;
- an Estimator whose ``model_fn`` minimizes with ``tf1clip.clip_gradients_by_norm(optimizer)``
  (tests/subprocess/_contrib_opt_estimator_worker.py in one subprocess, with Keras 2 on TF 2.16+), against a plain Session
  applying the globally clipped gradients.
"""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.contrib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _contrib_opt_cases as cases  # noqa: E402
from helpers import skip_without_estimator  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
v1 = tf.compat.v1
STEPS = 3
NEW_TF = tuple(int(p) for p in tf.__version__.split(".")[:2]) >= (2, 16)

# Refused under MirroredStrategy, as TF 1.15's contrib.opt was (the errors are TensorFlow's, but GGT's).
MERGE_CALL_IN_COND = r"`merge_call` called while defining a new graph.*control flow statement"
MIRRORED_ERRORS = {
    "AGN": "RuntimeError: .*" + MERGE_CALL_IN_COND,
    "DropStaleGradientOptimizer": "RuntimeError: .*" + MERGE_CALL_IN_COND,
    "GGT": r"NotImplementedError: GGTOptimizer does not support more than one replica \(num_replicas_in_sync=2\)",
    "Shampoo": r"ValueError: DistributedVariable.handle is not available outside the replica context",
}
MIRRORED_OK = [n for n in cases.NAMES if n not in MIRRORED_ERRORS]


def _close(got, want, keys=None):
    for key in sorted(want if keys is None else keys):
        np.testing.assert_allclose(got[key], want[key], rtol=2e-5, atol=1e-6, err_msg=key)


# --- MirroredStrategy over 2 logical CPUs -----------------------------------------------------------------


def _worker(script, *args, **env):
    """Runs tests/``script`` in a fresh interpreter; returns the JSON object its last line prints."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="", PYTHONPATH=ROOT, **env)
    command = [sys.executable, os.path.join(HERE, script), *args]
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        pytest.fail("%s failed (exit %d):\n%s" % (script, proc.returncode, proc.stderr[-4000:]), pytrace=False)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def mirrored():
    return _worker("_contrib_opt_mirrored_worker.py")


@pytest.mark.parametrize("name", MIRRORED_OK)
def test_mirrored_run_equals_one_device_on_the_summed_loss(mirrored, name):
    """Both replicas hold the same values, which are one device's after the same steps on the summed loss."""
    case = mirrored[name]
    assert case["error"] is None, case["error"]
    assert case["consistent"] is True
    single, multi = case["single"], case["mirrored"]
    assert sorted(multi) == sorted(single)
    _close(multi, single)
    assert not np.allclose(single["model/w"], cases.W0)
    if "step" in single:
        assert single["step"] == STEPS


def test_mirrored_global_step_of_the_wrapper_that_needs_it(mirrored):
    """One device: DropStaleGradientOptimizer counted every step; mirrored: its refused build added none."""
    assert mirrored["global_step"] == [STEPS, 0]


@pytest.mark.parametrize("name", sorted(MIRRORED_ERRORS))
def test_mirrored_refuses_with_a_clear_error(mirrored, name):
    error = mirrored[name]["error"]
    assert error is not None
    assert re.search(MIRRORED_ERRORS[name], error, flags=re.DOTALL), error


# --- slim.learning.train ------------------------------------------------------------------------------------


def _clip_each(pairs):
    """slim's per-tensor clip (an IndexedSlices by the norm of its values)."""
    out = []
    for grad, var in pairs:
        if isinstance(grad, tf.IndexedSlices):
            grad = tf.IndexedSlices(tf.clip_by_norm(grad.values, cases.CLIP), grad.indices, grad.dense_shape)
        else:
            grad = tf.clip_by_norm(grad, cases.CLIP)
        out.append((grad, var))
    return out


def _clip_global(pairs):
    clipped, _ = tf.clip_by_global_norm([g for g, _ in pairs], cases.CLIP)
    return list(zip(clipped, [v for _, v in pairs]))


def _reference(name, clip):
    """The global variables after ``optimizer.apply_gradients(clip(gradients))`` until the global step is STEPS."""
    with tf.Graph().as_default():
        step = v1.train.get_or_create_global_step()
        var = cases.variables(name, step)
        optimizer = cases.OPTIMIZERS[name][0](step, var)
        pairs = optimizer.compute_gradients(cases.loss(var, None), cases.trained(var))
        train = optimizer.apply_gradients(clip(pairs), global_step=step)
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            while sess.run(step) < STEPS:
                sess.run(train)
            found = v1.global_variables()
            return {v.op.name: value for v, value in zip(found, sess.run(found))}


def _checkpoint(directory):
    path = tf.train.latest_checkpoint(directory)
    assert path is not None, os.listdir(directory)
    reader = tf.train.load_checkpoint(path)
    return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


@pytest.mark.parametrize("name", cases.NAMES)
def test_slim_learning_train(name, tmp_path):
    """create_train_op(clip_gradient_norm=...) + learning.train: the reference's variables and step."""
    pytest.importorskip("tf_slim")
    slim = tf1clip.contrib.slim
    with tf.Graph().as_default():
        step = v1.train.get_or_create_global_step()
        var = cases.variables(name, step)
        optimizer = cases.OPTIMIZERS[name][0](step, var)
        train_op = slim.learning.create_train_op(
            cases.loss(var, None), optimizer, clip_gradient_norm=cases.CLIP, variables_to_train=cases.trained(var)
        )
        slim.learning.train(
            train_op,
            str(tmp_path),
            number_of_steps=STEPS,
            log_every_n_steps=0,
            save_summaries_secs=3600,
            save_interval_secs=0,
        )
    saved, want = _checkpoint(str(tmp_path)), _reference(name, _clip_each)
    assert saved["global_step"] == STEPS
    assert set(want) <= set(saved), sorted(set(want) - set(saved))
    _close(saved, want)
    assert not np.allclose(want[[k for k in want if k.endswith("model/w")][0]], cases.W0)


# --- Estimators ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def estimator_runs(tmp_path_factory):
    """Skips without tf1clip.estimator; fails instead under TF1CLIP_REQUIRE_ESTIMATOR=1 (CI)."""
    keras2 = {"TF_USE_LEGACY_KERAS": "1"} if NEW_TF else {}  # TF 2.15's tf.keras is Keras 2 (no tf-keras needed)
    runs = _worker("_contrib_opt_estimator_worker.py", str(tmp_path_factory.mktemp("estimator")), **keras2)
    if "missing" in runs:
        skip_without_estimator(runs["missing"])
    return runs


@pytest.mark.parametrize("name", cases.NAMES)
def test_estimator_custom_model_fn(estimator_runs, name):
    """A model_fn minimizing with clip_gradients_by_norm(optimizer): the reference's variables and step."""
    saved, want = estimator_runs[name], _reference(name, _clip_global)
    assert saved["global_step"] == STEPS
    assert set(want) <= set(saved), sorted(set(want) - set(saved))
    _close(saved, want)
