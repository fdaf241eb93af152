"""tf1clip.contrib.opt's optimizers against NumPy formulas, their fixed contrib bugs, errors and compositions.

(TF 1.15's own numbers and checkpoints: tests/oracle/test_contrib_opt_tf115.py.)
"""

import math
import re
import threading

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import layers
from tf1clip.contrib import opt
from tf1clip.contrib.opt import sign_decay

v1 = tf.compat.v1


def _adam_np(var, g, m, v, t, lr, b1=0.9, b2=0.999, eps=1e-8):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    lr_t = lr * math.sqrt(1 - b2**t) / (1 - b1**t)
    return var - lr_t * m / (np.sqrt(v) + eps), m, v


# --- LazyAdam: only the rows present change, repeated ids summed ------------------------


@pytest.mark.parametrize("resource", [False, True])
@pytest.mark.parametrize("optimizer", ["LazyAdam", "LazyAdamGS"])
def test_lazy_adam_updates_only_present_rows_with_repeated_ids_summed(resource, optimizer):
    init = np.arange(12.0).reshape(6, 2).astype(np.float32) / 10.0
    steps = [
        ([1, 4, 1], np.array([[0.5, -1.0], [2.0, 0.25], [0.5, 1.5]])),
        ([4, 0], np.array([[-1.0, 1.0], [3.0, -2.0]])),
    ]
    with tf.Graph().as_default():
        emb = v1.get_variable("emb", initializer=init, use_resource=resource)
        gs = v1.train.get_or_create_global_step()
        idx = v1.placeholder(tf.int32, [None])
        vals = v1.placeholder(tf.float32, [None, 2])
        make = {
            "LazyAdam": lambda: opt.LazyAdamOptimizer(0.1),
            "LazyAdamGS": lambda: opt.LazyAdamGSOptimizer(global_step=gs, learning_rate=0.1),
        }[optimizer]
        o = make()
        train = o.apply_gradients([(tf.IndexedSlices(vals, idx, tf.constant([6, 2])), emb)], global_step=gs)
        m_slot, v_slot = o.get_slot(emb, "m"), o.get_slot(emb, "v")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            var, m, v = init.astype(np.float64), np.zeros((6, 2)), np.zeros((6, 2))
            for t, (ids, values) in enumerate(steps, start=1):
                sess.run(train, {idx: ids, vals: values})
                summed = {}
                for i, row in zip(ids, values):
                    summed[i] = summed.get(i, 0.0) + row
                for i, g in summed.items():
                    var[i], m[i], v[i] = _adam_np(var[i], g, m[i], v[i], t, 0.1)
                got_var, got_m, got_v = sess.run([emb, m_slot, v_slot])
                np.testing.assert_allclose(got_var, var, rtol=1e-5)
                np.testing.assert_allclose(got_m, m, rtol=1e-5, atol=1e-7)
                np.testing.assert_allclose(got_v, v, rtol=1e-5, atol=1e-7)
            untouched = [2, 3, 5]
            np.testing.assert_array_equal(got_var[untouched], init[untouched])
            np.testing.assert_array_equal(got_m[untouched], 0.0)


# --- decoupled weight decay: the deterministic definition -------------------------------


def _race_model(resource):
    """A loss whose gradient depends on w (so a decay that ran before the forward read would change it)."""
    x = np.array([[1.0, -2.0, 0.5], [0.3, 1.0, -1.0]], dtype=np.float32)
    y = np.array([[0.5, -1.0], [2.0, 1.0]], dtype=np.float32)
    w0 = np.array([[0.2, -0.4], [1.0, 0.5], [-0.3, 0.8]], dtype=np.float32)
    w = v1.get_variable("w", initializer=w0, use_resource=resource)
    loss = tf.reduce_sum(tf.square(tf.matmul(x, w) - y))
    return w, loss, (x, y, w0)


