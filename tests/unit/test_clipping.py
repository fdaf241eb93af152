"""Pair-list clipping functions against NumPy formulas and properties."""

import math

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from helpers import evaluate, np_global_norm

X0 = np.array([[-2.0, 0.0, 0.0], [4.0, 0.0, 0.0]], np.float32)
X1 = np.array([1.0, -2.0], np.float32)  # global norm of (X0, X1) is 5


def _vars(*shapes, dtype=tf.float32):
    return [tf.Variable(tf.zeros(s, dtype), name="v%d" % i) for i, s in enumerate(shapes)]


def _dense(pairs):
    return [None if g is None else (g.values if isinstance(g, tf.IndexedSlices) else g) for g, _ in pairs]


def np_clip_global(arrays, clip_norm):
    norm = np_global_norm(arrays)
    return [a * min(clip_norm / norm, 1.0) if norm else a for a in arrays], norm


def np_clip_each(arrays, limits):
    out = []
    for a, c in zip(arrays, limits):
        n = np.sqrt(np.sum(np.square(a, dtype=np.float64)))
        out.append(a * min(c / n, 1.0) if n else a)
    return out


# --- global norm ----------------------------------------------------------------------------------


def test_global_norm_matches_numpy_with_none_and_sparse(sess):
    rng = np.random.RandomState(0)
    a, b = rng.randn(3, 4).astype(np.float32), rng.randn(2, 5).astype(np.float32)
    v = _vars((3, 4), (7,), (4, 5))
    sparse = tf.IndexedSlices(tf.constant(b), tf.constant([0, 2]), tf.constant([4, 5]))
    norm = tf1clip.global_norm([(tf.constant(a), v[0]), (None, v[1]), (sparse, v[2])])
    assert norm.dtype == tf.float32
    assert sess.run(norm) == pytest.approx(np_global_norm([a, b]), rel=1e-6)


def test_global_norm_counts_repeated_sparse_rows_once_each(sess):
    (v,) = _vars((4, 1))
    sparse = tf.IndexedSlices(tf.constant([[3.0], [4.0]]), tf.constant([0, 0]), tf.constant([4, 1]))
    # norm of the values (5), not of the summed dense row (7)
    assert sess.run(tf1clip.global_norm([(sparse, v)])) == pytest.approx(5.0)


@pytest.mark.parametrize("pairs_kind", ["empty", "all_none"])
def test_global_norm_of_nothing_is_zero(sess, pairs_kind):
    pairs = [] if pairs_kind == "empty" else [(None, v) for v in _vars((2,), (3,))]
    norm = tf1clip.global_norm(pairs)
    assert norm.dtype == tf.float32
    assert sess.run(norm) == 0.0


# --- clip_by_global_norm (upstream clip_ops_test cases and properties) -----------------------------


@pytest.mark.parametrize("clip_norm", [4.0, 4, np.float32(4.0), np.float64(4.0)])
def test_clip_by_global_norm_scales_by_limit_over_norm(sess, clip_norm):
    v = _vars((2, 3), (2,))
    pairs = [(tf.constant(X0), v[0]), (tf.constant(X1), v[1])]
    clipped, norm = tf1clip.clip_by_global_norm(pairs, clip_norm)
    assert [var for _, var in clipped] == v
    out, n = sess.run([_dense(clipped), norm])
    assert n == pytest.approx(5.0)
    np.testing.assert_allclose(out[0], X0 * 0.8, rtol=1e-6)
    np.testing.assert_allclose(out[1], X1 * 0.8, rtol=1e-6)
    assert np_global_norm(out) == pytest.approx(4.0, rel=1e-6)


def test_clip_by_global_norm_tensor_clip_norm_and_none_positions(sess):
    v = _vars((2, 3), (5,), (2,), (1,))
    limit = tf.compat.v1.placeholder(tf.float32, [])
    pairs = [(tf.constant(X0), v[0]), (None, v[1]), (tf.constant(X1), v[2]), (None, v[3])]
    clipped, norm = tf1clip.clip_by_global_norm(pairs, limit)
    assert clipped[1][0] is None and clipped[3][0] is None
    assert [var for _, var in clipped] == v
    out = sess.run([clipped[0][0], clipped[2][0], norm], {limit: 4.0})
    np.testing.assert_allclose(out[0], X0 * 0.8, rtol=1e-6)
    np.testing.assert_allclose(out[1], X1 * 0.8, rtol=1e-6)
    assert out[2] == pytest.approx(5.0)
    out = sess.run([clipped[0][0], clipped[2][0]], {limit: 6.0})
    np.testing.assert_allclose(out[0], X0)
    np.testing.assert_allclose(out[1], X1)


def test_clip_by_global_norm_keeps_indexed_slices_sparse(sess):
    v = _vars((2, 3), (4,))
    sparse = tf.IndexedSlices(tf.constant(X1), tf.constant([1, 3]), tf.constant([4]))
    clipped, norm = tf1clip.clip_by_global_norm([(tf.constant(X0), v[0]), (sparse, v[1])], 4.0)
    g = clipped[1][0]
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices is sparse.indices and g.dense_shape is sparse.dense_shape
    values, indices, shape = sess.run([g.values, g.indices, g.dense_shape])
    np.testing.assert_allclose(values, X1 * 0.8, rtol=1e-6)
    np.testing.assert_array_equal(indices, [1, 3])
    np.testing.assert_array_equal(shape, [4])


