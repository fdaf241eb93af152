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


def test_the_clipping_functions_have_no_checked_twins():
    from tf1clip.core import clipping

    assert not [name for name in dir(clipping) if name.startswith("checked_")]


def _checked_pair():
    w = v1.get_variable("w", initializer=np.array([3.0, 4.0], np.float32))
    return w, _validate.checked_pairs([(tf.constant([6.0, 8.0]), w)])


_NORM = _validate.check_clip_norm(1.0)
_LOW = _validate.checked_bound(-1.0, "clip_value_min")
_HIGH = _validate.checked_bound(1.0, "clip_value_max")


@pytest.mark.parametrize(
    "call",
    [
        lambda pairs: tf1clip.clip_by_norm(pairs, _NORM),
        lambda pairs: tf1clip.clip_by_average_norm(pairs, _NORM),
        lambda pairs: tf1clip.clip_by_global_norm(pairs, _NORM)[0],
        lambda pairs: tf1clip.clip_by_value(pairs, _LOW, _HIGH),
        lambda pairs: tf1clip.clip_by_norm(pairs, _validate.Checked(float("inf"), float("inf"))),
        tf1clip.sum_duplicate_indices,
    ],
    ids=["norm", "average", "global", "value", "inf", "sum_duplicates"],
)
def test_checked_arguments_are_not_validated_again_and_a_list_comes_back(monkeypatch, call):
    with tf.Graph().as_default():
        w, pairs = _checked_pair()
        monkeypatch.setattr(_validate, "check_pairs", lambda *a, **k: pytest.fail("validated again"))
        monkeypatch.setattr(_validate, "static_scalar", lambda *a, **k: pytest.fail("validated again"))
        result = call(pairs)
    assert type(result) is list and [v for _, v in result] == [w]


def test_the_public_functions_validate_what_is_not_checked():
    with tf.Graph().as_default():
        w, pairs = _checked_pair()
        with pytest.raises(TypeError, match=r"^`grads_and_vars\[1\]` must be a \(gradient, variable\) pair"):
            tf1clip.clip_by_norm(list(pairs) + [w], 1.0)
        with pytest.raises(ValueError, match=r"^`clip_norm` must be > 0"):
            tf1clip.clip_by_norm(pairs, 0.0)


def test_checked_pairs_are_immutable_and_a_user_capper_gets_a_list():
    seen = []

    def capper(pairs):
        seen.append(type(pairs))
        pairs[0] = ("not a gradient", pairs[0][1])
        return pairs

    with tf.Graph().as_default():
        w, pairs = _checked_pair()
        with pytest.raises(TypeError):
            pairs[0] = pairs[0]  # type: ignore[index]
        opt = tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(0.1), capper)
        with pytest.raises(TypeError, match="the result of"):
            opt.apply_gradients(list(pairs))
    assert seen == [list]
