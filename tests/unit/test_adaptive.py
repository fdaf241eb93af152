"""AutoClip, ZClip, AGC and NormRecorder against NumPy references over sequences of steps."""

import math

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from helpers import np_global_norm

v1 = tf.compat.v1

NAN = float("nan")


def _sequence(seed=0, steps=14, spikes=(5, 9), nan_at=(7,)):
    rng = np.random.RandomState(seed)
    grads = [rng.randn(3).astype(np.float32) * rng.uniform(0.5, 1.5) for _ in range(steps)]
    for i in spikes:
        grads[i] = grads[i] * 40.0
    for i in nan_at:
        grads[i] = np.array([NAN, 1.0, 2.0], np.float32)
    return grads


# --- NumPy references -------------------------------------------------------------------------


def np_autoclip(grads, percentile, size):
    history, out = [], []
    for g in grads:
        n = np_global_norm([g])
        if not math.isfinite(n):
            out.append(np.full_like(g, NAN))
            continue
        threshold = np.percentile((history + [n])[-size:], percentile)
        out.append(g * (1.0 if n <= threshold else threshold / n))
        history.append(n)
    return out, history[-size:]


def np_zclip(
    grads,
    alpha=0.97,
    z_thresh=2.5,
    max_grad_norm=1.0,
    eps=1e-6,
    warmup=25,
    mode="zscore",
    clip_option="adaptive_scaling",
    clip_factor=1.0,
    skip_update_on_spike=False,
):
    buffer, mean, var, out = [], None, None, []
    for g in grads:
        n = np_global_norm([g])
        if not math.isfinite(n):
            out.append(np.full_like(g, NAN))
            continue
        if mean is None:
            buffer.append(n)
            if len(buffer) >= warmup:
                mean = sum(buffer) / len(buffer)
                var = sum((b - mean) ** 2 for b in buffer) / len(buffer)
            limit = max_grad_norm if max_grad_norm is not None else n
            out.append(g * (limit / (n + 1e-6)) if n > limit else g)
            continue
        std = var**0.5
        clip_val = None
        if mode == "percentile":
            if n > mean + z_thresh * std:
                clip_val = mean + z_thresh * std
        else:
            z = (n - mean) / (std + eps)
            if z > z_thresh:
                clip_val = mean if clip_option == "mean" else (mean + z_thresh * std / (z / z_thresh)) * clip_factor
        limit = clip_val if clip_val is not None else n
        if max_grad_norm is not None:
            limit = min(limit, max_grad_norm)
        out.append(g * (limit / (n + 1e-6)) if n > limit else g)
        if clip_val is not None and skip_update_on_spike:
            continue
        observed = clip_val if clip_val is not None else n
        mean = alpha * mean + (1 - alpha) * observed
        var = alpha * var + (1 - alpha) * (observed - mean) ** 2
    return out, (mean, var)


# --- graph driver ---------------------------------------------------------------------------------


class _Driver(object):
    """One variable whose gradient is fed; the capper's output is applied with SGD(lr=1)."""

    def __init__(self, capper, size=3):
        self.grad = v1.placeholder(tf.float32, [size])
        self.var = tf.Variable(tf.zeros(size), name="w")
        self.capper = capper
        ((self.clipped, _),) = capper([(self.grad, self.var)])
        opt = v1.train.GradientDescentOptimizer(1.0)
        self.train = tf1clip.attach_state_updates(opt.apply_gradients([(self.clipped, self.var)]))

    def run(self, sess, grads):
        return [sess.run([self.clipped, self.train], {self.grad: g})[0] for g in grads]


def _assert_sequences_close(actual, expected, rtol=1e-5):
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected)):
        np.testing.assert_allclose(a, e, rtol=rtol, atol=1e-6, err_msg="step %d" % i)


# --- AutoClip -------------------------------------------------------------------------------------