def test_clip_by_global_norm_of_zeros_is_unchanged(sess):
    v = _vars((2, 3), (2,))
    pairs = [(tf.zeros((2, 3)), v[0]), (tf.zeros((2,)), v[1])]
    clipped, norm = tf1clip.clip_by_global_norm(pairs, 4.0)
    out, n = sess.run([_dense(clipped), norm])
    assert n == 0.0
    assert all(np.all(o == 0) for o in out)


@pytest.mark.parametrize("bad", [np.inf, np.nan])
def test_clip_by_global_norm_non_finite_norm_makes_everything_nan(sess, bad):
    v = _vars((2, 3), (2,))
    x0 = X0.copy()
    x0[0, 0] = bad
    clipped, norm = tf1clip.clip_by_global_norm([(tf.constant(x0), v[0]), (tf.constant(X1), v[1])], 4.0)
    out, n = sess.run([_dense(clipped), norm])
    assert not math.isfinite(n)
    assert all(np.all(np.isnan(o)) for o in out)


def test_clip_by_global_norm_use_norm_and_idempotence(sess):
    v = _vars((2, 3), (2,))
    pairs = [(tf.constant(X0), v[0]), (tf.constant(X1), v[1])]
    norm = tf1clip.global_norm(pairs)
    clipped, returned = tf1clip.clip_by_global_norm(pairs, 4.0, use_norm=norm)
    assert returned is norm
    again, second_norm = tf1clip.clip_by_global_norm(clipped, 4.0)
    first, twice, n2 = sess.run([_dense(clipped), _dense(again), second_norm])
    assert n2 == pytest.approx(4.0, rel=1e-6)
    for a, b in zip(first, twice):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    # use_norm given as a different value drives the scale
    fake, _ = tf1clip.clip_by_global_norm(pairs, 4.0, use_norm=tf.constant(8.0))
    np.testing.assert_allclose(sess.run(fake[1][0]), X1 * 0.5, rtol=1e-6)


def test_clip_by_global_norm_statically_infinite_limit_is_identity(sess):
    v = _vars((2, 3))
    g = tf.constant(X0 * 100)
    clipped, norm = tf1clip.clip_by_global_norm([(g, v[0])], float("inf"))
    assert clipped[0][0] is g
    assert sess.run(norm) == pytest.approx(np_global_norm([X0 * 100]), rel=1e-6)
    # an infinite limit fed at run time also leaves finite gradients unchanged
    limit = tf.compat.v1.placeholder(tf.float32, [])
    fed, _ = tf1clip.clip_by_global_norm([(g, v[0])], limit)
    np.testing.assert_allclose(sess.run(fed[0][0], {limit: np.inf}), X0 * 100)


def test_clip_by_global_norm_empty_and_all_none(sess):
    assert tf1clip.clip_by_global_norm([], 1.0)[0] == []
    v = _vars((2,))
    clipped, norm = tf1clip.clip_by_global_norm([(None, v[0])], 1.0)
    assert clipped == [(None, v[0])]
    assert sess.run(norm) == 0.0


def test_clip_by_global_norm_matches_tf_on_random_lists(sess):
    rng = np.random.RandomState(3)
    arrays = [np.asarray(rng.randn(*s) * 3, np.float32) for s in [(5,), (3, 4), (2, 2, 2), ()]]
    v = _vars(*[a.shape for a in arrays])
    pairs = [(tf.constant(a), var) for a, var in zip(arrays, v)]
    ours, our_norm = tf1clip.clip_by_global_norm(pairs, 2.5)
    theirs, their_norm = tf.clip_by_global_norm([g for g, _ in pairs], 2.5)
    a, b, n1, n2 = sess.run([_dense(ours), theirs, our_norm, their_norm])
    assert n1 == pytest.approx(n2, rel=1e-6)
    expected, _ = np_clip_global(arrays, 2.5)
    for x, y, e in zip(a, b, expected):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(x, e, rtol=1e-5, atol=1e-7)


# --- dtypes -------------------------------------------------------------------------------------


def test_float16_norm_above_362_does_not_overflow(sess):
    big = np.full((1000,), 20.0, np.float16)  # norm ~632: its square overflows float16
    small = np.array([3.0, 4.0], np.float32)
    v = [tf.Variable(tf.zeros(1000, tf.float16)), tf.Variable(tf.zeros(2))]
    pairs = [(tf.constant(big), v[0]), (tf.constant(small), v[1])]
    clipped, norm = tf1clip.clip_by_global_norm(pairs, 10.0)
    assert norm.dtype == tf.float32
    assert clipped[0][0].dtype == tf.float16 and clipped[1][0].dtype == tf.float32
    out, n = sess.run([_dense(clipped), norm])
    expected_norm = np_global_norm([big, small])
    assert n == pytest.approx(expected_norm, rel=1e-4)
    assert np_global_norm(out) == pytest.approx(10.0, rel=2e-3)
    np.testing.assert_allclose(out[1], small * 10.0 / expected_norm, rtol=1e-4)