@pytest.mark.parametrize("resource", [False, True])
@pytest.mark.parametrize("kind", ["AdamW", "MomentumW"])
def test_decoupled_weight_decay_is_computed_from_the_pre_update_value(resource, kind):
    """w_new = w - wd * w - update(grad(w)), every step: TF 1.15 raced here (ref variables)."""
    wd, lr = 0.1, 0.05
    with tf.Graph().as_default():
        w, loss, (x, y, w_np) = _race_model(resource)
        o = opt.AdamWOptimizer(wd, learning_rate=lr) if kind == "AdamW" else opt.MomentumWOptimizer(wd, lr, 0.9)
        train = o.minimize(loss)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            w_np = w_np.astype(np.float64)
            m, v, acc = np.zeros_like(w_np), np.zeros_like(w_np), np.zeros_like(w_np)
            for t in range(1, 31):
                sess.run(train)
                g = 2.0 * x.T.astype(np.float64) @ (x @ w_np - y)
                decayed = w_np - wd * w_np
                if kind == "AdamW":
                    stepped, m, v = _adam_np(w_np, g, m, v, t, lr)
                    w_np = decayed + (stepped - w_np)
                else:
                    acc = 0.9 * acc + g
                    w_np = decayed - lr * acc
                np.testing.assert_allclose(sess.run(w), w_np, rtol=2e-5, atol=1e-6, err_msg="step %d" % t)


def test_decay_var_list_limits_the_decay_and_sparse_rows_decay_only_where_present():
    with tf.Graph().as_default():
        a = v1.get_variable("a", initializer=np.ones((2,), np.float32))
        b = v1.get_variable("b", initializer=np.ones((2,), np.float32))
        emb = v1.get_variable("emb", initializer=np.ones((4, 1), np.float32))
        zero = tf.zeros([2])
        sparse = tf.IndexedSlices(tf.zeros([1, 1]), tf.constant([2]), tf.constant([4, 1]))
        o = opt.MomentumWOptimizer(0.5, 0.1, 0.9)
        only_a = o.apply_gradients([(zero, a), (zero, b)], decay_var_list=[a])
        every = opt.MomentumWOptimizer(0.5, 0.1, 0.9).apply_gradients([(sparse, emb)])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run([only_a, every])
            np.testing.assert_allclose(sess.run(a), [0.5, 0.5])
            np.testing.assert_allclose(sess.run(b), [1.0, 1.0])
            np.testing.assert_allclose(sess.run(emb)[:, 0], [1.0, 1.0, 0.5, 1.0])


def test_callable_weight_decay_works():
    # TF 1.15 multiplied the callable itself (TypeError); here it is called once per apply_gradients.
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=np.full((2,), 2.0, np.float32))
        train = opt.AdamWOptimizer(lambda: 0.25, learning_rate=0.0).apply_gradients([(tf.zeros([2]), w)])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            np.testing.assert_allclose(sess.run(w), [1.5, 1.5])


def test_extend_with_decoupled_weight_decay_rejects_non_optimizers():
    with pytest.raises(
        TypeError, match=r"`base_optimizer` must be a subclass of tf.compat.v1.train.Optimizer; received 'Adam'"
    ):
        opt.extend_with_decoupled_weight_decay("Adam")
    cls = opt.extend_with_decoupled_weight_decay(v1.train.AdagradOptimizer)
    assert issubclass(cls, opt.DecoupledWeightDecayExtension) and issubclass(cls, v1.train.AdagradOptimizer)


# --- sign methods, sign_decay, LARS, AdaMax, Nadam: formulas -------------------------------


