"""tf1clip.contrib.layers: optimize_loss and adaptive_clipping_fn (TF 1.15 optimizers_test cases and more)."""

import math

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import layers

v1 = tf.compat.v1
GD = v1.train.GradientDescentOptimizer


def _setup_model():
    """Upstream model: loss = |test * x|, test = 10, int64 global_step = 0; x = 5 gives gradient 5."""
    x = v1.placeholder(tf.float32, [])
    var = v1.get_variable("test", [], initializer=v1.constant_initializer(10.0))
    loss = tf.abs(var * x)
    global_step = v1.get_variable(
        "global_step",
        [],
        trainable=False,
        dtype=tf.int64,
        initializer=v1.constant_initializer(0, dtype=tf.int64),
    )
    return x, var, loss, global_step


def _train_once(train, x, fetches, feed=None):
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        feed_dict = {x: 5.0}
        feed_dict.update(feed or {})
        sess.run(train, feed_dict)
        return sess.run(fetches)


def _step(**kwargs):
    """One SGD step (lr 0.1 unless given) of the upstream model; returns (var, global_step)."""
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        kwargs.setdefault("learning_rate", 0.1)
        kwargs.setdefault("optimizer", "SGD")
        train = layers.optimize_loss(loss, global_step, **kwargs)
        return _train_once(train, x, [var, global_step])


def _summary_values(sess, feed):
    merged = v1.summary.merge_all()
    summary = v1.Summary.FromString(sess.run(merged, feed))
    values = {}
    for value in summary.value:
        values[value.tag] = value.simple_value if value.HasField("simple_value") else value.histo
    return values


# --- upstream OptimizersTest -------------------------------------------------------------


@pytest.mark.parametrize(
    "optimizer",
    ["SGD", GD, GD(learning_rate=0.1), lambda lr: GD(learning_rate=lr), "Momentum"],
    ids=["name", "class", "instance", "function", "momentum"],
)
def test_sgd_optimizer_kinds(optimizer):
    var, step = _step(optimizer=optimizer)
    assert var == pytest.approx(9.5)
    assert step == 1


def test_no_learning_rate_with_zero_argument_function():
    var, step = _step(learning_rate=None, optimizer=lambda: GD(learning_rate=0.1))
    assert var == pytest.approx(9.5)
    assert step == 1


@pytest.mark.parametrize(
    "optimizer, match",
    [
        ("blah", r"Optimizer name should be one of \[Adagrad, Adam, Ftrl, Momentum, RMSProp, SGD\], you provided blah"),
        (tf.Variable, "function should return subclass of Optimizer"),
        (object(), "should be string, subclass of Optimizer, instance of subclass"),
        (lambda lr: None, "function should return subclass of Optimizer. Got None"),
    ],
)
def test_wrong_optimizer(optimizer, match):
    with tf.Graph().as_default():
        _, _, loss, global_step = _setup_model()
        with pytest.raises(ValueError, match=match):
            layers.optimize_loss(loss, global_step, learning_rate=0.1, optimizer=optimizer)


def test_keras_optimizer_gets_a_hint():
    with tf.Graph().as_default():
        _, _, loss, global_step = _setup_model()
        with pytest.raises(ValueError, match="Keras optimizers are not tf.compat.v1.train"):
            layers.optimize_loss(loss, global_step, 0.1, tf.keras.optimizers.SGD(0.1))


def test_bad_summaries():
    with tf.Graph().as_default():
        _, _, loss, global_step = _setup_model()
        with pytest.raises(ValueError, match="Summaries should be one of .*you provided bad_summary"):
            layers.optimize_loss(loss, global_step, 0.1, "SGD", summaries=["loss", "bad_summary"])
        with pytest.raises(ValueError, match="received the string 'loss'"):
            layers.optimize_loss(loss, global_step, 0.1, "SGD", summaries="loss")


