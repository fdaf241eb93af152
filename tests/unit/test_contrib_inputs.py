"""tf1clip.contrib drop-ins accept what TF 1.15's accepted; its train-op builders build and run every optimizer kind.

The input forms are those contrib's own tests and docs used: pairs whose second
item is a variable, a Tensor (``[(grad, grad)]``) or None, dense and
``IndexedSlices`` gradients, ``None`` gradients; a transform that drops the
pairs without a gradient.
"""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import layers as contrib_layers
from tf1clip.contrib import opt as contrib_opt
from tf1clip.contrib import training as contrib_training
from tf1clip.contrib.slim import learning as slim_learning

v1 = tf.compat.v1

G = np.array([3.0, 4.0], np.float32)  # norm 5
S = np.array([[6.0, 8.0]], np.float32)  # one IndexedSlices row, norm 10


def _forms():
    """(name, pairs, expected arrays as a function of the per-gradient scale function)."""
    w = v1.Variable([0.0, 0.0], name="w")
    grad = tf.constant(G)
    sparse = tf.IndexedSlices(tf.constant(S), tf.constant([1]), tf.constant([3, 2]))
    return {
        "variable": [(grad, w)],
        "tensor": [(grad, grad)],
        "none_variable": [(grad, None)],
        "sparse_tensor": [(sparse, tf.identity(grad, name="t"))],
        "with_none_gradient": [(grad, w), (None, tf.constant(1.0))],
    }


def _dense(grad):
    if isinstance(grad, tf.IndexedSlices):
        return grad.values
    return grad


DROP_INS = {
    # name -> (function of pairs returning pairs, NumPy scale per gradient given the gradients' norms)
    "layers.adaptive_clipping_fn": (
        lambda pairs: contrib_layers.adaptive_clipping_fn(decay=0.5, static_max_norm=1.0)(pairs),
        lambda norms, total: [min(1.0, 1.0 / total)] * len(norms),
    ),
    "training.clip_gradient_norms": (
        lambda pairs: contrib_training.clip_gradient_norms(pairs, 4.0),
        lambda norms, total: [min(1.0, 4.0 / n) for n in norms],
    ),
    "slim.learning.clip_gradient_norms": (
        lambda pairs: slim_learning.clip_gradient_norms(pairs, 4.0),
        lambda norms, total: [min(1.0, 4.0 / n) for n in norms],
    ),
    "training.multiply_gradients": (
        lambda pairs: contrib_training.multiply_gradients(pairs, {_key(pairs): 3.0}),
        lambda norms, total: [3.0] + [1.0] * (len(norms) - 1),
    ),
    "slim.learning.multiply_gradients": (
        lambda pairs: slim_learning.multiply_gradients(pairs, {_key(pairs): 3.0}),
        lambda norms, total: [3.0] + [1.0] * (len(norms) - 1),
    ),
    "opt.clip_gradients_by_global_norm": (
        lambda pairs: contrib_opt.clip_gradients_by_global_norm(pairs, 2.0)[0],
        lambda norms, total: [min(1.0, 2.0 / total)] * len(norms),
    ),
}


def _key(pairs):
    """contrib's multiply_gradients keys: the variable or its op name (a Tensor: itself; None: 'None')."""
    var = pairs[0][1]
    return "None" if var is None else var


@pytest.mark.parametrize("drop_in", sorted(DROP_INS))
def test_contrib_pair_functions_accept_every_input_form(graph, drop_in):
    fn, scales = DROP_INS[drop_in]
    with v1.Session() as sess:
        for form, pairs in _forms().items():
            out = fn(pairs)
            assert [v for _, v in out] == [v for _, v in pairs], form
            assert [g is None for g, _ in out] == [g is None for g, _ in pairs], form
            present = [(g, o) for (g, _), (o, _) in zip(pairs, out) if g is not None]
            sess.run(v1.global_variables_initializer())
            before, after = sess.run(([_dense(g) for g, _ in present], [_dense(o) for _, o in present]))
            norms = [float(np.linalg.norm(b)) for b in before]
            total = float(np.sqrt(sum(n * n for n in norms)))
            for b, a, scale in zip(before, after, scales(norms, total)):
                np.testing.assert_allclose(a, b * scale, rtol=1e-5, err_msg="%s %s" % (drop_in, form))
            for (g, _), (o, _) in zip(present, present):
                assert isinstance(o, tf.IndexedSlices) == isinstance(g, tf.IndexedSlices)


@pytest.mark.parametrize("separator,module", [("_", contrib_training), ("/", slim_learning)])
def test_add_gradients_summaries_accepts_every_input_form(graph, separator, module):
    for form, pairs in _forms().items():
        summaries = module.add_gradients_summaries(pairs)
        assert len(summaries) == 2 * sum(g is not None for g, _ in pairs), form


def test_tf115_adaptive_clipping_test_as_written(graph):
    """contrib's AdaptiveClipping test: ``[(grad, grad)]`` pairs, the clipped norm read twice."""
    inputs = np.ones(5, np.float32) * 1000.0
    grad = tf.constant(inputs)
    clipped = contrib_layers.adaptive_clipping_fn(decay=0.5, static_max_norm=10.0)([(grad, grad)])
    norm = tf.linalg.norm(clipped[0][0])
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        assert sess.run(norm) == pytest.approx(10.0, rel=1e-5)


# --- a transform that drops None-gradient pairs -------------------------------------------------------


def _drop_none(gvs):
    return [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in gvs if g is not None]


