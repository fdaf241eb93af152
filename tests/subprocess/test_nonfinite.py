"""on_nonfinite policies, the skipped-steps counter and the reported norms (one device)."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

import tf1clip

NAN, INF = float("nan"), float("inf")
COUNTER = "ClipByNormAdam_skipped_steps"
_SESSIONS = []


@pytest.fixture(autouse=True)
def _close_sessions():
    yield
    while _SESSIONS:
        _SESSIONS.pop().close()


def adam(lr=0.1):
    return tf.compat.v1.train.AdamOptimizer(lr)


def adam_step(w, g, t=1, m=0.0, v=0.0, lr=0.1, b1=0.9, b2=0.999, eps=1e-8):
    """TF1 AdamOptimizer's update, in float64."""
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    lr_t = lr * np.sqrt(1 - b2**t) / (1 - b1**t)
    return w - lr_t * m / (np.sqrt(v) + eps), m, v


class Model(object):
    """w (dense gradient), e (IndexedSlices gradient on rows 0 and 2), u (no gradient)."""

    def __init__(self, opt):
        self.w = tf.compat.v1.Variable([1.0, 2.0], name="w")
        self.e = tf.compat.v1.Variable(np.ones((3, 2), np.float32), name="e")
        self.u = tf.compat.v1.Variable(5.0, name="u")
        self.gw = tf.compat.v1.placeholder(tf.float32, [2], name="gw")
        self.ge = tf.compat.v1.placeholder(tf.float32, [2, 2], name="ge")
        sparse = tf.IndexedSlices(self.ge, tf.constant([0, 2]), tf.constant([3, 2]))
        self.pairs = [(self.gw, self.w), (sparse, self.e), (None, self.u)]
        self.global_step = tf.compat.v1.train.get_or_create_global_step()
        self.opt = opt
        self.train = opt.apply_gradients(self.pairs, global_step=self.global_step)
        self.sess = tf.compat.v1.Session()
        _SESSIONS.append(self.sess)
        self.sess.run([tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer()])

    def step(self, gw, ge):
        return self.sess.run(self.train, {self.gw: gw, self.ge: ge})

    def state(self):
        variables = tf.compat.v1.global_variables() + tf.compat.v1.local_variables()
        return dict(zip([v.op.name for v in variables], self.sess.run(variables)))


def _assert_state_equal(a, b):
    assert sorted(a) == sorted(b)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


GOOD = ([3.0, 4.0], [[1.0, 2.0], [2.0, 2.0]])  # global norm sqrt(25 + 13) = 6.16 > 2
BAD = [
    ([NAN, 1.0], [[1.0, 1.0], [1.0, 1.0]]),
    ([1.0, 1.0], [[1.0, INF], [1.0, 1.0]]),
    ([-INF, 1.0], [[NAN, 1.0], [1.0, 1.0]]),
]


# --- construction ------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (
            {"on_nonfinite": "zero"},
            ValueError,
            r"`on_nonfinite` must be one of 'nan', 'skip', 'raise'; received 'zero'",
        ),
        ({"on_nonfinite": None}, TypeError, r"`on_nonfinite` must be one of .*received NoneType None"),
        (
            {"clip_stage": "before"},
            ValueError,
            r"`clip_stage` must be one of 'aggregated', 'per_replica'; received 'before'",
        ),
        ({"report_norms": "yes"}, ValueError, r"`report_norms` must be False, True or 'summaries'; received str 'yes'"),
        ({"report_norms": 1}, TypeError, r"`report_norms` must be False, True or 'summaries'; received int 1"),
    ],
)
def test_bad_options_fail_at_construction(kwargs, error, match):
    with pytest.raises(error, match=match):
        tf1clip.clip_gradients_by_norm(adam(), 1.0, **kwargs)
    with pytest.raises(error, match=match):
        tf1clip.transform_gradients(adam(), tf1clip.clip_by_value_fn(-1, 1), **kwargs)


def test_options_are_exposed():
    opt = tf1clip.transform_gradients(adam(), tf1clip.clip_by_norm_fn(1.0), name="T", on_nonfinite="skip")
    assert (opt.on_nonfinite, opt.clip_stage, opt.skipped_steps_name) == ("skip", "aggregated", "T_skipped_steps")


