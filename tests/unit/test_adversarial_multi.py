"""Inputs and programs that ported TF1 code feeds tf1clip: several optimizers in one graph,
towers, GANs and the odd shapes of ``(gradient, variable)`` lists, checked against NumPy or
the same program built with plain TensorFlow ops."""

import importlib.util

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.core import cappers

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


# ---------------------------------------------------------------- one variable in several pairs

KERNEL = np.arange(1.0, 9.0, dtype=np.float32).reshape(4, 2)
TOWER_GRADS = [np.full([4, 2], 3.0, np.float32), np.arange(8.0, dtype=np.float32).reshape(4, 2) - 4.0]


def _kernel_init(shape, dtype=None, partition_info=None):
    offset = partition_info.var_offset if partition_info is not None else [0] * len(shape)
    return tf.constant(KERNEL[tuple(slice(o, o + n) for o, n in zip(offset, shape))])


def _kernel(partitioner):
    part = None if partitioner is None else v1.fixed_size_partitioner(2, axis=partitioner)
    return v1.get_variable("kernel", shape=[4, 2], partitioner=part, initializer=_kernel_init)


def _np_clip_norm(grad, limit):
    return grad * min(limit / np.sqrt((grad**2).sum()), 1.0)


def _np_agc(grad, weights, factor=0.01, eps=1e-3):
    g_norm = np.sqrt((grad**2).sum(axis=0, keepdims=True))
    max_norm = factor * np.maximum(np.sqrt((weights**2).sum(axis=0, keepdims=True)), eps)
    return np.where(g_norm > max_norm, grad * max_norm / np.maximum(g_norm, 1e-6), grad)


PER_TENSOR = {
    "clip_by_norm": (lambda pairs: tf1clip.clip_by_norm(pairs, 5.0), lambda g: _np_clip_norm(g, 5.0)),
    "clip_by_average_norm": (lambda pairs: tf1clip.clip_by_average_norm(pairs, 0.5), lambda g: _np_clip_norm(g, 4.0)),
    "AGC": (tf1clip.AGC(), lambda g: _np_agc(g, KERNEL)),
}


@pytest.mark.parametrize("partitioner", [None, 0, 1], ids=["whole", "axis0", "axis1"])
@pytest.mark.parametrize("name", sorted(PER_TENSOR))
def test_each_pair_of_a_variable_listed_twice_is_clipped_alone_partitioned_or_not(graph, name, partitioner):
    """Towers concatenated (tower 0's pairs + tower 1's): each tower's gradient of the
    kernel is one unit, whether or not the kernel is partitioned."""
    capper, reference = PER_TENSOR[name]
    kernel = _kernel(partitioner)
    parts = [kernel] if partitioner is None else list(kernel)
    slices = (
        [(slice(None), slice(None))]
        if partitioner is None
        else [
            tuple(slice(o, o + n) for o, n in zip(p._get_save_slice_info().var_offset, p.shape.as_list()))
            for p in parts
        ]
    )
    pairs = [(tf.constant(g[s]), p) for g in TOWER_GRADS for p, s in zip(parts, slices)]
    clipped = capper(pairs)
    assert [v for _, v in clipped] == [v for _, v in pairs]
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        got = sess.run([g for g, _ in clipped])
    for t, grad in enumerate(TOWER_GRADS):
        want = reference(grad)
        for k, s in enumerate(slices):
            np.testing.assert_allclose(got[t * len(parts) + k], want[s], rtol=1e-5, err_msg="tower %d part %d" % (t, k))


def test_agc_refuses_a_partition_listed_twice_in_place_of_its_sibling(graph):
    first = list(_kernel(0))[0]
    pairs = [(tf.ones([2, 2]), first), (tf.ones([2, 2]), first)]
    with pytest.raises(ValueError, match="kernel.*only some of them"):
        tf1clip.AGC()(pairs)


# ---------------------------------------------------------------- plain capper calls, train ops that depend on each other