BUILDERS_WITH_TRANSFORM = {
    "optimize_loss": lambda loss, fn: contrib_layers.optimize_loss(
        loss, None, 0.5, "SGD", clip_gradients=fn, summaries=["gradients", "global_gradient_norm"]
    ),
    "create_train_op": lambda loss, fn: contrib_training.create_train_op(
        loss, v1.train.GradientDescentOptimizer(0.5), global_step=None, transform_grads_fn=fn, summarize_gradients=True
    ),
}


@pytest.mark.parametrize("builder", sorted(BUILDERS_WITH_TRANSFORM))
def test_a_transform_dropping_none_gradient_pairs_is_applied_as_is(graph, builder):
    w = v1.Variable([3.0, -0.2], name="w")
    unused = v1.Variable([7.0], name="unused")  # trainable, no gradient
    train = BUILDERS_WITH_TRANSFORM[builder](tf.reduce_sum(w * tf.constant([2.0, -0.1])), _drop_none)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), [3.0 - 0.5 * 1.0, -0.2 + 0.5 * 0.1], rtol=1e-6)
        assert sess.run(unused) == [7.0]


# --- every train-op builder x every optimizer kind, built and run -------------------------------------

TRAIN_OP_BUILDERS = {
    "slim.learning.create_train_op": lambda loss, opt: slim_learning.create_train_op(loss, opt),
    "training.create_train_op": lambda loss, opt: contrib_training.create_train_op(loss, opt),
    "optimize_loss": lambda loss, opt: contrib_layers.optimize_loss(
        loss, v1.train.get_or_create_global_step(), None, opt, summaries=[]
    ),
}


def _sgd():
    return v1.train.GradientDescentOptimizer(0.1)


def _wrapped():
    return tf1clip.clip_gradients_by_norm(_sgd(), 1.0)


OPTIMIZERS = {
    # name -> (factory, w after n applied steps from [3, 4] on loss sum(w * w))
    "plain": (_sgd, lambda n: np.array([3.0, 4.0]) * 0.8**n),
    "wrapped": (_wrapped, lambda n: np.array([3.0, 4.0]) * (5.0 - 0.1 * n) / 5.0),
    "sync_replicas": (
        lambda: v1.train.SyncReplicasOptimizer(_sgd(), replicas_to_aggregate=1, total_num_replicas=1),
        lambda n: np.array([3.0, 4.0]) * 0.8**n,
    ),
    "sync_replicas_of_wrapped": (
        lambda: v1.train.SyncReplicasOptimizer(_wrapped(), replicas_to_aggregate=1, total_num_replicas=1),
        lambda n: np.array([3.0, 4.0]) * (5.0 - 0.1 * n) / 5.0,
    ),
    "wrapped_sync_replicas": (
        lambda: tf1clip.clip_gradients_by_norm(
            v1.train.SyncReplicasOptimizer(_sgd(), replicas_to_aggregate=1, total_num_replicas=1), 1.0
        ),
        lambda n: np.array([3.0, 4.0]) * (5.0 - 0.1 * n) / 5.0,
    ),
    "loss_scale": (
        lambda: v1.train.experimental.MixedPrecisionLossScaleOptimizer(_sgd(), "dynamic"),
        lambda n: np.array([3.0, 4.0]) * 0.8**n,
    ),
    "wrapped_loss_scale": (
        lambda: tf1clip.clip_gradients_by_norm(
            v1.train.experimental.MixedPrecisionLossScaleOptimizer(_sgd(), "dynamic"), 1.0
        ),
        lambda n: np.array([3.0, 4.0]) * (5.0 - 0.1 * n) / 5.0,
    ),
}


def _sync_of(opt):
    while not isinstance(opt, v1.train.SyncReplicasOptimizer) and hasattr(opt, "optimizer"):
        opt = opt.optimizer
    return opt if isinstance(opt, v1.train.SyncReplicasOptimizer) else None


def _run_steps(train, sync, steps, read):
    """Runs ``train`` ``steps`` times; a SyncReplicasOptimizer's chief queue runner runs beside it."""
    with v1.Session() as sess:
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        coord, threads = v1.train.Coordinator(), []
        if sync is not None:
            sess.run(sync.get_init_tokens_op())
            threads = sync.get_chief_queue_runner().create_threads(sess, coord=coord, start=True)
        try:
            losses = [sess.run(train) for _ in range(steps)]
            w, step = sess.run(read)
        finally:
            coord.request_stop()
            sess.close()  # cancels the queue runner's pending TakeGrad
            coord.join(threads, stop_grace_period_secs=30)
    return losses, w, step


@pytest.mark.parametrize("builder", sorted(TRAIN_OP_BUILDERS))
def test_every_train_op_builder_builds_and_runs_every_optimizer_kind(builder):
    for name, (make, expected) in OPTIMIZERS.items():
        with tf.Graph().as_default():
            w = v1.get_variable("w", initializer=[3.0, 4.0])
            global_step = v1.train.get_or_create_global_step()
            opt = make()
            train = TRAIN_OP_BUILDERS[builder](tf.reduce_sum(w * w), opt)
            losses, w_value, step = _run_steps(train, _sync_of(opt), 3, [w, global_step])
        # SyncReplicas drops a stale gradient now and then: the global step says how many were applied.
        assert (step == 3) if _sync_of(opt) is None else (1 <= step <= 3), name
        np.testing.assert_allclose(w_value, expected(step), rtol=1e-5, err_msg=name)
        assert losses[0] == pytest.approx(25.0), name