# --- "nan": TensorFlow's behaviour, nothing added -----------------------------


def test_nan_policy_adds_no_variable_and_lets_nan_through():
    with tf.Graph().as_default():
        plain = Model(adam())
        names_plain = sorted(plain.state())
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0))
        assert sorted(model.state()) == names_plain
        assert [v.op.name for v in model.opt.variables()] == [v.op.name for v in model.opt.optimizer.variables()]
        with pytest.raises(ValueError, match="only with on_nonfinite='skip'"):
            _ = model.opt.skipped_steps
        model.step([1.0, INF], [[1.0, 1.0], [1.0, 1.0]])
        state = model.state()
        assert np.isnan(state["w"]).all() and np.isnan(state["w/Adam"]).all()
        assert np.isnan(state["e"][[0, 2]]).all() and state["global_step"] == 1


# --- "skip" ------------------------------------------------------------------


@pytest.mark.parametrize("bad", BAD, ids=["nan-dense", "inf-sparse", "both"])
def test_skip_leaves_weights_slots_powers_and_step_untouched(bad):
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip"))
        before = model.state()
        assert before[COUNTER] == 0 and model.opt.skipped_steps.dtype == tf.int64
        model.step(*bad)
        after = model.state()
        assert after.pop(COUNTER) == 1
        before.pop(COUNTER)
        _assert_state_equal(after, before)

        model.step(*GOOD)
        state = model.state()
        assert state[COUNTER] == 1 and state["global_step"] == 1
        scale = 2.0 / np.sqrt(25.0 + 13.0)
        w, m, v = adam_step(np.array([1.0, 2.0]), scale * np.array(GOOD[0]))
        np.testing.assert_allclose(state["w"], w, rtol=1e-6)
        np.testing.assert_allclose(state["w/Adam"], m, rtol=1e-6)
        np.testing.assert_allclose(state["w/Adam_1"], v, rtol=1e-4)
        np.testing.assert_allclose(state["beta1_power"], 0.81, rtol=1e-6)
        assert state["u"] == 5.0


def test_skipped_then_finite_step_equals_the_finite_step_alone():
    with tf.Graph().as_default():
        alone = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0))
        alone.step(*GOOD)
        expected = alone.state()
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip"))
        for bad in BAD:
            model.step(*bad)
        model.step(*GOOD)
        state = model.state()
        assert state.pop(COUNTER) == 3
        _assert_state_equal(state, expected)


def test_skip_counts_an_overflowing_norm_of_finite_gradients():
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip"))
        model.step([3e38, 3e38], [[1.0, 1.0], [1.0, 1.0]])  # finite, but the norm is inf
        state = model.state()
        assert state[COUNTER] == 1 and state["global_step"] == 0
        np.testing.assert_array_equal(state["w"], [1.0, 2.0])


def test_skip_counts_inf_even_when_the_capper_hides_it():
    with tf.Graph().as_default():
        model = Model(tf1clip.transform_gradients(adam(), tf1clip.clip_by_value_fn(-1.0, 1.0), on_nonfinite="skip"))
        model.step([INF, 0.5], [[1.0, 1.0], [1.0, 1.0]])
        state = model.state()
        assert state["Adam_skipped_steps"] == 1 and state["global_step"] == 0


def test_skip_counter_is_local_to_savers_and_tracked_by_object_checkpoints(tmp_path):
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip"))
        counter = model.opt.skipped_steps
        assert counter.op.name == COUNTER and not counter.trainable
        assert counter in model.opt.variables()
        assert counter in tf.compat.v1.local_variables()
        assert counter not in tf.compat.v1.global_variables()
        model.step(*BAD[0])
        saver_path = tf.compat.v1.train.Saver().save(model.sess, str(tmp_path / "saver"))
        ckpt = tf.compat.v1.train.Checkpoint(optimizer=model.opt)
        object_path = ckpt.save(str(tmp_path / "object"), session=model.sess)
    assert COUNTER not in [k for k, _ in tf.train.list_variables(saver_path)]
    object_keys = [k for k, _ in tf.train.list_variables(object_path)]
    assert "optimizer/%s/.ATTRIBUTES/VARIABLE_VALUE" % COUNTER in object_keys
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip"))
        tf.compat.v1.train.Checkpoint(optimizer=model.opt).restore(object_path).run_restore_ops(model.sess)
        assert model.sess.run(model.opt.skipped_steps) == 1


