"""Property-based tests of the pair functions against NumPy in float64 (hypothesis).

Random lists of pairs: dense gradients of rank 0-3 (and now and then one large
enough to be clipped alone), ``IndexedSlices`` with repeated indices, ``None``;
float16, bfloat16, float32 and float64, mixed; magnitudes from tiny to huge
within the range where the squares stay finite in the accumulation dtype (the
overflow rule has its own test). Run eagerly, with bounded example counts.
"""

import numpy as np
import pytest
import tensorflow as tf
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import tf1clip

DTYPES = {"float16": tf.float16, "bfloat16": tf.bfloat16, "float32": tf.float32, "float64": tf.float64}
# Relative rounding of one value in each dtype (half an ulp, with margin), and the
# magnitudes (powers of ten) whose squares stay finite in the accumulation dtype.
RTOL = {"float16": 2**-10, "bfloat16": 2**-7, "float32": 4e-6, "float64": 1e-12}
EXPONENTS = {"float16": (-2, 2), "bfloat16": (-12, 12), "float32": (-12, 12), "float64": (-100, 100)}
ATOL = {"float16": 2**-24, "bfloat16": 1e-38, "float32": 1e-38, "float64": 1e-300}

SETTINGS = settings(max_examples=50, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def gradients(draw, dtype_names=tuple(DTYPES)):
    """A list of (numpy_value, kind, extra) specs; the pairs are built from them."""
    specs = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["dense", "dense", "sparse", "none", "large"]))
        dtype = draw(st.sampled_from(dtype_names))
        low, high = EXPONENTS[dtype]
        scale = 10.0 ** draw(st.integers(low, high))
        seed = draw(st.integers(0, 2**31 - 1))
        rng = np.random.RandomState(seed)
        if kind == "none":
            specs.append((None, kind, dtype, None))
            continue
        if kind == "large":
            shape = (70000,) if dtype != "float16" else (300, 250)
        elif kind == "sparse":
            rows = draw(st.integers(1, 6))
            shape = (draw(st.integers(1, 5)), draw(st.integers(1, 3)))
            indices = rng.randint(0, rows, size=shape[0])  # repeats likely
            extra = (indices, rows)
        else:
            shape = tuple(draw(st.lists(st.integers(1, 5), min_size=0, max_size=3)))
        value = np.asarray(rng.randn(*shape) * scale, np.float64)
        value = _round(value, dtype)
        specs.append((value, kind, dtype, extra if kind == "sparse" else None))
    return specs


def _round(value, dtype):
    """``value`` rounded to ``dtype`` and back to float64 (what the tensor holds)."""
    return tf.cast(tf.constant(value, DTYPES[dtype]), tf.float64).numpy()


def _pairs(specs):
    pairs = []
    for value, kind, dtype, extra in specs:
        if value is None:
            pairs.append((None, None))
        elif kind == "sparse":
            indices, rows = extra
            values = tf.constant(value, DTYPES[dtype])
            dense_shape = tf.constant([rows, value.shape[1]], tf.int64)
            pairs.append((tf.IndexedSlices(values, tf.constant(indices, tf.int64), dense_shape), None))
        else:
            pairs.append((tf.constant(value, DTYPES[dtype]), None))
    return pairs


def _out(grad):
    if grad is None:
        return None
    values = grad.values if isinstance(grad, tf.IndexedSlices) else grad
    return tf.cast(values, tf.float64).numpy()


def _sizes(specs):
    return [
        None if v is None else (extra[1] * v.shape[1] if kind == "sparse" else max(v.size, 1) if v.ndim else 1)
        for v, kind, _, extra in specs
    ]


def _check(got, expected, specs, scale_rtol=0.0):
    for (value, _, dtype, _), g, e in zip(specs, got, expected):
        if value is None:
            assert g is None
            continue
        assert g.shape == value.shape
        np.testing.assert_allclose(g, e, rtol=RTOL[dtype] + scale_rtol, atol=ATOL[dtype])


def _acc_tol(specs):
    """Relative error of the norms: each tensor's sum of squares is taken in float32
    unless the tensor is float64 (the sum across tensors is float64 when any is)."""
    present = [s for s in specs if s[0] is not None]
    return 1e-12 if all(s[2] == "float64" for s in present) else 2e-6


def _norm(values):
    return float(np.sqrt(sum(np.sum(np.square(v)) for v in values)))


ratios = st.sampled_from([1e-7, 1e-3, 0.1, 0.5, 0.99, 1.0, 2.0, 1e3])


@SETTINGS
@given(gradients(), ratios)
def test_clip_by_global_norm_matches_numpy(specs, ratio):
    values = [v for v, *_ in specs if v is not None]
    norm = _norm(values)
    clip_norm = max(norm * ratio, 1e-30)
    clipped, got_norm = tf1clip.clip_by_global_norm(_pairs(specs), clip_norm)
    assert float(got_norm) == pytest.approx(norm, rel=_acc_tol(specs) * 4, abs=1e-300)
    scale = min(clip_norm / norm, 1.0) if norm else 1.0
    _check(
        [_out(g) for g, _ in clipped], [None if v is None else v * scale for v, *_ in specs], specs, _acc_tol(specs) * 4
    )
    for (g, _), (v, kind, dtype, _) in zip(clipped, specs):
        if v is not None:
            assert isinstance(g, tf.IndexedSlices) == (kind == "sparse") and g.dtype == DTYPES[dtype]