def test_invalid_loss():
    with tf.Graph().as_default():
        _, _, _, global_step = _setup_model()
        with pytest.raises(ValueError, match="`loss` must be a scalar Tensor; received None"):
            layers.optimize_loss(None, global_step, 0.1, "SGD")
        with pytest.raises(ValueError, match=r"Expected scalar shape for .*, saw shape: \(1, 1\)"):
            layers.optimize_loss([[1.0]], global_step, 0.1, "SGD")


def test_invalid_global_step():
    with tf.Graph().as_default():
        _, _, loss, _ = _setup_model()
        # contrib: AttributeError from assign_add deep in apply_gradients.
        with pytest.raises(TypeError, match="cannot be incremented"):
            layers.optimize_loss(loss, tf.constant(43, tf.int64), 0.1, "SGD")
        # A tensor step is fine when nothing increments it.
        layers.optimize_loss(loss, tf.constant(43, tf.int64), 0.1, "SGD", increment_global_step=False)
        float_step = v1.get_variable("float_step", [], tf.float64, trainable=False)
        with pytest.raises(TypeError, match='Existing "global_step" does not have integer type'):
            layers.optimize_loss(loss, float_step, 0.1, "SGD")
        vector_step = v1.get_variable("vector_step", [1], tf.int64, trainable=False)
        with pytest.raises(TypeError, match='Existing "global_step" is not scalar'):
            layers.optimize_loss(loss, vector_step, 0.1, "SGD")
        with pytest.raises(TypeError, match="must be a Variable or Tensor"):
            layers.optimize_loss(loss, 0, 0.1, "SGD")


def test_invalid_learning_rate():
    with tf.Graph().as_default():
        _, _, loss, global_step = _setup_model()
        with pytest.raises(ValueError, match=r"Invalid learning_rate -0\.1: it must be >= 0"):
            layers.optimize_loss(loss, global_step, learning_rate=-0.1, optimizer="SGD")
        with pytest.raises(ValueError, match="Invalid learning_rate nan"):
            layers.optimize_loss(loss, global_step, learning_rate=float("nan"), optimizer="SGD")
        with pytest.raises(ValueError, match="Learning rate should be 0d Tensor or float. Got .* of type"):
            layers.optimize_loss(loss, global_step, learning_rate=tf.constant([0.1]), optimizer="SGD")
        with pytest.raises(ValueError, match="Learning rate should be 0d Tensor or float. Got abc"):
            layers.optimize_loss(loss, global_step, learning_rate="abc", optimizer="SGD")
        with pytest.raises(ValueError, match=r"should be specified if optimizer is string \(SGD\)"):
            layers.optimize_loss(loss, global_step, learning_rate=None, optimizer="SGD")
        with pytest.raises(ValueError, match="should be specified if optimizer is class"):
            layers.optimize_loss(loss, global_step, learning_rate=None, optimizer=GD)


def test_gradient_noise_is_seeded_truncated_and_within_bounds():
    # Upstream expects 9.86912 with graph seed 42: that sample depends on the number of ops in the
    # TF 1.15 graph (the op seed is the op count), so only its properties carry over.
    results = [_seeded_noise_step(clip) for clip in (None, None, 10.0)]
    assert results[0] == results[1] == results[2]  # reproducible; clip 10 > noisy norm: no clip
    noise = (10.0 - results[0]) / 0.1 - 5.0
    assert 0 < abs(noise) <= 20.0  # truncated normal * 10 lies within 2 * 10


def _seeded_noise_step(clip):
    with tf.Graph().as_default():
        v1.set_random_seed(42)
        x, var, loss, global_step = _setup_model()
        train = layers.optimize_loss(loss, global_step, 0.1, "SGD", gradient_noise_scale=10.0, clip_gradients=clip)
        return _train_once(train, x, var)


