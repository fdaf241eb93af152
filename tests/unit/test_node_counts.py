"""Executed graph nodes of the clipping fast paths, and their equality with the plain recipes.

Node counts are those of one training step under ``RunOptions(FULL_TRACE)`` with
the default Session config (grappler on), minus the same step unclipped: what
``benchmarks/bench_clip.py`` reports as nodes per variable. They pin the graph
built on TensorFlow 2.21 (benchmarks/RESULTS.md). What the code guarantees on every supported
TensorFlow is exact (the kernels per variable, the node added per added variable); what
grappler decides (constants it folds, the scalar arithmetic it rewrites) is an upper bound.
"""

import collections

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.core import _batching, _pairs

v1 = tf.compat.v1

# Two batches whatever the repeat count: kernels with trailing dim 4, and rank-1 biases.
SMALL = [(3, 4), (5, 4), (4,), (6,)]
# Over _batching.MAX_ELEMENTS: one reduction each.
LARGE = [(40, 40), (50, 30)]
# Ops the unclipped step never runs and scalar norm arithmetic; everything else a clip adds.
SCALAR_MATH = {"AddN", "AddV2", "Minimum", "Reciprocal", "RealDiv", "Sqrt", "Sub"}


def _exact_and_bounded(ops, exact, bounded):
    """``ops`` has exactly the counts in ``exact``, and at most those in ``bounded`` of any other type."""
    assert {k: ops.get(k, 0) for k in exact} == exact
    others = {k: v for k, v in ops.items() if k not in exact}
    assert set(others) <= set(bounded), others
    assert all(v <= bounded[k] for k, v in others.items()), others


def _global(gv):
    return tf1clip.clip_by_global_norm(gv, 1.0)[0]


def _each(gv):
    return tf1clip.clip_by_norm(gv, 1.0)


def _value(gv):
    return tf1clip.clip_by_value(gv, -0.5, 0.5)


def _op_type(node):
    label = node.timeline_label
    return label.split(" = ")[-1].split("(")[0] if " = " in label else node.node_name


def _step(shapes, clip, dtypes=(), embedding_rows=0):
    """Runs one traced SGD step; returns (Counter of executed op types, node stats)."""
    with tf.Graph().as_default():
        variables, loss = [], 0.0
        for i, shape in enumerate(shapes):
            dtype = tf.float16 if i in dtypes else tf.float32
            var = v1.get_variable("v%d" % i, shape, dtype, initializer=v1.ones_initializer())
            variables.append(var)
            loss += tf.cast(tf.reduce_sum(tf.square(var)), tf.float32)
        if embedding_rows:
            table = v1.get_variable("emb", [embedding_rows, 4], initializer=v1.ones_initializer())
            variables.append(table)
            loss += tf.reduce_sum(tf.square(tf.nn.embedding_lookup(table, tf.constant([1, 5, 5, 7]))))
        optimizer = v1.train.GradientDescentOptimizer(0.1)
        pairs = optimizer.compute_gradients(loss, var_list=variables)
        if clip is not None:
            with tf.name_scope("clip"):
                pairs = clip(pairs)
        if embedding_rows:
            assert isinstance(pairs[-1][0], tf.IndexedSlices)
        train = optimizer.apply_gradients(pairs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train)
            metadata = v1.RunMetadata()
            sess.run(train, options=v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE), run_metadata=metadata)
    nodes = [n for dev in metadata.step_stats.dev_stats for n in dev.node_stats]
    return collections.Counter(_op_type(n) for n in nodes), nodes


def _added(shapes, clip, **kwargs):
    """Op types (and total) that ``clip`` adds to the executed step."""
    clipped, _ = _step(shapes, clip, **kwargs)
    plain, _ = _step(shapes, None, **kwargs)
    added = clipped - plain
    assert not (plain - clipped), "clipping removed nodes: %s" % (plain - clipped)
    return sum(added.values()), dict(added)