@pytest.mark.parametrize("dtype", [tf.bfloat16, tf.float16, tf.float64])
def test_per_tensor_clip_keeps_each_dtype(sess, dtype):
    x = np.array([30.0, 40.0])
    (v,) = _vars((2,), dtype=dtype)
    (clipped,) = tf1clip.clip_by_norm([(tf.constant(x, dtype), v)], 5.0)
    assert clipped[0].dtype == dtype
    out = sess.run(tf.cast(clipped[0], tf.float64))
    np.testing.assert_allclose(out, [3.0, 4.0], rtol=1e-2 if dtype == tf.bfloat16 else 1e-3)


def test_float64_anywhere_accumulates_in_float64(sess):
    v = [tf.Variable(tf.zeros(2, tf.float64)), tf.Variable(tf.zeros(2, tf.float16))]
    pairs = [(tf.constant([1e-30, 0.0], tf.float64), v[0]), (tf.constant([3.0, 4.0], tf.float16), v[1])]
    norm = tf1clip.global_norm(pairs)
    assert norm.dtype == tf.float64
    clipped, _ = tf1clip.clip_by_global_norm(pairs, 1.0)
    assert [g.dtype for g, _ in clipped] == [tf.float64, tf.float16]
    assert sess.run(norm) == pytest.approx(5.0)
    np.testing.assert_allclose(sess.run(clipped[1][0]).astype(np.float64), [0.6, 0.8], rtol=1e-3)


# --- clip_by_norm (per tensor) -------------------------------------------------------------------


def test_clip_by_norm_each_tensor_on_its_own(sess):
    x = np.array([[-3.0, 0.0, 0.0], [4.0, 0.0, 0.0]], np.float32)
    v = _vars((2, 3), (2,), (3,), (2,))
    pairs = [(tf.constant(x), v[0]), (tf.constant([0.3, 0.4]), v[1]), (None, v[2]), (tf.zeros(2), v[3])]
    clipped = tf1clip.clip_by_norm(pairs, 4.0)
    assert [var for _, var in clipped] == v and clipped[2][0] is None
    out = evaluate(sess, [g for g, _ in clipped])
    np.testing.assert_allclose(out[0], [[-2.4, 0, 0], [3.2, 0, 0]], rtol=1e-6)
    np.testing.assert_allclose(out[1], [0.3, 0.4], rtol=1e-6)
    np.testing.assert_array_equal(out[3], [0.0, 0.0])
    # a larger limit leaves the first tensor unchanged
    np.testing.assert_allclose(sess.run(tf1clip.clip_by_norm(pairs[:1], 6.0)[0][0]), x)


def test_clip_by_norm_matches_tf_clip_by_norm_on_random_tensors(sess):
    rng = np.random.RandomState(1)
    arrays = [rng.randn(*s).astype(np.float32) * rng.uniform(0.1, 5) for s in [(7,), (3, 4), (2, 3, 2), (1,)]]
    v = _vars(*[a.shape for a in arrays])
    clipped = tf1clip.clip_by_norm([(tf.constant(a), var) for a, var in zip(arrays, v)], 1.5)
    ours = sess.run(_dense(clipped))
    theirs = sess.run([tf.clip_by_norm(tf.constant(a), 1.5) for a in arrays])
    for x, y, e in zip(ours, theirs, np_clip_each(arrays, [1.5] * 4)):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(x, e, rtol=1e-5, atol=1e-7)


def test_clip_by_norm_indexed_slices_uses_values(sess):
    (v,) = _vars((4, 1))
    sparse = tf.IndexedSlices(tf.constant([[3.0], [4.0]]), tf.constant([0, 0]), tf.constant([4, 1]))
    ((g, _),) = tf1clip.clip_by_norm([(sparse, v)], 4.0)
    assert isinstance(g, tf.IndexedSlices) and g.indices is sparse.indices
    np.testing.assert_allclose(sess.run(g.values), [[2.4], [3.2]], rtol=1e-6)


def test_clip_by_norm_non_finite_tensor_becomes_nan_others_unaffected(sess):
    v = _vars((2,), (2,))
    pairs = [(tf.constant([np.inf, 1.0]), v[0]), (tf.constant([30.0, 40.0]), v[1])]
    out = sess.run(_dense(tf1clip.clip_by_norm(pairs, 5.0)))
    assert np.all(np.isnan(out[0]))
    np.testing.assert_allclose(out[1], [3.0, 4.0], rtol=1e-6)


