"""``VariableClippingOptimizer`` under ``MirroredStrategy`` (2 logical CPUs), bare and inside every tf1clip wrapper.

Replica r's loss touches rows 2r and 2r+1 of a [4, 2] embedding (every row norm 1.131, limit 0.5). Every replica's
copy must end with the rows any replica updated clipped to 0.5: reads return replica 0's copy, so a copy left
unclipped is otherwise invisible. One subprocess builds every case.
"""

import json

import numpy as np
import pytest

from tests import helpers

WRAPPERS = ("bare", "aggregated", "per_replica", "skip", "raise", "transform", "nested")
KINDS = ("sparse", "sparse_dim0", "dense")

CODE = """
import json
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
import tf1clip
from tf1clip.contrib import opt as contrib_opt

v1 = tf.compat.v1
WRAP = {
    "bare": lambda o: o,
    "aggregated": lambda o: tf1clip.clip_gradients_by_norm(o, 100.0),
    "per_replica": lambda o: tf1clip.clip_gradients_by_norm(o, 100.0, clip_stage="per_replica"),
    "skip": lambda o: tf1clip.clip_gradients_by_norm(o, 100.0, on_nonfinite="skip"),
    "raise": lambda o: tf1clip.clip_gradients_by_norm(o, 100.0, on_nonfinite="raise"),
    "transform": lambda o: tf1clip.transform_gradients(o, tf1clip.clip_by_value_fn(-5.0, 5.0)),
    "nested": lambda o: tf1clip.transform_gradients(
        tf1clip.clip_gradients_by_norm(o, 100.0, on_nonfinite="skip"), tf1clip.clip_by_norm_fn(50.0)
    ),
}


def run(wrapper, kind):
    with tf.Graph().as_default():
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        with strategy.scope():
            emb = v1.get_variable("emb", initializer=np.full([4, 2], 0.8, np.float32))
            step = v1.train.get_or_create_global_step()
            dims = [0, 1] if kind == "sparse_dim0" else [1]
            clipping = contrib_opt.VariableClippingOptimizer(v1.train.GradientDescentOptimizer(0.1), {emb: dims}, 0.5)
            opt = WRAP[wrapper](clipping)

            def replica_step():
                rid = int(tf.get_static_value(tf.distribute.get_replica_context().replica_id_in_sync_group))
                rows = [2 * rid, 2 * rid + 1]
                if kind == "dense":
                    loss = -tf.reduce_sum(emb * tf.reduce_sum(tf.one_hot(rows, 4), 0)[:, None])
                else:
                    loss = -tf.reduce_sum(tf.gather(emb, rows))
                return opt.minimize(loss, global_step=step, var_list=[emb])

            train = strategy.group(strategy.extended.call_for_each_replica(replica_step))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            return [c.tolist() for c in sess.run(list(emb.values))]


print(json.dumps({"%s/%s" % (w, k): run(w, k) for w in WRAP for k in ("sparse", "sparse_dim0", "dense")}))
"""


@pytest.fixture(scope="module")
def copies():
    return json.loads(helpers.run_python(CODE, timeout=600).strip().splitlines()[-1])


def _expected(kind):
    """Every row moved by 0.1 along its gradient (1 per entry), then clipped (dense: the whole variable, by rows)."""
    rows = np.full([4, 2], 0.9, np.float32)
    if kind == "sparse_dim0":
        return rows * 0.5 / np.linalg.norm(rows)
    return rows * 0.5 / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_every_replica_copy_is_clipped(copies, wrapper, kind):
    replica_0, replica_1 = copies["%s/%s" % (wrapper, kind)]
    np.testing.assert_allclose(replica_0, _expected(kind), rtol=1e-5)
    np.testing.assert_allclose(replica_1, replica_0, rtol=0, atol=0)
