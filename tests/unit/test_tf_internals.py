"""Every non-public TensorFlow symbol tf1clip uses resolves on the installed TensorFlow.

tf1clip reaches them only through tf1clip/compat/_tf.py; a TensorFlow release that drops
or renames one fails here, in one place, before anything else does.
"""

import importlib

import pytest
import tensorflow as tf

from tf1clip.compat import _tf


def _resolve(path):
    """The object at ``path``: the longest importable module prefix, then attributes."""
    parts = path.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for part in parts[k:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


@pytest.mark.parametrize(
    "owner, attr", _tf.PRIVATE_NAMES, ids=["%s.%s" % (o.split(".")[-1], a) for o, a in _tf.PRIVATE_NAMES]
)
def test_private_name_exists(owner, attr):
    assert hasattr(_resolve(owner), attr), "%s.%s is gone from TensorFlow %s" % (owner, attr, tf.__version__)


def _instances():
    """One instance of each class in PRIVATE_INSTANCE_ATTRIBUTES, built in a graph."""
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable(1.0, name="w")  # a Supervisor's default Saver needs a variable
        sync = tf.compat.v1.train.SyncReplicasOptimizer(tf.compat.v1.train.GradientDescentOptimizer(1.0), 1)
        sync.apply_gradients([(tf.constant(1.0), w)], tf.compat.v1.train.get_or_create_global_step())
        return {
            "tensorflow.compat.v1.train.SyncReplicasOptimizer": sync,
            "tensorflow.compat.v1.mixed_precision.DynamicLossScale": tf.compat.v1.mixed_precision.DynamicLossScale(),
            "tensorflow.compat.v1.train.Supervisor": tf.compat.v1.train.Supervisor(logdir=None),
        }


def test_private_instance_attributes_exist():
    instances = _instances()
    assert sorted(instances) == sorted({owner for owner, _ in _tf.PRIVATE_INSTANCE_ATTRIBUTES})
    missing = [(o, a) for o, a in _tf.PRIVATE_INSTANCE_ATTRIBUTES if not hasattr(instances[o], a)]
    assert missing == [], "gone from TensorFlow %s" % tf.__version__


def test_accessors_work_on_real_objects():
    with tf.Graph().as_default():
        lso = tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer
        adam = tf.compat.v1.train.AdamOptimizer(0.1)
        assert _tf.lso_is_dynamic(lso(adam, "dynamic")) is True
        assert _tf.lso_is_dynamic(lso(tf.compat.v1.train.AdamOptimizer(0.1), 128.0)) is False
        assert _tf.is_ref_dtype(tf.float32) is False
        ref = tf.compat.v1.Variable(1.0, use_resource=False)
        assert _tf.is_ref_dtype(ref.dtype) is True
        w = tf.compat.v1.Variable(1.0, name="w")
        adam.minimize(w * w, var_list=[w])
        children = dict(_tf.trackable_children(adam))
        assert {"beta1_power", "beta2_power"} <= set(children)
        assert _tf.lookup_dependency(adam, "beta1_power") is children["beta1_power"]
        assert _tf.lookup_dependency(adam, "missing") is None
        assert _tf.deferred_dependencies(adam) == {}


def test_loss_scale_and_supervisor_accessors():
    with tf.Graph().as_default() as graph:
        scale = tf.compat.v1.mixed_precision.DynamicLossScale()
        _tf.set_dynamic_loss_scale_config(scale, 8, 3, 4)
        assert (scale.initial_loss_scale, scale.increment_period, scale.multiplier) == (8.0, 3, 4.0)
        weight = _tf.add_loss_scale_weight(scale, "extra", 5.0, tf.float32)
        assert weight.dtype.base_dtype == tf.float32 and weight in tf.compat.v1.global_variables()
        supervisor = tf.compat.v1.train.Supervisor(logdir=None)
        assert _tf.supervisor_graph(supervisor) is graph
        coordinator = tf.compat.v1.train.Coordinator()
        _tf.set_supervisor_coordinator(supervisor, coordinator)
        assert supervisor.coord is coordinator


def test_sync_replicas_local_step_is_the_workers_local_variable():
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable(1.0, name="w")
        sync = tf.compat.v1.train.SyncReplicasOptimizer(tf.compat.v1.train.GradientDescentOptimizer(1.0), 1)
        global_step = tf.compat.v1.train.get_or_create_global_step()
        assert _tf.sync_replicas_local_step(sync) is None
        sync.apply_gradients([(tf.constant(1.0), w)], global_step)
        local_step = _tf.sync_replicas_local_step(sync)
        assert local_step.op.name == "sync_rep_local_step"
        assert local_step in tf.compat.v1.local_variables()
        with tf.compat.v1.Session() as sess:
            sess.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer()])
            sess.run(global_step.assign(7))
            sess.run(sync.local_step_init_op)
            assert sess.run(local_step) == 7


def test_upgrade_engine_accessors():
    import pasta

    ast_edits, ipynb, tf_upgrade_v2, tf_upgrade_v2_safety = _tf.upgrade_modules()
    assert isinstance(tf_upgrade_v2_safety.TFAPIChangeSpec(), ast_edits.APIChangeSpec) and ipynb is not None
    visitor = _tf.pasta_edit_visitor(tf_upgrade_v2.TFAPIChangeSpec())
    tree = pasta.parse("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
    visitor.visit(tree)
    assert "tf.compat.v1.placeholder" in pasta.dump(tree)


def test_optimizer_learning_rate_is_the_constructor_argument():
    for opt in (
        tf.compat.v1.train.GradientDescentOptimizer(0.25),
        tf.compat.v1.train.MomentumOptimizer(0.25, 0.9),
        tf.compat.v1.train.AdamOptimizer(0.25),
    ):
        assert _tf.optimizer_learning_rate(opt) == 0.25
    assert _tf.optimizer_learning_rate(tf.compat.v1.train.RMSPropOptimizer(0.5)) == 0.5
    assert _tf.optimizer_learning_rate(object()) is None


def test_tf_export_module_builds_an_estimator_style_exporter():
    tf_export = _tf.tf_export_module()
    attributes = tf_export.API_ATTRS[tf_export.TENSORFLOW_API_NAME]
    assert attributes.names == "_tf_api_names" and tf_export.API_ATTRS_V1[tf_export.TENSORFLOW_API_NAME].names == (
        "_tf_api_names_v1"
    )
    assert issubclass(tf_export.api_export, object) and callable(tf_export.api_export("a.b"))
    assert _tf.version_tuple("2.21.0rc1") == (2, 21)


@pytest.mark.parametrize(
    "tf_version,protobuf_version,warns",
    [
        ("2.20.0", "7.36.2", True),
        ("2.20.1", "7.0.0", True),
        ("2.20.0", "6.33.6", False),
        ("2.21.0", "7.36.2", False),
        ("2.19.1", "5.29.6", False),
    ],
)
def test_protobuf_mismatch_names_the_pair_tensorflow_2_20_cannot_use(tf_version, protobuf_version, warns):
    message = _tf.protobuf_mismatch(tf_version, protobuf_version)
    if warns:
        assert "TensorFlow 2.20 with protobuf %s" % protobuf_version in message
        assert "pip install 'protobuf<7'" in message
    else:
        assert message is None


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