def test_clip_by_norm_mixed_dtypes(sess):
    v = [tf.Variable(tf.zeros(2, tf.float16)), tf.Variable(tf.zeros(2)), tf.Variable(tf.zeros(2, tf.float64))]
    pairs = [
        (tf.constant([300.0, 400.0], tf.float16), v[0]),
        (tf.constant([3.0, 4.0]), v[1]),
        (tf.constant([0.03, 0.04], tf.float64), v[2]),
    ]
    out = sess.run(_dense(tf1clip.clip_by_norm(pairs, 1.0)))
    assert [o.dtype for o in out] == [np.float16, np.float32, np.float64]
    np.testing.assert_allclose(out[0].astype(np.float32), [0.6, 0.8], rtol=1e-3)
    np.testing.assert_allclose(out[1], [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(out[2], [0.03, 0.04], rtol=1e-12)


# --- clip_by_average_norm ------------------------------------------------------------------------


def test_clip_by_average_norm_upstream_cases(sess):
    x = np.array([[-3.0, 0.0, 0.0], [4.0, 0.0, 0.0]], np.float32)  # average norm 5/6
    (v,) = _vars((2, 3))
    out08 = sess.run(tf1clip.clip_by_average_norm([(tf.constant(x), v)], 0.8)[0][0])
    np.testing.assert_allclose(out08, [[-2.88, 0, 0], [3.84, 0, 0]], rtol=1e-5)
    np.testing.assert_allclose(sess.run(tf1clip.clip_by_average_norm([(tf.constant(x), v)], 0.9)[0][0]), x)
    same = sess.run(tf1clip.clip_by_norm([(tf.constant(x), v)], 0.8 * 6)[0][0])
    np.testing.assert_allclose(out08, same, rtol=1e-6)
    zeros = sess.run(tf1clip.clip_by_average_norm([(tf.zeros((2, 3)), v)], 0.8)[0][0])
    np.testing.assert_array_equal(zeros, np.zeros((2, 3)))


def test_clip_by_average_norm_sparse_uses_dense_size(sess):
    (v,) = _vars((10, 2))
    sparse = tf.IndexedSlices(tf.constant([[30.0, 40.0]]), tf.constant([4]), tf.constant([10, 2]))
    ((g, _),) = tf1clip.clip_by_average_norm([(sparse, v)], 0.1)  # limit 0.1 * 20 = 2
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_allclose(sess.run(g.values), [[1.2, 1.6]], rtol=1e-6)


# --- clip_by_value --------------------------------------------------------------------------------


def test_clip_by_value_non_finite_and_none(sess):
    v = _vars((3,), (2,))
    pairs = [(tf.constant([np.nan, np.inf, -np.inf]), v[0]), (None, v[1])]
    clipped = tf1clip.clip_by_value(pairs, -4, 4)
    assert clipped[1] == (None, v[1])
    out = sess.run(clipped[0][0])
    assert np.isnan(out[0]) and list(out[1:]) == [4.0, -4.0]


@pytest.mark.parametrize("low,high", [(-2.0, 2.0), (1.0, 2.0), (-2.0, -1.0)])
def test_clip_by_value_indexed_slices(sess, low, high):
    values = np.array([[-3.0, 0.0, 0.0], [4.0, 0.0, 0.0]], np.float32)
    (v,) = _vars((4, 3))
    sparse = tf.IndexedSlices(tf.constant(values), tf.constant([2, 0]), tf.constant([4, 3]))
    ((g, _),) = tf1clip.clip_by_value([(sparse, v)], low, high)
    assert isinstance(g, tf.IndexedSlices) and g.dense_shape is sparse.dense_shape
    np.testing.assert_array_equal(sess.run(g.values), np.clip(values, low, high))


def test_clip_by_value_tensor_bounds_and_dtypes(sess):
    v = [tf.Variable(tf.zeros(3, tf.float16)), tf.Variable(tf.zeros(3, tf.float64))]
    low = tf.compat.v1.placeholder(tf.float32, [])
    pairs = [(tf.constant([-5.0, 0.5, 5.0], tf.float16), v[0]), (tf.constant([-5.0, 0.5, 5.0], tf.float64), v[1])]
    clipped = tf1clip.clip_by_value(pairs, low, 1.0)
    out = sess.run(_dense(clipped), {low: -1.0})
    assert [o.dtype for o in out] == [np.float16, np.float64]
    for o in out:
        np.testing.assert_array_equal(o, [-1.0, 0.5, 1.0])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("kind", ["dense", "sparse", "unknown_shape"])
@pytest.mark.parametrize("size", [6, 65536], ids=["small", "huge"])
def test_clip_by_value_matches_numpy_with_both_kernels(sess, size, kind, dtype):
    # Small gradients use ClipByValue, huge ones (or of unknown size) Maximum then
    # Minimum: the results, NaN and +-inf included, are np.clip's either way.
    rng = np.random.RandomState(size)
    values = (rng.randn(size, 1) * 3).astype(dtype)
    values[:3, 0] = [np.nan, np.inf, -np.inf]
    low = tf.compat.v1.placeholder_with_default(np.asarray(-1.5, np.float32), [])
    (v,) = _vars((size, 1))
    feed = {}
    if kind == "unknown_shape":
        grad = tf.compat.v1.placeholder(dtype, None)
        feed = {grad: values}
    else:
        grad = tf.constant(values)
    if kind == "sparse":
        grad = tf.IndexedSlices(grad, tf.range(size), tf.constant([size, 1]))
    ((g, _),) = tf1clip.clip_by_value([(grad, v)], low, 2.0)
    out = sess.run(_dense([(g, v)])[0] if kind != "sparse" else g.values, feed)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.clip(values, -1.5, 2.0))


# --- eager and tf.function ------------------------------------------------------------------------


def _graph_results(arrays, fn):
    with tf.Graph().as_default():
        v = _vars(*[a.shape for a in arrays])
        out = fn([(tf.constant(a), var) for a, var in zip(arrays, v)])
        with tf.compat.v1.Session() as s:
            return s.run(out)


CASES = {
    "global": lambda p: [g for g, _ in tf1clip.clip_by_global_norm(p, 1.0)[0]],
    "norm": lambda p: [g for g, _ in tf1clip.clip_by_norm(p, 1.0)],
    "average": lambda p: [g for g, _ in tf1clip.clip_by_average_norm(p, 0.2)],
    "value": lambda p: [g for g, _ in tf1clip.clip_by_value(p, -0.5, 0.5)],
    "global_norm": lambda p: [tf1clip.global_norm(p)],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_eager_and_tf_function_equal_graph_mode(case):
    rng = np.random.RandomState(7)
    arrays = [rng.randn(3, 2).astype(np.float32), rng.randn(4).astype(np.float32)]
    expected = _graph_results(arrays, CASES[case])
    assert tf.executing_eagerly()
    v = [tf.Variable(a) for a in arrays]
    eager = [t.numpy() for t in CASES[case]([(tf.constant(a), var) for a, var in zip(arrays, v)])]

    @tf.function
    def step():
        return CASES[case]([(tf.constant(a), var) for a, var in zip(arrays, v)])

    traced = [t.numpy() for t in step()]
    for e, x, y in zip(expected, eager, traced):
        np.testing.assert_allclose(x, e, rtol=1e-6)
        np.testing.assert_allclose(y, e, rtol=1e-6)


def test_gradient_tape_recipe_in_eager_mode():
    w = tf.Variable([3.0, 4.0])
    b = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w) * 10.0
    grads = tape.gradient(loss, [w, b])
    clipped, norm = tf1clip.clip_by_global_norm(list(zip(grads, [w, b])), 1.0)
    assert clipped[1][0] is None
    assert norm.numpy() == pytest.approx(100.0)
    np.testing.assert_allclose(clipped[0][0].numpy(), [0.6, 0.8], rtol=1e-6)


# --- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "clip_norm,error,match",
    [
        (-1.0, ValueError, r"`clip_norm` must be > 0 .*received -1\.0"),
        (0, ValueError, r"`clip_norm` must be > 0 .*received 0\.0"),
        (float("nan"), ValueError, r"`clip_norm` must be > 0 .*received nan"),
        ("5", TypeError, r"`clip_norm` must be a number or a 0-d tensor; received str '5'"),
        (True, TypeError, r"`clip_norm` must be a number or a 0-d tensor; received bool"),
        (np.array([1.0, 2.0]), ValueError, r"`clip_norm` must be a scalar; received an array of shape \(2,\)"),
        (None, TypeError, r"`clip_norm` must be a number or a 0-d tensor; received NoneType"),
    ],
)
@pytest.mark.parametrize("fn", ["clip_by_norm", "clip_by_global_norm", "clip_by_average_norm"])
def test_bad_clip_norm(graph, fn, clip_norm, error, match):
    (v,) = _vars((2,))
    with pytest.raises(error, match=match):
        getattr(tf1clip, fn)([(tf.ones(2), v)], clip_norm)


