"""Partitioned variables are one variable to their user.

One model is built twice: with ``get_variable(..., partitioner=...)`` for the
kernel and the embedding table, and without. ``compute_gradients`` then yields
one pair per partition (dense for the kernel, ``IndexedSlices`` for the
embedding). Every pair function, capper, contrib helper and decorator must give
the partitioned model the same SGD step (learning rate 1: the step is minus the
clipped gradient) as the unpartitioned one: a partition is never a unit of its own.
"""

import functools

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import layers, training
from tf1clip.contrib import opt as contrib_opt
from tf1clip.contrib.slim import learning

v1 = tf.compat.v1

RNG = np.random.RandomState(0)
KERNEL = RNG.randn(6, 4).astype(np.float32)
TABLE = RNG.randn(10, 4).astype(np.float32)
BIAS = RNG.randn(4).astype(np.float32)
X = RNG.randn(5, 6).astype(np.float32)
TARGET = RNG.randn(5, 4).astype(np.float32) * 3
IDS = np.array([1, 7, 7, 3, 9, 4], np.int32)  # 7 repeats; rows of every partition

PARTITIONERS = {
    "fixed_axis0": (lambda: v1.fixed_size_partitioner(2), lambda: v1.fixed_size_partitioner(3)),
    "fixed_axis1": (lambda: v1.fixed_size_partitioner(2, axis=1), lambda: v1.fixed_size_partitioner(2)),
    "min_max": (
        lambda: v1.min_max_variable_partitioner(max_partitions=3, min_slice_size=32),
        lambda: v1.min_max_variable_partitioner(max_partitions=4, min_slice_size=16),
    ),
}


def _init(full):
    """An initializer giving each partition its slice of ``full``."""

    def init(shape, dtype=None, partition_info=None):
        offset = partition_info.var_offset if partition_info is not None else [0] * len(shape)
        index = tuple(slice(o, o + n) for o, n in zip(offset, shape))
        return tf.constant(full[index])

    return init


def _var(name, full, partitioner=None):
    return v1.get_variable(name, full.shape, tf.float32, initializer=_init(full), partitioner=partitioner)


def _model(partitioners):
    kernel_part, table_part = partitioners if partitioners else (lambda: None, lambda: None)
    kernel = _var("kernel", KERNEL, kernel_part())
    table = _var("table", TABLE, table_part())
    bias = _var("bias", BIAS)
    rows = tf.reshape(v1.nn.embedding_lookup(table, IDS, partition_strategy="div"), [2, 3, 4])
    h = tf.matmul(X, kernel) + tf.reduce_sum(rows, 1)[:1] + bias
    loss = tf.reduce_sum(tf.square(h - TARGET)) * 3.0
    return loss, [kernel, table, bias]


def _full(var):
    return tf.convert_to_tensor(var)


def _pairs_step(transform):
    def build(loss):
        opt = v1.train.GradientDescentOptimizer(1.0)
        pairs = opt.compute_gradients(loss)
        return tf1clip.attach_state_updates(opt.apply_gradients(transform(pairs)))

    return build


def _decorated(wrap):
    def build(loss):
        return wrap(v1.train.GradientDescentOptimizer(1.0)).minimize(loss)

    return build


def _contrib_train_op(make):
    def build(loss):
        return make(loss)

    return build


STEPS = {
    "clip_by_global_norm": _pairs_step(lambda gv: tf1clip.clip_by_global_norm(gv, 3.0)[0]),
    "clip_by_norm": _pairs_step(lambda gv: tf1clip.clip_by_norm(gv, 2.0)),
    "clip_by_average_norm": _pairs_step(lambda gv: tf1clip.clip_by_average_norm(gv, 0.1)),
    "clip_by_value": _pairs_step(lambda gv: tf1clip.clip_by_value(gv, -0.5, 0.7)),
    "sum_duplicate_indices": _pairs_step(tf1clip.sum_duplicate_indices),
    "clip_by_norm_fn": _pairs_step(tf1clip.clip_by_norm_fn(2.0)),
    "clip_by_average_norm_fn": _pairs_step(tf1clip.clip_by_average_norm_fn(0.1)),
    "clip_by_global_norm_fn": _pairs_step(tf1clip.clip_by_global_norm_fn(3.0)),
    "clip_by_value_fn": _pairs_step(tf1clip.clip_by_value_fn(-0.5, 0.7)),
    "chain": _pairs_step(tf1clip.chain(tf1clip.sum_duplicate_indices, tf1clip.clip_by_norm_fn(2.0))),
    "AGC": _pairs_step(lambda gv: tf1clip.AGC(clip_factor=0.05)(gv)),
    "AutoClip": _pairs_step(lambda gv: tf1clip.AutoClip(percentile=50.0)(gv)),
    "ZClip": _pairs_step(lambda gv: tf1clip.ZClip(max_grad_norm=2.0)(gv)),
    "NormRecorder": _pairs_step(lambda gv: tf1clip.NormRecorder(tf1clip.clip_by_norm_fn(2.0), summaries=False)(gv)),
    "decorator_clip_gradients_by_norm": _decorated(lambda o: tf1clip.clip_gradients_by_norm(o, 3.0)),
    "decorator_transform_per_tensor": _decorated(
        lambda o: tf1clip.transform_gradients(o, tf1clip.clip_by_norm_fn(2.0))
    ),
    "decorator_skip_policy": _decorated(
        lambda o: tf1clip.transform_gradients(o, tf1clip.AGC(clip_factor=0.05), on_nonfinite="skip")
    ),
    "contrib_clip_gradient_norms": _pairs_step(lambda gv: training.clip_gradient_norms(gv, 2.0)),
    "contrib_opt_global_norm": _pairs_step(lambda gv: contrib_opt.clip_gradients_by_global_norm(gv, 3.0)[0]),
    "contrib_adaptive_clipping_fn": _pairs_step(lambda gv: layers.adaptive_clipping_fn(static_max_norm=3.0)(gv)),
    "contrib_optimize_loss": _contrib_train_op(
        lambda loss: layers.optimize_loss(
            loss, v1.train.get_or_create_global_step(), 1.0, "SGD", clip_gradients=3.0, summaries=[]
        )
    ),
    "contrib_training_create_train_op": _contrib_train_op(
        lambda loss: training.create_train_op(
            loss, v1.train.GradientDescentOptimizer(1.0), transform_grads_fn=training.clip_gradient_norms_fn(2.0)
        )
    ),
    "slim_create_train_op": _contrib_train_op(
        lambda loss: learning.create_train_op(loss, v1.train.GradientDescentOptimizer(1.0), clip_gradient_norm=2.0)
    ),
}


