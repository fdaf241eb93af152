"""tf1clip.contrib.slim: `slim = tf1clip.contrib.slim; slim.learning.create_train_op(...)`."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.contrib

v1 = tf.compat.v1
slim = tf1clip.contrib.slim  # as legacy code wrote `slim = tf.contrib.slim`


def _model():
    """a: gradient [30, 40] (norm 50); b: gradient [3]; emb: IndexedSlices; unused: None."""
    a = v1.get_variable("a", [2], initializer=v1.zeros_initializer())
    b = v1.get_variable("b", [1], initializer=v1.zeros_initializer())
    emb = v1.get_variable("emb", [3, 2], initializer=v1.zeros_initializer())
    v1.get_variable("unused", [], initializer=v1.zeros_initializer())
    loss = tf.reduce_sum(a * [30.0, 40.0]) + tf.reduce_sum(b * 3.0) + tf.reduce_sum(tf.gather(emb, [1]) * [6.0, 8.0])
    return loss, a, b, emb


def _one_step(**kwargs):
    with tf.Graph().as_default():
        loss, a, b, emb = _model()
        train_op = slim.learning.create_train_op(loss, v1.train.GradientDescentOptimizer(1.0), **kwargs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train_op, kwargs.pop("feed", None))
            return [-x for x in sess.run([a, b, emb])]  # the applied gradients


@pytest.mark.parametrize("clip", [4, 4.0, np.float32(4.0)], ids=["int", "float", "np32"])
def test_clip_gradient_norm_is_per_tensor(clip):
    a_grad, b_grad, emb_grad = _one_step(clip_gradient_norm=clip)
    np.testing.assert_allclose(a_grad, [2.4, 3.2], rtol=1e-6)
    np.testing.assert_allclose(b_grad, [3.0])  # norm 3 < 4: untouched (a global clip would scale it)
    np.testing.assert_allclose(emb_grad, [[0, 0], [2.4, 3.2], [0, 0]], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("clip", [0, -1.0], ids=["zero", "negative"])
def test_clip_gradient_norm_zero_or_less_disables(clip):
    a_grad, b_grad, _ = _one_step(clip_gradient_norm=clip)
    np.testing.assert_allclose(a_grad, [30.0, 40.0])
    np.testing.assert_allclose(b_grad, [3.0])


def test_multiply_then_clip():
    _, b_grad, emb_grad = _one_step(clip_gradient_norm=4.0, gradient_multipliers={"b": 10.0, "emb": 0.1})
    np.testing.assert_allclose(b_grad, [4.0], rtol=1e-6)  # 3 * 10 = 30, then clipped to 4
    np.testing.assert_allclose(emb_grad[1], [0.6, 0.8], rtol=1e-6)  # 10 * 0.1 = 1 < 4


def test_tensor_clip_gradient_norm():
    with tf.Graph().as_default():
        loss, a, _, _ = _model()
        clip = v1.placeholder(tf.float32, [])
        train_op = slim.learning.create_train_op(loss, v1.train.GradientDescentOptimizer(1.0), clip_gradient_norm=clip)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train_op, {clip: 5.0})
            np.testing.assert_allclose(sess.run(a), [-3.0, -4.0], rtol=1e-6)


def test_scopes_and_summary_tags():
    with tf.Graph().as_default():
        loss, _, _, _ = _model()
        slim.learning.create_train_op(
            loss,
            v1.train.GradientDescentOptimizer(1.0),
            clip_gradient_norm=4.0,
            gradient_multipliers={"b": 2.0},
            summarize_gradients=True,
        )
        ops = [op.name for op in v1.get_default_graph().get_operations()]
        tags = sorted(s.name for s in v1.get_collection(v1.GraphKeys.SUMMARIES))
    assert any(name.startswith("multiply_grads/") for name in ops)
    assert any(name.startswith("clip_grads/") for name in ops)
    # contrib's slim create_train_op summarised through contrib.training: underscore tags.
    assert tags == [
        "summarize_grads/%s_gradient%s:0" % (v, suffix) for v in ("a", "b", "emb") for suffix in ("", "_norm")
    ]


def test_global_step_helpers_and_increment():
    with tf.Graph().as_default():
        step = slim.get_or_create_global_step()
        assert slim.get_global_step() is step
        assert tf1clip.contrib.framework.get_or_create_global_step() is step
        loss, _, _, _ = _model()
        train_op = slim.learning.create_train_op(loss, v1.train.GradientDescentOptimizer(1.0))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run([train_op, train_op])  # one run: one increment
            assert sess.run(step) == 1
            sess.run(train_op)
            assert sess.run(step) == 2


def test_bad_clip_gradient_norm():
    with tf.Graph().as_default():
        loss, _, _, _ = _model()
        with pytest.raises(TypeError, match="`clip_gradient_norm` must be a number or a 0-d tensor"):
            slim.learning.create_train_op(loss, v1.train.GradientDescentOptimizer(1.0), clip_gradient_norm="4")
