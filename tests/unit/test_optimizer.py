"""The optimizer decorators: numerics, forwarding, checkpoints, errors."""

import os

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from helpers import np_global_norm

v1 = tf.compat.v1

A = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [2.0, 1.0, -1.0], [1.0, 0.0, 1.0]])
Y = np.array([10.0, -20.0, 30.0, 5.0])
W0 = np.array([0.1, -0.2, 0.3])
B0 = 0.5


def _model():
    w = v1.get_variable("w", initializer=tf.constant(W0, tf.float32))
    b = v1.get_variable("b", initializer=tf.constant(B0, tf.float32))
    unused = v1.get_variable("unused", initializer=tf.constant(1.0))
    pred = tf.linalg.matvec(tf.constant(A, tf.float32), w) + b
    loss = 0.5 * tf.reduce_sum(tf.square(pred - tf.constant(Y, tf.float32)))
    return w, b, unused, loss


def _np_grads(w, b):
    r = A @ w + b - Y
    return [A.T @ r, np.sum(r)]


def _np_adam(steps, clip, lr=0.1, b1=0.9, b2=0.999, eps=1e-8):
    w, b = W0.copy(), B0
    m = [np.zeros(3), 0.0]
    v = [np.zeros(3), 0.0]
    for t in range(1, steps + 1):
        grads = clip(_np_grads(w, b))
        lr_t = lr * np.sqrt(1 - b2**t) / (1 - b1**t)
        params = [w, b]
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            params[i] = params[i] - lr_t * m[i] / (np.sqrt(v[i]) + eps)
        w, b = params
    return w, b


def _np_global_clip(limit):
    def clip(grads):
        n = np_global_norm(grads)
        return [g * min(limit / n, 1.0) for g in grads]

    return clip


def _np_each_clip(limit):
    return lambda grads: [g * min(limit / np.linalg.norm(np.atleast_1d(g)), 1.0) for g in grads]


@pytest.mark.parametrize(
    "wrap,np_clip",
    [
        (lambda opt: tf1clip.clip_gradients_by_norm(opt, 5.0), _np_global_clip(5.0)),
        (lambda opt: tf1clip.transform_gradients(opt, tf1clip.clip_by_norm_fn(5.0)), _np_each_clip(5.0)),
        (
            lambda opt: tf1clip.transform_gradients(opt, tf1clip.clip_by_value_fn(-2.0, 2.0)),
            lambda grads: [np.clip(g, -2.0, 2.0) for g in grads],
        ),
    ],
    ids=["global", "per_tensor", "value"],
)
def test_wrapped_adam_matches_numpy_over_several_steps(sess, wrap, np_clip):
    w, b, _, loss = _model()
    step = v1.train.get_or_create_global_step()
    train = wrap(v1.train.AdamOptimizer(0.1)).minimize(loss, global_step=step)
    sess.run(v1.global_variables_initializer())
    for _ in range(6):
        sess.run(train)
    ew, eb = _np_adam(6, np_clip)
    gw, gb, gs = sess.run([w, b, step])
    np.testing.assert_allclose(gw, ew, rtol=1e-4, atol=1e-5)
    assert gb == pytest.approx(eb, rel=1e-4, abs=1e-5)
    assert gs == 6
    # the gradients really were clipped: unclipped Adam lands elsewhere
    uw, _ = _np_adam(6, lambda g: g)
    assert np.max(np.abs(uw - ew)) > 1e-3


def test_contrib_estimator_upstream_case(graph):
    """extenders_test.test_applies_norm and test_name."""
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(1.0), clip_norm=3.0)
    assert optimizer.get_name() == "ClipByNormGradientDescent"
    w = tf.Variable(1.0, name="weight")
    loss = -5.0 * w
    ((grad, var),) = optimizer.compute_gradients(loss)
    train = optimizer.minimize(loss)
    with v1.Session() as s:
        s.run(v1.global_variables_initializer())
        assert s.run(grad) == -5.0
        s.run(train)
        assert s.run(w) == pytest.approx(4.0)


def test_wrapper_forwards_to_inner_optimizer(sess):
    w, b, unused, loss = _model()
    inner = v1.train.AdamOptimizer(0.1)
    opt = tf1clip.clip_gradients_by_norm(inner, 1.0)
    assert opt.optimizer is inner
    pairs = opt.compute_gradients(loss, var_list=[w, b, unused])
    assert [v for _, v in pairs] == [w, b, unused] and pairs[2][0] is None
    opt.apply_gradients(pairs)
    assert opt.get_slot_names() == inner.get_slot_names() == ["m", "v"]
    assert opt.get_slot(w, "m") is inner.get_slot(w, "m")
    assert opt.get_slot(unused, "m") is None
    names = sorted(v.op.name for v in opt.variables())
    assert names == sorted(v.op.name for v in inner.variables())
    assert names == ["b/Adam", "b/Adam_1", "beta1_power", "beta2_power", "w/Adam", "w/Adam_1"]