def _counting_capper(name):
    """A user's capper with its own state, through ``defer_state_update``."""
    steps = v1.get_variable(name + "/steps", initializer=np.int64(0), trainable=False)

    def capper(pairs):
        return cappers.defer_state_update(lambda: steps.assign_add(1), outputs=pairs) or pairs

    return capper


D_CAPPERS = {
    "AutoClip": lambda: tf1clip.AutoClip(name="AutoClip_d"),
    "ZClip": lambda: tf1clip.ZClip(name="ZClip_d"),
    "NormRecorder": lambda: tf1clip.NormRecorder(summaries=False, name="NormRecorder_d"),
    "chain": lambda: tf1clip.chain(tf1clip.clip_by_value_fn(-1.0, 1.0), tf1clip.AutoClip(name="AutoClip_d")),
    "defer_state_update": lambda: _counting_capper("Counter_d"),
}


def _two_capped_steps(d_kind="AutoClip"):
    d = v1.get_variable("d", initializer=[3.0, 4.0])
    g = v1.get_variable("g", initializer=[1.0])
    d_opt, g_opt = v1.train.GradientDescentOptimizer(0.1), v1.train.GradientDescentOptimizer(0.1)
    d_cap, g_cap = D_CAPPERS[d_kind](), tf1clip.AutoClip(name="AutoClip_g")
    d_capped = d_cap(d_opt.compute_gradients(tf.reduce_sum(d * d), [d]))
    g_capped = g_cap(g_opt.compute_gradients(tf.reduce_sum(g * g), [g]))
    return d_opt, g_opt, d_capped, g_capped, d_cap, g_cap


def _g_after_raw_d(d_opt, g_opt, d_capped, g_capped):
    d_raw = d_opt.apply_gradients(d_capped)
    with tf.control_dependencies([d_raw]):
        g_raw = g_opt.apply_gradients(g_capped)
    return d_raw, g_raw


def _both_grouped(d_opt, g_opt, d_capped, g_capped):
    d_raw = d_opt.apply_gradients(d_capped)
    return d_raw, tf.group(d_raw, g_opt.apply_gradients(g_capped))


@pytest.mark.parametrize("d_kind", sorted(D_CAPPERS))
@pytest.mark.parametrize("build", [_g_after_raw_d, _both_grouped], ids=["control_dependency", "group"])
def test_attaching_a_train_op_whose_update_went_to_a_later_op_is_refused(graph, build, d_kind):
    """D's raw apply runs inside G's train op: attached to G's first, D's update runs only with
    G's op, so D's op alone would leave D's capper state behind; attaching D's op says so."""
    d_opt, g_opt, d_capped, g_capped, _, _ = _two_capped_steps(d_kind)
    d_raw, g_raw = build(d_opt, g_opt, d_capped, g_capped)
    tf1clip.attach_state_updates(g_raw)
    label = {
        "defer_state_update": "a stateful capper",
        "chain": r"chain\(clip_by_value_fn\(-1.0, 1.0\), AutoClip_d\)",
    }.get(d_kind, d_kind + "_d")
    with pytest.raises(RuntimeError, match="%s.*attach_state_updates" % label):
        tf1clip.attach_state_updates(d_raw)


def test_attaching_the_inner_train_op_first_advances_each_capper_with_its_steps(graph):
    d_opt, g_opt, d_capped, g_capped, d_cap, g_cap = _two_capped_steps()
    d_op = tf1clip.attach_state_updates(d_opt.apply_gradients(d_capped))
    with tf.control_dependencies([d_op]):
        g_op = tf1clip.attach_state_updates(g_opt.apply_gradients(g_capped))
    again = tf1clip.attach_state_updates(d_op)
    with tf.control_dependencies([g_op]):
        after = tf1clip.attach_state_updates(tf.identity(d_capped[0][0]))
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for op in (d_op, d_op, again, g_op, after):
            sess.run(op)
        counts = sess.run([d_cap.count, g_cap.count])
    assert counts == [5, 2]


