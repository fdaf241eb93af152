"""tf1clip.contrib.opt, tf1clip.contrib.framework and the tf1clip.contrib package surface."""

import inspect

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.contrib
from tf1clip.contrib import framework
from tf1clip.contrib import opt

v1 = tf.compat.v1


def test_gradient_clipping_upstream_case():
    with tf.Graph().as_default():
        variables = [v1.get_variable("v%d" % i, [2], initializer=v1.zeros_initializer()) for i in range(4)]
        grads = [tf.constant([10.0, 15.0]), tf.constant([0.0, 5.0]), tf.constant([0.0, 0.0]), None]
        clipped, norm = opt.clip_gradients_by_global_norm(list(zip(grads, variables)), clip_norm=1.0)
        assert [v for _, v in clipped] == variables and clipped[3][0] is None
        with v1.Session() as sess:
            norm_value, zero_grad, first = sess.run([norm, clipped[2][0], clipped[0][0]])
    assert norm_value == pytest.approx(np.sqrt(350.0))
    np.testing.assert_array_equal(zero_grad, [0.0, 0.0])
    np.testing.assert_allclose(first, np.array([10.0, 15.0]) / np.sqrt(350.0), rtol=1e-6)


def test_indexed_slices_and_default_clip_norm():
    # contrib's tf.cond failed on IndexedSlices; here they stay sparse. The default limit is 20.
    with tf.Graph().as_default():
        emb = v1.get_variable("emb", [4, 2], initializer=v1.zeros_initializer())
        w = v1.get_variable("w", [1], initializer=v1.zeros_initializer())
        sparse = tf.IndexedSlices(tf.constant([[30.0, 0.0]]), tf.constant([2]), tf.constant([4, 2]))
        clipped, norm = opt.clip_gradients_by_global_norm([(sparse, emb), (tf.constant([40.0]), w)])
        assert isinstance(clipped[0][0], tf.IndexedSlices)
        assert clipped[0][0].indices is sparse.indices and clipped[0][0].dense_shape is sparse.dense_shape
        with v1.Session() as sess:
            norm_value, values, dense = sess.run([norm, clipped[0][0].values, clipped[1][0]])
    assert norm_value == pytest.approx(50.0)
    np.testing.assert_allclose(values, [[12.0, 0.0]], rtol=1e-6)
    np.testing.assert_allclose(dense, [16.0], rtol=1e-6)


def test_opt_errors():
    with tf.Graph().as_default():
        w = v1.get_variable("w", [1], initializer=v1.zeros_initializer())
        with pytest.raises(TypeError, match="`gradients_variables` must be a list of"):
            opt.clip_gradients_by_global_norm(tf.constant([1.0]))
        with pytest.raises(ValueError, match="`clip_norm` must be > 0"):
            opt.clip_gradients_by_global_norm([(tf.constant([1.0]), w)], clip_norm=-1.0)


def test_framework_global_step():
    with tf.Graph().as_default():
        assert framework.get_global_step() is None
        step = framework.get_or_create_global_step()
        assert framework.get_global_step() is step
        assert v1.train.get_global_step() is step
    with tf.Graph().as_default() as graph:
        made = v1.get_variable("global_step", [], tf.int64, v1.zeros_initializer(), trainable=False)
        with pytest.raises(TypeError, match="does not have integer type"):
            v1.train.get_global_step()  # TF 2.x finds the resource handle; tf1clip finds the variable
        assert framework.get_global_step() is made
        assert framework.get_global_step(graph) is made
        assert framework.get_or_create_global_step() is made
    with tf.Graph().as_default():
        v1.get_variable("global_step", [], tf.float32)
        with pytest.raises(TypeError, match="does not have integer type"):
            framework.get_global_step()


def test_package_surface_and_signatures():
    contrib = tf1clip.contrib
    for module in ("estimator", "framework", "layers", "opt", "slim", "training"):
        assert getattr(contrib, module) is not None and module in contrib.__all__
    for module in (
        contrib.estimator,
        contrib.framework,
        contrib.layers,
        contrib.opt,
        contrib.slim,
        contrib.slim.learning,
        contrib.training,
    ):
        for name in module.__all__:
            assert getattr(module, name) is not None, (module.__name__, name)
    import tf1clip.contrib.slim as slim_module

    assert slim_module.learning.create_train_op is contrib.slim.learning.create_train_op

    def params(fn):
        return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]

    empty = inspect.Parameter.empty
    assert params(contrib.layers.optimize_loss) == [
        ("loss", empty),
        ("global_step", empty),
        ("learning_rate", empty),
        ("optimizer", empty),
        ("gradient_noise_scale", None),
        ("gradient_multipliers", None),
        ("clip_gradients", None),
        ("learning_rate_decay_fn", None),
        ("update_ops", None),
        ("variables", None),
        ("name", None),
        ("summaries", None),
        ("colocate_gradients_with_ops", False),
        ("increment_global_step", True),
    ]
    assert params(contrib.layers.adaptive_clipping_fn) == [
        ("std_factor", 2.0),
        ("decay", 0.95),
        ("static_max_norm", None),
        ("global_step", None),
        ("report_summary", False),
        ("epsilon", 1e-8),
        ("name", None),
    ]
    common = [
        ("total_loss", empty),
        ("optimizer", empty),
        ("global_step", 0),
        ("update_ops", None),
        ("variables_to_train", None),
    ]
    tail = [
        ("gate_gradients", v1.train.Optimizer.GATE_OP),
        ("aggregation_method", None),
        ("colocate_gradients_with_ops", False),
    ]
    assert params(contrib.training.create_train_op) == (
        common + [("transform_grads_fn", None), ("summarize_gradients", False)] + tail + [("check_numerics", True)]
    )
    assert params(contrib.slim.learning.create_train_op) == (
        common
        + [("clip_gradient_norm", 0), ("summarize_gradients", False)]
        + tail
        + [("gradient_multipliers", None), ("check_numerics", True)]
    )
    assert params(contrib.opt.clip_gradients_by_global_norm) == [("gradients_variables", empty), ("clip_norm", 20.0)]
    positional = [
        (p.name, p.default)
        for p in inspect.signature(contrib.estimator.clip_gradients_by_norm).parameters.values()
        if p.kind != inspect.Parameter.KEYWORD_ONLY
    ]
    assert positional == [("optimizer", empty), ("clip_norm", empty)]  # tf1clip adds keyword-only options
    for fn in (contrib.training.clip_gradient_norms, contrib.slim.learning.clip_gradient_norms):
        assert params(fn) == [("gradients_to_variables", empty), ("max_norm", empty)]
    for fn in (contrib.training.multiply_gradients, contrib.slim.learning.multiply_gradients):
        assert params(fn) == [("grads_and_vars", empty), ("gradient_multipliers", empty)]
    assert params(contrib.training.clip_gradient_norms_fn) == [("max_norm", empty)]
    assert params(contrib.framework.get_global_step) == [("graph", None)]
