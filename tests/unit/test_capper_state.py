"""Stateful-capper state in every program shape TF1 code has, against a NumPy model.

Each net ``k`` has a variable ``w`` and the loss ``sum(w * x)``, so its gradient
is the fed ``x`` and the norms the cappers see are known. Each net has its own
capper; the model advances a capper's state exactly when its net's train op runs.
"""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import layers as contrib_layers
from tf1clip.contrib import training as contrib_training

v1 = tf.compat.v1

HISTORY = 4
WARMUP = 2
LIMIT = 2.0  # NormRecorder's inner global-norm limit


def _make_capper(kind, name):
    if kind == "AutoClip":
        return tf1clip.AutoClip(percentile=50.0, history_size=HISTORY, name=name)
    if kind == "ZClip":
        return tf1clip.ZClip(warmup_steps=WARMUP, max_grad_norm=None, name=name)
    return tf1clip.NormRecorder(tf1clip.clip_by_global_norm_fn(LIMIT), summaries=False, name=name)


class _Net(object):
    def __init__(self, k, kind, label=""):
        self.k, self.label = k, label
        self.x = v1.placeholder(tf.float32, [3], name="x%d" % k)
        self.w = v1.Variable(tf.zeros(3), name="w%d" % k)
        self.loss = tf.reduce_sum(self.w * self.x)
        self.capper = _make_capper(kind, "%s%s_%d" % (label, kind, k))
        self.kind = kind
        self.norms = []  # norms of the applied steps (the model)

    def feed(self, step):
        return np.array([1.0 + self.k + 0.75 * step, 0.5 * self.k, 0.0], np.float32)


def _pairs(net, opt):
    return opt.compute_gradients(net.loss, [net.w])


def _build_plain(nets, together):
    """``capper(pairs)`` then ``attach_state_updates(apply)``; ``together``: cap everything first."""
    opts = [v1.train.GradientDescentOptimizer(0.1) for _ in nets]
    clipped = [None] * len(nets)
    train = [None] * len(nets)
    for i, (net, opt) in enumerate(zip(nets, opts)):
        clipped[i] = net.capper(_pairs(net, opt))
        if not together:
            train[i] = tf1clip.attach_state_updates(opt.apply_gradients(clipped[i]))
    if together:
        for i, opt in enumerate(opts):
            train[i] = tf1clip.attach_state_updates(opt.apply_gradients(clipped[i]))
    return train


def _build_run_capper(nets, together):
    opts = [v1.train.GradientDescentOptimizer(0.1) for _ in nets]
    capped = [None] * len(nets)
    train = [None] * len(nets)
    for i, (net, opt) in enumerate(zip(nets, opts)):
        capped[i] = tf1clip.run_capper(net.capper, _pairs(net, opt))
        if not together:
            train[i] = tf1clip.attach_state_updates(opt.apply_gradients(capped[i][0]), updates=capped[i][1])
    if together:
        for i, opt in enumerate(opts):
            train[i] = tf1clip.attach_state_updates(opt.apply_gradients(capped[i][0]), updates=capped[i][1])
    return train


def _build_wrapper(nets, together):
    opts = [tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(0.1), net.capper) for net in nets]
    pairs = [_pairs(net, opt) for net, opt in zip(nets, opts)]
    return [opt.apply_gradients(p) for opt, p in zip(opts, pairs)]


def _build_optimize_loss(nets, together):
    return [
        contrib_layers.optimize_loss(
            net.loss,
            None,
            0.1,
            "SGD",
            clip_gradients=net.capper,
            variables=[net.w],
            summaries=[],
            name="%s%s_OL%d" % (net.label, net.kind, net.k),
        )
        for net in nets
    ]


def _build_create_train_op(nets, together):
    return [
        contrib_training.create_train_op(
            net.loss,
            v1.train.GradientDescentOptimizer(0.1),
            global_step=None,
            variables_to_train=[net.w],
            transform_grads_fn=net.capper,
        )
        for net in nets
    ]


FORMS = {
    "plain": _build_plain,
    "run_capper": _build_run_capper,
    "wrapper": _build_wrapper,
    "optimize_loss": _build_optimize_loss,
    "create_train_op": _build_create_train_op,
}

