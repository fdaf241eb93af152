"""tf1clip.contrib.estimator.clip_gradients_by_norm under MirroredStrategy: TF 1.15's per-replica clipping by
default, the summed gradients with clip_stage="aggregated". Reference: tests/data/tf115_fidelity (TF 1.15.5,
make_refs.mirrored). Two logical CPUs need a fresh process."""

import json
import os

import numpy as np

from tests import helpers

with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "tf115_fidelity", "refs.json")) as f:
    REFS = json.load(f)

CODE = """
import json
import tensorflow as tf
from tf1clip.contrib import estimator

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
v1 = tf.compat.v1


def run(**kwargs):
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        with strategy.scope():
            w = v1.get_variable("w", initializer=[0.0, 0.0], use_resource=True)
            opt = estimator.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(1.0), 2.0, **kwargs)

            def step_fn():
                replica = tf.distribute.get_replica_context().replica_id_in_sync_group
                grad = tf.where(tf.equal(replica, 0), tf.constant([3.0, 0.0]), tf.constant([0.0, 4.0]))
                return opt.minimize(tf.reduce_sum(grad * w))

            train = strategy.group(strategy.extended.call_for_each_replica(step_fn))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            return sess.run(w).tolist()


print(json.dumps({"default": run(), "aggregated": run(clip_stage="aggregated")}))
"""


def test_contrib_estimator_clip_is_per_replica_as_tf115_and_aggregated_opt_in():
    out = json.loads(helpers.run_python(CODE, timeout=300).strip().splitlines()[-1])
    np.testing.assert_allclose(REFS["EstimatorClip/mirrored/clipped"], [-2.0, -2.0])  # each replica's [3,0], [0,4] -> 2
    np.testing.assert_allclose(out["default"], REFS["EstimatorClip/mirrored/clipped"], rtol=1e-6)
    np.testing.assert_allclose(out["aggregated"], [-1.2, -1.6], rtol=1e-6)  # the sum [3, 4] clipped to norm 2