@pytest.mark.parametrize(
    "fn, py",
    [
        (sign_decay.get_linear_decay_fn(10), lambda s: (10 - min(s, 10)) / 10.0),
        (
            sign_decay.get_cosine_decay_fn(10, num_periods=2, zero_after=1.5),
            lambda s: (
                0.0 if 4.0 * min(s, 10) / 10.0 >= 3.0 else 0.5 * (1 + math.cos(math.pi * 4.0 * min(s, 10) / 10.0))
            ),
        ),
        (
            sign_decay.get_restart_decay_fn(10, num_periods=3, zero_after=2),
            lambda s: (
                0.0 if 3 * min(s, 10) / 10.0 >= 2 else 0.5 * (1 + math.cos(math.pi * ((3 * min(s, 10)) % 10) / 10.0))
            ),
        ),
    ],
)
def test_sign_decay_schedules(fn, py):
    with tf.Graph().as_default():
        step = v1.placeholder(tf.int64, [])
        decayed = fn(step)
        with v1.Session() as sess:
            for s in [0, 1, 3, 5, 7, 9, 10, 14]:
                assert sess.run(decayed, {step: s}) == pytest.approx(py(s), abs=1e-6), s
    with pytest.raises(ValueError, match="global_step is required"):
        fn(None)


@pytest.mark.parametrize("kind", ["PowerSign", "AddSign"])
@pytest.mark.parametrize("sparse", [False, True])
def test_sign_methods_formula(kind, sparse):
    grads = [np.array([0.5, -1.0, 2.0]), np.array([-0.5, -1.0, 1.0]), np.array([1.0, 1.0, -3.0])]
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=np.array([1.0, 2.0, 3.0], np.float32), use_resource=sparse)
        gs = v1.train.get_or_create_global_step()
        g = v1.placeholder(tf.float32, [3])
        decay = sign_decay.get_linear_decay_fn(4)
        if kind == "PowerSign":
            o = opt.PowerSignOptimizer(0.1, base=2.0, beta=0.5, sign_decay_fn=decay)
        else:
            o = opt.AddSignOptimizer(0.1, alpha=0.5, beta=0.5, sign_decay_fn=decay)
        grad = tf.IndexedSlices(g, tf.range(3), tf.constant([3])) if sparse else g
        train = o.apply_gradients([(grad, w)], global_step=gs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            var, m = np.array([1.0, 2.0, 3.0]), np.zeros(3)
            for t, gr in enumerate(grads):
                sess.run(train, {g: gr})
                m = 0.5 * m + 0.5 * gr
                d = (4 - min(t, 4)) / 4.0
                agree = np.sign(gr) * np.sign(m)
                mult = 2.0 ** (d * agree) if kind == "PowerSign" else 0.5 + d * agree
                var = var - 0.1 * mult * gr
                np.testing.assert_allclose(sess.run(w), var, rtol=1e-5)


def test_lars_trust_ratio_formula_and_errors():
    w0 = np.array([[3.0, 4.0]], np.float32)
    g0 = np.array([[0.6, 0.8]], np.float32)
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=w0)
        skip = v1.get_variable("skip_me", initializer=w0)
        o = opt.LARSOptimizer(0.1, momentum=0.9, weight_decay=0.01, eeta=0.002, skip_list=["skip_me"])
        train = o.apply_gradients([(tf.constant(g0), w), (tf.constant(g0), skip)])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            trust = 0.002 * 5.0 / (1.0 + 0.01 * 5.0)
            np.testing.assert_allclose(sess.run(w), w0 - 0.1 * trust * (g0 + 0.01 * w0), rtol=1e-6)
            np.testing.assert_allclose(sess.run(skip), w0 - 0.1 * g0, rtol=1e-6)
    with pytest.raises(ValueError, match=r"momentum should be positive: -0.5"):
        opt.LARSOptimizer(0.1, momentum=-0.5)
    with pytest.raises(ValueError, match=r"weight_decay should be positive: -1"):
        opt.LARSOptimizer(0.1, weight_decay=-1)