def test_gradient_noise_distribution():
    with tf.Graph().as_default():
        v1.set_random_seed(7)
        var = v1.get_variable("v", [20000], initializer=v1.zeros_initializer())
        loss = tf.reduce_sum(var * 0.0)
        train = layers.optimize_loss(loss, None, 1.0, "SGD", gradient_noise_scale=3.0)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            noise = -sess.run(var)
    assert np.abs(noise).max() <= 6.0 + 1e-5  # truncated at 2 sigma
    assert noise.mean() == pytest.approx(0.0, abs=0.06)
    assert noise.std() == pytest.approx(3.0 * 0.87962566, rel=0.03)  # std of N(0,1) truncated at 2


def test_gradient_clip():
    var, step = _step(clip_gradients=0.1)
    assert var == pytest.approx(9.98999, abs=1e-4)
    assert step == 1


@pytest.mark.parametrize("clip", [1, np.float32(0.1), np.float64(0.1)], ids=["int", "np32", "np64"])
def test_gradient_clip_accepts_any_number(clip):
    var, _ = _step(clip_gradients=clip)
    assert var == pytest.approx(10.0 - 0.1 * float(clip), abs=1e-5)


def test_gradient_clip_tensor():
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        clip = v1.placeholder(tf.float32, [])
        train = layers.optimize_loss(loss, global_step, 0.1, "SGD", clip_gradients=clip)
        assert _train_once(train, x, var, {clip: 2.0}) == pytest.approx(9.8)


def test_bad_clip_gradients():
    with tf.Graph().as_default():
        _, _, loss, global_step = _setup_model()
        with pytest.raises(ValueError, match="Unknown type <class 'str'> for clip_gradients"):
            layers.optimize_loss(loss, global_step, 0.1, "SGD", clip_gradients="5")
        with pytest.raises(ValueError, match="Unknown type <class 'bool'> for clip_gradients"):
            layers.optimize_loss(loss, global_step, 0.1, "SGD", clip_gradients=True)
        with pytest.raises(ValueError, match=r"`clip_gradients` must be > 0 .*received -1\.0"):
            layers.optimize_loss(loss, global_step, 0.1, "SGD", clip_gradients=-1.0)
        with pytest.raises(TypeError, match="`the result of clip_gradients` must be"):
            layers.optimize_loss(loss, global_step, 0.1, "SGD", clip_gradients=lambda gv: 3)


def test_adaptive_gradient_clip():
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        train = layers.optimize_loss(loss, global_step, 0.1, "SGD", clip_gradients=layers.adaptive_clipping_fn())
        value, step = _train_once(train, x, [var, global_step])
        names = [v.name for v in v1.global_variables() if v.name.startswith("OptimizeLoss/AdaptiveMaxNorm")]
    assert value == pytest.approx(9.8916, abs=1e-4)
    assert step == 1
    assert sorted(names) == ["OptimizeLoss/AdaptiveMaxNorm/mean:0", "OptimizeLoss/AdaptiveMaxNorm/sq_mean:0"]


def test_gradient_multiply_keys():
    # By variable (upstream), by var.name, by var.ref().
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        for keys in ({var: 7.0}, {"test:0": 7.0}, {var.ref(): 7}):
            train = layers.optimize_loss(loss, global_step, 0.1, "SGD", gradient_multipliers=keys)
            assert _train_once(train, x, var) == pytest.approx(6.5)


def test_gradient_multiply_op_name_key_is_ignored_with_a_warning(caplog):
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        train = layers.optimize_loss(loss, global_step, 0.1, "SGD", gradient_multipliers={"test": 7.0})
        assert _train_once(train, x, var) == pytest.approx(9.5)  # contrib keys by 'test:0'
    assert "['test'] match no variable" in caplog.text


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_gradient_multiply_tensor(dtype):
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        multiplier = v1.placeholder(dtype, [])
        train = layers.optimize_loss(loss, global_step, 0.1, "SGD", gradient_multipliers={var: multiplier})
        assert _train_once(train, x, var, {multiplier: 7.0}) == pytest.approx(6.5)