@pytest.mark.parametrize("saved_by", ["unwrapped", "nan", "skip"])
def test_saver_checkpoints_resume_into_a_skip_wrapper(tmp_path, saved_by):
    """Turning "skip" on for a resumed run restores a checkpoint saved without it, out of the box."""
    wrap = {
        "unwrapped": lambda opt: opt,
        "nan": lambda opt: tf1clip.clip_gradients_by_norm(opt, 2.0),
        "skip": lambda opt: tf1clip.clip_gradients_by_norm(opt, 2.0, on_nonfinite="skip"),
    }
    with tf.Graph().as_default():
        model = Model(wrap[saved_by](adam()))
        model.step(*GOOD)
        if saved_by == "skip":
            model.step(*BAD[0])
        saved = model.state()
        path = tf.compat.v1.train.Saver().save(model.sess, str(tmp_path / "ckpt"))
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip"))
        tf.compat.v1.train.Saver().restore(model.sess, path)
        restored = model.state()
        assert restored.pop(COUNTER) == 0
        saved.pop(COUNTER, None)
        _assert_state_equal(restored, saved)
        model.step(*BAD[1])
        assert model.sess.run(model.opt.skipped_steps) == 1


def test_skip_counter_initializes_itself_without_local_init():
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable(1.0, name="w")
        g = tf.compat.v1.placeholder(tf.float32, [])
        opt = tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip")
        train = opt.apply_gradients([(g * 1.0, w)])
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(train, {g: 1.0})
            sess.run(train, {g: NAN})
            sess.run(train, {g: INF})
            assert sess.run(opt.skipped_steps) == 2


def test_skip_returns_a_fetchable_train_op_in_the_collection():
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip"))
        assert isinstance(model.train, tf.Operation)
        assert tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.TRAIN_OP) == [model.train]
        with pytest.raises(RuntimeError, match="call minimize"):
            _ = tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip").skipped_steps


def test_skip_without_global_step_and_with_minimize():
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable(1.0, name="w")
        x = tf.compat.v1.placeholder(tf.float32, [])
        opt = tf1clip.clip_gradients_by_norm(tf.compat.v1.train.GradientDescentOptimizer(1.0), 2.0, on_nonfinite="skip")
        train = opt.minimize(w * x)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(train, {x: NAN})
            sess.run(train, {x: 5.0})
            assert sess.run([w, opt.skipped_steps]) == [pytest.approx(-1.0), 1]


# --- "raise" -----------------------------------------------------------------


def test_raise_names_the_first_nonfinite_variable_and_changes_nothing():
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="raise"))
        before = model.state()
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"the gradient of e:0 holds inf or NaN"):
            model.step([1.0, 1.0], [[1.0, INF], [1.0, 1.0]])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"the gradient of w:0 holds inf or NaN"):
            model.step([NAN, 1.0], [[1.0, INF], [1.0, 1.0]])
        _assert_state_equal(model.state(), before)
        model.step(*GOOD)
        assert model.state()["global_step"] == 1


def test_raise_explains_an_overflowing_norm():
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="raise"))
        with pytest.raises(
            tf.errors.InvalidArgumentError,
            match=r"the gradient of w:0 became inf or NaN in clip_by_global_norm_fn\(2.0\) although every input",
        ):
            model.step([3e38, 3e38], [[1.0, 1.0], [1.0, 1.0]])


# --- reported norms ----------------------------------------------------------