def test_adamax_and_nadam_formulas():
    g = np.array([0.5, -2.0])
    with tf.Graph().as_default():
        a = v1.get_variable("a", initializer=np.ones(2, np.float32))
        n = v1.get_variable("n", initializer=np.ones(2, np.float32))
        train = [
            opt.AdaMaxOptimizer(0.1).apply_gradients([(tf.constant(g, tf.float32), a)]),
            opt.NadamOptimizer(0.1).apply_gradients([(tf.constant(g, tf.float32), n)]),
        ]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            am, av, nm, nv, av_, nv_ = np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(2), np.ones(2), np.ones(2)
            for t in (1, 2):
                sess.run(train)
                am = 0.9 * am + 0.1 * g
                av = np.maximum(0.999 * av, np.abs(g))
                av_ = av_ - 0.1 / (1 - 0.9**t) * am / (av + 1e-8)
                nm = 0.9 * nm + 0.1 * g
                nv = 0.999 * nv + 0.001 * g * g
                lr_t = 0.1 * math.sqrt(1 - 0.999**t) / (1 - 0.9**t)
                nv_ = nv_ - lr_t * (0.1 * g + 0.9 * nm) / (np.sqrt(nv) + 1e-8)
                np.testing.assert_allclose(sess.run(a), av_, rtol=1e-5)
                np.testing.assert_allclose(sess.run(n), nv_, rtol=1e-5)


def test_reg_adagrad_avoid_updating_slots_and_ggt_rejects_sparse():
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=np.ones(2, np.float32))
        o = opt.RegAdagradOptimizer(0.1, initial_accumulator_value=0.5)
        with o.avoid_updating_slots():
            frozen = o.apply_gradients([(tf.constant([1.0, 2.0]), w)])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(frozen)
            sess.run(frozen)
            np.testing.assert_allclose(sess.run(o.get_slot(w, "accumulator")), [0.5, 0.5])
            np.testing.assert_allclose(sess.run(w), 1.0 - 2 * 0.1 * np.array([1.0, 2.0]) / math.sqrt(0.5), rtol=1e-6)
        emb = v1.get_variable("emb", [3, 1])
        with pytest.raises(NotImplementedError, match="Sparse gradient updates are not supported"):
            opt.GGTOptimizer().apply_gradients([(tf.IndexedSlices(tf.ones([1, 1]), tf.constant([0])), emb)])


# --- composition: tf1clip wrappers and policies, loss scaling, optimize_loss ---------------

X = np.array([[1.0, -2.0, 0.5], [0.3, 1.0, -1.0]], np.float32)
IDS = [1, 3, 1]

OPTIMIZERS = {
    "LazyAdam": lambda gs: opt.LazyAdamOptimizer(0.1),
    "Nadam": lambda gs: opt.NadamOptimizer(0.1),
    "AdaMax": lambda gs: opt.AdaMaxOptimizer(0.1),
    "AdamGS": lambda gs: opt.AdamGSOptimizer(global_step=gs, learning_rate=0.1),
    "LazyAdamGS": lambda gs: opt.LazyAdamGSOptimizer(global_step=gs, learning_rate=0.1),
    "AdamW": lambda gs: opt.AdamWOptimizer(0.01, learning_rate=0.1),
    "MomentumW": lambda gs: opt.MomentumWOptimizer(0.01, 0.1, 0.9),
    "PowerSign": lambda gs: opt.PowerSignOptimizer(0.1),
    "AddSign": lambda gs: opt.AddSignOptimizer(0.1),
    "LARS": lambda gs: opt.LARSOptimizer(0.1),
    "RegAdagrad": lambda gs: opt.RegAdagradOptimizer(0.1),
    "Shampoo": lambda gs: opt.ShampooOptimizer(global_step=gs, learning_rate=0.1),
}
SPARSE_OK = set(OPTIMIZERS)


def _model(scope, x):
    with v1.variable_scope(scope):
        w = v1.get_variable("w", initializer=np.array([[0.2, -0.4], [1.0, 0.5], [-0.3, 0.8]], np.float32))
        emb = v1.get_variable("emb", initializer=np.arange(10.0, dtype=np.float32).reshape(5, 2) / 10.0)
        step = v1.get_variable("step", initializer=np.int64(0), trainable=False)
    loss = tf.reduce_sum(tf.square(tf.matmul(x, w))) + tf.reduce_sum(
        tf.nn.embedding_lookup(emb, IDS) * tf.constant([[1.0, -2.0], [0.5, 3.0], [-1.0, 1.0]])
    )
    return loss, step, [w, emb]