# ---------------------------------------------------------------- a GAN: two wrapped optimizers, D k-steps per G step

NOISE = np.random.RandomState(0).randn(4, 2).astype(np.float32)
REAL = np.random.RandomState(1).randn(4, 3).astype(np.float32)
G_INIT = np.random.RandomState(2).randn(2, 3).astype(np.float32)
D_INIT = np.random.RandomState(3).randn(3, 1).astype(np.float32)
D_STEPS = 2


def _gan_losses(g_w, d_w, bad_g, bad_d):
    fake = tf.matmul(tf.constant(NOISE), g_w)
    d_fake, d_real = tf.matmul(fake, d_w), tf.matmul(tf.constant(REAL), d_w)
    g_loss = tf.reduce_mean(tf.square(d_fake - 1.0)) + bad_g * tf.reduce_sum(g_w)
    d_loss = tf.reduce_mean(tf.square(d_real - 1.0)) + tf.reduce_mean(tf.square(d_fake)) + bad_d * tf.reduce_sum(d_w)
    return g_loss, d_loss


def _tfgan_program(g_opt, d_opt):
    if importlib.util.find_spec("tensorflow_gan") is None:
        pytest.skip("needs tensorflow-gan (pip install 'tf1clip[gan]')")
    import tf1clip.contrib.gan as tfgan

    bad_g, bad_d = v1.placeholder_with_default(0.0, []), v1.placeholder_with_default(0.0, [])
    model = tfgan.gan_model(
        lambda z: tf.matmul(z, v1.get_variable("w", initializer=G_INIT)),
        lambda x, _: tf.matmul(x, v1.get_variable("w", initializer=D_INIT)),
        tf.constant(REAL),
        tf.constant(NOISE),
    )
    (g_w,), (d_w,) = model.generator_variables, model.discriminator_variables
    loss = tfgan.GANLoss(*_gan_losses(g_w, d_w, bad_g, bad_d))
    ops = tfgan.gan_train_ops(model, loss, g_opt, d_opt, check_numerics=False)
    return ops, g_w, d_w, bad_g, bad_d


def _reference_gan_run(steps):
    """The same GAN with plain Adam and tf.clip_by_global_norm, each train op by hand."""
    with tf.Graph().as_default():
        g_w = v1.get_variable("g", initializer=G_INIT)
        d_w = v1.get_variable("d", initializer=D_INIT)
        g_loss, d_loss = _gan_losses(g_w, d_w, 0.0, 0.0)
        train = {}
        for name, loss, var in (("g", g_loss, g_w), ("d", d_loss, d_w)):
            opt = v1.train.AdamOptimizer(0.1, name=name)
            (grad,), _ = tf.clip_by_global_norm(tf.gradients(loss, [var]), 0.5)
            train[name] = (opt.apply_gradients([(grad, var)]), opt, var)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for name in steps:
                sess.run(train[name][0])
            return {
                name: sess.run([var, opt.get_slot(var, "m"), opt.get_slot(var, "v")])
                for name, (_, opt, var) in train.items()
            }


