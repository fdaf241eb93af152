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


def test_optimizer_subclass_protocol_accessors():
    # Used by tf1clip.contrib.opt's optimizers (v1 Optimizer subclasses).
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable([1.0, 2.0], name="w")
        adam = tf.compat.v1.train.AdamOptimizer(0.1)
        adam.apply_gradients([(tf.constant([1.0, 1.0]), w)])
        beta1_power, beta2_power = _tf.adam_beta_powers(adam)
        assert (beta1_power.op.name, beta2_power.op.name) == ("beta1_power", "beta2_power")
        graph = tf.compat.v1.get_default_graph()
        assert _tf.get_non_slot_variable(adam, "beta2_power", graph=graph) is beta2_power
        sgd = tf.compat.v1.train.GradientDescentOptimizer(0.1)
        assert _tf.zeros_slot(sgd, w, "s", "SGD").op.name == "w/SGD"
        assert _tf.get_or_make_slot(sgd, w, tf.ones([2]), "t", "SGD").op.name == "w/SGD_1"
        assert sgd.get_slot_names() == ["s", "t"]
        assert _tf.create_non_slot_variable(sgd, 3.0, "extra", w).op.name == "extra"