def _state(sess, scope):
    variables = [v for v in v1.global_variables() if v.op.name.startswith(scope + "/")]
    return {re.sub("^(%s/)+" % scope, "", v.op.name): value for v, value in zip(variables, sess.run(variables))}


CLIP = 1.5


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
@pytest.mark.parametrize("policy", ["nan", "skip", "raise"])
def test_under_clip_gradients_by_norm_every_policy(name, policy):
    """Same numbers as the unwrapped optimizer on clipped gradients; a non-finite step: NaN, skipped or refused."""
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [2, 3])
        loss_a, step_a, vars_a = _model("a", x)
        loss_b, step_b, vars_b = _model("b", x)
        with v1.variable_scope("a"):
            wrapped = tf1clip.clip_gradients_by_norm(OPTIMIZERS[name](step_a), CLIP, on_nonfinite=policy)
            train_a = wrapped.minimize(loss_a, global_step=step_a)
        with v1.variable_scope("b"):
            ref = OPTIMIZERS[name](step_b)
            pairs = ref.compute_gradients(loss_b, vars_b)
            clipped, _ = tf.clip_by_global_norm([g for g, _ in pairs], CLIP)
            train_b = ref.apply_gradients(list(zip(clipped, vars_b)), global_step=step_b)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(v1.local_variables_initializer())
            for _ in range(2):
                sess.run([train_a, train_b], {x: X})
            a, b = _state(sess, "a"), _state(sess, "b")
            assert sorted(a) == sorted(b)
            for key in b:  # a few float32 ulps: the wrapper sums the squares in another order (Shampoo's roots
                # amplify that to 1.9e-7 on some CPUs)
                ulps = 4 * np.finfo(np.float32).eps * max(1.0, float(np.max(np.abs(b[key]))))
                np.testing.assert_allclose(a[key], b[key], rtol=1e-5, atol=ulps, err_msg=key)
            bad = X.copy()
            bad[0, 0] = np.nan
            if policy == "raise":
                with pytest.raises(tf.errors.InvalidArgumentError, match="holds inf or NaN"):
                    sess.run(train_a, {x: bad})
            else:
                sess.run(train_a, {x: bad})
            after = _state(sess, "a")
            if policy == "nan":
                assert np.isnan(after["w"]).all()
            else:
                for key in a:  # weights, slots, non-slot variables and the step: untouched
                    np.testing.assert_array_equal(after[key], a[key], err_msg=key)


@pytest.mark.parametrize("name", ["LazyAdam", "AdamW", "Nadam", "PowerSign", "LARS", "AdamGS", "Shampoo"])
def test_under_loss_scaling(name):
    """MixedPrecisionLossScaleOptimizer (scale 8, a power of two) gives the unscaled numbers."""
    with tf.Graph().as_default():
        x = tf.constant(X)
        loss_a, step_a, _ = _model("a", x)
        loss_b, step_b, _ = _model("b", x)
        with v1.variable_scope("a"):
            lso = v1.train.experimental.MixedPrecisionLossScaleOptimizer(OPTIMIZERS[name](step_a), 8.0)
            train_a = lso.minimize(loss_a, global_step=step_a)
        with v1.variable_scope("b"):
            train_b = OPTIMIZERS[name](step_b).minimize(loss_b, global_step=step_b)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(2):
                sess.run([train_a, train_b])
            a, b = _state(sess, "a"), _state(sess, "b")
    for key in ("w", "emb", "step"):
        np.testing.assert_allclose(a[key], b[key], rtol=1e-6, err_msg=key)


@pytest.fixture
def queue_runners_joined():
    """Waits for the queue-runner threads a test leaves, so that their cancellation is reported in that test."""
    yield
    for thread in threading.enumerate():
        if thread.name.startswith("QueueRunnerThread"):
            thread.join(timeout=30)
            assert not thread.is_alive(), thread.name