def test_gan_with_skip_wrapped_optimizers_matches_plain_tensorflow_and_isolates_bad_steps(graph):
    g_opt = tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.1), 0.5, on_nonfinite="skip")
    d_opt = tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.1), 0.5, on_nonfinite="skip")
    ops, g_w, d_w, bad_g, bad_d = _tfgan_program(g_opt, d_opt)
    schedule = (["d"] * D_STEPS + ["g"]) * 2
    everything = v1.global_variables() + v1.local_variables()
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        for name in schedule:
            sess.run(ops.discriminator_train_op if name == "d" else ops.generator_train_op)
            if name == "g":
                sess.run(ops.global_step_inc_op)
        got = {
            name: sess.run([var, opt.get_slot(var, "m"), opt.get_slot(var, "v")])
            for name, opt, var in (("g", g_opt, g_w), ("d", d_opt, d_w))
        }
        assert sess.run(v1.train.get_global_step()) == 2
        before = sess.run(everything)
        sess.run(ops.discriminator_train_op, {bad_d: np.inf})
        sess.run(ops.generator_train_op, {bad_g: np.nan})
        sess.run(ops.generator_train_op, {bad_d: np.inf})
        after = dict(zip([v.op.name for v in everything], sess.run(everything)))
        skipped = sess.run([d_opt.skipped_steps, g_opt.skipped_steps])
    want = _reference_gan_run(schedule)
    for name in ("g", "d"):
        for got_value, want_value in zip(got[name], want[name]):
            np.testing.assert_allclose(got_value, want_value, rtol=1e-5, err_msg=name)
    changed = sorted(v.op.name for v, b in zip(everything, before) if not np.array_equal(after[v.op.name], b))
    assert changed == [
        "Generator/w",
        "Generator/w/Adam",
        "Generator/w/Adam_1",
        "discriminator_train/ClipByNormAdam_skipped_steps",
        "generator_train/ClipByNormAdam_skipped_steps",
        "generator_train/beta1_power",
        "generator_train/beta2_power",
    ]
    assert skipped == [1, 1]


def test_gan_with_a_capper_per_network_advances_each_state_with_its_applied_steps(graph):
    d_cap, g_cap = tf1clip.AutoClip(name="AutoClip_d"), tf1clip.ZClip(warmup_steps=2, name="ZClip_g")
    g_opt = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.1), g_cap, on_nonfinite="skip")
    d_opt = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.1), d_cap, on_nonfinite="skip")
    ops, _, _, bad_g, bad_d = _tfgan_program(g_opt, d_opt)
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        for feed in ({}, {bad_d: np.inf}, {}, {bad_g: np.inf}, {}):
            sess.run(ops.discriminator_train_op, feed)
            sess.run(ops.discriminator_train_op, feed)
            sess.run(ops.generator_train_op, feed)
        counts = sess.run([d_cap.count, g_cap.count, d_opt.skipped_steps, g_opt.skipped_steps])
    assert counts == [8, 4, 2, 1]


# ---------------------------------------------------------------- towers: average_gradients, then one clipped apply

TABLE = np.arange(12, dtype=np.float32).reshape(6, 2) / 4.0


def _average_gradients(tower_grads):
    """The TF1 multi-GPU tutorial's recipe, with the None and IndexedSlices handling ported code adds."""
    average = []
    for pairs in zip(*tower_grads):
        grads = [g for g, _ in pairs if g is not None]
        if not grads:
            average.append((None, pairs[0][1]))
        elif all(isinstance(g, tf.IndexedSlices) for g in grads):
            values = tf.concat([g.values for g in grads], 0) / len(grads)
            average.append(
                (tf.IndexedSlices(values, tf.concat([g.indices for g in grads], 0), grads[0].dense_shape), pairs[0][1])
            )
        else:
            average.append((tf.add_n([tf.convert_to_tensor(g) for g in grads]) / len(grads), pairs[0][1]))
    return average