def test_gradient_multipliers_must_be_a_dict():
    with tf.Graph().as_default():
        _, _, loss, global_step = _setup_model()
        with pytest.raises(TypeError, match="`gradient_multipliers` must be a dict .*received float 7.0"):
            layers.optimize_loss(loss, global_step, 0.1, "SGD", gradient_multipliers=7.0)


def test_ignore_variables_with_no_gradients():
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        unused = v1.get_variable("ignore_me", [], initializer=v1.constant_initializer(1.0))
        train = layers.optimize_loss(
            loss,
            global_step,
            0.1,
            "SGD",
            gradient_noise_scale=10.0,
            gradient_multipliers={unused: 1.0},
            clip_gradients=10.0,
            summaries=layers.OPTIMIZER_SUMMARIES,
        )
        value, unused_value = _train_once(train, x, [var, unused])
    assert value != 10.0
    assert unused_value == 1.0


def test_no_global_step():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [])
        var = v1.get_variable("test", [], initializer=v1.constant_initializer(10.0))
        loss = tf.abs(var * x)
        update_var = v1.get_variable("update", [], initializer=v1.constant_initializer(10.0))
        update_op = v1.assign(update_var, 20.0)
        train = layers.optimize_loss(loss, None, 0.1, "SGD", update_ops=[update_op])
        assert _train_once(train, x, [var, update_var]) == pytest.approx([9.5, 20.0])
        with pytest.raises(ValueError, match="global_step is required for learning_rate_decay_fn"):
            layers.optimize_loss(loss, None, 0.1, "SGD", learning_rate_decay_fn=v1.train.exponential_decay)


def test_no_global_step_arg_finds_the_step_by_name():
    # The step made by get_variable("global_step") is a resource variable on TF 2.x, which
    # tf.compat.v1.train.get_global_step() rejects; tf1clip finds it as TF 1.15 did.
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        train = layers.optimize_loss(loss, None, 0.1, "SGD")
        assert _train_once(train, x, [var, global_step]) == pytest.approx([9.5, 1])


def _update_op_model():
    x, var, loss, global_step = _setup_model()
    update_var = v1.get_variable("update", [], initializer=v1.constant_initializer(10.0))
    return x, var, loss, global_step, update_var, v1.assign(update_var, 20.0)


@pytest.mark.parametrize("increment, expected_step", [(True, 1), (False, 0)])
def test_update_op(increment, expected_step):
    with tf.Graph().as_default():
        x, var, loss, global_step, update_var, update_op = _update_op_model()
        train = layers.optimize_loss(
            loss,
            global_step,
            0.1,
            "SGD",
            update_ops=[update_op],
            increment_global_step=increment,
        )
        result = _train_once(train, x, [var, update_var, global_step])
    assert result == pytest.approx([9.5, 20.0, expected_step])


def test_update_op_with_no_op_decay():
    with tf.Graph().as_default():
        x, var, loss, global_step, update_var, update_op = _update_op_model()
        train = layers.optimize_loss(
            loss,
            global_step,
            0.1,
            "SGD",
            update_ops=[update_op],
            learning_rate_decay_fn=lambda lr, step: lr,
        )
        assert _train_once(train, x, [var, update_var, global_step]) == pytest.approx([9.5, 20.0, 1])


def test_update_op_from_collection():
    with tf.Graph().as_default():
        x, var, loss, global_step, update_var, update_op = _update_op_model()
        v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, update_op)
        train = layers.optimize_loss(loss, global_step, 0.1, "SGD")
        assert _train_once(train, x, [var, update_var, global_step]) == pytest.approx([9.5, 20.0, 1])


# --- beyond upstream ---------------------------------------------------------------------