# shape -> (nets, cap everything before applying any, schedule: the nets whose train ops each Session.run runs).
# The GAN caps D and G first, as tf.contrib.gan-style code builds both train ops before the loop.
SHAPES = {
    "several_optimizers": (2, False, [(0,), (1,), (0,), (0,), (1,), (1,)]),
    "gan_d3_per_g": (2, True, [(0,), (0,), (0,), (1,), (0,), (0,), (0,), (1,)]),
    "towers_cap_all_then_apply_each": (2, True, [(0, 1), (1,), (0, 1), (0,)]),
    "train_ops_in_one_run": (2, False, [(0, 1), (0, 1), (1,), (0, 1)]),
}


def _state_of(capper):
    names = {"AutoClip": ("count", "history"), "ZClip": ("count", "warmup", "mean")}
    return {n: getattr(capper, n) for n in names.get(type(capper).__name__, ("steps", "clipped_steps"))}


def _model_check(net, state):
    norms = net.norms
    if net.kind == "AutoClip":
        assert state["count"] == len(norms)
        expected = np.zeros(HISTORY, np.float32)
        for i, n in enumerate(norms):
            expected[i % HISTORY] = n
        np.testing.assert_allclose(state["history"], expected, rtol=1e-6)
    elif net.kind == "ZClip":
        assert state["count"] == len(norms)
        first = np.array((norms + [0.0] * WARMUP)[:WARMUP], np.float32)
        np.testing.assert_allclose(state["warmup"], first, rtol=1e-6)
        if len(norms) == WARMUP:
            assert state["mean"] == pytest.approx(np.mean(norms), rel=1e-6)
    else:
        assert state["steps"] == len(norms)
        assert state["clipped_steps"] == sum(n > LIMIT for n in norms)


def _session():
    config = v1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    return v1.Session(config=config)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_state_advances_with_its_own_train_op_only(shape):
    """Every form (plain call, run_capper, wrapper, optimize_loss, create_train_op) x every
    stateful capper, built side by side in one graph and run on the shape's schedule."""
    count, together, schedule = SHAPES[shape]
    with tf.Graph().as_default():
        programs = []
        for form in sorted(FORMS):
            for kind in ("AutoClip", "ZClip", "NormRecorder"):
                with tf.name_scope(form + kind):
                    nets = [_Net(k, kind, form) for k in range(count)]
                    programs.append((nets, FORMS[form](nets, together)))
        with _session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            for step, members in enumerate(schedule):
                fetches, feed = [], {}
                for nets, train in programs:
                    for k in members:
                        fetches.append(train[k])
                        feed[nets[k].x] = nets[k].feed(step)
                        nets[k].norms.append(float(np.linalg.norm(nets[k].feed(step))))
                    for net in nets:  # every placeholder is fed: evaluating nothing else
                        feed.setdefault(net.x, net.feed(step))
                sess.run(fetches, feed)
            nets = [net for program, _ in programs for net in program]
            states = sess.run([_state_of(net.capper) for net in nets])
        for net, state in zip(nets, states):
            _model_check(net, state)


# --- one capper shared by two train ops ------------------------------------------------------------


@pytest.mark.parametrize("form", ["plain", "run_capper", "wrapper", "optimize_loss", "create_train_op"])
@pytest.mark.parametrize("kind", ["AutoClip", "ZClip", "NormRecorder"])
def test_a_stateful_capper_shared_by_two_train_ops_is_refused_when_built(form, kind):
    with tf.Graph().as_default():
        nets = [_Net(k, kind) for k in range(2)]
        nets[1].capper = nets[0].capper
        with pytest.raises(
            RuntimeError, match=r"already caps the gradients of a train op in this graph.*one capper per"
        ):
            FORMS[form](nets, False)


def test_a_shared_capper_is_refused_inside_chain_and_norm_recorder(graph):
    nets = [_Net(k, "AutoClip") for k in range(2)]
    shared = nets[0].capper
    opt = v1.train.GradientDescentOptimizer(0.1)
    tf1clip.run_capper(tf1clip.chain(shared), _pairs(nets[0], opt))
    with pytest.raises(RuntimeError, match=r"AutoClip_0 already caps"):
        tf1clip.run_capper(tf1clip.NormRecorder(shared, summaries=False), _pairs(nets[1], opt))


def test_evaluating_pending_output_alone_and_another_train_op_leave_the_update_pending(graph, sess):
    nets = [_Net(k, "AutoClip") for k in range(2)]
    opt = v1.train.GradientDescentOptimizer(0.1)
    clipped = [net.capper(_pairs(net, opt)) for net in nets]
    first = tf1clip.attach_state_updates(opt.apply_gradients(clipped[0]))
    assert len(graph.get_collection(tf1clip.STATE_UPDATES)) == 1  # net 1's update waits for its own train op
    second = tf1clip.attach_state_updates(opt.apply_gradients(clipped[1]))
    assert graph.get_collection(tf1clip.STATE_UPDATES) == []
    sess.run(v1.global_variables_initializer())
    feed = {net.x: net.feed(0) for net in nets}
    sess.run(first, feed)
    sess.run(first, feed)
    sess.run(second, feed)
    assert sess.run([nets[0].capper.count, nets[1].capper.count]) == [2, 1]