def test_norms_match_numpy_before_and_after_the_capper():
    with tf.Graph().as_default():
        opt = tf1clip.transform_gradients(adam(), tf1clip.clip_by_value_fn(-1.5, 1.5), report_norms=True)
        with pytest.raises(RuntimeError, match="No step was built"):
            _ = opt.norms
        model = Model(opt)
        gw, ge = GOOD
        before, after = model.sess.run(list(opt.norms), {model.gw: gw, model.ge: ge})
        values = np.concatenate([np.ravel(gw), np.ravel(ge)])
        assert before == pytest.approx(np.linalg.norm(values), rel=1e-6)
        assert after == pytest.approx(np.linalg.norm(np.clip(values, -1.5, 1.5)), rel=1e-6)
        assert opt.norms.before.dtype == tf.float32
    with pytest.raises(ValueError, match="only with report_norms"):
        _ = tf1clip.clip_gradients_by_norm(adam(), 1.0).norms


def test_norm_summaries_use_contribs_tags():
    with tf.Graph().as_default():
        model = Model(tf1clip.clip_gradients_by_norm(adam(), 2.0, report_norms="summaries"))
        summaries = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.SUMMARIES)
        assert len(summaries) == 2
        proto = tf.compat.v1.Summary()
        proto.ParseFromString(model.sess.run(tf.compat.v1.summary.merge_all(), {model.gw: GOOD[0], model.ge: GOOD[1]}))
        values = {v.tag: v.simple_value for v in proto.value}
        assert values == {
            "global_norm/gradient_norm": pytest.approx(np.sqrt(38.0)),
            "global_norm/clipped_gradient_norm": pytest.approx(2.0),
        }


def test_policies_work_eagerly_too():
    w = tf.Variable([1.0, 2.0])
    skip = tf1clip.clip_gradients_by_norm(adam(), 1.0, on_nonfinite="skip", report_norms=True)
    skip.minimize(lambda: tf.reduce_sum(w * NAN), var_list=[w])
    assert int(skip.skipped_steps) == 1 and np.isnan(float(skip.norms.before))
    np.testing.assert_array_equal(w.numpy(), [1.0, 2.0])
    strict = tf1clip.clip_gradients_by_norm(adam(), 1.0, on_nonfinite="raise")
    with pytest.raises(tf.errors.InvalidArgumentError, match="holds inf or NaN"):
        strict.minimize(lambda: tf.reduce_sum(w * INF), var_list=[w])
    skip.minimize(lambda: tf.reduce_sum(w * 3.0), var_list=[w])
    np.testing.assert_allclose(w.numpy(), [0.9, 1.9], rtol=1e-6)


# --- legacy TF1 mode (v1 control flow, ref variables) --------------------------

