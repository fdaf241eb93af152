import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402


def _behavior():
    """TensorFlow's process-wide v1/v2 switches (``disable_v2_behavior()`` flips them all, for good)."""
    from tensorflow.python import tf2
    from tensorflow.python.framework import tensor_shape

    return {
        "tf2": tf2.enabled(),
        "eager": tf.executing_eagerly(),
        "resource_variables": tf.compat.v1.resource_variables_enabled(),
        "control_flow_v2": tf.compat.v1.control_flow_v2_enabled(),
        "tensorshape_v2": tensor_shape._TENSORSHAPE_V2_OVERRIDE,
        "tensor_equality": tf.Tensor._USE_EQUALITY,
        # Estimators run in subprocesses: tf1clip.estimator patches TF and may set TF_USE_LEGACY_KERAS.
        "tf1clip.estimator imported": "tf1clip.estimator" in sys.modules,
        "TF_USE_LEGACY_KERAS": os.environ.get("TF_USE_LEGACY_KERAS"),
    }


@pytest.fixture(autouse=True)
def _keeps_tf_behavior():
    """Fails a test that changes TF's process-wide behavior or imports tf1clip.estimator: every later test in the
    process would run under it (eager execution cannot be turned back on). Run such code in a subprocess
    (helpers.run_python)."""
    before = _behavior()
    yield
    after = _behavior()
    if after != before:
        changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        pytest.fail("the test changed TensorFlow's process-wide behavior (before, after): %s" % changed, pytrace=False)


@pytest.fixture
def graph():
    """A fresh default graph (TF1 graph mode) for one test."""
    with tf.Graph().as_default() as g:
        yield g


@pytest.fixture
def sess(graph):
    with tf.compat.v1.Session(graph=graph) as s:
        yield s