@pytest.mark.parametrize("percentile,size", [(10.0, 1000), (50.0, 4), (90.0, 1)])
def test_autoclip_matches_numpy_over_spikes_and_nan(sess, percentile, size):
    grads = _sequence()
    capper = tf1clip.AutoClip(percentile=percentile, history_size=size)
    driver = _Driver(capper)
    sess.run(v1.global_variables_initializer())
    out = driver.run(sess, grads)
    expected, history = np_autoclip(grads, percentile, size)
    _assert_sequences_close(out, expected)
    assert sess.run(capper.count) == len(grads) - 1  # the NaN step is not counted
    stored = sess.run(capper.history)
    assert sorted(stored[: len(history)]) == pytest.approx(sorted(history), rel=1e-6)
    assert capper.history.op.name == "AutoClip/history" and capper.count.op.name == "AutoClip/count"


def test_autoclip_state_not_advanced_by_evaluating_clipped_gradients(sess):
    capper = tf1clip.AutoClip(percentile=50.0, history_size=8)
    driver = _Driver(capper)
    sess.run(v1.global_variables_initializer())
    g = np.array([3.0, 4.0, 0.0], np.float32)
    for _ in range(5):
        sess.run(driver.clipped, {driver.grad: g})
    assert sess.run(capper.count) == 0
    driver.run(sess, [g])
    assert sess.run(capper.count) == 1


def test_autoclip_in_eager_and_tf_function_matches_numpy():
    grads = _sequence(seed=3)
    expected, _ = np_autoclip(grads, 30.0, 5)
    var = tf.Variable(tf.zeros(3))
    eager = tf1clip.AutoClip(percentile=30.0, history_size=5)
    got = [eager([(tf.constant(g), var)])[0][0].numpy() for g in grads]
    _assert_sequences_close(got, expected)
    traced = tf1clip.AutoClip(percentile=30.0, history_size=5)
    step = tf.function(lambda g: traced([(g, var)])[0][0])
    _assert_sequences_close([step(tf.constant(g)).numpy() for g in grads], expected)
    assert traced.count.numpy() == len(grads) - 1


# --- ZClip ----------------------------------------------------------------------------------------


ZCLIP_CASES = {
    "adaptive": dict(warmup=4),
    "adaptive_no_max": dict(warmup=4, max_grad_norm=None),
    "mean": dict(warmup=3, clip_option="mean", max_grad_norm=None),
    "percentile": dict(warmup=4, mode="percentile", z_thresh=1.5, max_grad_norm=5.0),
    "skip_on_spike": dict(warmup=4, skip_update_on_spike=True, max_grad_norm=None, clip_factor=0.8),
}


@pytest.mark.parametrize("case", sorted(ZCLIP_CASES))
def test_zclip_matches_numpy_reference(sess, case):
    kwargs = dict(ZCLIP_CASES[case])
    grads = _sequence(seed=5, steps=16, spikes=(6, 11, 12), nan_at=(2, 9))
    warmup = kwargs.pop("warmup")
    capper = tf1clip.ZClip(warmup_steps=warmup, **kwargs)
    driver = _Driver(capper)
    sess.run(v1.global_variables_initializer())
    out = driver.run(sess, grads)
    expected, (mean, var) = np_zclip(grads, warmup=warmup, **kwargs)
    _assert_sequences_close(out, expected, rtol=2e-5)
    got_mean, got_var = sess.run([capper.mean, capper.var])
    assert got_mean == pytest.approx(mean, rel=1e-5) and got_var == pytest.approx(var, rel=1e-4)
    # the spikes were really clipped
    spike_norms = [np_global_norm([out[i]]) for i in (6, 11)]
    assert all(n < 0.5 * np_global_norm([grads[i]]) for n, i in zip(spike_norms, (6, 11)))