def test_bad_tensor_clip_norm(graph):
    (v,) = _vars((2,))
    with pytest.raises(ValueError, match=r"`clip_norm` must be a 0-d tensor; received shape \(2,\)"):
        tf1clip.clip_by_norm([(tf.ones(2), v)], tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"`clip_norm` must be > 0 .*received -3\.0"):
        tf1clip.clip_by_global_norm([(tf.ones(2), v)], tf.constant(-3.0))
    with pytest.raises(TypeError, match=r"`clip_norm` must be a real number; received a string tensor"):
        tf1clip.clip_by_norm([(tf.ones(2), v)], tf.constant("x"))


def test_clip_value_bounds_errors(graph):
    (v,) = _vars((2,))
    with pytest.raises(
        ValueError,
        match=r"`clip_value_min` must be <= `clip_value_max`; received clip_value_min=2\.0, clip_value_max=1\.0",
    ):
        tf1clip.clip_by_value([(tf.ones(2), v)], 2.0, 1.0)
    with pytest.raises(ValueError, match=r"`clip_value_max` must not be NaN"):
        tf1clip.clip_by_value([(tf.ones(2), v)], 0.0, float("nan"))
    with pytest.raises(TypeError, match=r"`clip_value_min` must be a number or a 0-d tensor; received str"):
        tf1clip.clip_by_value([(tf.ones(2), v)], "a", 1.0)


