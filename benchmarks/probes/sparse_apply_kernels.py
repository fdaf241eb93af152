"""Probe: the per-row cost of the sparse kernels behind a sparse Adagrad step, TensorFlow only.

    python benchmarks/probes/sparse_apply_kernels.py [--rows 50000] [--dim 64] [--runs 200]

No tf1clip. One graph per kernel, each on a reference variable of ``rows`` x ``dim`` floats and the
2,560 ids of one embedding_sparse batch (128 x 20, about 2,500 unique): ``SparseApplyAdagrad``,
``UnsortedSegmentSum`` (the ``embedding_lookup`` gradient summed per unique id), ``GatherV2``,
``Unique``, ``ScatterAdd``, and a dense ``ApplyAdagrad`` of a ``2,560 x dim`` variable for scale.
One-thread pools. Prints, per kernel, the median op time from ``RunMetadata.step_stats`` over
``runs`` traced runs (the kernel alone, no executor or Python overhead). Run it with the TF 1.15
venv (TF2_BEHAVIOR and PYTHONPATH unset) and the current TensorFlow, interleaved, and compare the
per-kernel ratios.
"""

import argparse

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
if tf.__version__.startswith("2"):
    v1.disable_v2_behavior()


def fed(value):
    """A placeholder fed ``value`` (so grappler cannot fold the kernel away) and its feed entry."""
    holder = v1.placeholder(tf.as_dtype(value.dtype), value.shape)
    FEEDS[holder] = value
    return holder


FEEDS = {}
KINDS = ("SparseApplyAdagrad", "UnsortedSegmentSum", "GatherV2", "Unique", "ScatterAdd", "ApplyAdagrad")


def build(kind, rows, dim, ids):
    """The op named ``kind`` on fresh reference variables; returns (op, its node name)."""
    FEEDS.clear()
    uniq, idx = np.unique(ids, return_inverse=True)
    uniq, idx = uniq.astype(np.int32), idx.astype(np.int32)
    init = v1.random_uniform_initializer(-0.05, 0.05, seed=1)
    var = v1.get_variable("var", [rows, dim], initializer=init, use_resource=False)
    acc = v1.get_variable("acc", [rows, dim], initializer=v1.constant_initializer(0.1), use_resource=False)
    grad_rows = fed(np.full((ids.size, dim), 0.01, np.float32))
    if kind == "SparseApplyAdagrad":
        grad = fed(np.full((uniq.size, dim), 0.01, np.float32))
        op = v1.raw_ops.SparseApplyAdagrad(var=var._ref(), accum=acc._ref(), lr=0.1, grad=grad, indices=fed(uniq))
    elif kind == "UnsortedSegmentSum":
        op = tf.math.unsorted_segment_sum(grad_rows, fed(idx), uniq.size)
    elif kind == "GatherV2":
        op = tf.gather(var, fed(ids))
    elif kind == "Unique":
        op = tf.unique(fed(ids))[0]
    elif kind == "ScatterAdd":
        grad = fed(np.full((uniq.size, dim), 0.01, np.float32))
        op = v1.scatter_add(var, fed(uniq), grad)
    else:
        small = v1.get_variable("small", [ids.size, dim], initializer=init, use_resource=False)
        small_acc = v1.get_variable("small_acc", [ids.size, dim], initializer=v1.constant_initializer(0.1))
        op = v1.raw_ops.ApplyAdagrad(var=small._ref(), accum=small_acc._ref(), lr=0.1, grad=grad_rows)
    return op, op.name.split(":")[0]


def op_micros(kind, rows, dim, runs, ids):
    """Median ``all_end_rel_micros`` of the kernel's node over ``runs`` traced runs."""
    graph = tf.Graph()
    with graph.as_default():
        op, name = build(kind, rows, dim, ids)
        cfg = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
        opts = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE)
        with v1.Session(config=cfg) as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(10):
                sess.run(op, FEEDS)
            times = []
            for _ in range(runs):
                meta = v1.RunMetadata()
                sess.run(op, FEEDS, options=opts, run_metadata=meta)
                for dev in meta.step_stats.dev_stats:
                    if dev.device.startswith("/host"):
                        continue
                    times += [n.all_end_rel_micros for n in dev.node_stats if n.node_name == name]
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=50000)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    ids = np.random.RandomState(0).randint(0, args.rows, 128 * 20).astype(np.int32)
    for kind in args.kinds.split(","):
        print(
            "%s rows=%d dim=%d %-20s %8.1f us"
            % (tf.__version__, args.rows, args.dim, kind, op_micros(kind, args.rows, args.dim, args.runs, ids))
        )


if __name__ == "__main__":
    main()
