"""tf1clip with MixedPrecisionLossScaleOptimizer (both nestings) and float16 variables."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip

LSO = tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer
NAN, INF = float("nan"), float("inf")


def dynamic_scale(initial=1024.0):
    return tf.compat.v1.mixed_precision.DynamicLossScale(initial_loss_scale=initial)


def nest(order, inner, capper, **options):
    """``clip(lso(inner))`` or ``lso(clip(inner))``; returns (optimizer, wrapper, loss scale)."""
    scale = dynamic_scale()
    if order == "clip(lso)":
        wrapper = tf1clip.transform_gradients(LSO(inner, scale), capper, **options)
        return wrapper, wrapper, scale
    wrapper = tf1clip.transform_gradients(inner, capper, **options)
    return LSO(wrapper, scale), wrapper, scale


class Net(object):
    """float32 master weights, float16 compute: d loss / d w = x."""

    def __init__(self, opt):
        self.w = tf.compat.v1.Variable([1.0, 2.0], name="w")
        self.x = tf.compat.v1.placeholder(tf.float16, [2], name="x")
        loss = tf.reduce_sum(tf.cast(self.w, tf.float16) * self.x)
        self.global_step = tf.compat.v1.train.get_or_create_global_step()
        self.train = opt.minimize(loss, global_step=self.global_step, var_list=[self.w])
        self.sess = tf.compat.v1.Session()
        self.sess.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer()])

    def close(self):
        self.sess.close()


def _run(net, scale, x, *fetches):
    out = net.sess.run([net.train] + list(fetches), {net.x: x})[1:]
    return out, net.sess.run([net.w, net.global_step, scale()])


ORDERS = ["clip(lso)", "lso(clip)"]


@pytest.mark.parametrize("order", ORDERS)
def test_clipping_sees_unscaled_gradients_and_overflow_lowers_the_scale(order):
    with tf.Graph().as_default():
        opt, _, scale = nest(
            order, tf.compat.v1.train.GradientDescentOptimizer(1.0), tf1clip.clip_by_global_norm_fn(1.0)
        )
        net = Net(opt)
        # Unscaled norm 0.5 < 1: applied as is. Scaled by 1024 it would have been clipped.
        _, (w, step, s) = _run(net, scale, [0.3, 0.4])
        np.testing.assert_allclose(w, [0.7, 1.6], rtol=1e-3)
        assert (step, s) == (1, 1024.0)
        # 100 * 1024 overflows float16: the step is skipped and the scale halves.
        _, (w2, step, s) = _run(net, scale, [100.0, 1.0])
        np.testing.assert_array_equal(w2, w)
        assert (step, s) == (1, 512.0)
        # Norm 5 clipped to 1, whatever the scale.
        _, (w3, step, s) = _run(net, scale, [3.0, 4.0])
        np.testing.assert_allclose(w3, w - [0.6, 0.8], rtol=1e-3)
        assert (step, s) == (2, 512.0)
        net.close()


@pytest.mark.parametrize("policy", ["nan", "skip"])
@pytest.mark.parametrize("order", ORDERS)
def test_overflow_leaves_adam_slots_untouched(order, policy):
    with tf.Graph().as_default():
        adam = tf.compat.v1.train.AdamOptimizer(0.1)
        opt, wrapper, scale = nest(order, adam, tf1clip.clip_by_global_norm_fn(1.0), on_nonfinite=policy)
        net = Net(opt)
        slots = adam.variables()
        assert sorted(v.op.name for v in slots) == ["beta1_power", "beta2_power", "w/Adam", "w/Adam_1"]
        before = net.sess.run(slots)
        _run(net, scale, [INF, 1.0])
        after = net.sess.run(slots)
        for a, b in zip(before, after):
            np.testing.assert_array_equal(a, b)
        assert net.sess.run([net.global_step, scale()]) == [0, 512.0]
        if policy == "skip":  # the LSO outside never lets the step reach the wrapper
            assert net.sess.run(wrapper.skipped_steps) == (1 if order == "clip(lso)" else 0)
        _, (w, step, _) = _run(net, scale, [3.0, 4.0])
        np.testing.assert_allclose(w, [0.9, 1.9], rtol=1e-3)
        assert step == 1
        net.close()


def test_value_clipping_cannot_hide_an_overflow_from_the_loss_scale():
    # clip_by_value would turn the overflowed inf into 1; the wrapper keeps it NaN.
    with tf.Graph().as_default():
        opt, _, scale = nest(
            "clip(lso)", tf.compat.v1.train.GradientDescentOptimizer(1.0), tf1clip.clip_by_value_fn(-1.0, 1.0)
        )
        net = Net(opt)
        _, (w, step, s) = _run(net, scale, [100.0, 1.0])
        np.testing.assert_array_equal(w, [1.0, 2.0])
        assert (step, s) == (0, 512.0)
        net.close()


def test_skip_policy_counts_overflows_and_still_lowers_the_scale():
    with tf.Graph().as_default():
        opt, wrapper, scale = nest(
            "clip(lso)",
            tf.compat.v1.train.AdamOptimizer(0.1),
            tf1clip.clip_by_global_norm_fn(1.0),
            on_nonfinite="skip",
        )
        net = Net(opt)
        _run(net, scale, [100.0, 1.0])
        assert net.sess.run([net.w, net.global_step, scale(), wrapper.skipped_steps])[1:] == [0, 512.0, 1]
        np.testing.assert_array_equal(net.sess.run(net.w), [1.0, 2.0])
        _run(net, scale, [3.0, 4.0])
        assert net.sess.run([net.global_step, wrapper.skipped_steps]) == [1, 1]
        net.close()


def test_raise_inside_the_loss_scale_optimizer_ignores_handled_overflows():
    with tf.Graph().as_default():
        opt, _, scale = nest(
            "lso(clip)",
            tf.compat.v1.train.GradientDescentOptimizer(1.0),
            tf1clip.clip_by_global_norm_fn(1.0),
            on_nonfinite="raise",
        )
        net = Net(opt)
        _, (w, step, s) = _run(net, scale, [100.0, 1.0])
        assert (step, s) == (0, 512.0)
        net.close()


def test_reported_norms_are_unscaled():
    with tf.Graph().as_default():
        opt, wrapper, scale = nest(
            "clip(lso)",
            tf.compat.v1.train.GradientDescentOptimizer(1.0),
            tf1clip.clip_by_global_norm_fn(1.0),
            report_norms=True,
        )
        net = Net(opt)
        (norms,), _ = _run(net, scale, [3.0, 4.0], list(wrapper.norms))
        assert norms == pytest.approx([5.0, 1.0], rel=1e-3)
        net.close()


def test_float16_variables_and_gradients_end_to_end():
    # Norm 500: its square, 250000, would overflow float16 (max 65504).
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable(np.array([1.0, 2.0], np.float16), name="w")
        e = tf.compat.v1.Variable(np.ones((3, 2), np.float16), name="e")
        gw = tf.compat.v1.placeholder(tf.float16, [2])
        ge = tf.compat.v1.placeholder(tf.float16, [1, 2])
        pairs = [(gw, w), (tf.IndexedSlices(ge, tf.constant([1]), tf.constant([3, 2])), e)]
        opt = tf1clip.clip_gradients_by_norm(
            tf.compat.v1.train.AdamOptimizer(0.1, epsilon=1e-4),  # 1e-8 underflows in float16
            5.0,
            on_nonfinite="skip",
            report_norms=True,
        )
        train = opt.apply_gradients(pairs)
        m = opt.optimizer.get_slot(w, "m")
        assert m.dtype.base_dtype == tf.float16 and opt.norms.before.dtype == tf.float32
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(train, {gw: [INF, 1.0], ge: [[1.0, 1.0]]})
            assert sess.run(opt.skipped_steps) == 1
            np.testing.assert_array_equal(sess.run(m), [0.0, 0.0])
            _, norms = sess.run([train, list(opt.norms)], {gw: [300.0, 400.0], ge: [[0.0, 0.0]]})
            assert norms == pytest.approx([500.0, 5.0], rel=1e-3)
            g = np.array([3.0, 4.0])  # clipped to norm 5
            np.testing.assert_allclose(sess.run(m), 0.1 * g, rtol=2e-3)
            np.testing.assert_allclose(sess.run(w), [0.9, 1.9], rtol=2e-3)
            np.testing.assert_array_equal(sess.run(e)[[0, 2]], np.ones((2, 2), np.float16))
            assert sess.run(opt.skipped_steps) == 1