def test_zclip_argument_errors():
    with pytest.raises(ValueError, match=r"`mode` must be 'zscore' or 'percentile'; received 'z'"):
        tf1clip.ZClip(mode="z")
    with pytest.raises(ValueError, match=r"`clip_option` must be 'adaptive_scaling' or 'mean'; received 'max'"):
        tf1clip.ZClip(clip_option="max")
    with pytest.raises(ValueError, match=r"`alpha` must be >= 0.0 and <= 1.0; received 1.5"):
        tf1clip.ZClip(alpha=1.5)
    with pytest.raises(TypeError, match=r"`warmup_steps` must be an int; received float 2.5"):
        tf1clip.ZClip(warmup_steps=2.5)
    with pytest.raises(ValueError, match=r"`history_size` must be >= 1; received 0"):
        tf1clip.AutoClip(history_size=0)
    with pytest.raises(ValueError, match=r"`percentile` must be >= 0.0 and <= 100.0; received 101.0"):
        tf1clip.AutoClip(percentile=101)


# --- checkpoints ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make,reference",
    [
        (lambda: tf1clip.AutoClip(percentile=50.0, history_size=5), lambda g: np_autoclip(g, 50.0, 5)[0]),
        (
            lambda: tf1clip.ZClip(warmup_steps=3, max_grad_norm=None),
            lambda g: np_zclip(g, warmup=3, max_grad_norm=None)[0],
        ),
    ],
    ids=["autoclip", "zclip"],
)
def test_saver_round_trip_mid_sequence_continues_identically(tmp_path, make, reference):
    grads = _sequence(seed=11, steps=12, spikes=(8,), nan_at=())
    path = str(tmp_path / "state.ckpt")
    with tf.Graph().as_default():
        driver = _Driver(make())
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            first = driver.run(s, grads[:6])
            v1.train.Saver().save(s, path)
    with tf.Graph().as_default():
        driver = _Driver(make())
        with v1.Session() as s:
            v1.train.Saver().restore(s, path)
            second = driver.run(s, grads[6:])
    _assert_sequences_close(first + second, reference(grads), rtol=2e-5)


def test_object_checkpoint_tracks_state(tmp_path):
    capper = tf1clip.AutoClip(history_size=4)
    var = tf.Variable(tf.zeros(3))
    capper([(tf.constant([3.0, 4.0, 0.0]), var)])
    path = tf.train.Checkpoint(capper=capper).save(str(tmp_path / "c"))
    keys = {k for k, _ in tf.train.list_variables(path)}
    assert {"capper/history/.ATTRIBUTES/VARIABLE_VALUE", "capper/count/.ATTRIBUTES/VARIABLE_VALUE"} <= keys
    other = tf1clip.AutoClip(history_size=4)
    other([(tf.constant([1.0, 0.0, 0.0]), var)])
    tf.train.Checkpoint(capper=other).restore(path)
    assert other.count.numpy() == 1 and other.history.numpy()[0] == pytest.approx(5.0)


def test_one_capper_serves_eager_calls_and_tf_function_alike():
    var = tf.Variable(tf.zeros(3))
    capper = tf1clip.AutoClip(percentile=50.0, history_size=4)
    grads = _sequence(seed=9, steps=4, spikes=(2,), nan_at=())
    first = capper([(tf.constant(grads[0]), var)])[0][0].numpy()
    step = tf.function(lambda g: capper([(g, var)])[0][0])
    rest = [step(tf.constant(g)).numpy() for g in grads[1:]]
    _assert_sequences_close([first] + rest, np_autoclip(grads, 50.0, 4)[0])
    assert capper.count.numpy() == len(grads)


def test_stateful_capper_refuses_a_second_graph():
    capper = tf1clip.AutoClip()
    with tf.Graph().as_default():
        capper([(tf.ones(2), tf.Variable(tf.zeros(2)))])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"AutoClip was first used in another graph"):
            capper([(tf.ones(2), tf.Variable(tf.zeros(2)))])


# --- AGC ------------------------------------------------------------------------------------------