@pytest.mark.parametrize(
    "make,error,match",
    [
        (
            lambda v: tf.ones(2),
            TypeError,
            r"`grads_and_vars` must be a list of \(gradient, variable\) pairs, as returned by compute_gradients\(\); received SymbolicTensor",
        ),
        (
            lambda v: [tf.ones(2)],
            TypeError,
            r"`grads_and_vars\[0\]` must be a \(gradient, variable\) pair; received SymbolicTensor",
        ),
        (
            lambda v: [(tf.ones(2), v, 1)],
            TypeError,
            r"`grads_and_vars\[0\]` must be a \(gradient, variable\) pair; received tuple",
        ),
        (lambda v: [(v, tf.ones(2))], TypeError, r"`grads_and_vars\[0\]` looks like \(variable, gradient\)"),
        (
            lambda v: [(tf.ones(2, tf.int32), v)],
            TypeError,
            r"`grads_and_vars\[0\]`: the gradient of v0:0 has dtype int32",
        ),
        (lambda v: [("abc", v)], TypeError, r"`grads_and_vars\[0\]`: the gradient of v0:0 has dtype string"),
        (
            lambda v: {"g": v},
            TypeError,
            r"`grads_and_vars` must be a list of \(gradient, variable\) pairs.*received dict",
        ),
        (lambda v: 3.0, TypeError, r"`grads_and_vars` must be a list .*received float 3\.0"),
    ],
)
@pytest.mark.parametrize(
    "call",
    [
        lambda p: tf1clip.global_norm(p),
        lambda p: tf1clip.clip_by_value(p, -1, 1),
        lambda p: tf1clip.clip_by_norm(p, 1),
        lambda p: tf1clip.clip_by_average_norm(p, 1),
        lambda p: tf1clip.clip_by_global_norm(p, 1),
    ],
    ids=["global_norm", "value", "norm", "average", "global"],
)
def test_malformed_pairs(graph, make, error, match, call):
    (v,) = _vars((2,))
    with pytest.raises(error, match=match):
        call(make(v))