def test_tower_average_with_sparse_dense_and_missing_gradients_is_clipped_as_numpy_says(graph):
    table = v1.get_variable("table", initializer=TABLE)
    kernel = v1.get_variable("kernel", initializer=[[1.0], [-2.0]])
    bias = v1.get_variable("bias", initializer=[0.5])
    opt = tf1clip.clip_gradients_by_norm(
        v1.train.GradientDescentOptimizer(1.0), 2.0, on_nonfinite="skip", report_norms=True
    )
    tower_grads = []
    for i in range(3):
        with tf.device("/cpu:0"), v1.name_scope("tower_%d" % i):
            if i == 0:
                x = tf.nn.embedding_lookup(table, [1, 3, 1])
            elif i == 1:
                x = tf.gather(tf.identity(table), [0, 2])
            else:
                x = tf.constant([[1.0, 1.0]])
            loss = tf.reduce_sum(tf.square(tf.matmul(x, kernel))) + (tf.reduce_sum(bias * bias) if i == 0 else 0.0)
            tower_grads.append(opt.compute_gradients(loss, [table, kernel, bias]))
    kinds = [[None if g is None else isinstance(g, tf.IndexedSlices) for g, _ in t] for t in tower_grads]
    assert kinds == [[True, False, False], [True, False, None], [None, False, None]]
    average = _average_gradients(tower_grads)
    train_op = opt.apply_gradients(average, global_step=v1.train.get_or_create_global_step())
    dense = [tf.convert_to_tensor(g) for g, _ in average]
    values = [g.values if isinstance(g, tf.IndexedSlices) else g for g, _ in average]
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        grads, norm_terms = sess.run([dense, values])
        start = sess.run([table, kernel, bias])
        _, norms = sess.run([train_op, opt.norms])
        got = sess.run([table, kernel, bias, v1.train.get_global_step()])
    norm = np.sqrt(sum((g**2).sum() for g in norm_terms))  # the values of IndexedSlices, rows as they are
    assert norms.before == pytest.approx(norm, rel=1e-5) and norms.after == pytest.approx(2.0, rel=1e-5)
    for k, (value, grad) in enumerate(zip(start, grads)):
        np.testing.assert_allclose(got[k], value - grad * 2.0 / norm, rtol=1e-5, atol=1e-6)
    assert got[3] == 1


# ---------------------------------------------------------------- two optimizers, two policies, one Session.run


def test_two_wrapped_optimizers_in_one_run_skip_and_apply_independently(graph):
    a = v1.get_variable("a", initializer=[3.0, 4.0])
    b = v1.get_variable("b", initializer=[1.0])
    bad = v1.placeholder_with_default(1.0, [])
    step = v1.train.get_or_create_global_step()
    a_opt = tf1clip.clip_gradients_by_norm(v1.train.MomentumOptimizer(0.1, 0.9), 1.0, on_nonfinite="skip")
    b_opt = tf1clip.transform_gradients(
        v1.train.AdamOptimizer(0.1), tf1clip.ZClip(warmup_steps=1, name="ZClip_b"), on_nonfinite="raise"
    )
    a_op = a_opt.minimize(tf.reduce_sum(a * a) * bad, global_step=step)
    with tf.control_dependencies([a_op]):
        b_op = b_opt.minimize(tf.reduce_sum(b * b * 10.0))
    train_op = tf.group(a_op, b_op)
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        sess.run(train_op)
        first = sess.run([a, a_opt.get_slot(a, "momentum"), b, step])
        sess.run(train_op, {bad: np.inf})
        second = sess.run([a, a_opt.get_slot(a, "momentum"), b, step, a_opt.skipped_steps])
    # a: gradient [6, 8] clipped to [0.6, 0.8]; momentum's first accumulator is the gradient.
    np.testing.assert_allclose(first[0], [2.94, 3.92], rtol=1e-6)
    np.testing.assert_allclose(first[1], [0.6, 0.8], rtol=1e-6)
    # b: Adam's first two steps move by lr (the clipped gradient keeps its sign).
    np.testing.assert_allclose([first[2][0], second[2][0]], [0.9, 0.8], rtol=1e-5)
    np.testing.assert_array_equal(second[0], first[0])
    np.testing.assert_array_equal(second[1], first[1])
    assert first[3] == 1 and second[3:] == [1, 1]


# ---------------------------------------------------------------- NormRecorder on pairs that share a variable


def _shared_variable_pairs():
    w = v1.get_variable("w", initializer=[1.0, 1.0])
    first, second = tf.constant([3.0, 0.0]), tf.constant([0.0, 4.0])
    return {
        "variable_twice": ([(first, w), (second, w)], {"w": 5.0}),
        "no_variable": ([(first, None), (second, None)], {"None": 5.0}),
        "variable_and_tensor": ([(first, w), (second, tf.identity(w, name="w_copy"))], {"w": 3.0, "w_copy": 4.0}),
    }


