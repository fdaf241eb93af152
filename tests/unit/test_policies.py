"""The on_nonfinite policies as a class: every v1 optimizer, dense and sparse, resource and ref.

A bad step (inf or NaN in any gradient) must change no variable at all: weights,
slots, non-slot variables (beta powers...), global_step. Each policy object is
also exercised on its own.
"""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.core import _policies

v1 = tf.compat.v1
NAN, INF = float("nan"), float("inf")

OPTIMIZERS = {
    "GradientDescent": lambda: v1.train.GradientDescentOptimizer(0.1),
    "Momentum": lambda: v1.train.MomentumOptimizer(0.1, 0.9),
    "Nesterov": lambda: v1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "Adam": lambda: v1.train.AdamOptimizer(0.1),
    "Adagrad": lambda: v1.train.AdagradOptimizer(0.1),
    "AdagradDA": None,  # needs the global step: built in _build
    "RMSProp": lambda: v1.train.RMSPropOptimizer(0.1, momentum=0.5),
    "RMSPropCentered": lambda: v1.train.RMSPropOptimizer(0.1, centered=True),
    "Adadelta": lambda: v1.train.AdadeltaOptimizer(1.0),
    "Ftrl": lambda: v1.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01),
    "ProximalAdagrad": lambda: v1.train.ProximalAdagradOptimizer(0.1, l1_regularization_strength=0.01),
    "ProximalGradientDescent": lambda: v1.train.ProximalGradientDescentOptimizer(0.1, l2_regularization_strength=0.01),
}


def _build(opt_name, policy, sparse, use_resource=True):
    w = v1.get_variable("w", initializer=np.array([1.0, -2.0, 0.5], np.float32), use_resource=use_resource)
    g = v1.placeholder(tf.float32, [2, 3] if sparse else [3], name="g")
    step = v1.train.get_or_create_global_step()
    if opt_name == "AdagradDA":
        inner = v1.train.AdagradDAOptimizer(0.1, step)
    else:
        inner = OPTIMIZERS[opt_name]()
    if sparse:
        e = v1.get_variable("e", initializer=np.ones((4, 3), np.float32), use_resource=use_resource)
        grad = tf.IndexedSlices(g, tf.constant([1, 3]), tf.constant([4, 3]))
        pairs = [(g[0] * 1.0, w), (grad, e)]
    else:
        pairs = [(g * 1.0, w)]
    opt = tf1clip.clip_gradients_by_norm(inner, 1.0, on_nonfinite=policy)
    return g, w, opt, opt.apply_gradients(pairs, global_step=step)


def _state(sess):
    variables = v1.global_variables() + v1.local_variables()
    return dict(zip([v.op.name for v in variables], sess.run(variables)))


GOOD = {False: [3.0, 4.0, 1.0], True: [[3.0, 4.0, 1.0], [0.5, -1.0, 2.0]]}
BAD = {False: [1.0, NAN, 1.0], True: [[3.0, 4.0, 1.0], [0.5, INF, 2.0]]}


def _bad_step_changes_nothing(opt_name, policy, sparse, use_resource=True):
    with tf.Graph().as_default():
        g, w, opt, train = _build(opt_name, policy, sparse, use_resource)
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            sess.run(train, {g: GOOD[sparse]})
            before = _state(sess)
            if policy == "raise":
                with pytest.raises(tf.errors.InvalidArgumentError, match="the gradient of (w|e):0 holds inf or NaN"):
                    sess.run(train, {g: BAD[sparse]})
            else:
                sess.run(train, {g: BAD[sparse]})
            after = _state(sess)
            assert after["global_step"] == 1 and before["global_step"] == 1
            counter = opt.get_name() + "_skipped_steps"
            if policy == "skip":
                assert after.pop(counter) == before.pop(counter) + 1
            assert sorted(before) == sorted(after)
            for name in before:
                np.testing.assert_array_equal(after[name], before[name], err_msg=name)
            # The next finite step is applied.
            sess.run(train, {g: GOOD[sparse]})
            assert sess.run(v1.train.get_global_step()) == 2
            assert not np.array_equal(sess.run(w), before["w"])


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("policy", ["skip", "raise"])
@pytest.mark.parametrize("opt_name", sorted(OPTIMIZERS))
def test_a_bad_step_changes_no_variable(opt_name, policy, sparse):
    _bad_step_changes_nothing(opt_name, policy, sparse)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("policy", ["skip", "raise"])
@pytest.mark.parametrize("opt_name", ["Adam", "Momentum", "Ftrl"])
def test_reference_variables(opt_name, policy, sparse):
    """A bad step changes nothing with reference variables (use_resource=False: float32_ref slots)."""
    _bad_step_changes_nothing(opt_name, policy, sparse, use_resource=False)


