"""The wrapper's step validates its pairs once and names its capper ``capper``."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.core import _validate

v1 = tf.compat.v1


def _count_validations(monkeypatch, make_optimizer):
    calls = []
    check_pairs = _validate.check_pairs

    def counting(grads_and_vars, *args, **kwargs):
        calls.append(kwargs.get("arg", args[0] if args else "grads_and_vars"))
        return check_pairs(grads_and_vars, *args, **kwargs)

    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=np.array([3.0, 4.0], np.float32))
        b = v1.get_variable("b", initializer=np.float32(1.0))
        loss = tf.reduce_sum(w * w) + b * b
        opt = make_optimizer(v1.train.GradientDescentOptimizer(0.1))
        monkeypatch.setattr(_validate, "check_pairs", counting)
        train = opt.minimize(loss)
        monkeypatch.setattr(_validate, "check_pairs", check_pairs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(v1.local_variables_initializer())
            sess.run(train)
            values = sess.run([w, b])
    return calls, values


@pytest.mark.parametrize(
    "make",
    [
        lambda opt: tf1clip.clip_gradients_by_norm(opt, 1.0),
        lambda opt: tf1clip.clip_gradients_by_norm(opt, 1.0, on_nonfinite="skip", report_norms=True),
        lambda opt: tf1clip.clip_gradients_by_norm(opt, 1.0, on_nonfinite="raise"),
        lambda opt: tf1clip.transform_gradients(opt, tf1clip.clip_by_norm_fn(1.0)),
        lambda opt: tf1clip.transform_gradients(opt, tf1clip.clip_by_value_fn(-1.0, 1.0)),
        lambda opt: tf1clip.transform_gradients(opt, tf1clip.clip_by_average_norm_fn(1.0)),
    ],
    ids=["global-nan", "global-skip-norms", "global-raise", "norm", "value", "average"],
)
def test_a_factory_capper_step_validates_its_pairs_once(monkeypatch, make):
    calls, _ = _count_validations(monkeypatch, make)
    assert calls == ["grads_and_vars"]


def test_a_user_capper_output_is_validated_as_new_data(monkeypatch):
    calls, _ = _count_validations(monkeypatch, lambda opt: tf1clip.transform_gradients(opt, lambda pairs: pairs))
    assert len(calls) == 2
    assert calls[1].startswith("the result of")


def test_the_step_clips_as_before():
    # grads: w -> [6, 8], b -> 2; global norm sqrt(104); scaled to norm 1, lr 0.1.
    _, (w, b) = _count_validations(pytest.MonkeyPatch(), lambda opt: tf1clip.clip_gradients_by_norm(opt, 1.0))
    scale = 1.0 / np.sqrt(104.0)
    np.testing.assert_allclose(w, [3.0 - 0.6 * scale, 4.0 - 0.8 * scale], rtol=1e-6)
    np.testing.assert_allclose(b, 1.0 - 0.2 * scale, rtol=1e-6)


def test_the_capper_property_and_its_contrib_alias():
    capper = tf1clip.clip_by_norm_fn(1.0)
    opt = tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(0.1), capper)
    assert opt.capper is capper
    assert opt.transform_grads_fn is capper
