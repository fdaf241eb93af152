"""Inputs and programs that ported TF1 code feeds tf1clip: several optimizers in one graph,
towers, GANs and the odd shapes of ``(gradient, variable)`` lists, checked against NumPy or
the same program built with plain TensorFlow ops."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip

v1 = tf.compat.v1

# ---------------------------------------------------------------- IndexedSlices without dense_shape

SPARSE_VALUES = np.array([[6.0, 8.0], [0.0, 1.0]], np.float32)
SPARSE_INDICES = np.array([1, 3], np.int32)


def _sparse_without_shape():
    return tf.IndexedSlices(tf.constant(SPARSE_VALUES), tf.constant(SPARSE_INDICES))


@pytest.mark.parametrize(
    "capper",
    [
        lambda pairs: tf1clip.clip_by_average_norm(pairs, 0.5),
        tf1clip.clip_by_average_norm_fn(0.5),
        tf1clip.chain(tf1clip.sum_duplicate_indices, tf1clip.clip_by_average_norm_fn(0.5)),
    ],
    ids=["function", "capper", "chain"],
)
def test_average_norm_of_sparse_gradient_without_dense_shape_counts_the_variables_elements(graph, capper):
    table = v1.get_variable("table", initializer=np.ones([5, 2], np.float32))
    ((grad, var),) = capper([(_sparse_without_shape(), table)])
    assert var is table and isinstance(grad, tf.IndexedSlices) and grad.dense_shape is None
    with v1.Session() as sess:
        got = sess.run(grad.values)
    norm = np.sqrt((SPARSE_VALUES**2).sum())
    np.testing.assert_allclose(got, SPARSE_VALUES * min(0.5 * 10 / norm, 1.0), rtol=1e-6)


@pytest.mark.parametrize(
    "make_table",
    [
        lambda: v1.placeholder(tf.float32, None, name="table"),
        lambda: v1.placeholder(tf.float32, [None, 2], name="table"),
        lambda: v1.get_variable("table", initializer=np.ones([5, 2], np.float32)).handle,
    ],
    ids=["unknown_rank", "unknown_rows", "resource_handle"],
)
def test_sparse_gradient_without_dense_shape_of_a_variable_of_unknown_size_is_a_value_error(graph, make_table):
    table = make_table()
    pairs = [(None, table), (_sparse_without_shape(), table)]
    with pytest.raises(ValueError, match=r"`grads_and_vars\[1\]`.*table.*dense_shape None"):
        tf1clip.clip_by_average_norm(pairs, 0.5)


def test_skip_policy_with_average_norm_and_sparse_gradient_without_dense_shape_matches_numpy(graph):
    table = v1.get_variable("table", initializer=np.ones([5, 2], np.float32))
    bad = v1.placeholder_with_default(1.0, [])
    grad = tf.IndexedSlices(tf.constant(SPARSE_VALUES) * bad, tf.constant(SPARSE_INDICES))
    opt = tf1clip.transform_gradients(
        v1.train.GradientDescentOptimizer(1.0), tf1clip.clip_by_average_norm_fn(0.5), on_nonfinite="skip"
    )
    train_op = opt.apply_gradients([(grad, table)])
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(train_op, {bad: np.inf})
        np.testing.assert_array_equal(sess.run(table), np.ones([5, 2]))
        sess.run(train_op)
        got, skipped = sess.run([table, opt.skipped_steps])
    want = np.ones([5, 2], np.float32)
    want[SPARSE_INDICES] -= SPARSE_VALUES * 0.5 * 10 / np.sqrt((SPARSE_VALUES**2).sum())
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert skipped == 1
