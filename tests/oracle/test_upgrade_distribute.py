"""``tf.contrib.distribute.MirroredStrategy`` on a machine without GPUs, TF 1.15 against its upgraded form.

TF 1.15 mirrored ``num_gpus=N`` onto ``/device:GPU:0`` ... ``GPU:N-1`` (``/device:CPU:0`` for 0); tf1clip-upgrade writes
that device list into ``tf.compat.v1.distribute.MirroredStrategy(devices=...)``. On a CPU machine both then run
``num_gpus=0`` on the CPU, both fail ``num_gpus=1`` and ``2`` in ``Session.run`` (no GPU to place the variables on),
and both mirror an explicit device list over two logical CPUs (``ConfigProto(device_count={"CPU": 2})``) with the
same sum over the replicas. Each run is a fresh process.
"""

import os
import subprocess
import sys

import pytest

from oracle import tf115_env
from tf1clip import upgrade

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = """
import sys
import tensorflow as tf

if sys.argv[1] == "cpus":
    strategy = tf.contrib.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
else:
    strategy = tf.contrib.distribute.MirroredStrategy(num_gpus=int(sys.argv[1]))
config = tf.ConfigProto(device_count={"CPU": 2})
with strategy.scope():
    v = tf.get_variable("v", [], initializer=tf.constant_initializer(2.0))

    def step():
        replica = tf.distribute.get_replica_context().replica_id_in_sync_group
        return v * tf.cast(replica + 1, tf.float32)

    total = strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.extended.call_for_each_replica(step), axis=None)
try:
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        print("value %s replicas %d" % (sess.run(total), strategy.num_replicas_in_sync))
except tf.errors.OpError as e:
    print("error %s" % type(e).__name__)
"""
CASES = {"0": "value 2.0 replicas 1", "1": "error InvalidArgumentError", "2": "error InvalidArgumentError"}
CASES["cpus"] = "value 6.0 replicas 2"


def _outcome(python, path, case, env):
    proc = subprocess.run([python, path, case], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [line for line in proc.stdout.splitlines() if line.startswith(("value", "error"))]


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    try:
        python = tf115_env.ensure()
    except tf115_env.Unavailable as e:
        pytest.skip(str(e))
    d = tmp_path_factory.mktemp("mirrored")
    original, upgraded = str(d / "tf115.py"), str(d / "upgraded.py")
    with open(original, "w") as f:
        f.write(PROGRAM)
    result = upgrade.upgrade_file(original, upgraded)
    assert result.status == "converted" and result.errors == [], result.errors
    return python, original, upgraded


def test_num_gpus_becomes_tf115s_device_list(programs):
    with open(programs[2]) as f:
        text = f.read()
    assert 'tf.compat.v1.distribute.MirroredStrategy(devices=["/cpu:0", "/cpu:1"])' in text
    assert 'devices=["/device:GPU:%d" % i for i in range(int(sys.argv[1]))] or ["/device:CPU:0"]' in text


@pytest.mark.parametrize("case", sorted(CASES))
def test_upgraded_strategy_does_what_tf115_did(programs, case):
    python, original, upgraded = programs
    env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    assert _outcome(python, original, case, tf115_env.clean_env()) == [CASES[case]]
    assert _outcome(sys.executable, upgraded, case, env) == [CASES[case]]
