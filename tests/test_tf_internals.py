"""Every non-public TensorFlow symbol tf1clip uses resolves on the installed TensorFlow.

tf1clip reaches them only through tf1clip/_tf.py; a TensorFlow release that drops
or renames one fails here, in one place, before anything else does.
"""

import importlib

import pytest
import tensorflow as tf

from tf1clip import _tf


def _resolve(path):
    parts = path.split(".")
    obj = importlib.import_module(parts[0])
    for part in parts[1:]:
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("owner, attr", _tf.PRIVATE_NAMES, ids=[a for _, a in _tf.PRIVATE_NAMES])
def test_private_name_exists(owner, attr):
    assert hasattr(_resolve(owner), attr), "%s.%s is gone from TensorFlow %s" % (owner, attr, tf.__version__)


def test_accessors_work_on_real_objects():
    with tf.Graph().as_default():
        lso = tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer
        adam = tf.compat.v1.train.AdamOptimizer(0.1)
        assert _tf.lso_is_dynamic(lso(adam, "dynamic")) is True
        assert _tf.lso_is_dynamic(lso(tf.compat.v1.train.AdamOptimizer(0.1), 128.0)) is False
        assert _tf.is_ref_dtype(tf.float32) is False
        ref = tf.compat.v1.Variable(1.0, use_resource=False)
        assert _tf.is_ref_dtype(ref.dtype) is True
        assert isinstance(dict(_tf.trackable_children(adam)), dict)
        assert _tf.lookup_dependency(adam, "missing") is None
        assert isinstance(_tf.deferred_dependencies(adam), dict)


def test_optimizer_learning_rate_is_the_constructor_argument():
    for opt in (
        tf.compat.v1.train.GradientDescentOptimizer(0.25),
        tf.compat.v1.train.MomentumOptimizer(0.25, 0.9),
        tf.compat.v1.train.AdamOptimizer(0.25),
    ):
        assert _tf.optimizer_learning_rate(opt) == 0.25
    assert _tf.optimizer_learning_rate(tf.compat.v1.train.RMSPropOptimizer(0.5)) == 0.5
    assert _tf.optimizer_learning_rate(object()) is None
