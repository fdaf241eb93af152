"""tf1clip under tf.distribute.MirroredStrategy and on a real parameter-server cluster.

Both need a fresh TensorFlow runtime, so they run in subprocesses with a hard
timeout; the cluster launcher runs in its own process group, which is killed
whole if anything is left behind.
"""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def approx(value):
    """float32 results against float64 formulas."""
    return pytest.approx(value, rel=1e-5, abs=1e-7)


def _run(cmd, timeout):
    """Runs ``cmd`` in a new process group; returns stdout; kills the group on timeout."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env, start_new_session=True
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("%s did not finish within %d s" % (" ".join(cmd[1:2]), timeout))
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if proc.returncode != 0:
        pytest.fail("%s failed (exit %d):\n%s" % (cmd[1], proc.returncode, err.decode(errors="replace")[-4000:]))
    return out.decode()


@pytest.fixture(scope="module")
def mirrored():
    out = _run([sys.executable, os.path.join(HERE, "_mirrored_worker.py")], timeout=150)
    return json.loads(out.strip().splitlines()[-1])


# --- MirroredStrategy: in-graph replication over 2 logical CPUs --------------


@pytest.mark.parametrize("kind", ["sgd", "adam", "lso_adam"])
def test_default_equals_one_device_on_the_whole_batch(mirrored, kind):
    single, multi = mirrored["model"][kind]["single"], mirrored["model"][kind]["mirrored"]
    assert multi.pop("consistent") is True
    assert sorted(single) == sorted(multi)
    for name in single:
        np.testing.assert_allclose(multi[name], single[name], rtol=1e-6, atol=1e-6, err_msg=name)
    # Two steps happened, once each: global_step, Adam's beta powers, the unused variable.
    assert multi["global_step"] == 2
    assert multi["unused"] == 1.0
    if kind != "sgd":
        assert multi["beta1_power"] == pytest.approx(0.9**3)
    # The sparse embedding rows no batch touches stay put.
    assert multi["emb"][1] == pytest.approx([0.2, 0.3])


def test_skip_policy_applies_finite_steps_like_one_device(mirrored):
    single, multi = mirrored["model"]["adam"]["single"], dict(mirrored["model_skip"])
    assert multi.pop("consistent") is True
    assert multi.pop("ClipByNormAdam_skipped_steps") == 0
    for name in single:
        np.testing.assert_allclose(multi[name], single[name], rtol=1e-6, atol=1e-6, err_msg=name)


def test_stateful_capper_state_follows_the_summed_gradients(mirrored):
    single, multi = mirrored["autoclip"]["single"], mirrored["autoclip"]["mirrored"]
    assert multi.pop("consistent") is True
    assert single["AutoClip/count"] == 3
    for name in single:
        np.testing.assert_allclose(multi[name], single[name], rtol=1e-6, atol=1e-6, err_msg=name)


def test_one_device_strategy(mirrored):
    (nan_step, _), (skipped, ok) = mirrored["one_device"]["nan"], mirrored["one_device"]["skip"]
    assert np.isnan(nan_step["w"]) and nan_step["global_step"] == 1
    _assert_untouched(skipped)
    assert ok["w"] == approx(_adam_after_one_step(2.0)[0]) and ok["global_step"] == 1


def test_variables_outside_the_strategy_scope_are_refused(mirrored):
    assert "Variable w_outside:0 was created outside the distribution strategy's scope" in mirrored["outside_scope"]


def test_legacy_per_replica_option_reproduces_contrib(mirrored):
    single, multi = mirrored["model_legacy"]["single"], mirrored["model_legacy"]["mirrored"]
    assert multi.pop("consistent") is True
    for name in single:
        np.testing.assert_allclose(multi[name], single[name], rtol=1e-6, atol=1e-6, err_msg=name)
    default = mirrored["model"]["sgd"]["mirrored"]
    assert not np.allclose(multi["w"], default["w"], atol=1e-3)


def test_spec_example_replica_gradients_3_and_4(mirrored):
    # clip_norm 2, SGD(1.0), w = 1: one device on the whole batch moves w by
    # min(2, 3 + 4) = 2; contrib clipped each replica to 2 and moved it by 4.
    (step,) = mirrored["scalar"]["steps"]
    assert step["w"] == pytest.approx(1.0 - 2.0)
    assert step["global_step"] == 1
    assert step["norms"] == pytest.approx([7.0, 2.0])  # after aggregation
    (legacy,) = mirrored["scalar_legacy"]["steps"]
    assert legacy["w"] == pytest.approx(1.0 - 4.0)


def test_loss_scale_optimizer_outside_the_wrapper(mirrored):
    ok, overflow = mirrored["scalar_lso_outside"]["steps"]
    assert ok["w"] == pytest.approx(-1.0) and ok["current_loss_scale"] == 2.0**15
    assert overflow["w"] == pytest.approx(-1.0) and overflow["global_step"] == 1
    assert overflow["current_loss_scale"] == 2.0**14


def _adam_after_one_step(grad, lr=0.1, b1=0.9, b2=0.999, eps=1e-8, w=1.0):
    m, v = (1 - b1) * grad, (1 - b2) * grad * grad
    lr_t = lr * np.sqrt(1 - b2) / (1 - b1)
    return w - lr_t * m / (np.sqrt(v) + eps), m, v


def _assert_untouched(step, counter_name="ClipByNormAdam_skipped_steps", skipped=1):
    assert step["w"] == 1.0 and step["global_step"] == 0
    assert step["w/Adam"] == 0.0 and step["w/Adam_1"] == 0.0
    assert step["beta1_power"] == pytest.approx(0.9) and step["beta2_power"] == pytest.approx(0.999)
    assert step[counter_name] == skipped


def test_skip_under_mirrored_strategy(mirrored):
    result = mirrored["skip"]
    assert result["consistent"] is True
    nan_step, ok, inf_step = result["steps"]
    _assert_untouched(nan_step)
    w, m, v = _adam_after_one_step(2.0)  # 3 + 1 clipped to 2
    for step in (ok, inf_step):
        assert step["w"] == approx(w) and step["w/Adam"] == approx(m)
        assert step["w/Adam_1"] == approx(v) and step["global_step"] == 1
    assert ok["ClipByNormAdam_skipped_steps"] == 1
    assert inf_step["ClipByNormAdam_skipped_steps"] == 2


def test_skip_per_replica_needs_every_replica_finite(mirrored):
    inf_step, ok = mirrored["skip_legacy"]["steps"]
    _assert_untouched(inf_step)
    w, m, v = _adam_after_one_step(2.0 + 1.0)  # each replica clipped to 2 apart
    assert ok["w"] == approx(w) and ok["w/Adam"] == approx(m)


def test_skip_with_a_loss_scale_optimizer_inside_lowers_the_scale(mirrored):
    nan_step, ok = mirrored["skip_lso_inside"]["steps"]
    _assert_untouched(nan_step)
    assert nan_step["current_loss_scale"] == 2.0**14
    assert ok["global_step"] == 1 and ok["w"] == approx(_adam_after_one_step(2.0)[0])


def test_raise_under_mirrored_strategy_names_the_variable(mirrored):
    ok, failed = mirrored["raise"]["steps"]
    assert ok["global_step"] == 1
    assert "tf1clip: the gradient of w:0 holds inf or NaN" in failed["error"]


# --- between-graph replication: 1 ps + 2 workers on 127.0.0.1 -----------------


def _cluster(*args):
    out = _run(
        [sys.executable, os.path.join(ROOT, "legacy_examples", "ps_cluster.py"), "--json", "--timeout", "90"]
        + list(args),
        timeout=120,
    )
    return json.loads(out.strip().splitlines()[-1])


def _shard_grad(x, y, params):
    err = x.dot(params[:-1]) + params[-1] - y
    return np.concatenate([2.0 * x.T.dot(err) / len(y), [2.0 * err.mean()]])


def _clip(g, c):
    return g * min(1.0, c / np.linalg.norm(g))


def _loss(shards, params):
    return sum(np.mean((x.dot(params[:-1]) + params[-1] - y) ** 2) for x, y in shards)


def test_sync_replicas_cluster_clips_once_after_averaging():
    result = _cluster("--mode", "sync", "--steps", "20", "--on-nonfinite", "skip")
    shards = [(np.array(x, np.float64), np.array(y, np.float64)) for x, y in result["shards"]]
    lr, c = result["learning_rate"], result["clip_norm"]
    after = before = np.zeros(4)
    for _ in range(20):
        after = after - lr * _clip(np.mean([_shard_grad(x, y, after) for x, y in shards], axis=0), c)
        before = before - lr * np.mean([_clip(_shard_grad(x, y, before), c) for x, y in shards], axis=0)
    got = np.array(result["w"] + [result["b"]])
    assert result["global_step"] == 20 and result["skipped_steps"] == 0
    np.testing.assert_allclose(got, after, rtol=1e-4, atol=1e-5)
    assert np.abs(got - before).max() > 0.05  # what clipping each worker apart would give


def test_async_parameter_server_cluster():
    result = _cluster("--mode", "async", "--steps", "15")
    shards = [(np.array(x, np.float64), np.array(y, np.float64)) for x, y in result["shards"]]
    got = np.array(result["w"] + [result["b"]])
    assert result["global_step"] == 30
    # Every one of the 30 updates is one worker's gradient clipped to norm 1.
    assert np.linalg.norm(got) <= 30 * result["learning_rate"] * result["clip_norm"] + 1e-5
    assert _loss(shards, got) < 0.5 * _loss(shards, np.zeros(4))


# --- the matrix: optimizers x policies x dense/sparse/mixed against one device --------------


@pytest.fixture(scope="module")
def matrix():
    out = _run([sys.executable, os.path.join(HERE, "_mirrored_matrix_worker.py")], timeout=240)
    return json.loads(out.strip().splitlines()[-1])


OPTIMIZERS = ("sgd", "momentum", "adam", "adagrad", "rmsprop")
MODELS = ("dense", "sparse", "mixed")


EXTRA = ("lso_adam", "lso_momentum", "autoclip", "no_var_list")


def _close(a, b):
    assert sorted(a) == sorted(b)
    for name in a:
        np.testing.assert_allclose(a[name], b[name], rtol=2e-5, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("policy", ["nan", "skip", "raise"])
def test_replicated_run_equals_one_device_on_the_summed_loss(matrix, policy):
    """MirroredStrategy on two logical CPUs ends where one device does on the summed loss, for every policy:
    all-dense models, a loss-scale optimizer outside the wrapper, and minimize without var_list included."""
    result = matrix[policy]
    single, multi = result["single"], result["mirrored"]
    assert result["consistent"] is True
    prefixes = ["%s_%s/" % (opt, model) for opt in OPTIMIZERS for model in MODELS] + [e + "/" for e in EXTRA]
    for prefix in prefixes:
        names = sorted(n for n in single if n.startswith(prefix))
        assert names and names == sorted(n for n in multi if n.startswith(prefix)), prefix
        assert multi[prefix + "step"] == 3
        for name in names:
            np.testing.assert_allclose(multi[name], single[name], rtol=2e-5, atol=1e-6, err_msg=name)
    # The models moved: the comparison is not between two untouched states.
    assert single["adam_dense/w1"] != [[0.3, -0.2, 0.5], [0.1, 0.4, -0.3]]
    assert single["no_var_list/w1_v1"] != [[0.2] * 3] * 2
    (count,) = [n for n in multi if n.startswith("AutoClip") and n.endswith("/count")]
    history = count[: -len("count")] + "history"
    assert multi[count] == single[count] == 3
    np.testing.assert_allclose(multi[history], single[history], rtol=2e-5)


def test_stateful_capper_state_is_one_set_of_variables(matrix):
    """AutoClip's state under MirroredStrategy is one set of variables, no per-replica copies."""
    names = [n.split("/", 1)[1] for n in matrix["nan"]["mirrored"] if n.startswith("AutoClip")]
    assert sorted(names) == ["count", "history"]


@pytest.mark.parametrize("policy", ["nan", "skip", "raise"])
def test_saver_checkpoints_move_between_one_device_and_mirrored(matrix, policy):
    """Model variables, slots, loss-scale and capper state restore both ways between one device and mirrored."""
    result = matrix[policy]
    _close(result["restored_into_mirrored"], result["single"])
    if result["restored_into_single"] is not None:
        previous = {"skip": "nan", "raise": "skip"}[policy]
        _close(result["restored_into_single"], matrix[previous]["mirrored"])
