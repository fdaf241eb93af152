"""tf1clip.contrib.estimator.clip_gradients_by_norm (TF 1.15 extenders_test cases and more)."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import estimator

v1 = tf.compat.v1


def test_is_the_foundation_decorator_with_tf115s_clip_stage():
    opt = v1.train.GradientDescentOptimizer(1.0)
    wrapped = estimator.clip_gradients_by_norm(opt, 2.0)
    assert type(wrapped) is type(tf1clip.clip_gradients_by_norm(opt, 2.0))
    assert wrapped.clip_stage == "per_replica"  # TF 1.15 clipped each replica's gradients
    assert estimator.clip_gradients_by_norm(opt, 2.0, clip_stage="aggregated").clip_stage == "aggregated"
    assert tf1clip.clip_gradients_by_norm(opt, 2.0).clip_stage == "aggregated"


def test_applies_norm():
    optimizer = estimator.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(1.0), clip_norm=3.0)
    with tf.Graph().as_default():
        w = tf.Variable(1.0, name="weight")
        x = tf.constant(5.0)
        y = -x * w
        grads = optimizer.compute_gradients(y, var_list=[w])[0]
        opt_op = optimizer.minimize(y, var_list=[w])
        with v1.train.MonitoredSession() as sess:
            assert sess.run(grads)[0] == pytest.approx(-5.0)
            sess.run(opt_op)
            assert sess.run(w) == pytest.approx(4.0)


def test_name():
    optimizer = estimator.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(1.0), clip_norm=3.0)
    assert optimizer.get_name() == "ClipByNormGradientDescent"


def test_global_norm_int_clip_and_variables():
    with tf.Graph().as_default():
        a = v1.get_variable("a", [1], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [1], initializer=v1.zeros_initializer())
        inner = v1.train.AdamOptimizer(0.1)
        optimizer = estimator.clip_gradients_by_norm(inner, 1)  # an int clip_norm is fine
        pairs = optimizer.compute_gradients(a * 3.0 + b * 4.0)
        clipped = optimizer.transform_grads_fn(pairs)
        optimizer.apply_gradients(pairs)
        # contrib's wrapper returned [] here; the Adam variables are what Saver/Checkpoint need.
        assert [v.op.name for v in optimizer.variables()] == [v.op.name for v in inner.variables()]
        assert len(optimizer.variables()) == 6
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run([g for g, _ in clipped])
    np.testing.assert_allclose(np.concatenate(values), [0.6, 0.8], rtol=1e-6)  # global, not per tensor


def test_none_and_indexed_slices_gradients():
    with tf.Graph().as_default():
        emb = v1.get_variable("emb", [4, 2], initializer=v1.ones_initializer())
        w = v1.get_variable("w", [2], initializer=v1.constant_initializer([3.0, 4.0]))
        unused = v1.get_variable("unused", [], initializer=v1.ones_initializer())
        loss = tf.reduce_sum(tf.gather(emb, [0, 2]) * 2.0) + tf.reduce_sum(w * w) / 2.0
        optimizer = estimator.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(1.0), 2.5)
        pairs = optimizer.compute_gradients(loss)
        clipped = optimizer.transform_grads_fn(pairs)
        assert isinstance(clipped[0][0], tf.IndexedSlices) and clipped[2][0] is None
        train = optimizer.minimize(loss)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            emb_value, w_value, unused_value = sess.run([emb, w, unused])
    scale = 2.5 / np.sqrt(16.0 + 25.0)
    expected_emb = np.ones([4, 2])
    expected_emb[[0, 2]] -= 2.0 * scale
    np.testing.assert_allclose(emb_value, expected_emb, rtol=1e-6)
    np.testing.assert_allclose(w_value, [3.0 - 3.0 * scale, 4.0 - 4.0 * scale], rtol=1e-6)
    assert unused_value == 1.0


def test_errors():
    with pytest.raises(TypeError, match="`optimizer` must be a tf.compat.v1.train.Optimizer instance"):
        estimator.clip_gradients_by_norm("sgd", 1.0)
    with pytest.raises(ValueError, match=r"`clip_norm` must be > 0 .*received 0\.0"):
        estimator.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(1.0), 0.0)