@SETTINGS
@given(gradients(), ratios)
def test_clip_by_norm_and_average_norm_match_numpy(specs, ratio):
    values = [v for v, *_ in specs if v is not None]
    if not values:
        assert all(g is None for g, _ in tf1clip.clip_by_norm(_pairs(specs), 1.0))
        return
    clip_norm = max(max(_norm([v]) for v in values) * ratio, 1e-30)
    each = [_out(g) for g, _ in tf1clip.clip_by_norm(_pairs(specs), clip_norm)]
    expected = []
    for v, *_ in specs:
        n = None if v is None else _norm([v])
        expected.append(None if v is None else v * (min(clip_norm / n, 1.0) if n else 1.0))
    _check(each, expected, specs, _acc_tol(specs) * 4)

    sizes = _sizes(specs)
    average_limit = clip_norm / max(s for s in sizes if s)
    average = [_out(g) for g, _ in tf1clip.clip_by_average_norm(_pairs(specs), average_limit)]
    expected = []
    for (v, *_), size in zip(specs, sizes):
        n = None if v is None else _norm([v])
        expected.append(None if v is None else v * (min(average_limit * size / n, 1.0) if n else 1.0))
    _check(average, expected, specs, _acc_tol(specs) * 4)


@SETTINGS
@given(gradients(), st.floats(-3, 3), st.floats(0, 3))
def test_clip_by_value_matches_numpy(specs, low, width):
    high = low + width
    got = [_out(g) for g, _ in tf1clip.clip_by_value(_pairs(specs), low, high)]
    expected = []
    for v, _, dtype, _ in specs:
        expected.append(None if v is None else np.clip(v, _round(np.array(low), dtype), _round(np.array(high), dtype)))
    _check(got, expected, specs)


@SETTINGS
@given(gradients())
def test_sum_duplicate_indices_keeps_the_dense_gradient(specs):
    merged = tf1clip.sum_duplicate_indices(_pairs(specs))
    for (g, _), (v, kind, dtype, extra) in zip(merged, specs):
        if kind != "sparse":
            continue
        indices, rows = extra
        dense = np.zeros((rows, v.shape[1]))
        np.add.at(dense, indices, v)
        got = np.zeros_like(dense)
        got[g.indices.numpy()] = _out(g)
        assert len(set(g.indices.numpy().tolist())) == len(g.indices.numpy())
        # Sums of rows round once more in low precision.
        np.testing.assert_allclose(got, dense, rtol=RTOL[dtype] * 4, atol=np.abs(v).max() * RTOL[dtype] * 4)


def _smallest_measurable_norm(specs):
    """The smallest clip_norm whose clipped gradients' squares stay normal numbers where they are summed:
    float32 unless every gradient is float64 (below it, squares flush to zero and the norm of the clipped
    gradients reads 0, as tf.linalg.global_norm's does)."""
    present = [s for s in specs if s[0] is not None]
    return 1e-140 if all(s[2] == "float64" for s in present) else 1e-12


@SETTINGS
@given(gradients(dtype_names=("float32", "float64", "bfloat16")), ratios)
@example(specs=[(np.float64(-4.1675785543947297e-13), "dense", "float32", None)], ratio=1e-07)
def test_global_clip_properties(specs, ratio):
    # The clipped global norm is min(norm, clip_norm); every gradient is scaled by
    # the same factor; clipping twice changes nothing more.
    values = [v for v, *_ in specs if v is not None]
    norm = _norm(values)
    clip_norm = max(norm * ratio, _smallest_measurable_norm(specs))
    once, _ = tf1clip.clip_by_global_norm(_pairs(specs), clip_norm)
    twice, _ = tf1clip.clip_by_global_norm(once, clip_norm)
    tol = max(RTOL[s[2]] for s in specs if s[0] is not None) if values else 0
    assert float(tf1clip.global_norm(once)) == pytest.approx(min(norm, clip_norm), rel=4 * tol + 1e-6, abs=1e-300)
    for (a, _), (b, _) in zip(once, twice):
        if a is not None:
            np.testing.assert_allclose(_out(b), _out(a), rtol=4 * tol + 1e-6, atol=1e-300)


@pytest.mark.parametrize(
    "dtype,value", [("float32", 1e20), ("float16", np.inf), ("float64", 1e160), ("bfloat16", 1e20)]
)
def test_norm_overflow_follows_the_nonfinite_rule(dtype, value):
    # Squares past the accumulation dtype's range make the norm inf: the gradients
    # it governs become NaN (never zeros or unclipped values).
    big = tf.constant([value, 1.0], DTYPES[dtype])
    small = tf.constant([3.0, 4.0], DTYPES[dtype])
    pairs = [(big, None), (small, None)]
    assert np.isinf(tf1clip.global_norm(pairs).numpy())
    for g, _ in tf1clip.clip_by_global_norm(pairs, 1.0)[0]:
        assert np.isnan(_out(g)).all()
    each = tf1clip.clip_by_norm(pairs, 1.0)
    assert np.isnan(_out(each[0][0])).all()
    np.testing.assert_allclose(_out(each[1][0]), [0.6, 0.8], rtol=RTOL[dtype])
