"""ElasticAverageOptimizer and ModelAverageOptimizer: on a real local cluster and in one process.

The cluster runs (tests/subprocess/_contrib_opt_cluster.py: 1 parameter server + 2 workers,
``tf.distribute.Server`` processes on 127.0.0.1, free ports, bounded time,
always stopped) reproduce TF 1.15's own distributed test scenarios; the
expected numbers are derived by hand in each test.
"""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import opt as copt

HERE = os.path.dirname(os.path.abspath(__file__))
v1 = tf.compat.v1
LOCAL_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _cluster(scenario, mode):
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(HERE)), os.environ.get("PYTHONPATH", "")]),
    )
    proc = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "_contrib_opt_cluster.py"), scenario, mode, "--timeout", "100"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=130)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the %s cluster did not finish within 130 s" % scenario)
    assert proc.returncode == 0, err.decode(errors="replace")[-4000:]
    return json.loads(out.decode().strip().splitlines()[-1])


@pytest.fixture(scope="module")
def model_average_cluster():
    return _cluster("ma", "v1")


@pytest.fixture(scope="module")
def elastic_average_cluster():
    return _cluster("ea", "v2")


def test_model_average_cluster_averages_every_interval(model_average_cluster):
    chief, other = model_average_cluster
    # [v0, v1, global_step, center v0, center v1]; SGD lr 1, gradients -1
    # (chief) and -2 (worker 1), interval 2: after 2 local steps the chief has
    # v0 = 2, the other 4; both become the mean 3 (v1: 4), as the centers.
    assert chief["step1"][:2] == [1.0, 2.0]
    assert other["step1"][:2] == [2.0, 3.0]
    assert chief["step2"] == [3.0, 4.0, 1.0, 3.0, 4.0]
    assert other["step2"][:2] == [3.0, 4.0]
    assert other["step2"][3:] == [3.0, 4.0]
    # Step 3 is local only.
    assert chief["step3"] == [4.0, 5.0, 1.0, 3.0, 4.0]


def test_model_average_cluster_names_devices_and_collections(model_average_cluster):
    for result in model_average_cluster:
        names = result["names"]
        assert names["global_collection"] == ["global_center_variable/v0", "global_center_variable/v1", "global_step"]
        assert names["local_collection"] == ["local_step", "v0", "v1"]
        assert names["trainable"] == ["v0", "v1"]
        assert names["devices"]["v0"] == "/job:worker/task:%d/device:CPU:0" % result["worker"]
        assert names["devices"]["global_center_variable/v0"] == "/job:ps/task:0/device:CPU:0"


def test_elastic_average_cluster_moves_locals_and_centers(elastic_average_cluster):
    chief, other = elastic_average_cluster
    # [v0, v1, global_step, centers v0, v1, partition parts]; SGD lr 1,
    # gradients -1, moving_rate 0.5, period 1. Worker 0: v = 0 + 1, d = v - 0,
    # v -= 0.5 d -> 0.5, center += 0.5 d -> 0.5. Worker 1 then: v = 1,
    # d = 1 - 0.5, v -> 0.75, center -> 0.75.
    assert chief["mine"][:2] == [0.5, 1.5]
    assert chief["mine"][3:5] == [0.5, 1.5]
    assert other["mine"][:2] == [0.75, 1.75]
    assert chief["final"][2:5] == [2.0, 0.75, 1.75]
    assert chief["final"][5:] == [[[1.75] * 4], [[1.75] * 4]]
    # swapping_saver: the global centers under the local variables' names
    # (a partitioned variable saved whole, as Saver does).
    assert chief["checkpoint"] == {"partition_var": [[1.75] * 4, [1.75] * 4], "v0": 0.75, "v1": 1.75}


def test_elastic_average_cluster_names(elastic_average_cluster):
    names = elastic_average_cluster[1]["names"]
    assert names["global_collection"] == [
        "global_center_variable/partition_var/part_0",
        "global_center_variable/partition_var/part_1",
        "global_center_variable/v0",
        "global_center_variable/v1",
        "global_step",
    ]
    assert names["trainable"] == ["partition_var/part_0", "partition_var/part_1", "v0", "v1"]
    assert "local_center_variable/v0" in names["local_collection"]
    assert names["devices"]["v0"] == "/job:worker/task:1/device:CPU:0"


# --- in one process (a local session, the worker device is this process's CPU) -----


def _elastic_model(getter):
    with v1.variable_scope("", custom_getter=getter):
        global_step = v1.train.get_or_create_global_step()
        v0 = v1.get_variable(initializer=0.0, name="v0")
        v1_ = v1.get_variable(initializer=1.0, name="v1")
    return global_step, v0, v1_


