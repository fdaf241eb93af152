"""tf1clip.contrib.image computes TF 1.15's tf.contrib.image.

tests/data/tf115_image/make_refs.py ran the graphs of cases.py once on TF 1.15.5 (refs.json: outputs and
gradients of transform, rotate, translate and their helpers, samples on and past the borders in both
interpolations, connected_components, dense_image_warp, interpolate_spline of orders 1-5 and sparse_image_warp);
here the same graphs are built with tf1clip.contrib.image. Independently, connected_components is checked against a
NumPy flood fill and the bad inputs' messages against the argument they name.
"""

import json
import os

import numpy as np
import pytest
import tensorflow as tf

from helpers import load_cases
from tf1clip.contrib import image

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_image")
cases = load_cases(DATA)

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

v1 = tf.compat.v1

# The projective kernel is TF 1.15's: bit for bit. The splines solve a linear system (another LU build; the
# regularized spline's gradient differs by 2e-4 at most): 1e-4 relative and absolute.
# adjust_hsv_in_yiq's matrix comes from TensorFlow's cos and sin, not the C library's: 1e-6.
TOLERANCE = {"rotate": 0, "transform": 0, "components": 0, "warps": 1e-4, "matching": 0, "colours": 1e-6}


def _run(name):
    with tf.Graph().as_default():
        tensors = cases.CASES[name](tf, image)
        with v1.Session() as sess:
            return sess.run(tensors)