def test_minimize_arguments_pass_through(sess):
    w, b, _, loss = _model()
    step = v1.train.get_or_create_global_step()
    opt = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(0.01), 1e9)
    train = opt.minimize(
        loss,
        global_step=step,
        var_list=[w],
        gate_gradients=v1.train.Optimizer.GATE_GRAPH,
        aggregation_method=tf.AggregationMethod.ADD_N,
        colocate_gradients_with_ops=True,
        name="my_train",
        grad_loss=tf.constant(2.0),
    )
    assert train.name == "my_train"
    sess.run(v1.global_variables_initializer())
    sess.run(train)
    expected = W0 - 0.01 * 2.0 * _np_grads(W0, B0)[0]
    np.testing.assert_allclose(sess.run(w), expected, rtol=1e-5)
    assert sess.run(b) == pytest.approx(B0)
    assert sess.run(step) == 1


def test_extra_apply_gradients_keywords_reach_the_inner_optimizer(graph):
    seen = {}

    class Recording(v1.train.GradientDescentOptimizer):
        def apply_gradients(self, grads_and_vars, global_step=None, name=None, **kwargs):
            seen.update(kwargs, name=name)
            return super().apply_gradients(grads_and_vars, global_step=global_step, name=name, **kwargs)

    w, _, _, loss = _model()
    opt = tf1clip.clip_gradients_by_norm(Recording(0.1), 1.0)
    opt.apply_gradients(opt.compute_gradients(loss, var_list=[w]), name="apply", skip_gradients_aggregation=True)
    assert seen == {"skip_gradients_aggregation": True, "name": "apply"}


def test_capper_runs_once_per_apply_and_sees_all_pairs(graph):
    calls = []

    def capper(pairs):
        calls.append([v.op.name for _, v in pairs])
        return pairs

    w, b, unused, loss = _model()
    opt = tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(0.1), capper)
    assert opt.get_name() == "GradientDescent"
    opt.minimize(loss, var_list=[w, b, unused])
    assert calls == [["w", "b", "unused"]]


def test_nested_wrappers_compose(sess):
    w, b, _, loss = _model()
    inner = tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(1.0), tf1clip.clip_by_value_fn(-3.0, 3.0))
    outer = tf1clip.clip_gradients_by_norm(inner, 1.0)
    assert outer.get_name() == "ClipByNormGradientDescent"
    train = outer.minimize(loss, var_list=[w, b])
    sess.run(v1.global_variables_initializer())
    sess.run(train)
    grads = _np_global_clip(1.0)(_np_grads(W0, B0))
    grads = [np.clip(g, -3.0, 3.0) for g in grads]
    np.testing.assert_allclose(sess.run(w), W0 - grads[0], rtol=1e-5)


def test_capper_returning_wrong_pairs_fails_at_build_time(graph):
    w, b, _, loss = _model()
    opt = tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(0.1), lambda pairs: pairs[:1])
    with pytest.raises(
        ValueError,
        match=r"must return the same variables in the same order; it received \['w:0', 'b:0'\] and returned \['w:0'\]",
    ):
        opt.minimize(loss, var_list=[w, b])


# --- checkpoints ----------------------------------------------------------------------------------


def _build_adam_model(wrapped):
    """Builds the model and an Adam train op (wrapped or not) in the default graph."""
    w, b, _, loss = _model()
    opt = v1.train.AdamOptimizer(0.1)
    if wrapped:
        opt = tf1clip.clip_gradients_by_norm(opt, 1.0)
    return w, b, opt, opt.minimize(loss, var_list=[w, b])


def _train_and_save(save, wrapped, steps=3):
    """Trains a few steps in a new graph, calls ``save(session)``; returns all variable values."""
    with tf.Graph().as_default():
        w, b, opt, train = _build_adam_model(wrapped)
        save_fn = save(w, b, opt)
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            for _ in range(steps):
                s.run(train)
            save_fn(s)
            return {v.op.name: s.run(v) for v in v1.global_variables()}


def _train_and_save_saver(path, wrapped):
    def save(w, b, opt):
        saver = v1.train.Saver()
        return lambda s: saver.save(s, path)

    return _train_and_save(save, wrapped)


@pytest.mark.parametrize("save_wrapped,restore_wrapped", [(True, False), (False, True), (True, True)])
def test_saver_checkpoints_move_between_wrapped_and_unwrapped(tmp_path, save_wrapped, restore_wrapped):
    path = str(tmp_path / "model.ckpt")
    saved = _train_and_save_saver(path, save_wrapped)
    assert {"w/Adam", "w/Adam_1", "beta1_power", "beta2_power"} <= set(saved)
    with tf.Graph().as_default():
        w, b, opt, _ = _build_adam_model(restore_wrapped)
        assert sorted(v.op.name for v in v1.global_variables()) == sorted(saved)
        with v1.Session() as s:
            v1.train.Saver().restore(s, path)
            for var in v1.global_variables():
                np.testing.assert_array_equal(s.run(var), saved[var.op.name])


