"""tf1clip.contrib.training and the helpers slim.learning shares with it.

Re-creates TF 1.15's training_test / learning_test cases (ClipGrads, ClipGradientNorms,
MultiplyGradients, CreateTrainOp, altered gradients) with this project's own models.
"""

import logging

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import training
from tf1clip.contrib.slim import learning

v1 = tf.compat.v1
BOTH = pytest.mark.parametrize("module", [training, learning], ids=["training", "slim"])


def _clip_case():
    """Upstream learning_test input: gradient [1, 2, 3], max_norm 1."""
    grad = tf.constant([1.0, 2.0, 3.0])
    var = v1.get_variable("var", [3], initializer=v1.zeros_initializer())
    return grad, var, np.array([1.0, 2.0, 3.0]) / np.sqrt(14.0)


# --- clip_gradient_norms ----------------------------------------------------------------


def test_clip_grads_scalar():
    with tf.Graph().as_default():
        xs = tf.Variable(0.0)
        ys = xs * 4.0
        grads = tf.gradients(ys, [xs])
        pairs = list(zip(grads, [xs]))
        clipped = training.clip_gradient_norms(pairs, 3.0)
        clipped_fn = training.clip_gradient_norms_fn(3.0)(pairs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run(pairs[0][0]) == 4.0
            assert sess.run(clipped[0][0]) == pytest.approx(3.0)
            assert sess.run(clipped_fn[0][0]) == pytest.approx(3.0)


@BOTH
def test_ordinary_grad_is_clipped(module):
    with tf.Graph().as_default():
        grad, var, expected = _clip_case()
        [(clipped, out_var)] = module.clip_gradient_norms([(grad, var)], 1.0)
        assert out_var is var
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(clipped), expected, rtol=1e-5)


@BOTH
def test_none_grad_passes_through(module):
    with tf.Graph().as_default():
        _, var, _ = _clip_case()
        assert module.clip_gradient_norms([(None, var)], 1.0) == [(None, var)]


@BOTH
def test_indexed_slices_grad_is_clipped(module):
    with tf.Graph().as_default():
        _, var, expected = _clip_case()
        grad = tf.IndexedSlices(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1, 4]), tf.constant([3]))
        [(clipped, _)] = module.clip_gradient_norms([(grad, var)], 1.0)
        assert isinstance(clipped, tf.IndexedSlices)
        assert clipped.indices is grad.indices and clipped.dense_shape is grad.dense_shape
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(clipped.values), expected, rtol=1e-5)


def test_clip_gradient_norms_is_per_tensor():
    with tf.Graph().as_default():
        a = v1.get_variable("a", [2], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [1], initializer=v1.zeros_initializer())
        pairs = [(tf.constant([3.0, 4.0]), a), (tf.constant([0.5]), b)]
        clipped = training.clip_gradient_norms(pairs, 1.0)
        with v1.Session() as sess:
            a_grad, b_grad = sess.run([clipped[0][0], clipped[1][0]])
    np.testing.assert_allclose(a_grad, [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(b_grad, [0.5])  # under the limit on its own: untouched


def test_clip_gradient_norms_errors():
    with tf.Graph().as_default():
        grad, var, _ = _clip_case()
        with pytest.raises(ValueError, match=r"`max_norm` must be > 0 .*received -1\.0"):
            training.clip_gradient_norms([(grad, var)], -1.0)
        with pytest.raises(ValueError, match="`max_norm` must be > 0"):
            training.clip_gradient_norms_fn(0)
        with pytest.raises(TypeError, match="`gradients_to_variables` must be a list of"):
            training.clip_gradient_norms(grad, 1.0)


# --- multiply_gradients -----------------------------------------------------------------


@BOTH
def test_multiply_gradients_errors(module):
    with tf.Graph().as_default():
        grad, var, _ = _clip_case()
        with pytest.raises(ValueError, match=r"`grads_and_vars` must be a list; received tuple"):
            module.multiply_gradients((grad, var), {var: 3.7})
        with pytest.raises(ValueError, match=r"`gradient_multipliers` is empty; received dict \{\}"):
            module.multiply_gradients([(grad, var)], {})
        with pytest.raises(ValueError, match="`gradient_multipliers` must be a dict; received int 3"):
            module.multiply_gradients([(grad, var)], 3)
        # Upstream's "None gradient" test passed a tuple and so hit the list check; this hits the real one.
        with pytest.raises(ValueError, match="Requested multiple of `None` gradient: the variable var:0"):
            module.multiply_gradients([(None, var)], {var: 3.7})


@BOTH
@pytest.mark.parametrize("key", ["variable", "op_name", "ref"])
def test_multiply_gradients_with_variables(module, key):
    with tf.Graph().as_default():
        grad, var, _ = _clip_case()
        other = v1.get_variable("other", [3], initializer=v1.zeros_initializer())
        keys = {"variable": var, "op_name": "var", "ref": var.ref()}
        result = module.multiply_gradients([(grad, var), (grad, other)], {keys[key]: 3.7})
        assert [v for _, v in result] == [var, other]
        with v1.Session() as sess:
            multiplied, untouched = sess.run([result[0][0], result[1][0]])
    np.testing.assert_allclose(multiplied, [3.7, 7.4, 11.1], rtol=1e-6)
    np.testing.assert_allclose(untouched, [1.0, 2.0, 3.0])


@BOTH
def test_multiply_gradients_name_with_colon_is_ignored_with_a_warning(module, caplog):
    with tf.Graph().as_default():
        grad, var, _ = _clip_case()
        with caplog.at_level(logging.WARNING):
            result = module.multiply_gradients([(grad, var)], {"var:0": 3.7})
        assert result[0][0] is grad
    assert "['var:0'] match no variable being trained" in caplog.text


@BOTH
def test_indexed_slices_grad_is_multiplied(module):
    with tf.Graph().as_default():
        _, var, _ = _clip_case()
        grad = tf.IndexedSlices(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1, 2]), tf.constant([3]))
        [(result, _)] = module.multiply_gradients([(grad, var)], {var: 3.7})
        assert result.indices is grad.indices and result.dense_shape is grad.dense_shape
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(result.values), [3.7, 7.4, 11.1], rtol=1e-6)


