"""Probe: per-op kernel times of the embedding_sparse training step (plain AdagradOptimizer.minimize), no tf1clip.

    python benchmarks/probes/embedding_step_stats.py [--no-grappler] [--resource] [--runs 200] [--top 16]

The model of benchmarks/probes/embedding_runtime.py (a 50,000 x 64 reference-variable table, 128 x 20 ids,
two dense layers, Adagrad) with one-thread pools. Prints the executed partition graph's node count and op
kinds, then the median ``all_end_rel_micros`` of each node over ``runs`` FULL_TRACE runs (the CPU device's
stats, not the host tracer's), the largest first, and their sum. ``--no-grappler`` turns off every grappler
optimizer (``RewriterConfig.disable_meta_optimizer``), ``--resource`` makes the table a resource variable.
Run it with the TF 1.15 venv (TF2_BEHAVIOR and PYTHONPATH unset) and the current TensorFlow, interleaved.
"""

import argparse
import collections

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
if tf.__version__.startswith("2"):
    v1.disable_v2_behavior()


def build(resource):
    """The embedding_sparse model trained by plain Adagrad; returns (train op, ids, labels)."""
    ids = v1.placeholder(tf.int32, [128, 20])
    labels = v1.placeholder(tf.int32, [128])
    init = v1.random_uniform_initializer(-0.05, 0.05, seed=1)
    table = v1.get_variable("embedding", [50000, 64], initializer=init, use_resource=resource)
    features = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
    w1 = v1.get_variable("w1", [64, 64])
    w2 = v1.get_variable("w2", [64, 2])
    logits = tf.matmul(tf.nn.relu(tf.matmul(features, w1)), w2)
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = v1.train.AdagradOptimizer(0.1).minimize(loss, global_step=v1.train.get_or_create_global_step())
    return train_op, ids, labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-grappler", action="store_true")
    parser.add_argument("--resource", action="store_true")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--top", type=int, default=16)
    args = parser.parse_args()
    train_op, ids, labels = build(args.resource)
    rng = np.random.RandomState(0)
    batches = [{ids: rng.randint(0, 50000, (128, 20)), labels: rng.randint(0, 2, 128)} for _ in range(8)]
    cfg = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    if args.no_grappler:
        cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    opts = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE, output_partition_graphs=True)
    per_node, kinds = collections.defaultdict(list), {}
    with v1.Session(config=cfg) as sess:
        sess.run(v1.global_variables_initializer())
        for i in range(20):
            sess.run(train_op, batches[i % 8])
        for i in range(args.runs):
            meta = v1.RunMetadata()
            sess.run(train_op, batches[i % 8], options=opts, run_metadata=meta)
            if i == 0:
                for graph in meta.partition_graphs:
                    kinds.update((n.name, n.op) for n in graph.node)
                    ops = sorted(collections.Counter(n.op for n in graph.node).items())
                    print(tf.__version__, "partition graph: %d nodes" % len(graph.node), dict(ops))
            for dev in meta.step_stats.dev_stats:
                if not dev.device.startswith("/host"):
                    for node in dev.node_stats:
                        per_node[node.node_name].append(node.all_end_rel_micros)
    medians = sorted(((float(np.median(t)), name) for name, t in per_node.items()), reverse=True)
    print(tf.__version__, "sum of per-node medians: %.1f us" % sum(m for m, _ in medians))
    for micros, name in medians[: args.top]:
        print(tf.__version__, "%8.1f us  %-22s %s" % (micros, kinds.get(name, "?"), name))


if __name__ == "__main__":
    main()