# --- node counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("repeat", [1, 6])
def test_global_norm_many_small_one_node_per_variable(repeat):
    n = 4 * repeat
    total, ops = _added(SMALL * repeat, _global)
    # Per batch: ConcatV2 + its axis Const + L2Loss; per variable: one Mul;
    # once: AddN, Mul(*2), Sqrt, Reciprocal, Minimum, Sub, AddV2 and a Const
    # (TF 2.21). Exact: one Mul per variable; the constant part is an upper
    # bound, as grappler's constant handling differs between TF versions.
    assert ops["Mul"] == n + 1 and ops["L2Loss"] == 2
    assert set(ops) <= {"ConcatV2", "L2Loss", "Mul", "Const", "AddN"} | SCALAR_MATH
    assert n < total <= n + 14


@pytest.mark.parametrize("repeat", [1, 6])
def test_per_tensor_norm_many_small_one_node_per_variable(repeat):
    n = 4 * repeat
    total, ops = _added(SMALL * repeat, _each)
    # Per batch: ConcatV2, Square, SegmentSum (+ Sum for rank 2) and their
    # Consts; the two norm vectors joined by one ConcatV2; one Unpack of the
    # scales; per variable: one Mul.
    # (TF 2.21: ConcatV2 3, Square 2, Sum 1, SegmentSum 2, Const 7, one each of the
    # scalar math, Unpack 1.) Exact: one Mul per variable; the rest an upper bound.
    assert ops["Mul"] == n and ops["Unpack"] == 1
    assert n < total <= n + 21


@pytest.mark.parametrize("clip", [_global, _each, _value], ids=["global", "each", "value"])
def test_exactly_one_executed_node_per_added_variable(clip):
    # The guarantee, on every TensorFlow version: six times the variables cost
    # exactly one more executed node per added variable.
    few, _ = _added(SMALL, clip)
    many, _ = _added(SMALL * 6, clip)
    assert many - few == len(SMALL) * 5


@pytest.mark.parametrize("shapes", [SMALL * 3, LARGE], ids=["small", "large"])
def test_value_clipping_is_one_kernel_per_variable(shapes):
    total, ops = _added(shapes, _value)
    _exact_and_bounded(ops, {"ClipByValue": len(shapes)}, {"Const": 2})  # TF 2.15, 2.21: Const 2


def test_value_clipping_of_huge_gradients_is_maximum_then_minimum():
    # From _VALUE_MINMAX_MIN_ELEMENTS (65,536) elements on, Maximum + Minimum replace
    # ClipByValue (faster in training steps there: benchmarks/RESULTS.md); one fewer
    # element keeps ClipByValue.
    huge = [(256, 256), (300, 300), (70000,)]
    total, ops = _added(SMALL + [(65535,)] + huge, _value)
    _exact_and_bounded(ops, {"ClipByValue": len(SMALL) + 1, "Maximum": 3, "Minimum": 3}, {"Const": 2})


def test_large_tensors_one_reduction_and_one_multiply_each():
    # One L2Loss per tensor and one Mul per tensor plus the norm's; the scalar arithmetic (TF 2.15 and
    # 2.21: one each of AddN, Const, Sqrt, Reciprocal, Minimum, Sub, AddV2) is bounded.
    scalar = dict.fromkeys(SCALAR_MATH | {"Const"}, 1)
    _, ops = _added(LARGE * 2, _global)
    _exact_and_bounded(ops, {"L2Loss": 4, "Mul": 5}, scalar)
    _, ops = _added(LARGE * 2, _each)
    _exact_and_bounded(ops, {"L2Loss": 4, "Mul": 5, "Pack": 1, "Unpack": 1}, scalar)