@BOTH
def test_tensor_multiplier_of_gradient(module):
    with tf.Graph().as_default():
        grad, var, _ = _clip_case()
        flag = tf.Variable(True)
        multiplier = tf.where(flag, 3.7, 1.0)
        [(result, _)] = module.multiply_gradients([(grad, var)], {var: multiplier})
        # A float64 tensor multiplier is cast (contrib failed on the dtype mismatch).
        [(result64, _)] = module.multiply_gradients([(grad, var)], {var: tf.constant(2.0, tf.float64)})
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            np.testing.assert_allclose(sess.run(result), [3.7, 7.4, 11.1], rtol=1e-6)
            sess.run(flag.assign(False))
            np.testing.assert_allclose(sess.run(result), [1.0, 2.0, 3.0])
            np.testing.assert_allclose(sess.run(result64), [2.0, 4.0, 6.0])


# --- add_gradients_summaries ----------------------------------------------------------------


@pytest.mark.parametrize("module, sep", [(training, "_"), (learning, "/")], ids=["training", "slim"])
def test_add_gradients_summaries_tags(module, sep, caplog):
    with tf.Graph().as_default():
        emb = v1.get_variable("emb", [4, 2], initializer=v1.ones_initializer())
        w = v1.get_variable("w", [2], initializer=v1.ones_initializer())
        v1.get_variable("unused", [], initializer=v1.ones_initializer())
        loss = tf.reduce_sum(tf.gather(emb, [1])) * 3.0 + tf.reduce_sum(w * 2.0)
        pairs = v1.train.GradientDescentOptimizer(1.0).compute_gradients(loss)
        assert isinstance(pairs[0][0], tf.IndexedSlices) and pairs[2][0] is None
        with caplog.at_level(logging.INFO):
            summaries = module.add_gradients_summaries(pairs)
        assert len(summaries) == 4
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            proto = v1.Summary.FromString(sess.run(v1.summary.merge(summaries)))
    values = {v.tag: v for v in proto.value}
    assert sorted(values) == sorted(
        ["emb%sgradient" % sep, "emb%sgradient_norm" % sep, "w%sgradient" % sep, "w%sgradient_norm" % sep]
    )
    assert values["emb%sgradient_norm" % sep].simple_value == pytest.approx(np.sqrt(18.0))
    assert values["w%sgradient_norm" % sep].simple_value == pytest.approx(np.sqrt(8.0))
    assert values["emb%sgradient" % sep].histo.num == 2  # the IndexedSlices values only
    assert "Var unused has no gradient" in caplog.text


# --- create_train_op ----------------------------------------------------------------------


def _inputs(one_hot=False):
    """16x4 inputs with 0/1 labels; one_hot=True gives the separable one-hot set of TrainTest."""
    np.random.seed(0)
    inputs = np.zeros((16, 4), np.float32) if one_hot else np.random.rand(16, 4).astype(np.float32)
    labels = np.random.randint(0, 2, size=(16, 1)).astype(np.float32)
    for i in range(16):
        inputs[i, int(2 * labels[i, 0] + np.random.randint(0, 2))] = 1.0
    return inputs, labels


def _logistic_classifier(inputs):
    weights = v1.get_variable("weights", [4, 1], initializer=v1.glorot_uniform_initializer(seed=0))
    biases = v1.get_variable("biases", [1], initializer=v1.zeros_initializer())
    return tf.sigmoid(tf.matmul(inputs, weights) + biases)