def np_agc(g, w, axes, clip, eps=1e-3):
    g_norm = np.sqrt(np.sum(g.astype(np.float64) ** 2, axis=axes, keepdims=True))
    w_norm = np.maximum(np.sqrt(np.sum(w.astype(np.float64) ** 2, axis=axes, keepdims=True)), eps)
    max_norm = clip * w_norm
    return np.where(g_norm > max_norm, g * max_norm / np.maximum(g_norm, 1e-6), g)


def test_agc_uses_tf_kernel_layouts(sess):
    rng = np.random.RandomState(0)
    shapes = {"dense/kernel": (4, 3), "conv/kernel": (3, 3, 2, 5), "dense/bias": (3,), "scale": ()}
    axes = {"dense/kernel": (0,), "conv/kernel": (0, 1, 2), "dense/bias": None, "scale": None}
    weights = {n: np.asarray(rng.randn(*s), np.float32) for n, s in shapes.items()}
    grads = {n: np.asarray(rng.randn(*s) * rng.choice([0.001, 1.0], size=s), np.float32) for n, s in shapes.items()}
    pairs = [(tf.constant(grads[n]), v1.get_variable(n, initializer=weights[n])) for n in shapes]
    pairs.append((None, v1.get_variable("no_grad", [2])))
    out = tf1clip.AGC(clip_factor=0.05)(pairs)
    assert out[-1][0] is None
    sess.run(v1.global_variables_initializer())
    got = sess.run([g for g, _ in out[:-1]])
    clipped_any = False
    for name, value in zip(shapes, got):
        expected = np_agc(grads[name], weights[name], axes[name], 0.05)
        np.testing.assert_allclose(value, expected, rtol=1e-5, err_msg=name)
        clipped_any |= not np.allclose(expected, grads[name])
    assert clipped_any


def test_agc_sparse_rows_exclude_and_unit_axes(sess):
    rng = np.random.RandomState(1)
    table = rng.randn(6, 4).astype(np.float32)
    emb = v1.get_variable("embedding", initializer=table)
    head = v1.get_variable("classifier/kernel", initializer=np.ones((2, 2), np.float32))
    conv1d = v1.get_variable("conv1d/kernel", initializer=rng.randn(3, 2, 4).astype(np.float32))
    values = rng.randn(3, 4).astype(np.float32) * 10
    sparse = tf.IndexedSlices(tf.constant(values), tf.constant([4, 1, 4]), tf.constant([6, 4]))
    g1d = rng.randn(3, 2, 4).astype(np.float32) * 10
    agc = tf1clip.AGC(clip_factor=0.1, exclude=["^classifier/"], unit_axes={"conv1d/kernel": (0, 1)})
    out = agc([(sparse, emb), (tf.constant(np.full((2, 2), 99.0, np.float32)), head), (tf.constant(g1d), conv1d)])
    assert isinstance(out[0][0], tf.IndexedSlices) and out[0][0].indices is sparse.indices
    sess.run(v1.global_variables_initializer())
    rows, head_grad, g_conv = sess.run([out[0][0].values, out[1][0], out[2][0]])
    np.testing.assert_allclose(rows, np_agc(values, table[[4, 1, 4]], (1,), 0.1), rtol=1e-5)
    np.testing.assert_array_equal(head_grad, np.full((2, 2), 99.0))
    np.testing.assert_allclose(g_conv, np_agc(g1d, sess.run(conv1d), (0, 1), 0.1), rtol=1e-5)


def test_agc_unknown_rank_needs_unit_axes(graph):
    var = v1.get_variable("conv1d/kernel", [3, 2, 4])
    with pytest.raises(
        ValueError,
        match=r"AGC: cannot tell the units of conv1d/kernel \(rank 3\); give its norm axes with unit_axes=\{'conv1d/kernel': axes\}",
    ):
        tf1clip.AGC()([(tf.ones([3, 2, 4]), var)])
    with pytest.raises(TypeError, match=r"`exclude` must be a list of names or patterns; received str"):
        tf1clip.AGC(exclude="head")


# --- NormRecorder ---------------------------------------------------------------------------------


