"""Probe: TensorFlow's SparseApplyAdagrad kernel against the same update written as gather, math, scatter_update.

    python benchmarks/probes/sparse_adagrad_formulation.py [--dim 64] [--rows 50000] [--runs 300]

No tf1clip. Two copies of a ``rows`` x ``dim`` reference variable and its accumulator (0.1), four batches of
unique ids (2,560 draws each) with random gradients. One copy is updated by ``SparseApplyAdagrad`` (what
``AdagradOptimizer`` runs for a sparse gradient after summing duplicate ids), the other by

    acc_rows = gather(acc, ids) + square(g);  scatter_update(acc, ids, acc_rows)
    scatter_update(var, ids, gather(var, ids) - lr * g * rsqrt(acc_rows))

which is the kernel's arithmetic in the kernel's order. Prints whether both copies are bitwise equal after four
updates, saves the kernel's result (``--save``) for comparing runtimes, and the median time of each update and the
median per-pair ratio over ``runs`` interleaved pairs (one-thread pools).
"""

import argparse
import time

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
if tf.__version__.startswith("2"):
    v1.disable_v2_behavior()


def build(rows, dim):
    """The two updates on their own variables; returns (kernel op, formulation op, feeds' placeholders, vars)."""
    init = np.random.RandomState(1).uniform(-0.05, 0.05, (rows, dim)).astype(np.float32)
    ids = v1.placeholder(tf.int32, [None])
    grad = v1.placeholder(tf.float32, [None, dim])
    lr = tf.constant(0.1)
    made = []
    for name in ("kernel", "formulation"):
        var = v1.get_variable(name, initializer=init, use_resource=False)
        acc = v1.get_variable(name + "_acc", initializer=np.full((rows, dim), 0.1, np.float32), use_resource=False)
        made.append((var, acc))
    (var, acc), (var2, acc2) = made
    kernel = v1.raw_ops.SparseApplyAdagrad(var=var._ref(), accum=acc._ref(), lr=lr, grad=grad, indices=ids)
    acc_rows = tf.gather(acc2, ids) + tf.square(grad)
    with tf.control_dependencies([v1.scatter_update(acc2, ids, acc_rows)]):
        formulation = v1.scatter_update(var2, ids, tf.gather(var2, ids) - lr * grad * tf.math.rsqrt(acc_rows))
    return kernel, formulation, (ids, grad), (var, var2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=50000)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--save", default="")
    args = parser.parse_args()
    rng = np.random.RandomState(0)
    batches = []
    for _ in range(4):
        ids = np.unique(rng.randint(0, args.rows, 2560)).astype(np.int32)
        batches.append((ids, (0.1 * rng.randn(ids.size, args.dim)).astype(np.float32)))
    kernel, formulation, (ids, grad), (var, var2) = build(args.rows, args.dim)
    cfg = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    with v1.Session(config=cfg) as sess:
        sess.run(v1.global_variables_initializer())
        for i, g in batches:
            sess.run([kernel.op, formulation.op], {ids: i, grad: g})
        a, b = sess.run([var, var2])
        if args.save:
            np.save(args.save, a)
        print(
            tf.__version__, "dim=%d bitwise equal: %s" % (args.dim, np.array_equal(a.view(np.int32), b.view(np.int32)))
        )
        times = {kernel.op: [], formulation.op: []}
        for step in range(args.runs):
            i, g = batches[step % 4]
            for op in times:
                start = time.perf_counter()
                sess.run(op, {ids: i, grad: 1e-3 * g})
                times[op].append(time.perf_counter() - start)
    k, f = np.array(times[kernel.op]), np.array(times[formulation.op])
    print(
        tf.__version__,
        "kernel %.3f ms, formulation %.3f ms, median per-pair formulation/kernel %.3f"
        % (1e3 * np.median(k), 1e3 * np.median(f), np.median(f / k)),
    )


if __name__ == "__main__":
    main()