def test_refs_cover_every_case():
    assert REFS["tensorflow"].startswith("1.15")
    assert sorted(k for k in REFS if k != "tensorflow") == sorted(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_tf115(name):
    got, ref = _run(name), REFS[name]
    assert sorted(got) == sorted(ref)
    for key, want in ref.items():
        value = got[key]
        assert str(value.dtype) == want["dtype"], key
        assert value.shape == np.shape(want["value"]), key
        tol = TOLERANCE[name]
        np.testing.assert_allclose(value, want["value"], rtol=tol, atol=tol, err_msg=key)


def _flood_fill_labels(images):
    """scipy.ndimage.label's numbering, over a batch, by breadth-first search in row-major order."""
    images = np.asarray(images)
    labels = np.zeros(images.shape, np.int32)
    count = 0
    for start in zip(*np.nonzero(images)):
        if labels[start]:
            continue
        count += 1
        labels[start] = count
        todo = [start]
        while todo:
            b, r, c = todo.pop()
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < images.shape[1] and 0 <= nc < images.shape[2]:
                    if not labels[b, nr, nc] and images[b, nr, nc] == images[b, r, c]:
                        labels[b, nr, nc] = count
                        todo.append((b, nr, nc))
    return labels


def test_connected_components_match_a_flood_fill():
    rng = np.random.RandomState(3)
    batch = rng.randint(0, 3, size=(3, 9, 11)).astype(np.int32)
    with tf.Graph().as_default():
        labels = image.connected_components(batch)
        empty = image.connected_components(np.zeros((4, 5), bool))
        with v1.Session() as sess:
            got, got_empty = sess.run([labels, empty])
    np.testing.assert_array_equal(got, _flood_fill_labels(batch))
    np.testing.assert_array_equal(got_empty, np.zeros((4, 5)))


def _greedy(distances, valid_rows, top_k):
    rows, columns = distances.shape
    row_to_col, col_to_row = [-1] * rows, [-1] * columns
    order = sorted((distances[r, c], r, c) for r in range(valid_rows) for c in range(columns))
    matched = 0
    for _, r, c in order:
        if matched == top_k:
            break
        if row_to_col[r] == -1 and col_to_row[c] == -1:
            row_to_col[r], col_to_row[c] = c, r
            matched += 1
    return row_to_col, col_to_row


def test_bipartite_match_is_the_greedy_matching_ties_in_row_major_order():
    rng = np.random.RandomState(4)
    distances = rng.randint(0, 4, size=(6, 5)).astype(np.float32)
    with tf.Graph().as_default():
        runs = {
            (valid, top_k): image.bipartite_match(distances, valid, top_k)
            for valid, top_k in ((-1, -1), (4, -1), (6, 3))
        }
        with v1.Session() as sess:
            got = sess.run(runs)
    for (valid, top_k), (rows, columns) in got.items():
        want = _greedy(distances, 6 if valid < 0 else valid, top_k)
        assert (rows.tolist(), columns.tolist()) == want


def test_rotate_by_a_quarter_turn_is_rot90():
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    with tf.Graph().as_default():
        out = image.rotate(x, np.pi / 2)
        with v1.Session() as sess:
            np.testing.assert_array_equal(sess.run(out), np.rot90(x))


def test_gradients_flow_to_images_only():
    with tf.Graph().as_default():
        x = tf.constant(cases.IMAGES)
        t = tf.constant(cases.TRANSFORM)
        out = image.transform(x, t, "BILINEAR")
        grad_x, grad_t = tf.gradients(tf.reduce_sum(out), [x, t])
    assert grad_x is not None and grad_t is None


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: image.transform(np.zeros((2, 2), bool), cases.TRANSFORM), TypeError, ["transform", "images", "bool"]),
        (lambda: image.rotate(np.zeros((2, 2), np.complex64), 1.0), TypeError, ["rotate", "images", "complex64"]),
        (lambda: image.transform(np.zeros((1, 2, 2, 1, 1)), cases.TRANSFORM), TypeError, ["images", "rank"]),
        (lambda: image.transform(np.zeros((2, 2)), np.zeros((1, 1, 8))), TypeError, ["transforms", "rank 1 or 2"]),
        (lambda: image.transform(np.zeros((2, 2)), cases.TRANSFORM, "CUBIC"), ValueError, ["interpolation", "CUBIC"]),
        (
            lambda: image.transform(np.zeros((2, 2)), cases.TRANSFORM, output_shape=[1, 2, 3]),
            ValueError,
            ["output_shape", "2 elements"],
        ),
        (lambda: image.angles_to_projective_transforms(np.zeros((1, 1)), 2.0, 2.0), TypeError, ["angles"]),
        (lambda: image.translations_to_projective_transforms(np.zeros((1, 1, 2))), TypeError, ["translations"]),
        (lambda: image.compose_transforms(), ValueError, ["compose_transforms", "empty"]),
        (lambda: image.flat_transforms_to_matrices(np.zeros((1, 1, 8))), ValueError, ["transforms", "1D or 2D"]),
        (lambda: image.matrices_to_flat_transforms(np.zeros((3,))), ValueError, ["transform_matrices", "2D or 3D"]),
        (lambda: image.connected_components(np.zeros((2,))), TypeError, ["images", "rank 2"]),
        (lambda: image.bipartite_match(np.zeros((2,)), -1), ValueError, ["distance_mat", "2-dimensional"]),
        (lambda: image.bipartite_match(np.zeros((2, 2)), [1.0, 2.0]), ValueError, ["num_valid_rows", "1 element"]),
        (lambda: image.bipartite_match(np.zeros((2, 2)), -1, 1.5), TypeError, ["top_k", "1.5"]),
        (
            lambda: image.distort_image_ops.adjust_hsv_in_yiq(np.zeros((2, 2, 4), np.float32)),
            ValueError,
            ["image", "3 channels"],
        ),
        (
            lambda: image.distort_image_ops.adjust_hsv_in_yiq(np.zeros((2, 2, 3), np.float32), [0.1, 0.2]),
            ValueError,
            ["delta_hue", "scalar"],
        ),
        (
            lambda: image.distort_image_ops.random_hsv_in_yiq(np.zeros((2, 2, 3)), lower_value=2, upper_value=1),
            ValueError,
            ["lower_value", "upper_value"],
        ),
        (lambda: image.distort_image_ops.random_hsv_in_yiq(np.zeros((2, 2, 3)), -0.1), ValueError, ["max_delta_hue"]),
        (lambda: image.dense_image_warp(np.zeros((2, 2, 1)), np.zeros((2, 2, 2))), ValueError, ["image", "4-D"]),
        (
            lambda: image.interpolate_spline(np.zeros((1, 3, 2)), np.zeros((1, 3, 1)), np.zeros((1, 1, 2)), 0),
            ValueError,
            ["order", "0"],
        ),
        (
            lambda: image.sparse_image_warp(
                v1.placeholder(tf.float32, [None, 4, 4, 1]), np.zeros((1, 3, 2)), np.zeros((1, 3, 2))
            ),
            ValueError,
            ["image", "static"],
        ),
    ],
)
def test_bad_inputs_name_the_argument(call, error, words):
    with tf.Graph().as_default():
        with pytest.raises(error) as caught:
            call()
    for word in words:
        assert word in str(caught.value)