def test_elastic_average_one_worker_period_two(graph, tmp_path):
    getter = copt.ElasticAverageCustomGetter(worker_device=LOCAL_DEVICE)
    global_step, v0, v1_ = _elastic_model(getter)
    opt = copt.ElasticAverageOptimizer(
        v1.train.GradientDescentOptimizer(1.0),
        num_worker=1,
        ea_custom_getter=getter,
        communication_period=2,
        moving_rate=1.0,
    )
    train = opt.apply_gradients(zip([tf.constant(-1.0), tf.constant(-1.0)], [v0, v1_]), global_step)
    saver = opt.swapping_saver()
    centers = [getter.global_center(v0), getter.global_center(v1_)]
    with v1.train.MonitoredTrainingSession(hooks=[opt.make_session_run_hook(True, 0)]) as sess:
        expected = [
            [1.0, 2.0, 0.0, 1.0, 0],  # local step 1: no exchange
            [0.0, 1.0, 2.0, 3.0, 1],  # moving_rate 1: the whole difference moves to the center
            [1.0, 2.0, 2.0, 3.0, 1],
        ]
        for want in expected:
            sess.run(train)
            assert sess.run([v0, v1_] + centers + [global_step]) == want
        sess.run(train)
        path = saver.save(sess._tf_sess(), str(tmp_path / "model"), write_meta_graph=False)
    reader = tf.train.load_checkpoint(path)
    assert sorted(reader.get_variable_to_shape_map()) == ["v0", "v1"]
    assert (reader.get_tensor("v0"), reader.get_tensor("v1")) == (2.0, 3.0)


def test_elastic_average_pair_own_centers_uses_each_variables_own_center(graph):
    # loss = w0 + 2 w1 with var_list=[w1]: the gradient is 2 + rho (w1 - center(w1)).
    # By default, as TF 1.15, trainable_variables() (w0 first) pair with var_list's centers
    # (tests/oracle/test_contrib_opt_fidelity.py).
    getter = copt.ElasticAverageCustomGetter(worker_device=LOCAL_DEVICE)
    with v1.variable_scope("", custom_getter=getter):
        w0 = v1.get_variable(initializer=5.0, name="w0")
        w1 = v1.get_variable(initializer=3.0, name="w1")
    opt = copt.ElasticAverageOptimizer(
        v1.train.GradientDescentOptimizer(0.5),
        num_worker=2,
        ea_custom_getter=getter,
        communication_period=4,
        pair_own_centers=True,
    )
    assert opt._moving_rate == pytest.approx(0.9 / 4 / 2)
    assert opt._rho == pytest.approx(0.9 / 4 / 2 / 0.5)
    ((grad, var),) = opt.compute_gradients(w0 + 2.0 * w1, var_list=[w1])
    assert var is w1
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        sess.run(getter.local_center(w1).assign(1.0))
        np.testing.assert_allclose(sess.run(grad), 2.0 + opt._rho * (3.0 - 1.0), rtol=1e-6)


def test_elastic_average_rho_default_and_bad_arguments(graph):
    getter = copt.ElasticAverageCustomGetter(worker_device=LOCAL_DEVICE)
    adam = copt.ElasticAverageOptimizer(v1.train.AdamOptimizer(0.01), 2, getter, moving_rate=0.02)
    assert adam._rho == pytest.approx(2.0)  # TF 1.15: AttributeError (Adam has no _learning_rate)
    with pytest.raises(TypeError, match="`ea_custom_getter` must be an ElasticAverageCustomGetter; received dict"):
        copt.ElasticAverageOptimizer(v1.train.AdamOptimizer(0.01), 2, {})
    with pytest.raises(TypeError, match=r"`opt` must be a tf.compat.v1.train.Optimizer instance"):
        copt.ElasticAverageOptimizer("sgd", 2, getter)
    with pytest.raises(RuntimeError, match="global_center_variable is empty"):
        adam.swapping_saver()


def test_model_average_one_worker(graph):
    getter = copt.ModelAverageCustomGetter(worker_device=LOCAL_DEVICE)
    global_step, v0, v1_ = _elastic_model(getter)
    opt = copt.ModelAverageOptimizer(
        v1.train.GradientDescentOptimizer(1.0), num_worker=1, is_chief=True, ma_custom_getter=getter, interval_steps=2
    )
    train = opt.apply_gradients(iter([(tf.constant(-1.0), v0), (tf.constant(-2.0), v1_)]), global_step)
    centers = [getter.global_variable(v0), getter.global_variable(v1_)]
    with v1.train.MonitoredTrainingSession(hooks=[opt.make_session_run_hook()]) as sess:
        got = []
        for _ in range(3):
            sess.run(train)
            got.append(sess.run([v0, v1_] + centers + [global_step]))
    assert got == [[1.0, 3.0, 0.0, 1.0, 0], [2.0, 5.0, 2.0, 5.0, 1], [3.0, 7.0, 2.0, 5.0, 1]]
    with pytest.raises(ValueError, match="Global step is required"):
        opt.apply_gradients([(tf.constant(-1.0), v0)])
    with pytest.raises(TypeError, match="`ma_custom_getter` must be a ModelAverageCustomGetter; received NoneType"):
        copt.ModelAverageOptimizer(v1.train.GradientDescentOptimizer(1.0), 1, True, None)