@pytest.mark.parametrize("case", ["variable_twice", "no_variable", "variable_and_tensor"])
def test_norm_recorder_counts_every_pair_when_pairs_share_a_variable(graph, case):
    pairs, per_name = _shared_variable_pairs()[case]
    recorder = tf1clip.NormRecorder(tf1clip.clip_by_global_norm_fn(4.5), summaries=False)
    clipped, updates = tf1clip.run_capper(recorder, pairs)
    step = tf1clip.attach_state_updates(tf.group(*[g for g, _ in clipped]), updates=updates)
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        pre, post, norms = sess.run([recorder.pre_clip_norm, recorder.post_clip_norm, recorder.variable_norms])
        sess.run(step)
        counts = sess.run([recorder.steps, recorder.clipped_steps])
    assert pre == pytest.approx(5.0, rel=1e-6) and post == pytest.approx(4.5, rel=1e-6)
    assert norms == pytest.approx(per_name, rel=1e-6)
    assert counts == [1, 1]


# ---------------------------------------------------------------- two loss-scaled optimizers, an overflow in one


@pytest.mark.parametrize("scale", ["dynamic", "exponential"])
@pytest.mark.parametrize("order", ["lso_outside", "lso_inside"])
def test_an_overflow_of_one_loss_scaled_optimizer_leaves_the_other_and_its_capper_alone(graph, order, scale):
    from tf1clip.contrib import mixed_precision

    lso = v1.mixed_precision.MixedPrecisionLossScaleOptimizer
    a = v1.get_variable("a", initializer=[3.0, 4.0])
    b = v1.get_variable("b", initializer=[1.0, 2.0])
    bad = v1.placeholder_with_default(1.0, [])
    built = {}
    for name, var, loss in (("a", a, tf.reduce_sum(tf.square(a)) * bad), ("b", b, tf.reduce_sum(tf.square(b)))):
        loss_scale = (
            "dynamic"
            if scale == "dynamic"
            else mixed_precision.ExponentialUpdateLossScale(
                init_loss_scale=1024.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=1, incr_ratio=2.0, decr_ratio=0.5
            )
        )
        capper = tf1clip.AutoClip(name="AutoClip_" + name)
        if order == "lso_outside":
            inner = lso(
                tf1clip.transform_gradients(v1.train.AdamOptimizer(0.1), capper, on_nonfinite="skip"), loss_scale
            )
            scaler = inner
        else:
            scaler = lso(v1.train.AdamOptimizer(0.1), loss_scale)
            inner = tf1clip.transform_gradients(scaler, capper, on_nonfinite="skip")
        built[name] = (inner.minimize(loss, var_list=[var]), capper, scaler)
    train_op = tf.group(built["a"][0], built["b"][0])
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        sess.run(train_op)
        a_before = sess.run(a)
        sess.run(train_op, {bad: np.inf})
        a_after = sess.run(a)
        sess.run(train_op)
        counts = sess.run([built["a"][1].count, built["b"][1].count])
        scales = sess.run([built["a"][2]._loss_scale(), built["b"][2]._loss_scale()])
    np.testing.assert_array_equal(a_after, a_before)
    assert counts == [2, 3]
    # dynamic: 2**15 halved once, b untouched (increments every 2000 steps); exponential: 1024 halved, b doubled after 2.
    assert scales == ([2.0**14, 2.0**15] if scale == "dynamic" else [512.0, 2048.0])


# ---------------------------------------------------------------- AGC needs the variable's values