# The chief's queue runner is cancelled (in its thread) when the session closes.
@pytest.mark.usefixtures("queue_runners_joined")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
@pytest.mark.parametrize("name", ["LazyAdam", "AdamW", "PowerSign", "AdamGS"])
def test_under_sync_replicas(name):
    """SyncReplicasOptimizer (one replica, its chief hook) gives the unwrapped optimizer's numbers."""
    with tf.Graph().as_default():
        x = tf.constant(X)
        loss_a, step_a, _ = _model("a", x)
        loss_b, step_b, _ = _model("b", x)
        with v1.variable_scope("a"):
            sync = v1.train.SyncReplicasOptimizer(OPTIMIZERS[name](step_a), replicas_to_aggregate=1)
            train_a = sync.minimize(loss_a, global_step=step_a)
        with v1.variable_scope("b"):
            train_b = OPTIMIZERS[name](step_b).minimize(loss_b, global_step=step_b)
        hook = sync.make_session_run_hook(is_chief=True, num_tokens=0)
        with v1.train.MonitoredSession(hooks=[hook], stop_grace_period_secs=1) as sess:
            for _ in range(2):
                sess.run(train_a)
                sess.run(train_b)
            a, b = _state(sess, "a"), _state(sess, "b")
    for key in ("w", "emb", "step"):
        np.testing.assert_allclose(a[key], b[key], rtol=1e-6, err_msg=key)


@pytest.mark.parametrize("name", ["LazyAdam", "Nadam", "AdaMax", "PowerSign", "AddSign", "LARS", "RegAdagrad", "AdamW"])
def test_inside_optimize_loss_by_class_and_by_instance(name):
    classes = {
        "LazyAdam": opt.LazyAdamOptimizer,
        "Nadam": opt.NadamOptimizer,
        "AdaMax": opt.AdaMaxOptimizer,
        "PowerSign": opt.PowerSignOptimizer,
        "AddSign": opt.AddSignOptimizer,
        "LARS": opt.LARSOptimizer,
        "RegAdagrad": opt.RegAdagradOptimizer,
        "AdamW": None,  # needs weight_decay first: by instance only (as in TF 1.15)
    }
    with tf.Graph().as_default():
        x = tf.constant(X)
        losses = {s: _model(s, x) for s in ("cls", "inst", "ref")}
        trains = []
        if classes[name] is not None:
            with v1.variable_scope("cls"):
                loss, step, _ = losses["cls"]
                trains.append(layers.optimize_loss(loss, step, 0.1, classes[name], clip_gradients=CLIP, summaries=[]))
        with v1.variable_scope("inst"):
            loss, step, _ = losses["inst"]
            trains.append(
                layers.optimize_loss(loss, step, None, OPTIMIZERS[name](step), clip_gradients=CLIP, summaries=[])
            )
        with v1.variable_scope("ref"):
            loss, step, variables = losses["ref"]
            ref = OPTIMIZERS[name](step)
            pairs = ref.compute_gradients(loss, variables)
            clipped, _ = tf.clip_by_global_norm([g for g, _ in pairs], CLIP)
            trains.append(ref.apply_gradients(list(zip(clipped, variables)), global_step=step))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(2):
                sess.run(trains)
            ref_state = _state(sess, "ref")
            for scope in ("cls", "inst") if classes[name] is not None else ("inst",):
                got = _state(sess, scope)
                for key in ("w", "emb", "step"):
                    np.testing.assert_allclose(got[key], ref_state[key], rtol=1e-5, err_msg="%s %s" % (scope, key))


def test_every_opt1_name_is_exported_and_documented():
    import os

    with open(
        os.path.join(
            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "contrib_opt.rst"
        )
    ) as f:
        text = f.read()
    names = [n for n in opt.__all__ if n != "clip_gradients_by_global_norm"]
    assert len(names) >= 21
    for name in names:
        assert hasattr(opt, name) and name in text, name
    assert opt.sign_decay.get_linear_decay_fn is opt.get_linear_decay_fn