@pytest.mark.parametrize("learning_rate", [1, np.float32(0.1), "variable"], ids=["int", "np32", "variable"])
def test_learning_rate_kinds(learning_rate):
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        if learning_rate == "variable":
            learning_rate = v1.get_variable("my_lr", [], initializer=v1.constant_initializer(0.1))
        train = layers.optimize_loss(loss, global_step, learning_rate, "SGD")
        expected = 10.0 - 5.0 * float(0.1 if isinstance(learning_rate, tf.Variable) else learning_rate)
        assert _train_once(train, x, var) == pytest.approx(expected)


def test_variable_names_and_scopes():
    with tf.Graph().as_default():
        _, _, loss, global_step = _setup_model()
        first = layers.optimize_loss(loss, global_step, 0.1, "Adam")
        layers.optimize_loss(loss, global_step, 0.1, "SGD")
        layers.optimize_loss(loss, global_step, 0.1, "SGD", name="MyTrain")
        names = sorted(v.op.name for v in v1.global_variables())
        assert first.op.name == "OptimizeLoss/control_dependency"
        assert first.dtype == tf.float32 and first.shape.rank == 0
        assert "OptimizeLoss/train" in [op.name for op in v1.get_collection(v1.GraphKeys.TRAIN_OP)]
    assert names == sorted(
        [
            "test",
            "global_step",
            "OptimizeLoss/learning_rate",
            "OptimizeLoss/beta1_power",
            "OptimizeLoss/beta2_power",
            "OptimizeLoss/test/Adam",
            "OptimizeLoss/test/Adam_1",
            "OptimizeLoss_1/learning_rate",
            "MyTrain/learning_rate",
        ]
    )


def test_summaries_tags_and_values():
    with tf.Graph().as_default():
        x, var, loss, global_step = _setup_model()
        train = layers.optimize_loss(
            loss,
            global_step,
            0.1,
            "SGD",
            clip_gradients=2.0,
            gradient_multipliers={var: 3.0},
            learning_rate_decay_fn=lambda lr, step: lr * 0.5,
            summaries=layers.OPTIMIZER_SUMMARIES,
        )
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = _summary_values(sess, {x: 5.0})
            sess.run(train, {x: 5.0})
            assert sess.run(var) == pytest.approx(10.0 - 0.05 * 2.0)
    assert sorted(values) == [
        "OptimizeLoss/global_norm/clipped_gradient_norm",
        "OptimizeLoss/global_norm/gradient_norm",
        "OptimizeLoss/gradient_norm/test_0",
        "OptimizeLoss/gradients/test_0",
        "OptimizeLoss/learning_rate_1",  # the variable holds the name, as in TF 1.x
        "OptimizeLoss/loss",
    ]
    # Order of operations: multiplier (x3) before the norm summary, clip after it.
    assert values["OptimizeLoss/global_norm/gradient_norm"] == pytest.approx(15.0)
    assert values["OptimizeLoss/global_norm/clipped_gradient_norm"] == pytest.approx(2.0)
    assert values["OptimizeLoss/gradient_norm/test_0"] == pytest.approx(2.0)
    assert values["OptimizeLoss/gradients/test_0"].max == pytest.approx(2.0)
    assert values["OptimizeLoss/learning_rate_1"] == pytest.approx(0.05)
    assert values["OptimizeLoss/loss"] == pytest.approx(50.0)


def test_default_summaries_have_no_learning_rate_without_decay():
    with tf.Graph().as_default():
        x, _, loss, global_step = _setup_model()
        layers.optimize_loss(loss, global_step, 0.1, "SGD")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = _summary_values(sess, {x: 5.0})
    assert sorted(values) == ["OptimizeLoss/global_norm/gradient_norm", "OptimizeLoss/loss"]