@functools.lru_cache(maxsize=None)
def _unpartitioned_step(step):
    return _step(None, STEPS[step])


def _step(partitioners, build):
    with tf.Graph().as_default():
        loss, variables = _model(partitioners)
        train = build(loss)
        n_parts = len(v1.trainable_variables())
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            before = sess.run([_full(v) for v in variables])
            sess.run(train)
            after = sess.run([_full(v) for v in variables])
    return [b - a for a, b in zip(after, before)], n_parts


@pytest.mark.parametrize("partitioners", sorted(PARTITIONERS))
@pytest.mark.parametrize("step", sorted(STEPS))
def test_partitioned_step_equals_unpartitioned(step, partitioners):
    expected, n_plain = _unpartitioned_step(step)
    got, n_parts = _step(PARTITIONERS[partitioners], STEPS[step])
    assert n_plain == 3 and n_parts > 4  # really partitioned
    for name, e, g in zip(["kernel", "table", "bias"], expected, got):
        np.testing.assert_allclose(g, e, rtol=2e-5, atol=1e-6, err_msg=name)


def test_the_cases_do_clip():
    # Guards the test above against limits too loose to clip anything.
    plain, _ = _step(None, _pairs_step(lambda gv: gv))
    for step in ("clip_by_norm", "clip_by_average_norm", "AGC", "clip_by_global_norm", "ZClip"):
        clipped, _ = _step(None, STEPS[step])
        assert any(not np.allclose(c, p) for c, p in zip(clipped, plain)), step


def test_agc_refuses_a_sparse_gradient_of_a_table_partitioned_along_columns():
    with tf.Graph().as_default():
        table = _var("emb", TABLE, v1.fixed_size_partitioner(2, axis=1))
        sparse = [(tf.IndexedSlices(tf.ones([3, 2]), tf.constant([0, 1, 2]), tf.constant([10, 2])), p) for p in table]
        with pytest.raises(ValueError, match="AGC: emb is partitioned along axis 1 and has a sparse gradient"):
            tf1clip.AGC()(sparse)


def test_agc_refuses_a_unit_split_across_partitions_when_some_are_missing():
    with tf.Graph().as_default():
        kernel = _var("kernel", KERNEL, v1.fixed_size_partitioner(2))
        first = list(kernel)[0]
        with pytest.raises(ValueError, match=r"AGC: the units of kernel span its partitions.*\(3 of 6 along axis 0\)"):
            tf1clip.AGC()([(tf.ones([3, 4]), first)])


def test_agc_unit_axes_and_exclude_use_the_partitioned_variables_name():
    with tf.Graph().as_default():
        kernel = _var("kernel", KERNEL, v1.fixed_size_partitioner(2))
        pairs = [(tf.ones_like(p) * 100.0, p) for p in kernel]
        excluded = tf1clip.AGC(exclude=["^kernel$"])(pairs)
        assert all(out[0] is inp[0] for out, inp in zip(excluded, pairs))
        rows = tf1clip.AGC(clip_factor=0.01, unit_axes={"kernel": (1,)})(pairs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            got = np.concatenate(sess.run([g for g, _ in rows]), 0)
    # Units are rows (norm over axis 1), each inside one partition.
    w_norm = np.maximum(np.linalg.norm(KERNEL, axis=1, keepdims=True), 1e-3)
    np.testing.assert_allclose(got, np.full((6, 4), 100.0) * (0.01 * w_norm / 200.0), rtol=1e-5)
