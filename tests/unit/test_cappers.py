"""Capper factories and chain."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from helpers import np_global_norm
from tf1clip.core import cappers


def _pairs():
    v = [tf.Variable(tf.zeros(2), name="a"), tf.Variable(tf.zeros(2), name="b"), tf.Variable(0.0, name="c")]
    return [(tf.constant([3.0, -4.0]), v[0]), (tf.constant([0.5, 12.0]), v[1]), (None, v[2])], v


@pytest.mark.parametrize(
    "factory,direct",
    [
        (lambda: tf1clip.clip_by_value_fn(-1.0, 1.0), lambda p: tf1clip.clip_by_value(p, -1.0, 1.0)),
        (lambda: tf1clip.clip_by_norm_fn(2.0), lambda p: tf1clip.clip_by_norm(p, 2.0)),
        (lambda: tf1clip.clip_by_average_norm_fn(0.5), lambda p: tf1clip.clip_by_average_norm(p, 0.5)),
        (lambda: tf1clip.clip_by_global_norm_fn(2.0), lambda p: tf1clip.clip_by_global_norm(p, 2.0)[0]),
    ],
    ids=["value", "norm", "average", "global"],
)
def test_factories_equal_the_functions(sess, factory, direct):
    pairs, v = _pairs()
    from_capper = factory()(pairs)
    from_function = direct(pairs)
    assert [var for _, var in from_capper] == v
    assert from_capper[2][0] is None
    a, b = sess.run([[g for g, _ in from_capper[:2]], [g for g, _ in from_function[:2]]])
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y)


def test_chain_applies_in_order(sess):
    pairs, v = _pairs()
    value_then_global = tf1clip.chain(tf1clip.clip_by_value_fn(-1.0, 1.0), tf1clip.clip_by_global_norm_fn(1.0))
    global_then_value = tf1clip.chain(tf1clip.clip_by_global_norm_fn(1.0), tf1clip.clip_by_value_fn(-0.5, 0.5))
    first = value_then_global(pairs)
    second = global_then_value(pairs)
    assert [var for _, var in first] == v == [var for _, var in second]
    out1, out2 = sess.run([[g for g, _ in first[:2]], [g for g, _ in second[:2]]])
    vc = [np.clip([3.0, -4.0], -1, 1), np.clip([0.5, 12.0], -1, 1)]
    n = np_global_norm(vc)
    np.testing.assert_allclose(out1[0], vc[0] / n, rtol=1e-6)
    np.testing.assert_allclose(out1[1], vc[1] / n, rtol=1e-6)
    n2 = np_global_norm([[3.0, -4.0], [0.5, 12.0]])
    np.testing.assert_allclose(out2[0], np.clip(np.array([3.0, -4.0]) / n2, -0.5, 0.5), rtol=1e-6)
    np.testing.assert_allclose(out2[1], np.clip(np.array([0.5, 12.0]) / n2, -0.5, 0.5), rtol=1e-6)


def test_chain_of_nothing_is_identity(graph):
    pairs, _ = _pairs()
    out = tf1clip.chain()(pairs)
    assert [g for g, _ in out] == [g for g, _ in pairs]


def test_plain_function_is_a_capper(sess):
    calls = []

    def my_capper(grads_and_vars):
        calls.append(len(grads_and_vars))
        return [(None if g is None else g * 2.0, v) for g, v in grads_and_vars]

    pairs, _ = _pairs()
    out = tf1clip.chain(my_capper, tf1clip.clip_by_norm_fn(5.0))(pairs)
    assert calls == [3]
    np.testing.assert_allclose(sess.run(out[0][0]), [3.0, -4.0], rtol=1e-6)  # [6, -8] clipped to norm 5


def test_chain_rejects_non_callables(graph):
    with pytest.raises(TypeError, match=r"`cappers\[1\]` must be a capper: a callable .*received float 5\.0"):
        tf1clip.chain(tf1clip.clip_by_norm_fn(1.0), 5.0)


def test_capper_that_drops_or_reorders_variables_is_named(graph):
    pairs, _ = _pairs()

    def drops_none(grads_and_vars):
        return [(g, v) for g, v in grads_and_vars if g is not None]

    def returns_grads(grads_and_vars):
        return [g for g, _ in grads_and_vars]

    with pytest.raises(
        ValueError,
        match=r"drops_none must return the same variables in the same order; it received \['a:0', 'b:0', 'c:0'\] and returned \['a:0', 'b:0'\]",
    ):
        tf1clip.chain(drops_none)(pairs)
    with pytest.raises(
        TypeError,
        match=r"the result of .*returns_grads\[0\]` must be a \(gradient, variable\) pair.*A capper must return",
    ):
        tf1clip.chain(returns_grads)(pairs)


def test_factories_validate_eagerly(graph):
    with pytest.raises(ValueError, match=r"`clip_norm` must be > 0"):
        tf1clip.clip_by_norm_fn(-2.0)
    with pytest.raises(ValueError, match=r"`clip_norm` must be > 0"):
        tf1clip.clip_by_global_norm_fn(0.0)
    with pytest.raises(ValueError, match=r"`clip_norm` must be > 0"):
        tf1clip.clip_by_average_norm_fn(-1)
    with pytest.raises(ValueError, match=r"`clip_value_min` must be <= `clip_value_max`"):
        tf1clip.clip_by_value_fn(1.0, -1.0)


# --- explicit capper state ---------------------------------------------------------------


def _sgd_model():
    w = tf.compat.v1.Variable([3.0, 4.0], name="w")
    opt = tf.compat.v1.train.GradientDescentOptimizer(0.0)
    return w, opt, opt.compute_gradients(tf.reduce_sum(w * w), [w])


def test_run_capper_returns_the_update_and_leaves_nothing_pending(graph):
    w, opt, pairs = _sgd_model()
    autoclip = tf1clip.AutoClip(history_size=2)
    clipped, updates = cappers.run_capper(tf1clip.chain(tf1clip.clip_by_value_fn(-100, 100), autoclip), pairs)
    assert len(updates) == 1 and callable(updates[0])
    assert graph.get_collection(tf1clip.STATE_UPDATES) == []
    train = tf1clip.attach_state_updates(opt.apply_gradients(clipped), updates=updates)
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        sess.run([g for g, _ in clipped])  # evaluating the gradients alone advances nothing
        assert sess.run(autoclip.count) == 0
        sess.run(train)
        sess.run(train)
        assert sess.run(autoclip.count) == 2


def test_a_plain_call_inside_run_capper_hands_its_update_to_it_and_never_to_the_collection(graph):
    w, opt, pairs = _sgd_model()
    autoclip = tf1clip.AutoClip(history_size=2)
    pending_inside = []

    def user_capper(grads_and_vars):
        clipped = autoclip(grads_and_vars)
        pending_inside.append(list(graph.get_collection(tf1clip.STATE_UPDATES)))
        return clipped

    clipped, updates = cappers.run_capper(user_capper, pairs)
    assert pending_inside == [[]] and len(updates) == 1
    assert graph.get_collection(tf1clip.STATE_UPDATES) == []
    train = tf1clip.attach_state_updates(opt.apply_gradients(clipped), updates=updates)
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        sess.run(train)
        assert sess.run(autoclip.count) == 1


def test_a_failing_capper_leaves_no_update_pending(graph):
    _, _, pairs = _sgd_model()
    autoclip = tf1clip.AutoClip(history_size=2)

    def user_capper(grads_and_vars):
        autoclip(grads_and_vars)
        raise ValueError("user capper failed")

    with pytest.raises(ValueError, match="^user capper failed$"):
        cappers.run_capper(user_capper, pairs)
    assert graph.get_collection(tf1clip.STATE_UPDATES) == []


def test_stateless_capper_through_run_capper_has_no_update(graph):
    _, _, pairs = _sgd_model()
    clipped, updates = cappers.run_capper(tf1clip.clip_by_global_norm_fn(1.0), pairs)
    assert updates == [] and len(clipped) == 1


def test_attach_state_updates_rejects_bad_arguments(graph):
    with pytest.raises(TypeError, match=r"`train_op` must be a tf.Operation or tf.Tensor .*received str 'x'"):
        tf1clip.attach_state_updates("x")
    with pytest.raises(TypeError, match=r"`updates` must be a list of zero-argument callables"):
        tf1clip.attach_state_updates(tf.no_op(), updates=[1])