def _embedding_model(dtype=tf.float32):
    """emb (4x2, rows 0 and 2 gathered -> IndexedSlices), w (dense), unused (None gradient)."""
    emb = v1.get_variable("emb", [4, 2], dtype, initializer=v1.constant_initializer(1.0))
    w = v1.get_variable("w", [2], dtype, initializer=v1.constant_initializer([3.0, 4.0]))
    unused = v1.get_variable("unused", [], dtype, initializer=v1.constant_initializer(1.0))
    rows = tf.gather(emb, [0, 2])
    loss = tf.reduce_sum(rows * 2.0) + tf.reduce_sum(w * w) / 2.0  # grads: 2 per gathered entry, w
    return emb, w, unused, loss


def test_optimize_loss_with_none_and_indexed_slices_gradients():
    with tf.Graph().as_default():
        emb, w, unused, loss = _embedding_model()
        seen = []

        def spy(grads_and_vars):
            seen.extend(grads_and_vars)
            return grads_and_vars

        layers.optimize_loss(loss, None, 0.1, "SGD", clip_gradients=spy)
        assert [type(g).__name__ if g is not None else None for g, _ in seen] == [
            "IndexedSlices",
            "SymbolicTensor",
            None,
        ]
        train = layers.optimize_loss(
            loss,
            None,
            1.0,
            "SGD",
            clip_gradients=2.5,
            gradient_multipliers={"emb:0": 0.5, unused: 3.0},
            summaries=layers.OPTIMIZER_SUMMARIES,
        )
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            emb_value, w_value, unused_value = sess.run([emb, w, unused])
    # emb values after x0.5: four entries of 1 -> norm 2; w grad [3, 4] -> norm 5; global sqrt(29).
    scale = 2.5 / math.sqrt(29.0)
    expected_emb = np.ones([4, 2])
    expected_emb[[0, 2]] -= scale
    np.testing.assert_allclose(emb_value, expected_emb, rtol=1e-5)
    np.testing.assert_allclose(w_value, [3.0 - 3.0 * scale, 4.0 - 4.0 * scale], rtol=1e-5)
    assert unused_value == 1.0


def test_gradient_noise_densifies_indexed_slices_and_works_in_float64():
    with tf.Graph().as_default():
        emb, _, unused, loss = _embedding_model(tf.float64)
        seen = []
        layers.optimize_loss(
            loss,
            None,
            1.0,
            "SGD",
            gradient_noise_scale=1.0,
            clip_gradients=lambda gv: seen.extend(gv) or gv,
        )
        assert isinstance(seen[0][0], tf.Tensor) and seen[0][0].shape == (4, 2)
        assert seen[0][0].dtype == tf.float64 and seen[2][0] is None
        train = layers.optimize_loss(loss, None, 1.0, "SGD", gradient_noise_scale=1.0)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            emb_value, unused_value = sess.run([emb, unused])
    assert np.all(emb_value[[1, 3]] != 1.0)  # rows without a gradient got noise, as in contrib
    assert unused_value == 1.0


def test_adaptive_clipping_with_none_and_indexed_slices():
    with tf.Graph().as_default():
        emb, w, unused, loss = _embedding_model()
        pairs = v1.train.GradientDescentOptimizer(1.0).compute_gradients(loss)
        clipped = layers.adaptive_clipping_fn(decay=0.5, std_factor=0.0)(pairs)
        assert isinstance(clipped[0][0], tf.IndexedSlices) and clipped[2][0] is None
        assert clipped[0][0].indices is pairs[0][0].indices
        assert [v for _, v in clipped] == [emb, w, unused]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            emb_grad, w_grad = sess.run([clipped[0][0].values, clipped[1][0]])
    norm = math.sqrt(4 * 4.0 + 25.0)
    mean = 0.5 * math.log(norm + 1e-8)  # first step: max_norm = exp(mean) = sqrt(norm) < norm
    factor = math.exp(mean) / norm
    np.testing.assert_allclose(emb_grad, np.full([2, 2], 2.0 * factor), rtol=1e-5)
    np.testing.assert_allclose(w_grad, [3.0 * factor, 4.0 * factor], rtol=1e-5)