def test_norm_recorder_tensors_fraction_and_summaries(graph, sess):
    recorder = tf1clip.NormRecorder(tf1clip.clip_by_global_norm_fn(5.0), per_variable_summaries=True)
    a = tf.Variable(tf.zeros(2), name="a")
    b = tf.Variable(tf.zeros(2), name="b")
    ga, gb = v1.placeholder(tf.float32, [2]), v1.placeholder(tf.float32, [2])
    clipped = recorder([(ga, a), (gb, b)])
    train = tf1clip.attach_state_updates(v1.train.GradientDescentOptimizer(0.1).apply_gradients(clipped))
    merged = v1.summary.merge_all()
    sess.run(v1.global_variables_initializer())
    steps = [([3.0, 4.0], [0.0, 0.0]), ([30.0, 40.0], [0.0, 0.0]), ([0.3, 0.4], [1.0, 0.0])]
    fractions = []
    for x, y in steps:
        pre, post, norms, fraction, summary, _ = sess.run(
            [
                recorder.pre_clip_norm,
                recorder.post_clip_norm,
                recorder.variable_norms,
                recorder.clip_fraction,
                merged,
                train,
            ],
            {ga: x, gb: y},
        )
        assert pre == pytest.approx(np_global_norm([x, y]), rel=1e-6)
        assert post == pytest.approx(min(5.0, np_global_norm([x, y])), rel=1e-6)
        assert norms == {"a": pytest.approx(np.linalg.norm(x)), "b": pytest.approx(np.linalg.norm(y))}
        fractions.append(fraction)
    assert fractions == [0.0, 0.0, 0.5]  # before each step's own update
    assert sess.run([recorder.steps, recorder.clipped_steps]) == [3, 1]
    tags = {v.tag for v in v1.Summary.FromString(summary).value}
    assert tags == {
        "gradient_norms/pre_clip_norm",
        "gradient_norms/post_clip_norm",
        "gradient_norms/clip_fraction",
        "gradient_norms/variable_norms",
        "gradient_norms/norm/a",
        "gradient_norms/norm/b",
    }


def test_adaptive_cappers_chain_with_fixed_ones(sess):
    autoclip = tf1clip.AutoClip(percentile=50.0, history_size=10)
    chained = tf1clip.chain(tf1clip.clip_by_value_fn(-10.0, 10.0), autoclip)
    driver = _Driver(chained)
    sess.run(v1.global_variables_initializer())
    grads = _sequence(seed=2, nan_at=())
    out = driver.run(sess, grads)
    expected, _ = np_autoclip([np.clip(g, -10, 10) for g in grads], 50.0, 10)
    _assert_sequences_close(out, expected)


# --- with tf1clip.contrib -------------------------------------------------------------------------


def _contrib_model():
    x = v1.placeholder(tf.float32, [3])
    w = v1.get_variable("w", initializer=tf.constant([1.0, -2.0, 0.5]))
    v1.get_variable("unused", [2])
    return x, w, tf.reduce_sum(w * x)  # gradient wrt w is x


def test_optimize_loss_runs_stateful_capper_updates_once_per_step(sess):
    from tf1clip.contrib import layers

    x, w, loss = _contrib_model()
    step = v1.train.get_or_create_global_step()
    capper = tf1clip.AutoClip(percentile=50.0, history_size=10)
    train = layers.optimize_loss(loss, step, learning_rate=1.0, optimizer="SGD", clip_gradients=capper)
    sess.run(v1.global_variables_initializer())
    grads = _sequence(seed=4, steps=6, spikes=(3,), nan_at=())
    before = sess.run(w)
    for g in grads:
        sess.run(train, {x: g})
        sess.run(capper.threshold, {x: g})  # evaluating the clipped pieces alone changes nothing
    expected, _ = np_autoclip(grads, 50.0, 10)
    assert sess.run(capper.count) == len(grads)
    np.testing.assert_allclose(sess.run(w), before - np.sum(expected, axis=0), rtol=1e-5)