_V1_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import tensorflow as tf
    tf.compat.v1.disable_v2_behavior()
    import tf1clip

    def build(wrap):
        w = tf.compat.v1.Variable([1.0, 2.0], name="w")
        x = tf.compat.v1.placeholder(tf.float32, [2])
        step = tf.compat.v1.train.get_or_create_global_step()
        opt = tf.compat.v1.train.AdamOptimizer(0.1)
        if wrap:
            opt = tf1clip.clip_gradients_by_norm(opt, 2.0, on_nonfinite="skip")
        with tf.compat.v1.variable_scope("model"):
            train = opt.minimize(tf.reduce_sum(w * x), global_step=step)
        return w, x, step, opt, train

    with tf.Graph().as_default():
        build(False)
        plain = sorted(v.op.name for v in tf.compat.v1.global_variables())
    with tf.Graph().as_default():
        w, x, step, opt, train = build(True)
        names = sorted(v.op.name for v in tf.compat.v1.global_variables())
        assert names == plain, (names, plain)
        local = [v.op.name for v in tf.compat.v1.local_variables()]
        assert local == ["model/ClipByNormAdam_skipped_steps"], local
        assert not isinstance(w, tf.__internal__.CompositeTensor)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(train, {x: [np.nan, 1.0]})
            assert sess.run([step, opt.skipped_steps]) == [0, 1]
            assert sess.run(opt.optimizer.get_slot(w, "m")).tolist() == [0.0, 0.0]
            sess.run(train, {x: [3.0, 4.0]})
            assert sess.run([step, opt.skipped_steps]) == [1, 1]
            np.testing.assert_allclose(sess.run(w), [0.9, 1.9], rtol=1e-6)
    print("OK")
    """
)


def test_skip_in_a_disable_v2_behavior_program():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    proc = subprocess.run([sys.executable, "-c", _V1_SCRIPT], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith("OK")


# --- skipped steps and stateful cappers, SyncReplicas, nesting ------------------------------


def test_norm_recorder_state_moves_only_on_applied_steps():
    """A NormRecorder counts only applied steps: 2 applied + 2 skipped steps count 2 steps."""
    with tf.Graph().as_default():
        recorder = tf1clip.NormRecorder(tf1clip.clip_by_global_norm_fn(2.0), summaries=False)
        model = Model(tf1clip.transform_gradients(adam(), recorder, on_nonfinite="skip"))
        for gw, ge in (GOOD, BAD[0], ([0.1, 0.1], [[0.1, 0.1], [0.1, 0.1]]), BAD[1]):
            model.step(gw, ge)
        steps, clipped = model.sess.run([recorder.steps, recorder.clipped_steps])
        assert (steps, clipped) == (2, 1)
        assert model.sess.run(model.opt.skipped_steps) == 2


def test_autoclip_history_ignores_skipped_steps_whose_norm_is_finite():
    """A step skipped because the capper's output overflowed leaves AutoClip's state alone."""
    with tf.Graph().as_default():
        autoclip = tf1clip.AutoClip(percentile=50.0, history_size=4)
        capper = tf1clip.chain(autoclip, lambda pairs: [(None if g is None else g * 1e38, v) for g, v in pairs])
        w = tf.compat.v1.Variable([1.0, 2.0], name="w")
        g = tf.compat.v1.placeholder(tf.float32, [2])
        opt = tf1clip.transform_gradients(tf.compat.v1.train.GradientDescentOptimizer(0.0), capper, on_nonfinite="skip")
        train = opt.apply_gradients([(g * 1.0, w)])
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(train, {g: [30.0, 40.0]})  # output 5e39 overflows: skipped
            assert sess.run(opt.skipped_steps) == 1
            assert sess.run(autoclip.count) == 0
            sess.run(train, {g: [3e-38, 4e-38]})
            assert sess.run([opt.skipped_steps, autoclip.count]) == [1, 1]


def test_sync_replicas_under_skip_is_refused_with_the_nesting_to_use():
    """A "skip" wrapper cannot wrap a SyncReplicasOptimizer; the error says to nest the other way."""
    with tf.Graph().as_default():
        sync = tf.compat.v1.train.SyncReplicasOptimizer(adam(), replicas_to_aggregate=2)
        with pytest.raises(ValueError, match=r"cannot wrap a SyncReplicasOptimizer.*Nest the other way"):
            tf1clip.clip_gradients_by_norm(sync, 1.0, on_nonfinite="skip")
        tf1clip.clip_gradients_by_norm(sync, 1.0)  # other policies build as before


@pytest.mark.parametrize("inner_policy", ["skip", "raise"])
def test_outer_capper_cannot_hide_inf_from_an_inner_policy(inner_policy):
    """An outer capper cannot hide an inf from an inner policy: the outer wrapper hands it on as NaN."""
    with tf.Graph().as_default():
        inner = tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite=inner_policy)
        outer = tf1clip.transform_gradients(inner, tf1clip.clip_by_value_fn(-1.0, 1.0))
        model = Model(outer)
        before = model.state()
        if inner_policy == "raise":
            with pytest.raises(tf.errors.InvalidArgumentError, match="holds inf or NaN"):
                model.step(*BAD[1])
        else:
            model.step(*BAD[1])
            assert model.sess.run(inner.skipped_steps) == 1
        after = model.state()
        after.pop(COUNTER, None)
        before.pop(COUNTER, None)
        _assert_state_equal(after, before)
        model.step(*GOOD)
        assert model.sess.run(model.global_step) == 1


def test_outer_skip_counts_what_the_inner_skip_skipped():
    with tf.Graph().as_default():
        inner = tf1clip.clip_gradients_by_norm(adam(), 2.0, on_nonfinite="skip")
        outer = tf1clip.transform_gradients(
            inner, tf1clip.clip_by_value_fn(-1.0, 1.0), name="outer", on_nonfinite="skip"
        )
        model = Model(outer)
        model.step(*BAD[0])
        model.step(*GOOD)
        assert model.sess.run([outer.skipped_steps, inner.skipped_steps, model.global_step]) == [1, 1, 1]
