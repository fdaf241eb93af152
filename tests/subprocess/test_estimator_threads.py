"""``RunConfig(session_config=...)``'s thread counts hold in tf1clip.estimator (the ``session_threads`` patch).

On TF 2.x the Estimator starts TensorFlow's eager runtime while it builds its graph, and the CPU
device's intra-op pool is created once per process with the runtime's counts: without the patch the
session's ``intra_op_parallelism_threads`` / ``inter_op_parallelism_threads`` were silently ignored
(on TF 1.x the first session's counts made the pool). Each case runs in a fresh interpreter, because
the counts can be set only before the runtime starts. The counts are distinct (3 and 5) so that a
swapped pair fails.
"""

import json
import os

import pytest
import tensorflow as tf
from helpers import run_python
from helpers import skip_without_estimator

from tf1clip.compat import _estimator

PROGRAM = """
import json, os, sys
os.environ["TF_USE_LEGACY_KERAS"] = "1"
import numpy as np
import tensorflow as tf
from tensorflow.python.eager import context
try:
    from tf1clip import estimator as est
except ImportError as err:
    print(json.dumps({"missing": str(err)}))
    sys.exit(0)
v1 = tf.compat.v1
case = sys.argv[1]
if case == "runtime-started":
    tf.config.list_logical_devices()
if case == "user-intra-2":
    tf.config.threading.set_intra_op_parallelism_threads(2)
if case == "unpatched":
    for name in ("train", "evaluate"):
        method = getattr(est.Estimator, name)
        setattr(est.Estimator, name, method.__wrapped__)
seen = {}

class AtSession(v1.train.SessionRunHook):
    def after_create_session(self, session, coord):
        seen["at_session"] = [tf.config.threading.get_intra_op_parallelism_threads(),
                              tf.config.threading.get_inter_op_parallelism_threads()]
        seen["runtime_started"] = context.context()._initialized

config = v1.ConfigProto(intra_op_parallelism_threads=3, inter_op_parallelism_threads=5)
regressor = est.LinearRegressor(
    [tf.feature_column.numeric_column("x", shape=[2])],
    config=est.RunConfig(session_config=config, log_step_count_steps=None, tf_random_seed=1),
)
x = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
y = np.array([[3.0], [-2.0]], np.float32)
input_fn = lambda: ({"x": tf.constant(x)}, tf.constant(y))
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", RuntimeWarning)
    if case == "user-intra-2":
        regressor.evaluate(input_fn, steps=1, hooks=[AtSession()])
    else:
        regressor.train(input_fn, steps=3, hooks=[AtSession()])
        regressor.train(input_fn, steps=1)
seen["warnings"] = [str(w.message) for w in caught if "session_config asks" in str(w.message)]
seen["loss"] = float(regressor.evaluate(input_fn, steps=1)["loss"])
seen["after"] = [tf.config.threading.get_intra_op_parallelism_threads(),
                 tf.config.threading.get_inter_op_parallelism_threads()]
print(json.dumps(seen))
"""


def _run(case):
    out = json.loads(run_python("import sys; sys.argv[1:] = [%r]\n" % case + PROGRAM).splitlines()[-1])
    if "missing" in out:
        skip_without_estimator("tf1clip.estimator is not available: %s" % out["missing"])
    return out


def test_session_config_thread_counts_hold_before_the_first_session():
    out = _run("patched")
    assert out["at_session"] == [3, 5] and out["after"] == [3, 5]
    assert out["runtime_started"] is True  # started by graph building, after the counts were given


def test_without_the_patch_the_runtime_starts_with_its_own_counts():
    """The trap the patch removes, shown on this TensorFlow with the real Estimator."""
    out = _run("unpatched")
    assert out["runtime_started"] is True
    assert out["at_session"] == [0, 0] and out["after"] == [0, 0]


def test_a_count_set_with_tf_config_threading_is_kept():
    out = _run("user-intra-2")  # evaluate first: every graph-building method gives the counts
    assert out["at_session"] == [2, 5] and out["after"] == [2, 5]


def test_a_started_runtime_is_left_as_it_is_with_a_warning_and_training_goes_on():
    out = _run("runtime-started")
    assert out["at_session"] == [0, 0] and out["after"] == [0, 0]
    assert out["loss"] >= 0.0
    assert out["warnings"] == [  # once per count, though train ran twice
        "The Estimator's session_config asks for %s_parallelism_threads=%d, but TensorFlow's runtime started "
        "before the Estimator built its graph, so its thread pools keep their own counts (one thread per core "
        "unless set): call tf.config.threading.set_%s_parallelism_threads(%d) at the start of the program."
        % (kind, count, kind, count)
        for kind, count in (("intra_op", 3), ("inter_op", 5))
    ]


@pytest.mark.parametrize("case", ["patched", "user-intra-2", "unpatched"])
def test_no_warning_where_the_counts_hold_or_were_chosen(case):
    assert _run(case)["warnings"] == []


def test_session_threads_sets_nothing_without_counts_or_after_the_runtime_started():
    tf.config.list_logical_devices()  # this pytest process: the runtime has started
    assert _estimator.session_threads(None) == {}
    assert _estimator.session_threads(tf.compat.v1.ConfigProto()) == {}
    config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=3, inter_op_parallelism_threads=5)
    before = (
        tf.config.threading.get_intra_op_parallelism_threads(),
        tf.config.threading.get_inter_op_parallelism_threads(),
    )
    if before == (0, 0) and not {"TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS"} & set(os.environ):
        with pytest.warns(RuntimeWarning, match="TensorFlow's runtime started before the Estimator built its graph"):
            assert _estimator.session_threads(config) == {}
    assert (
        tf.config.threading.get_intra_op_parallelism_threads(),
        tf.config.threading.get_inter_op_parallelism_threads(),
    ) == before