def test_saver_checkpoints_move_between_wrapped_and_unwrapped(tmp_path):
    """An optimize_loss Adam model saved with the estimator decorator restores without it, and back."""

    def build(wrapped):
        x = v1.placeholder(tf.float32, [])
        var = v1.get_variable("test", [], initializer=v1.constant_initializer(10.0))
        loss = tf.abs(var * x)
        step = v1.train.get_or_create_global_step()
        opt = v1.train.AdamOptimizer(0.1)
        if wrapped:
            opt = tf1clip.contrib.estimator.clip_gradients_by_norm(opt, 1.0)
        train = layers.optimize_loss(loss, step, None, opt, clip_gradients=None if wrapped else 1.0)
        return x, var, train, opt

    def run(wrapped, restore_from=None, save_to=None):
        with tf.Graph().as_default():
            x, var, train, opt = build(wrapped)
            names = sorted(v.op.name for v in v1.global_variables())
            saver = v1.train.Saver()
            with v1.Session() as sess:
                if restore_from:
                    saver.restore(sess, restore_from)
                else:
                    sess.run(v1.global_variables_initializer())
                sess.run(train, {x: 5.0})
                slot = sess.run((opt.optimizer if wrapped else opt).get_slot(var, "m"))
                if save_to:
                    saver.save(sess, save_to)
                return names, sess.run(var), slot

    ckpt = str(tmp_path / "model")
    names_w, _, _ = run(True, save_to=ckpt)
    names_u, value_u, slot_u = run(False, restore_from=ckpt, save_to=ckpt + "2")
    names_w2, value_w, slot_w = run(True, restore_from=ckpt)
    assert names_w == names_u == names_w2
    assert "OptimizeLoss/test/Adam" in names_w and "OptimizeLoss/beta1_power" in names_w
    # Two steps (one before, one after the restore) either way give the same numbers.
    assert value_u == pytest.approx(value_w) and slot_u == pytest.approx(slot_w)
    assert value_u < 10.0 - 0.1 - 1e-3  # the second step moved the restored weights further


# --- upstream AdaptiveClipping ------------------------------------------------------------


def test_adaptive_averages():
    with tf.Graph().as_default():
        grad = tf.ones([3, 4]) * 2.0
        log_norm = math.log(math.sqrt(48.0))
        clipped = layers.adaptive_clipping_fn(decay=0.5)([(grad, None)])
        names = sorted(v.op.name for v in v1.global_variables() if v.op.name.startswith("AdaptiveMaxNorm"))
        assert names == ["AdaptiveMaxNorm/mean", "AdaptiveMaxNorm/sq_mean"]
        mean, sq_mean = [v for v in v1.global_variables() if v.op.name.startswith("AdaptiveMaxNorm")]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run([mean, sq_mean]) == [0.0, 0.0]
            sess.run(clipped[0][0])
            mean_value, sq_mean_value = sess.run([mean, sq_mean])
            assert mean_value < 0.9 * log_norm
            assert sq_mean_value < 0.9 * log_norm**2
            for _ in range(20):
                sess.run(clipped[0][0])
            mean_value, sq_mean_value = sess.run([mean, sq_mean])
    assert mean_value == pytest.approx(log_norm, abs=1e-4)
    assert sq_mean_value == pytest.approx(log_norm**2, abs=1e-4)


def test_adaptive_clip():
    with tf.Graph().as_default():
        spike = 1000.0
        multiplier = v1.placeholder(tf.float32, [], "multiplier")
        step = v1.placeholder(tf.int32, [], "step")
        grad = tf.ones([3, 4]) * multiplier
        clipped = layers.adaptive_clipping_fn(decay=0.9, global_step=step)([(grad, None)])[0][0]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for i in range(20):
                scale = [1.0, -2.0][i % 2]
                value = sess.run(clipped, {multiplier: scale, step: i})
                if i > 3:
                    np.testing.assert_allclose(value, scale * np.ones([3, 4]), rtol=1e-6)
            value = sess.run(clipped, {multiplier: spike, step: 20})
            assert np.all(value < 25.0)
            for i in range(10):
                value = sess.run(clipped, {multiplier: spike, step: 21 + i})
    np.testing.assert_allclose(value, spike * np.ones([3, 4]), rtol=1e-3)