def _object_checkpoint(path, wrapped):
    def save(w, b, opt):
        ckpt = v1.train.Checkpoint(optimizer=opt, w=w, b=b)
        return lambda s: ckpt.save(path, session=s)

    values = _train_and_save(save, wrapped)
    return tf.train.latest_checkpoint(os.path.dirname(path)), values


def test_object_checkpoint_keys_are_those_of_the_unwrapped_optimizer(tmp_path):
    plain, _ = _object_checkpoint(str(tmp_path / "plain" / "ckpt"), wrapped=False)
    wrapped, _ = _object_checkpoint(str(tmp_path / "wrapped" / "ckpt"), wrapped=True)
    keys_plain = sorted(k for k, _ in tf.train.list_variables(plain))
    keys_wrapped = sorted(k for k, _ in tf.train.list_variables(wrapped))
    assert keys_wrapped == keys_plain
    assert "optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE" in keys_plain
    assert "w/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE" in keys_plain


@pytest.mark.parametrize("save_wrapped,restore_wrapped", [(True, False), (False, True)])
def test_object_checkpoint_restores_in_both_directions(tmp_path, save_wrapped, restore_wrapped):
    path, saved = _object_checkpoint(str(tmp_path / "ckpt"), wrapped=save_wrapped)
    with tf.Graph().as_default():
        w, b, opt, _ = _build_adam_model(restore_wrapped)
        ckpt = v1.train.Checkpoint(optimizer=opt, w=w, b=b)
        with v1.Session() as s:
            status = ckpt.restore(path)
            status.assert_existing_objects_matched()
            status.run_restore_ops(s)
            restored = [var for var in v1.global_variables() if var.op.name not in ("unused", "save_counter")]
            assert len(restored) == 8
            for var in restored:
                np.testing.assert_array_equal(s.run(var), saved[var.op.name], err_msg=var.op.name)


def test_object_checkpoint_deferred_restore_in_eager_mode(tmp_path):
    """Restore before the slots exist: they are restored when the first step creates them."""
    assert tf.executing_eagerly()
    x = tf.constant(A, tf.float32)

    def make():
        w = tf.Variable(W0.astype(np.float32))
        opt = tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.1), 1.0)
        loss = lambda: 0.5 * tf.reduce_sum(tf.square(tf.linalg.matvec(x, w) - tf.constant(Y, tf.float32)))
        return w, opt, loss

    w, opt, loss = make()
    for _ in range(3):
        opt.minimize(loss, var_list=[w])
    path = tf.train.Checkpoint(optimizer=opt, w=w).save(str(tmp_path / "eager"))
    opt.minimize(loss, var_list=[w])
    expected = w.numpy()

    w2, opt2, loss2 = make()
    tf.train.Checkpoint(optimizer=opt2, w=w2).restore(path)
    opt2.minimize(loss2, var_list=[w2])
    np.testing.assert_allclose(w2.numpy(), expected, rtol=1e-6)
    assert opt2.optimizer._get_non_slot_variable("beta1_power").numpy() == pytest.approx(0.9**5)


# --- errors ---------------------------------------------------------------------------------------


def test_decorators_reject_non_optimizers(graph):
    with pytest.raises(
        TypeError, match=r"`optimizer` must be a tf.compat.v1.train.Optimizer instance .*received str 'adam'\.$"
    ):
        tf1clip.clip_gradients_by_norm("adam", 1.0)
    with pytest.raises(
        TypeError,
        match=r"received type .*Pass an instance, e\.g\. AdamOptimizer\(learning_rate=0\.001\), not the class",
    ):
        tf1clip.transform_gradients(v1.train.AdamOptimizer, tf1clip.clip_by_norm_fn(1.0))
    import keras

    with pytest.raises(TypeError, match=r"This is a Keras optimizer; give it clipnorm= / global_clipnorm="):
        tf1clip.clip_gradients_by_norm(keras.optimizers.Adam(), 1.0)


def test_decorators_reject_bad_arguments(graph):
    opt = v1.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match=r"`clip_norm` must be > 0 .*received -1\.0"):
        tf1clip.clip_gradients_by_norm(opt, -1.0)
    with pytest.raises(TypeError, match=r"`transform_grads_fn` must be a capper: a callable .*received float 3\.0"):
        tf1clip.transform_gradients(opt, 3.0)
    with pytest.raises(TypeError, match=r"`name` must be a non-empty string or None; received int 5"):
        tf1clip.transform_gradients(opt, tf1clip.chain(), name=5)
