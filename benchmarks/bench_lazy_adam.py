"""LazyAdam step time against vocabulary size, and against Adam on a small vocabulary.

One embedding [rows, DIM], a sparse gradient of BATCH ids (with repeats) per
step. Variants:

* ``lazy-<rows>``: ``tf1clip.contrib.opt.LazyAdamOptimizer`` for 10k, 100k, 1M rows;
  the step touches only the rows present, so its time must not grow with rows;
* ``adam-<small>``: ``tf.compat.v1.train.AdamOptimizer`` (decays all of m and v
  every step) on the small vocabulary, where LazyAdam should cost at most about
  the same (target: <= 1.05x).

Variants are built once (one graph and single-threaded Session each) and run
interleaved: each round times STEPS single steps of every variant in turn and
keeps their median (robust to a loaded machine); the table gives the median of
those over the rounds, and the per-round ratios. Usage::

    PYTHONPATH=$PWD python benchmarks/bench_lazy_adam.py [--rounds 7] [--steps 200]
"""

import argparse
import platform
import statistics
import time

import numpy as np
import tensorflow as tf

from tf1clip.contrib.opt import LazyAdamOptimizer

v1 = tf.compat.v1
DIM = 16
BATCH = 256
SMALL = 10_000


def build(kind, rows):
    graph = tf.Graph()
    with graph.as_default():
        emb = v1.get_variable("emb", [rows, DIM], initializer=v1.random_normal_initializer(seed=1))
        ids = v1.placeholder(tf.int32, [BATCH])
        loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, ids)))
        opt = LazyAdamOptimizer(0.001) if kind == "lazy" else v1.train.AdamOptimizer(0.001)
        train = opt.minimize(loss)
        init = v1.global_variables_initializer()
    config = v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    sess = v1.Session(graph=graph, config=config)
    sess.run(init)
    return sess, train, ids


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    variants = [("lazy", 10_000), ("lazy", 100_000), ("lazy", 1_000_000), ("adam", SMALL)]
    built = {"%s-%d" % v: build(*v) for v in variants}
    rng = np.random.RandomState(0)
    times = {name: [] for name in built}
    for _ in range(args.rounds):
        for name, (sess, train, ids) in built.items():
            rows = int(name.split("-")[1])
            feeds = [{ids: rng.randint(0, min(rows, SMALL), size=BATCH)} for _ in range(args.steps)]
            sess.run(train, feeds[0])  # warm
            step_times = []
            for feed in feeds:
                start = time.perf_counter()
                sess.run(train, feed)
                step_times.append(time.perf_counter() - start)
            times[name].append(statistics.median(step_times) * 1e6)
    print("TensorFlow %s, Python %s, %s" % (tf.__version__, platform.python_version(), platform.processor() or "cpu"))
    print("| variant | median us/step | per-round us/step |")
    print("|---|---|---|")
    for name, ts in times.items():
        print("| %s | %.1f | %s |" % (name, statistics.median(ts), ", ".join("%.0f" % t for t in ts)))
    for num, den in [("lazy-100000", "lazy-10000"), ("lazy-1000000", "lazy-10000"), ("lazy-10000", "adam-10000")]:
        ratios = [a / b for a, b in zip(times[num], times[den])]
        per_round = ", ".join("%.2f" % r for r in ratios)
        print("%s / %s: median %.3f, per round %s" % (num, den, statistics.median(ratios), per_round))


if __name__ == "__main__":
    main()