def test_adaptive_rescales_to_exp_mean_not_threshold_and_static_max_norm():
    with tf.Graph().as_default():
        grad = v1.placeholder(tf.float32, [2])
        out = layers.adaptive_clipping_fn(decay=0.0, std_factor=0.0, report_summary=True)([(grad, None)])[0][0]
        capped = layers.adaptive_clipping_fn(static_max_norm=1.0, name="Static")([(grad, None)])[0][0]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            # decay 0: mean = log(5); max_norm = exp(log 5 + 0) = 5 -> not < 5 -> factor exp(mean)/5 = 1.
            np.testing.assert_allclose(sess.run(out, {grad: [3.0, 4.0]}), [3.0, 4.0], rtol=1e-6)
            np.testing.assert_allclose(sess.run(capped, {grad: [3.0, 4.0]}), [0.6, 0.8], rtol=1e-6)
            tags = _summary_values(sess, {grad: [3.0, 4.0]})
    assert list(tags) == ["global_norm/adaptive_max_gradient_norm"]
    with tf.Graph().as_default():
        fn = layers.adaptive_clipping_fn(name="Fixed")
        fn([(tf.ones([2]), None)])
        with pytest.raises(ValueError, match="Variable Fixed/mean already exists"):
            fn([(tf.ones([2]), None)])


def test_adaptive_clipping_fn_argument_errors():
    with pytest.raises(ValueError, match=r"`decay` must be in \[0, 1\]; received 1.5"):
        layers.adaptive_clipping_fn(decay=1.5)
    with pytest.raises(ValueError, match="`epsilon` must be > 0; received 0"):
        layers.adaptive_clipping_fn(epsilon=0)
    with pytest.raises(ValueError, match="`static_max_norm` must be > 0"):
        layers.adaptive_clipping_fn(static_max_norm=-1.0)
    with pytest.raises(TypeError, match="`std_factor` must be a number"):
        layers.adaptive_clipping_fn(std_factor="2")


def test_constants():
    assert layers.OPTIMIZER_SUMMARIES == ["learning_rate", "loss", "gradients", "gradient_norm", "global_gradient_norm"]
    assert sorted(layers.OPTIMIZER_CLS_NAMES) == ["Adagrad", "Adam", "Ftrl", "Momentum", "RMSProp", "SGD"]
    with tf.Graph().as_default():
        for name, make in layers.OPTIMIZER_CLS_NAMES.items():
            opt = make(learning_rate=0.1)
            assert isinstance(opt, v1.train.Optimizer), name
        assert layers.OPTIMIZER_CLS_NAMES["Momentum"](learning_rate=0.1)._momentum == 0.9


@pytest.mark.parametrize("limit,norm", [(1e100, 5e100), (1e-50, 5e-50)])
def test_float64_limits_keep_their_range(limit, norm):
    # A Python static_max_norm / clip_gradients went through float32 (1e100 -> inf).
    g = np.array([0.6 * norm, 0.8 * norm])
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=np.zeros(2))
        gv = [(tf.constant(g), w)]
        adaptive = layers.adaptive_clipping_fn(decay=0.0, static_max_norm=limit)(gv)[0][0]
        loss = tf.reduce_sum(w * g)
        train = layers.optimize_loss(
            loss, v1.train.get_or_create_global_step(), 1.0, "SGD", clip_gradients=limit, summaries=[]
        )
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            np.testing.assert_allclose(sess.run(adaptive), g * (limit / norm), rtol=1e-9)
            sess.run(train)
            np.testing.assert_allclose(sess.run(w), -g * (limit / norm), rtol=1e-9)