def test_no_cast_when_dtypes_match_and_one_per_float16_batch():
    for clip in (_global, _each, _value):
        assert "Cast" not in _added(SMALL * 2, clip)[1]
    # float16 at positions 1, 2, 5, 6 form two batches, {1, 5} (rank 1) and
    # {2, 6} (shape (5, 4)): each is cast up once for its reduction; each float16
    # gradient is multiplied in float32 (cast up and back: 2 per tensor) so that
    # a tiny scale does not underflow float16.
    shapes = [(3, 4), (4,), (5, 4), (2, 3)] * 2
    _, ops = _added(shapes, _global, dtypes=(1, 2, 5, 6))
    assert ops["Cast"] == 2 + 2 * 4
    assert ops["L2Loss"] == 4 and ops["Mul"] == len(shapes) + 1


@pytest.mark.parametrize("clip", [_global, _each, _value], ids=["global", "each", "value"])
def test_indexed_slices_never_densified(clip):
    rows = 100000
    total, ops = _added([(3, 4)], clip, embedding_rows=rows)
    assert set(ops) <= SCALAR_MATH | {"L2Loss", "Mul", "Const", "Pack", "Unpack", "ClipByValue"}
    assert total <= 13
    _, nodes = _step([(3, 4)], clip, embedding_rows=rows)
    clip_nodes = [n for n in nodes if n.node_name.startswith("clip/")]
    assert clip_nodes
    for node in clip_nodes:
        for out in node.output:
            assert out.tensor_description.allocation_description.requested_bytes < 1024, node.node_name


# --- fast paths equal the plain recipes -----------------------------------------------------------


def _random_pairs(rng):
    """Small same-key tensors, a large one, an IndexedSlices, float16/float32 and None."""
    specs = [
        ((3, 4), np.float32),
        ((6,), np.float32),
        ((5, 4), np.float32),
        ((40, 40), np.float32),
        ((2, 4), np.float32),
        ((7,), np.float32),
        ((4,), np.float16),
        ((3, 2), np.float16),
        ((5, 2), np.float16),
        ((), np.float32),
    ]
    arrays, pairs = [], []
    for i, (shape, dtype) in enumerate(specs):
        a = (rng.randn(*shape) * rng.choice([0.05, 1.0, 4.0])).astype(dtype)
        arrays.append(a)
        var = tf.Variable(tf.zeros(shape, dtype), name="v%d" % i)
        pairs.append((tf.constant(a), var))
    values = rng.randn(4, 3).astype(np.float32) * 2
    indices = np.array([0, 7, 7, 2], np.int64)
    pairs.append(
        (
            tf.IndexedSlices(tf.constant(values), tf.constant(indices), tf.constant([10, 3], tf.int64)),
            tf.Variable(tf.zeros([10, 3]), name="table"),
        )
    )
    arrays.append(values)
    pairs.append((None, tf.Variable(0.0, name="unused")))
    return arrays, pairs


def _fetch(pairs):
    return [(g.values if isinstance(g, tf.IndexedSlices) else g) for g, _ in pairs if g is not None]