def test_create_train_op_with_zclip_and_contrib_cappers_in_a_chain(sess):
    from tf1clip.contrib import training

    x, w, loss = _contrib_model()
    zclip = tf1clip.ZClip(warmup_steps=2, max_grad_norm=None)
    chained = tf1clip.chain(training.clip_gradient_norms_fn(50.0), zclip)
    train = training.create_train_op(loss, v1.train.GradientDescentOptimizer(1.0), transform_grads_fn=chained)
    sess.run(v1.global_variables_initializer())
    grads = _sequence(seed=8, steps=8, spikes=(5,), nan_at=())
    before = sess.run(w)
    for g in grads:
        sess.run(train, {x: g})
    capped = [g * min(50.0 / np.linalg.norm(g), 1.0) for g in grads]
    expected, (mean, _) = np_zclip(capped, warmup=2, max_grad_norm=None)
    assert sess.run(zclip.count) == len(grads)
    assert sess.run(zclip.mean) == pytest.approx(mean, rel=1e-5)
    np.testing.assert_allclose(sess.run(w), before - np.sum(expected, axis=0), rtol=1e-4)


# --- float64 and float16 ---------------------------------------------------------------------


@pytest.mark.parametrize("capper", ["AutoClip", "ZClip"])
def test_adaptive_cappers_keep_float64_norms_above_float32_range(sess, capper):
    # The float64 norm was cast to float32: above 3.4e38 it became inf and the
    # gradients NaN.
    v = tf.Variable(tf.zeros(2, tf.float64))
    g = tf.constant([3e100, 4e100], tf.float64)
    if capper == "AutoClip":
        cap = tf1clip.AutoClip(percentile=50.0, history_size=4)
        expected = [3e100, 4e100]  # history = [this norm]: threshold = norm, scale 1
    else:
        cap = tf1clip.ZClip(max_grad_norm=1e99, warmup_steps=2)
        expected = [3e100 * 0.02, 4e100 * 0.02]  # warm-up: only max_grad_norm (1e99 / 5e100) applies
    out = cap([(g, v)])
    state = [var for var in cap.variables if var.dtype.base_dtype != tf.int64]
    assert state and all(var.dtype.base_dtype == tf.float64 for var in state)
    sess.run(tf.compat.v1.global_variables_initializer())
    np.testing.assert_allclose(sess.run(out[0][0]), expected, rtol=1e-9)
    assert cap.norm.dtype == tf.float64


def test_agc_float64_units_keep_their_range(sess):
    w = np.array([[3e100, 1e-60], [4e100, 0.0]])
    g = np.array([[3e102, 5e-3], [4e102, 0.0]])
    var = tf.Variable(w)
    out = tf1clip.AGC(clip_factor=0.01, eps=1e-80)([(tf.constant(g), var)])[0][0]
    sess.run(var.initializer)
    got = sess.run(out)
    # Column 0: ||g|| = 5e102 > 0.01 * 5e100 -> scaled to norm 5e98; column 1:
    # 5e-3 > 0.01 * 1e-60 -> scaled to norm 1e-62 (0 in float32).
    expected = np.stack([g[:, 0] * (0.01 * 5e100 / 5e102), g[:, 1] * (0.01 * 1e-60 / 5e-3)], 1)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
def test_agc_half_precision_scale_is_applied_in_float32(sess, dtype):
    # clip_factor * ||W|| / ||G|| = 1e-3 * 1e-2 / 6e4 ~ 1.7e-10: below float16's range.
    w = tf.Variable(tf.constant([0.01, 0.0], dtype))
    g = tf.constant([6e4, 0.0], dtype)
    out = tf1clip.AGC(clip_factor=1e-3, eps=1e-6)([(g, w)])[0][0]
    sess.run(w.initializer)
    got = sess.run(tf.cast(out, tf.float64))
    w0 = sess.run(tf.cast(w, tf.float64))[0]
    np.testing.assert_allclose(got, [1e-3 * w0, 0.0], rtol=2**-7)