def test_zip_and_generator_inputs_are_accepted(sess):
    v = _vars((2,), (2,))
    grads = [tf.constant([3.0, 4.0]), tf.constant([0.0, 0.0])]
    from_zip, norm = tf1clip.clip_by_global_norm(zip(grads, v), 1.0)
    from_gen = tf1clip.clip_by_norm(((g, var) for g, var in zip(grads, v)), 1.0)
    assert [var for _, var in from_zip] == v == [var for _, var in from_gen]
    np.testing.assert_allclose(sess.run(from_zip[0][0]), [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(sess.run(from_gen[0][0]), [0.6, 0.8], rtol=1e-6)


# --- sum_duplicate_indices ------------------------------------------------------------------------


def test_sum_duplicate_indices_gives_the_dense_norm_and_stays_sparse(sess):
    v = _vars((4, 1), (2,))
    sparse = tf.IndexedSlices(tf.constant([[3.0], [4.0], [1.0]]), tf.constant([2, 2, 0]), tf.constant([4, 1]))
    dense = tf.constant([1.0, 2.0])
    merged = tf1clip.sum_duplicate_indices([(sparse, v[0]), (dense, v[1]), (None, v[0])])
    g = merged[0][0]
    assert isinstance(g, tf.IndexedSlices) and g.dense_shape is sparse.dense_shape
    assert merged[1][0] is dense and merged[2][0] is None
    values, indices = sess.run([g.values, g.indices])
    np.testing.assert_array_equal(indices, [2, 0])
    np.testing.assert_array_equal(values, [[7.0], [1.0]])
    dense_norm = np.sqrt(7.0**2 + 1.0 + 1.0 + 4.0)
    assert sess.run(tf1clip.global_norm(merged)) == pytest.approx(dense_norm, rel=1e-6)
    capper = tf1clip.chain(tf1clip.sum_duplicate_indices, tf1clip.clip_by_global_norm_fn(1.0))
    clipped = capper([(sparse, v[0]), (dense, v[1])])
    np.testing.assert_allclose(sess.run(clipped[0][0].values), [[7.0 / dense_norm], [1.0 / dense_norm]], rtol=1e-6)


# --- float64 range, float16 scale, clip_norm shape ---------------------------------------------

CLIP_FNS = {
    "global": lambda gv, c: tf1clip.clip_by_global_norm(gv, c)[0],
    "each": tf1clip.clip_by_norm,
    "average": tf1clip.clip_by_average_norm,
    "global_fn": lambda gv, c: tf1clip.clip_by_global_norm_fn(c)(gv),
    "each_fn": lambda gv, c: tf1clip.clip_by_norm_fn(c)(gv),
}


@pytest.mark.parametrize("norm,limit", [(5e100, 1e100), (5e-50, 1e-50), (5e150, 1e-150)])
@pytest.mark.parametrize("kind", sorted(CLIP_FNS))
def test_float64_gradient_is_clipped_in_float64(sess, kind, norm, limit):
    # A Python clip_norm went through float32 (1e100 -> inf, 1e-50 -> 0).
    g = np.array([0.6 * norm, 0.8 * norm], np.float64)
    v = tf.Variable(tf.zeros(2, tf.float64))
    c = limit / 2.0 if kind == "average" else limit  # average: limit * size(g) = limit
    out = sess.run(CLIP_FNS[kind]([(tf.constant(g), v)], c)[0][0])
    np.testing.assert_allclose(out, g * (limit / norm), rtol=1e-12)


def test_float64_use_norm_and_returned_norm_keep_their_range(sess):
    v = tf.Variable(tf.zeros(2, tf.float64))
    g = tf.constant([3e150, 4e150], tf.float64)
    clipped, norm = tf1clip.clip_by_global_norm([(g, v)], 1e150)
    out, n = sess.run([clipped[0][0], norm])
    assert n == pytest.approx(5e150, rel=1e-12)
    np.testing.assert_allclose(out, [0.6e150, 0.8e150], rtol=1e-12)


@pytest.mark.parametrize("limit", [1e-3, 1e-2, 0.5])
@pytest.mark.parametrize("kind", sorted(CLIP_FNS))
def test_float16_scale_is_applied_in_float32(sess, kind, limit):
    # The scale 1e-3 / 6e4 underflowed float16 (zero gradient); 1e-2 / 6e4 was a
    # float16 subnormal (7% off). Multiplied in float32 and cast once, the result
    # is the float16 nearest to the exact one (within one rounding).
    g = np.array([6e4, 0.0], np.float16)
    v = tf.Variable(tf.zeros(2, tf.float16))
    c = limit / 2.0 if kind == "average" else limit
    out = sess.run(CLIP_FNS[kind]([(tf.constant(g), v)], c)[0][0])
    assert out.dtype == np.float16
    exact = g.astype(np.float64) * (limit / float(g[0]))
    np.testing.assert_allclose(out.astype(np.float64), exact, rtol=2**-10)


def test_bfloat16_and_float16_sparse_scale_in_float32(sess):
    table = tf.Variable(tf.zeros([5, 2], tf.bfloat16))
    values = tf.constant([[6e4, 0.0], [0.0, 8e4]], tf.bfloat16)
    sparse = tf.IndexedSlices(values, tf.constant([0, 3]), tf.constant([5, 2]))
    clipped = tf1clip.clip_by_global_norm([(sparse, table)], 1e-30)[0][0][0]
    assert isinstance(clipped, tf.IndexedSlices) and clipped.dtype == tf.bfloat16
    out = sess.run(tf.cast(clipped.values, tf.float64))
    v = sess.run(tf.cast(values, tf.float64))
    np.testing.assert_allclose(out, v * (1e-30 / np.sqrt(np.sum(v**2))), rtol=2**-7)


CLIP_NORM_ARGS = {
    "global": lambda gv, c: tf1clip.clip_by_global_norm(gv, c)[0],
    "each": tf1clip.clip_by_norm,
    "average": tf1clip.clip_by_average_norm,
    "value_min": lambda gv, c: tf1clip.clip_by_value(gv, c, 10.0),
    "value_max": lambda gv, c: tf1clip.clip_by_value(gv, -10.0, c),
}


@pytest.mark.parametrize("kind", sorted(CLIP_NORM_ARGS))
def test_clip_norm_of_unknown_rank_fed_a_matrix_fails_at_run_time(sess, kind):
    # It clipped element-wise without any error.
    arg = {"value_min": "clip_value_min", "value_max": "clip_value_max"}.get(kind, "clip_norm")
    limit = tf.compat.v1.placeholder(tf.float32, None)
    v = tf.Variable(tf.zeros([2, 100]))
    out = CLIP_NORM_ARGS[kind]([(tf.ones([2, 100]), v)], limit)[0][0]
    assert sess.run(out, {limit: 0.5}).shape == (2, 100)
    with pytest.raises(tf.errors.InvalidArgumentError, match="`%s` must be a 0-d tensor" % arg):
        sess.run(out, {limit: np.ones([1, 100])})


@pytest.mark.parametrize("kind", sorted(CLIP_NORM_ARGS))
def test_clip_norm_of_static_rank_one_is_refused_while_building(kind):
    arg = {"value_min": "clip_value_min", "value_max": "clip_value_max"}.get(kind, "clip_norm")
    with tf.Graph().as_default():
        limit = tf.compat.v1.placeholder(tf.float32, [None])
        v = tf.Variable(tf.zeros([2]))
        with pytest.raises(ValueError, match="`%s` must be a 0-d tensor; received shape" % arg):
            CLIP_NORM_ARGS[kind]([(tf.ones([2]), v)], limit)


# --- large gradients are scaled from their own norm -----------------------------------------------


def _ancestors(tensor):
    seen, stack = set(), [tensor.op]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return seen


@pytest.mark.parametrize("clip", ["each", "average"])
def test_large_gradient_scale_depends_only_on_its_own_norm(clip):
    shapes = [(300, 300), (400, 200), (3, 4), (5, 4), (None, 300)]
    with tf.Graph().as_default():
        pairs = []
        for i, shape in enumerate(shapes):
            g = tf.compat.v1.placeholder(tf.float32, shape, name="g%d" % i)
            pairs.append((g, tf.Variable(tf.zeros([7, 300] if shape[0] is None else shape), name="v%d" % i)))
        fn = tf1clip.clip_by_norm if clip == "each" else tf1clip.clip_by_average_norm
        out = fn(pairs, 1.0)
        for i in (0, 1, 4):
            l2 = {op for op in _ancestors(out[i][0]) if op.type == "L2Loss"}
            assert len(l2) == 1 and l2.pop().inputs[0].op.name == "g%d" % i
            placeholders = {op.name for op in _ancestors(out[i][0]) if op.type == "Placeholder"}
            assert placeholders == {"g%d" % i}
        # The small ones still share one vectorised computation.
        small = {op.name for op in _ancestors(out[2][0]) if op.type == "Placeholder"}
        assert small == {"g2", "g3"}


def test_large_gradients_clipped_alone_match_numpy(sess):
    rng = np.random.RandomState(3)
    arrays = [
        rng.randn(300, 300).astype(np.float32),
        rng.randn(70000).astype(np.float64) * 1e-3,
        rng.randn(3, 4).astype(np.float32) * 9,
    ]
    arrays.append(np.full((300, 300), np.inf, np.float32))
    pairs = [(tf.constant(a), tf.Variable(tf.zeros(a.shape, a.dtype))) for a in arrays]
    each = sess.run([g for g, _ in tf1clip.clip_by_norm(pairs, 2.0)])
    average = sess.run([g for g, _ in tf1clip.clip_by_average_norm(pairs, 1e-4)])
    for a, e, m in zip(arrays[:3], each, average):
        n = np.sqrt(np.sum(np.square(a, dtype=np.float64)))
        np.testing.assert_allclose(e, a * min(2.0 / n, 1.0), rtol=1e-5)
        np.testing.assert_allclose(m, a * min(1e-4 * a.size / n, 1.0), rtol=1e-5)
    assert np.isnan(each[3]).all() and np.isnan(average[3]).all()


def test_large_gradient_with_finite_values_whose_norm_overflows_becomes_nan(sess):
    # Values are finite but their squares sum past float32's range: the norm is
    # inf, and the non-finite rule makes the gradient NaN (not zeros).
    a = np.full((300, 300), 1e19, np.float32)
    v = tf.Variable(tf.zeros(a.shape))
    out = sess.run(tf1clip.clip_by_norm([(tf.constant(a), v)], 1.0)[0][0])
    assert np.isnan(out).all()


def _executed(build):
    with tf.Graph().as_default():
        train = build()
        with tf.compat.v1.Session() as s:
            s.run(tf.compat.v1.global_variables_initializer())
            s.run(train)
            meta = tf.compat.v1.RunMetadata()
            s.run(
                train,
                options=tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE),
                run_metadata=meta,
            )
    return sum(len(d.node_stats) for d in meta.step_stats.dev_stats)


@pytest.mark.parametrize("n", [1, 3])
def test_large_gradient_alone_executes_seven_nodes(n):
    # Per large gradient: L2Loss, Rsqrt, Mul (by limit / sqrt 2), Minimum,
    # Sub + AddV2 (the non-finite rule) and the Mul that scales it.
    def build(clip):
        def make():
            opt = tf.compat.v1.train.GradientDescentOptimizer(0.1)
            vs = [
                tf.compat.v1.get_variable("v%d" % i, [300, 300], initializer=tf.compat.v1.ones_initializer())
                for i in range(n)
            ]
            loss = tf.add_n([tf.reduce_sum(tf.square(v)) for v in vs])
            gv = opt.compute_gradients(loss, vs)
            return opt.apply_gradients(tf1clip.clip_by_norm(gv, 1.0) if clip else gv)

        return make

    added = _executed(build(True)) - _executed(build(False))
    assert added == 7 * n + 2  # + two shared constants: limit / sqrt 2 and 1


@pytest.mark.parametrize("policy", ["nan", "skip", "raise"])
def test_decorator_keeps_float64_range_and_float16_scale(policy):
    cases = [(np.float64, 1e100, 5e100), (np.float64, 1e-50, 5e-50), (np.float16, 1e-3, 6e4)]
    for dtype, limit, norm in cases:
        g = np.array([0.6 * norm, 0.8 * norm]).astype(dtype)
        with tf.Graph().as_default():
            w = tf.compat.v1.get_variable("w", initializer=np.zeros(2, dtype))
            opt = tf1clip.clip_gradients_by_norm(
                tf.compat.v1.train.GradientDescentOptimizer(1.0), limit, on_nonfinite=policy
            )
            train = opt.minimize(tf.reduce_sum(w * g))
            with tf.compat.v1.Session() as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                sess.run(train)
                got = sess.run(w).astype(np.float64)
        exact = -g.astype(np.float64) * (limit / np.sqrt(np.sum(np.square(g.astype(np.float64)))))
        np.testing.assert_allclose(got, exact, rtol=2e-3 if dtype == np.float16 else 1e-12)
