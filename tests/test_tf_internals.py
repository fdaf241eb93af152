"""Every non-public TensorFlow symbol tf1clip uses resolves on the installed TensorFlow.

tf1clip reaches them only through tf1clip/_tf.py; a TensorFlow release that drops
or renames one fails here, in one place, before anything else does.
"""

import importlib

import pytest
import tensorflow as tf

from tf1clip import _tf


def _resolve(path):
    """The object at ``path``: the longest importable module prefix, then attributes."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


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


def test_tf_export_module_builds_an_estimator_style_exporter():
    tf_export = _tf.tf_export_module()
    attributes = tf_export.API_ATTRS[tf_export.TENSORFLOW_API_NAME]
    assert attributes.names == "_tf_api_names" and tf_export.API_ATTRS_V1[tf_export.TENSORFLOW_API_NAME].names == (
        "_tf_api_names_v1"
    )
    assert issubclass(tf_export.api_export, object) and callable(tf_export.api_export("a.b"))
    assert _tf.version_tuple("2.21.0rc1") == (2, 21)