def _batchnorm_classifier(inputs, decay=0.1):
    """Batch normalisation with moving statistics updated through UPDATE_OPS, then a logistic layer."""
    mean, variance = tf.nn.moments(inputs, [0])
    moving_mean = v1.get_variable("moving_mean", [4], initializer=v1.zeros_initializer(), trainable=False)
    moving_var = v1.get_variable("moving_variance", [4], initializer=v1.ones_initializer(), trainable=False)
    for moving, value in ((moving_mean, mean), (moving_var, variance)):
        v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, v1.assign(moving, moving * decay + value * (1 - decay)))
    return _logistic_classifier((inputs - mean) * tf.math.rsqrt(variance + 1e-3)), moving_mean, moving_var


def _bn_train_op(module, **kwargs):
    inputs, labels = _inputs()
    predictions, moving_mean, moving_var = _batchnorm_classifier(tf.constant(inputs))
    loss = v1.losses.log_loss(tf.constant(labels), predictions)
    train_op = module.create_train_op(loss, v1.train.GradientDescentOptimizer(1.0), **kwargs)
    return train_op, moving_mean, moving_var, inputs


@BOTH
def test_train_op_in_collection(module):
    with tf.Graph().as_default():
        train_op, _, _, _ = _bn_train_op(module)
        assert any(op is train_op for op in v1.get_collection(v1.GraphKeys.TRAIN_OP))
        assert train_op.op.name == "train_op/control_dependency"


@BOTH
@pytest.mark.parametrize("update_ops", [None, []], ids=["collection", "empty"])
def test_use_update_ops(module, update_ops):
    with tf.Graph().as_default():
        train_op, moving_mean, moving_var, inputs = _bn_train_op(module, update_ops=update_ops)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert list(sess.run(moving_mean)) == [0.0] * 4 and list(sess.run(moving_var)) == [1.0] * 4
            for _ in range(10):
                sess.run(train_op)
            mean, variance = sess.run([moving_mean, moving_var])
    if update_ops is None:
        np.testing.assert_allclose(mean, np.mean(inputs, axis=0), rtol=1e-5)
        np.testing.assert_allclose(variance, np.var(inputs, axis=0), rtol=1e-4)
    else:
        np.testing.assert_array_equal(mean, np.zeros(4))
        np.testing.assert_array_equal(variance, np.ones(4))


@BOTH
@pytest.mark.parametrize(
    "global_step, expected",
    [(0, 10), (np.int64(0), 10), ("default", 10), (None, 0)],
    ids=["zero", "np_zero", "default", "none"],
)
def test_global_step(module, global_step, expected):
    with tf.Graph().as_default():
        kwargs = {} if global_step == "default" else {"global_step": global_step}
        train_op, _, _, _ = _bn_train_op(module, **kwargs)
        step = v1.train.get_or_create_global_step()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(10):
                sess.run(train_op)
            assert sess.run(step) == expected


def test_global_step_made_with_get_variable_is_found():
    with tf.Graph().as_default():
        step = v1.get_variable("global_step", [], tf.int64, v1.zeros_initializer(), trainable=False)
        train_op, _, _, _ = _bn_train_op(training)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train_op)
            assert sess.run(step) == 1


def test_create_train_op_errors():
    with tf.Graph().as_default():
        x = v1.get_variable("x", [], initializer=v1.ones_initializer())
        frozen = v1.get_variable("frozen", [], initializer=v1.ones_initializer(), trainable=False)
        loss = x * frozen
        opt = v1.train.GradientDescentOptimizer(0.1)
        with pytest.raises(ValueError, match="`variables_to_train` must hold trainable variables; frozen:0"):
            training.create_train_op(loss, opt, variables_to_train=[frozen])
        with pytest.raises(ValueError, match="`variables_to_train` is empty"):
            training.create_train_op(loss, opt, variables_to_train=[])
        with pytest.raises(TypeError, match="`optimizer` must be a tf.compat.v1.train.Optimizer"):
            training.create_train_op(loss, "sgd")
        with pytest.raises(TypeError, match="cannot be incremented"):
            training.create_train_op(loss, opt, global_step=tf.constant(3, tf.int64))
        with pytest.raises(TypeError, match="must be a Variable or Tensor: 5"):
            training.create_train_op(loss, opt, global_step=5)
        with pytest.raises(TypeError, match="`transform_grads_fn` must be a capper: a callable"):
            training.create_train_op(loss, opt, transform_grads_fn=3)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="There are no trainable variables"):
            training.create_train_op(tf.constant(1.0), v1.train.GradientDescentOptimizer(0.1))