def _tol(dtype):
    return dict(rtol=2e-3, atol=1e-3) if dtype == np.float16 else dict(rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fast_paths_equal_plain_tf_recipes(seed):
    rng = np.random.RandomState(seed)
    with tf.Graph().as_default(), v1.Session() as sess:
        arrays, pairs = _random_pairs(rng)
        grads = [g for g, _ in pairs if g is not None]
        up = [tf.cast(_pairs.values(g), tf.float32) for g in grads]
        clip_norm = float(rng.choice([0.5, 3.0]))
        ours_global, our_norm = tf1clip.clip_by_global_norm(pairs, clip_norm)
        theirs_global, their_norm = tf.clip_by_global_norm(up, clip_norm)
        ours_each = tf1clip.clip_by_norm(pairs, clip_norm)
        theirs_each = [tf.clip_by_norm(u, clip_norm) for u in up]
        ours_value = tf1clip.clip_by_value(pairs, -0.3, 0.4)
        theirs_value = [tf.clip_by_value(_pairs.values(g), -0.3, 0.4) for g in grads]
        assert isinstance(ours_global[-2][0], tf.IndexedSlices)
        assert isinstance(ours_each[-2][0], tf.IndexedSlices)
        assert ours_global[-1][0] is None and ours_each[-1][0] is None and ours_value[-1][0] is None
        out = sess.run(
            dict(
                og=_fetch(ours_global),
                tg=theirs_global,
                on=our_norm,
                tn=their_norm,
                oe=_fetch(ours_each),
                te=theirs_each,
                ov=_fetch(ours_value),
                tv=theirs_value,
            )
        )
    assert out["on"] == pytest.approx(out["tn"], rel=1e-6)
    for a, og, tg, oe, te, ov, tv in zip(arrays, out["og"], out["tg"], out["oe"], out["te"], out["ov"], out["tv"]):
        assert og.dtype == oe.dtype == ov.dtype == a.dtype
        np.testing.assert_allclose(og, tg, **_tol(a.dtype))
        np.testing.assert_allclose(oe, te, **_tol(a.dtype))
        np.testing.assert_array_equal(ov, tv)


@pytest.mark.parametrize("seed", [0, 1])
def test_batched_norms_equal_one_reduction_per_tensor(seed, monkeypatch):
    def build_and_run():
        rng = np.random.RandomState(seed)
        with tf.Graph().as_default(), v1.Session() as sess:
            _, pairs = _random_pairs(rng)
            sizes = tf.constant([2.0])
            results = sess.run(
                dict(
                    g=_fetch(tf1clip.clip_by_global_norm(pairs, 1.0)[0]),
                    n=tf1clip.global_norm(pairs),
                    e=_fetch(tf1clip.clip_by_norm(pairs, sizes[0])),
                    a=_fetch(tf1clip.clip_by_average_norm(pairs, 0.02)),
                )
            )
            ops = {op.type for op in tf.compat.v1.get_default_graph().get_operations()}
        return results, ops

    batched, batched_ops = build_and_run()
    monkeypatch.setattr(_batching, "MAX_ELEMENTS", 0)
    plain, plain_ops = build_and_run()
    assert "ConcatV2" in batched_ops and "ConcatV2" not in plain_ops
    assert batched["n"] == pytest.approx(plain["n"], rel=1e-6)
    for key in ("g", "e", "a"):
        for x, y in zip(batched[key], plain[key]):
            np.testing.assert_allclose(x, y, **_tol(x.dtype))


def test_average_norm_with_batches_out_of_order_matches_numpy():
    # Batch {0, 2} (trailing dim 3) is listed before the large single 1 and
    # the batch {3, 4}: the per-tensor limits must follow the reordering.
    rng = np.random.RandomState(5)
    arrays = [rng.randn(*s).astype(np.float32) * 3 for s in [(2, 3), (40, 40), (5, 3), (4,), (9,)]]
    with tf.Graph().as_default(), v1.Session() as sess:
        pairs = [(tf.constant(a), tf.Variable(tf.zeros(a.shape))) for a in arrays]
        out = sess.run([g for g, _ in tf1clip.clip_by_average_norm(pairs, 0.05)])
    for a, o in zip(arrays, out):
        limit = 0.05 * a.size
        norm = np.sqrt(np.sum(np.square(a, dtype=np.float64)))
        np.testing.assert_allclose(o, a * min(limit / norm, 1.0), rtol=2e-6)


def test_batches_never_mix_devices_or_dtypes():
    with tf.Graph().as_default():
        pairs = []
        for i, (device, dtype) in enumerate(
            [("/job:a", tf.float32), ("/job:b", tf.float32), ("/job:a", tf.float32), ("/job:a", tf.float16)]
        ):
            with tf.device(device):
                pairs.append((tf.ones([2, 3], dtype) * 2, tf.Variable(tf.zeros([2, 3], dtype), name="v%d" % i)))
        tf1clip.clip_by_global_norm(pairs, 1.0)
        concats = [op for op in tf.compat.v1.get_default_graph().get_operations() if op.type == "ConcatV2"]
    assert len(concats) == 1
    inputs = concats[0].inputs[:-1]
    assert [t.op.device for t in inputs] == ["/job:a"] * 2
    assert {t.dtype for t in inputs} == {tf.float32}


def test_eager_batched_equals_graph():
    rng = np.random.RandomState(7)
    arrays = [rng.randn(*s).astype(np.float32) for s in SMALL * 3]
    variables = [tf.Variable(tf.zeros(a.shape)) for a in arrays]
    eager = tf1clip.clip_by_norm([(tf.constant(a), v) for a, v in zip(arrays, variables)], 0.5)
    for a, (g, _) in zip(arrays, eager):
        norm = np.sqrt(np.sum(np.square(a, dtype=np.float64)))
        np.testing.assert_allclose(g.numpy(), a * min(0.5 / norm, 1.0), rtol=2e-6)


# --- the on_nonfinite policies at batch cost ------------------------------------------------


def _policy_step_nodes(n, policy, capper="global"):
    """(executed nodes, nodes in the partition graph) of one Adam step through the wrapper,
    over n dense layers (a kernel and a bias each, so the gradients come out of
    ``tf.gradients``' tuples) and an embedding (an IndexedSlices gradient)."""
    with tf.Graph().as_default():
        table = v1.get_variable("table", [10, 4], initializer=v1.ones_initializer())
        h = tf.nn.embedding_lookup(table, tf.constant([1, 3, 3]))
        for i in range(n):
            kernel = v1.get_variable("k%d" % i, [4, 4], initializer=v1.glorot_uniform_initializer(seed=i))
            h = tf.tanh(tf.matmul(h, kernel) + v1.get_variable("b%d" % i, [4], initializer=v1.zeros_initializer()))
        loss = tf.reduce_sum(tf.square(h))
        if capper == "global":
            fn = tf1clip.clip_by_global_norm_fn(1.0)
        else:  # a capper the policies know nothing about: its output is checked too
            fn = tf1clip.chain(tf1clip.clip_by_global_norm_fn(1.0), lambda gv: gv)
        opt = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.1), fn, on_nonfinite=policy)
        train = opt.minimize(loss)
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            sess.run(train)
            metadata = v1.RunMetadata()
            options = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE, output_partition_graphs=True)
            sess.run(train, options=options, run_metadata=metadata)
    executed = sum(len(dev.node_stats) for dev in metadata.step_stats.dev_stats)
    return executed, sum(len(graph.node) for graph in metadata.partition_graphs)


@pytest.mark.parametrize("capper", ["global", "custom"])
@pytest.mark.parametrize("policy", ["skip", "raise"])
def test_policies_add_no_node_per_variable(policy, capper):
    # Exact: the policy's cost does not grow with the variable count, neither in
    # the nodes a step executes (finiteness is read off the batched norms; the
    # apply is gated by one Switch) nor in the graph the executor walks, whose
    # dead branch (the exact check and "raise"'s message, run only on a failing
    # step) is built per batch of gradients, and which must not keep the
    # gradient tuples' Identity nodes that grappler removes without a policy.
    few = np.subtract(_policy_step_nodes(4, policy, capper), _policy_step_nodes(4, "nan", capper))
    many = np.subtract(_policy_step_nodes(24, policy, capper), _policy_step_nodes(24, "nan", capper))
    assert list(many) == list(few)
    # Upper bounds on the constants (TF 2.21, executed / in the graph: skip 15 / 66 and
    # raise 5 / 54 with the global-norm capper, 11 more of each with another capper,
    # whose output is normed too; grappler may differ on other versions).
    assert 0 < few[0] <= {"skip": 30, "raise": 20}[policy], few
    assert few[1] <= 120, few