# --- a capper implementing only transform_with_state ------------------------------------------------


class _CountingCapper(object):
    """Halves the gradients; its update counts the applied steps (the protocol only, not callable)."""

    def __init__(self):
        self.count = None

    def transform_with_state(self, pairs):
        if self.count is None:
            with tf.init_scope():
                self.count = v1.Variable(0, dtype=tf.int64, trainable=False, name="counting")
        out = [(None if g is None else g * 0.5, v) for g, v in pairs]
        return out, lambda: self.count.assign_add(1)


def _sgd_net():
    x = v1.placeholder(tf.float32, [2])
    w = v1.Variable([0.0, 0.0], name="w")
    return x, w, tf.reduce_sum(w * x)


USES = {
    "transform_gradients": lambda c, loss, w: tf1clip.transform_gradients(
        v1.train.GradientDescentOptimizer(1.0), c
    ).minimize(loss),
    "chain": lambda c, loss, w: tf1clip.transform_gradients(
        v1.train.GradientDescentOptimizer(1.0), tf1clip.chain(tf1clip.clip_by_value_fn(-100, 100), c)
    ).minimize(loss),
    "NormRecorder": lambda c, loss, w: tf1clip.transform_gradients(
        v1.train.GradientDescentOptimizer(1.0), tf1clip.NormRecorder(c, summaries=False)
    ).minimize(loss),
    "run_capper": lambda c, loss, w: _attach_run_capper(c, loss),
    "optimize_loss": lambda c, loss, w: contrib_layers.optimize_loss(
        loss, None, 1.0, "SGD", clip_gradients=c, summaries=[]
    ),
    "create_train_op": lambda c, loss, w: contrib_training.create_train_op(
        loss, v1.train.GradientDescentOptimizer(1.0), global_step=None, transform_grads_fn=c
    ),
}


def _attach_run_capper(capper, loss):
    opt = v1.train.GradientDescentOptimizer(1.0)
    clipped, updates = tf1clip.run_capper(capper, opt.compute_gradients(loss))
    return tf1clip.attach_state_updates(opt.apply_gradients(clipped), updates=updates)


@pytest.mark.parametrize("use", sorted(USES))
def test_a_capper_with_only_transform_with_state_works_everywhere(use):
    with tf.Graph().as_default():
        x, w, loss = _sgd_net()
        capper = _CountingCapper()
        train = USES[use](capper, loss, w)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(3):
                sess.run(train, {x: [2.0, -4.0]})
            np.testing.assert_allclose(sess.run(w), [-3.0, 6.0])  # 3 steps of -0.5 * x
            assert sess.run(capper.count) == 3


def test_not_a_capper_is_refused_naming_the_argument(graph):
    with pytest.raises(
        TypeError, match=r"`transform_grads_fn` must be a capper: .*transform_with_state.*received int 3"
    ):
        tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(1.0), 3)


def test_sparse_gradients_are_traced_to_their_train_op(graph):
    """Embedding (IndexedSlices) gradients: each plain call's update goes to the train op applying them."""
    tables = [v1.Variable(tf.ones([4, 2]), name="table%d" % k) for k in range(2)]
    ids = v1.placeholder(tf.int32, [None])
    cappers = [tf1clip.AutoClip(history_size=3, name="sparse%d" % k) for k in range(2)]
    opt = v1.train.GradientDescentOptimizer(0.1)
    clipped = []
    for table, capper in zip(tables, cappers):
        pairs = opt.compute_gradients(tf.reduce_sum(tf.nn.embedding_lookup(table, ids)), [table])
        assert isinstance(pairs[0][0], tf.IndexedSlices)
        clipped.append(capper(pairs))
    trains = [tf1clip.attach_state_updates(opt.apply_gradients(c)) for c in clipped]
    with _session() as sess:
        sess.run(v1.global_variables_initializer())
        for k in (0, 0, 1, 0):
            sess.run(trains[k], {ids: [0, 2]})
        assert sess.run([c.count for c in cappers]) == [3, 1]
        np.testing.assert_allclose(sess.run(cappers[1].history), [2.0, 0.0, 0.0], rtol=1e-6)
