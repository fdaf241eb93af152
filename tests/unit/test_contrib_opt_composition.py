"""tf1clip.contrib.opt's wrappers composed with tf1clip's clipping wrappers and optimize_loss: a matrix.

Rows: MultitaskOptimizerWrapper, MovingAverageOptimizer, VariableClippingOptimizer,
DropStaleGradientOptimizer around SGD. Columns: inside
``clip_gradients_by_norm`` / ``transform_gradients`` with each ``on_nonfinite``
policy, wrapping ``clip_gradients_by_norm`` (the clip inside), and inside
``tf1clip.contrib.layers.optimize_loss(clip_gradients=...)``. Each case runs a
finite step (checked against NumPy) and then an infinite gradient (checked
against the policy: NaN variables, nothing changed, or an error naming the
variable).
"""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import layers as clayers
from tf1clip.contrib import opt as copt

v1 = tf.compat.v1
LR, CLIP, MAX_NORM, DECAY = 0.1, 2.5, 1.5, 0.5
W0 = np.array([1.0, 2.0])
GRAD = np.array([3.0, 4.0])  # norm 5: clipped to CLIP

WRAPPERS = {
    "multitask": lambda opt, w: copt.MultitaskOptimizerWrapper(opt),
    "moving_average": lambda opt, w: copt.MovingAverageOptimizer(opt, average_decay=DECAY),
    "variable_clipping": lambda opt, w: copt.VariableClippingOptimizer(opt, {w: [0]}, MAX_NORM),
    "drop_stale": lambda opt, w: copt.DropStaleGradientOptimizer(opt, 0),
}


def _capper(pairs):
    return tf1clip.clip_by_global_norm(pairs, CLIP)[0]


COMPOSITIONS = {
    "clip_outside_nan": lambda wrapped: tf1clip.clip_gradients_by_norm(wrapped, CLIP),
    "clip_outside_skip": lambda wrapped: tf1clip.clip_gradients_by_norm(wrapped, CLIP, on_nonfinite="skip"),
    "clip_outside_raise": lambda wrapped: tf1clip.clip_gradients_by_norm(wrapped, CLIP, on_nonfinite="raise"),
    "transform_nan": lambda wrapped: tf1clip.transform_gradients(wrapped, _capper),
    "transform_skip": lambda wrapped: tf1clip.transform_gradients(wrapped, _capper, on_nonfinite="skip"),
    "transform_raise": lambda wrapped: tf1clip.transform_gradients(wrapped, _capper, on_nonfinite="raise"),
    "clip_inside": None,
    "optimize_loss": None,
}


def _expected_after_finite_step(kind):
    w = W0 - LR * GRAD * CLIP / 5.0
    if kind == "variable_clipping":
        w = w * min(1.0, MAX_NORM / np.linalg.norm(w))
    return w


def _build(kind, composition):
    global_step = v1.train.get_or_create_global_step()
    w = v1.get_variable("w", initializer=tf.constant(W0, tf.float32))
    scale = v1.placeholder(tf.float32, [], name="scale")
    loss = scale * tf.reduce_sum(w * tf.constant(GRAD, tf.float32))
    sgd = v1.train.GradientDescentOptimizer(LR)
    if composition == "clip_inside":
        opt = WRAPPERS[kind](tf1clip.clip_gradients_by_norm(sgd, CLIP), w)
        train = opt.minimize(loss, global_step=global_step)
    elif composition == "optimize_loss":
        opt = WRAPPERS[kind](sgd, w)
        train = clayers.optimize_loss(loss, global_step, learning_rate=None, optimizer=opt, clip_gradients=CLIP)
    else:
        opt = COMPOSITIONS[composition](WRAPPERS[kind](sgd, w))
        train = opt.minimize(loss, global_step=global_step)
    return w, scale, train, global_step


@pytest.mark.parametrize("composition", sorted(COMPOSITIONS))
@pytest.mark.parametrize("kind", sorted(WRAPPERS))
def test_matrix(graph, kind, composition):
    w, scale, train, global_step = _build(kind, composition)
    averages = [v for v in v1.global_variables() if v.op.name == "w/ExponentialMovingAverage"]
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(train, {scale: 1.0})
        expected = _expected_after_finite_step(kind)
        np.testing.assert_allclose(sess.run(w), expected, rtol=1e-5)
        assert sess.run(global_step) == 1
        if averages:
            np.testing.assert_allclose(sess.run(averages[0]), DECAY * W0 + (1 - DECAY) * expected, rtol=1e-5)
        before = sess.run(v1.global_variables())

        policy = composition.rsplit("_", 1)[-1]
        if composition in ("clip_inside", "optimize_loss"):
            policy = "nan"  # TF's rule: an infinite global norm makes every clipped gradient NaN
        if policy == "raise":
            with pytest.raises(tf.errors.InvalidArgumentError, match="w"):
                sess.run(train, {scale: np.inf})
        else:
            sess.run(train, {scale: np.inf})
        after = sess.run(v1.global_variables())
        value = sess.run(w)
    if policy == "nan":
        assert np.isnan(value).all()
    else:
        for b, a in zip(before, after):
            if np.ndim(b) == 0 and np.ndim(a) == 0 and isinstance(a, (int, np.integer)):
                continue  # the skip counter and global_step are checked below
            np.testing.assert_array_equal(a, b)