def test_check_numerics_and_update_ops_warning(caplog):
    with tf.Graph().as_default():
        x = v1.get_variable("x", [], initializer=v1.ones_initializer())
        scale = v1.placeholder(tf.float32, [])
        counter = v1.get_variable("counter", [], initializer=v1.zeros_initializer(), trainable=False)
        v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, counter.assign_add(1.0).op)
        with caplog.at_level(logging.WARNING):
            train_op = training.create_train_op(x * scale, v1.train.GradientDescentOptimizer(0.1), update_ops=[])
        assert "does not contain all the update_ops" in caplog.text
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run(train_op, {scale: 2.0}) == 2.0
            with pytest.raises(tf.errors.InvalidArgumentError, match="LossTensor is inf or nan"):
                sess.run(train_op, {scale: np.inf})
            assert sess.run(counter) == 0.0


def test_create_train_op_with_none_and_indexed_slices_gradients():
    with tf.Graph().as_default():
        emb = v1.get_variable("emb", [4, 2], initializer=v1.ones_initializer())
        w = v1.get_variable("w", [2], initializer=v1.constant_initializer([3.0, 4.0]))
        unused = v1.get_variable("unused", [], initializer=v1.ones_initializer())
        loss = tf.reduce_sum(tf.gather(emb, [0, 2]) * 2.0) + tf.reduce_sum(w * w) / 2.0
        seen = []

        def transform(pairs):
            pairs = training.clip_gradient_norms(training.multiply_gradients(pairs, {"w": 2.0}), 1.0)
            seen.extend(pairs)
            return pairs

        train_op = training.create_train_op(
            loss,
            v1.train.GradientDescentOptimizer(1.0),
            transform_grads_fn=transform,
            summarize_gradients=True,
        )
        assert isinstance(seen[0][0], tf.IndexedSlices) and seen[2][0] is None
        tags = sorted(s.name for s in v1.get_collection(v1.GraphKeys.SUMMARIES))
        assert tags == [
            "summarize_grads/emb_gradient:0",
            "summarize_grads/emb_gradient_norm:0",
            "summarize_grads/w_gradient:0",
            "summarize_grads/w_gradient_norm:0",
        ]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train_op)
            emb_value, w_value, unused_value = sess.run([emb, w, unused])
    expected_emb = np.ones([4, 2])
    expected_emb[[0, 2]] -= 0.5  # values [2,2,2,2] have norm 4 -> scaled to 1: each 0.5
    np.testing.assert_allclose(emb_value, expected_emb, rtol=1e-6)
    np.testing.assert_allclose(w_value, [3.0 - 0.6, 4.0 - 0.8], rtol=1e-6)  # [6, 8] -> norm 1
    assert unused_value == 1.0


def _logistic_loss_after(steps, lr, transform_grads_fn=None, module=training, **kwargs):
    inputs, labels = _inputs(one_hot=True)
    with tf.Graph().as_default():
        v1.set_random_seed(0)
        predictions = _logistic_classifier(tf.constant(inputs))
        loss = v1.losses.log_loss(tf.constant(labels), predictions)
        if transform_grads_fn is not None:
            kwargs["transform_grads_fn"] = transform_grads_fn
        train_op = module.create_train_op(loss, v1.train.GradientDescentOptimizer(lr), **kwargs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(steps):
                value = sess.run(train_op)
    return value


def test_can_achieve_zero_loss():
    assert _logistic_loss_after(300, 1.0) < 0.015


def _multiply_all(multiplier):
    def transform(pairs):
        with tf.name_scope("multiply_grads"):
            return training.multiply_gradients(pairs, {v: multiplier for v in v1.trainable_variables()})

    return transform


def test_train_with_altered_gradients():
    loss_plain = _logistic_loss_after(10, 0.001, _multiply_all(1.0))
    loss_boosted = _logistic_loss_after(10, 0.001, _multiply_all(1000.0))
    slim_boosted = _logistic_loss_after(
        10, 0.001, module=learning, gradient_multipliers={"weights": 1000.0, "biases": 1000.0}
    )
    assert loss_plain > 0.5
    assert loss_boosted < 0.5
    assert slim_boosted == pytest.approx(loss_boosted, rel=1e-5)


def test_pair_helpers_work_eagerly():
    # Eager variables are unhashable and have no .op: keys are var.ref() or the op name.
    w = tf.Variable([1.0, 2.0], name="eager_w")
    u = tf.Variable(1.0, name="eager_u")
    pairs = [(tf.constant([3.0, 4.0]), w), (None, u)]
    np.testing.assert_allclose(training.clip_gradient_norms(pairs, 1.0)[0][0].numpy(), [0.6, 0.8], rtol=1e-6)
    for keys in ({w.ref(): 2.0}, {"eager_w": 2.0}):
        result = learning.multiply_gradients(pairs, keys)
        np.testing.assert_allclose(result[0][0].numpy(), [6.0, 8.0])
        assert result[1] == (None, u)