def test_raise_with_indexed_slices_under_adam_leaves_the_slots():
    """A "raise" step with an IndexedSlices gradient under Adam leaves the m/v rows untouched."""
    _bad_step_changes_nothing("Adam", "raise", sparse=True)


# --- each policy on its own -------------------------------------------------------------


def _pairs():
    w = v1.Variable([1.0, 2.0], name="w")
    g = v1.placeholder(tf.float32, [2])
    return g, w, [(g * 1.0, w)]


def _run_check(check, feed_value, g):
    with v1.Session() as sess:
        return sess.run(check.finite(), {g: feed_value})


@pytest.mark.parametrize(
    "value, finite",
    [([1.0, 2.0], True), ([NAN, 2.0], False), ([1.0, -INF], False), ([1e30, 1e30], True)],
    ids=["finite", "nan", "inf", "norm-overflows"],
)
def test_check_reads_the_norm_and_falls_back_to_the_exact_test(value, finite):
    with tf.Graph().as_default():
        g, _, pairs = _pairs()
        # The identity capper: a norm overflow of finite values is still finite.
        check = _policies.Check(pairs, pairs, capper=lambda p: p, with_output=True)
        assert bool(_run_check(check, value, g)) is finite


@pytest.mark.parametrize(
    "make, value, finite",
    [
        (lambda: tf1clip.clip_by_value_fn(-1.0, 1.0), [1e30, 1e30], True),
        (lambda: tf1clip.clip_by_value_fn(-1.0, 1.0), [NAN, 1.0], False),
        (lambda: tf1clip.clip_by_global_norm_fn(2.0), [1e30, 1e30], False),
        (lambda: tf1clip.clip_by_global_norm_fn(2.0), [1.0, 2.0], True),
        (lambda: tf1clip.clip_by_global_norm_fn(v1.placeholder_with_default(NAN, [])), [1.0, 2.0], False),
    ],
    ids=["value-overflow", "value-nan", "global-overflow", "global-finite", "global-nan-limit"],
)
def test_check_of_a_capper_known_to_keep_values_finite_is_exact(make, value, finite):
    # Such a capper's output is not normed on the fast path; the exact test still
    # covers it when the input norm is not finite (a global norm that overflowed
    # makes every output NaN, a value clip keeps them finite). A clip norm only
    # known at run time could be NaN, so such a capper is not trusted.
    with tf.Graph().as_default():
        g, _, pairs = _pairs()
        capper = make()
        check = _policies.Check(pairs, capper(pairs), capper=capper, with_output=True)
        assert bool(_run_check(check, value, g)) is finite


def test_only_cappers_with_static_limits_are_known_to_keep_values_finite():
    from tf1clip.core import cappers

    with tf.Graph().as_default():
        limit = v1.placeholder(tf.float32, [])
        assert cappers.keeps_finite(tf1clip.clip_by_global_norm_fn(1.0))
        assert cappers.keeps_finite(tf1clip.clip_by_value_fn(-1.0, float("inf")))
        assert not cappers.keeps_finite(tf1clip.clip_by_global_norm_fn(limit))
        assert not cappers.keeps_finite(tf1clip.clip_by_value_fn(-limit, 1.0))
        assert not cappers.keeps_finite(tf1clip.clip_by_norm_fn(1.0))  # float32 norms of float64 pairs can overflow
        assert not cappers.keeps_finite(tf1clip.chain(tf1clip.clip_by_global_norm_fn(1.0)))
        assert not cappers.keeps_finite(lambda gv: gv)


def test_the_three_policies_share_one_interface():
    assert set(_policies.POLICIES) == {"nan", "skip", "raise"}
    for name, cls in _policies.POLICIES.items():
        assert cls.name == name and callable(cls.check) and callable(cls.run)


@pytest.mark.parametrize("name", ["nan", "skip", "raise"])
def test_each_policy_alone(name):
    policy = _policies.POLICIES[name]()
    with tf.Graph().as_default():
        g, w, pairs = _pairs()
        check = policy.check(pairs, pairs, lambda p: p, hand_on=False)
        assert (check is None) == (name == "nan")
        applied = []

        def apply():
            applied.append(1)
            return w.assign_add(tf.ones([2]), read_value=False)

        counter = v1.Variable(0, dtype=tf.int64, name="c")
        finite = None if check is None else check.finite()
        train = policy.run(_policies.Step(apply, check, finite, [], lambda: counter))
        assert applied == [1]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train, {g: [1.0, 1.0]})
            assert sess.run(w).tolist() == [2.0, 3.0]
            if name == "raise":
                with pytest.raises(tf.errors.InvalidArgumentError, match="the gradient of w:0 holds"):
                    sess.run(train, {g: [NAN, 1.0]})
            else:
                sess.run(train, {g: [NAN, 1.0]})
            expected = [3.0, 4.0] if name == "nan" else [2.0, 3.0]
            assert sess.run(w).tolist() == expected
            assert sess.run(counter) == (1 if name == "skip" else 0)