@pytest.mark.parametrize(
    "make_variable",
    [lambda: None, lambda: v1.get_variable("w", initializer=[1.0, 1.0]).handle],
    ids=["None", "resource_handle"],
)
def test_agc_refuses_a_pair_without_readable_weights_naming_it(graph, make_variable):
    kernel = v1.get_variable("kernel", initializer=[1.0, 1.0])
    pairs = [(tf.constant([1.0, 2.0]), kernel), (tf.constant([1.0, 2.0]), make_variable())]
    with pytest.raises(TypeError, match=r"`grads_and_vars\[1\]`.*AGC.*received"):
        tf1clip.AGC()(pairs)
    assert len(tf1clip.AGC(exclude=["None", "w"])(pairs)) == 2


# ---------------------------------------------------------------- the shapes real code gives its pairs in

PAIR_FORMS = {
    "list_of_tuples": lambda pairs: [tuple(p) for p in pairs],
    "tuple_of_lists": lambda pairs: tuple([g, v] for g, v in pairs),
    "generator": lambda pairs: ((g, v) for g, v in pairs),
    "zip": lambda pairs: zip([g for g, _ in pairs], [v for _, v in pairs]),
}


@pytest.mark.parametrize("form", sorted(PAIR_FORMS))
def test_skip_wrapper_takes_pairs_in_any_iterable_with_duplicates_none_and_mixed_dtypes(graph, form):
    """One variable twice (the joint norm of both pairs, as contrib), an int variable without
    gradient, float64 and float16 variables: SGD with lr 1 moves each by minus its clipped gradient."""
    w = v1.get_variable("w", initializer=[1.0, 1.0])
    wide = v1.get_variable("wide", initializer=np.array([1.0], np.float64))
    half = v1.get_variable("half", initializer=np.array([1.0], np.float16))
    count = v1.get_variable("count", initializer=[1], trainable=False)
    grads = [np.array([3.0, 0.0]), np.array([0.0, 4.0]), np.array([12.0]), np.array([0.0])]
    pairs = [
        (tf.constant(grads[0], tf.float32), w),
        (tf.constant(grads[1], tf.float32), w),
        (tf.constant(grads[2], tf.float64), wide),
        (tf.constant(grads[3], tf.float16), half),
        (None, count),
    ]
    opt = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(1.0), 6.5, on_nonfinite="skip")
    train_op = opt.apply_gradients(PAIR_FORMS[form](pairs))
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        sess.run(train_op)
        got = sess.run([w, wide, half, count, opt.skipped_steps])
    factor = 6.5 / 13.0
    np.testing.assert_allclose(got[0], [1.0 - 3.0 * factor, 1.0 - 4.0 * factor], rtol=1e-6)
    np.testing.assert_allclose(got[1], [1.0 - 12.0 * factor], rtol=1e-12)
    assert got[2].dtype == np.float16 and got[2][0] == 1.0 and got[3][0] == 1 and got[4] == 0


def test_gan_train_with_sequential_hooks_advances_each_capper_per_step_of_its_network(graph):
    d_cap, g_cap = tf1clip.AutoClip(name="AutoClip_d"), tf1clip.NormRecorder(summaries=False, name="norms_g")
    g_opt = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.1), g_cap, on_nonfinite="skip")
    d_opt = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.1), d_cap, on_nonfinite="skip")
    ops, _, _, _, _ = _tfgan_program(g_opt, d_opt)
    import tf1clip.contrib.gan as tfgan

    train_steps = tfgan.GANTrainSteps(generator_train_steps=1, discriminator_train_steps=D_STEPS)
    final = {}

    class Read(v1.train.SessionRunHook):
        def end(self, session):
            final["counts"] = session.run([d_cap.count, g_cap.steps, v1.train.get_global_step()])

    tfgan.gan_train(
        ops,
        logdir=None,
        get_hooks_fn=tfgan.get_sequential_train_hooks(train_steps),
        hooks=[v1.train.StopAtStepHook(num_steps=3), Read()],
        save_checkpoint_secs=None,
        save_summaries_steps=None,
    )
    assert final["counts"] == [3 * D_STEPS, 3, 3]
