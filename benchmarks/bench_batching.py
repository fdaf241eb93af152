"""How large a gradient may be and still share its norm reduction (``_batching.MAX_ELEMENTS``).

Run from the repository root (about 1 minute per shape set)::

    python benchmarks/bench_batching.py
    python benchmarks/bench_batching.py --shapes "[(64, 64), (64,)]" --limits 0,1024,4096

For each set of shapes, 200 variables cycle through the shapes; the measured
step reads them, multiplies by 2 (the "gradients"), clips, and assigns the
results to 200 other variables. The step is built once per variant:
unclipped, and tf1clip's global and per-tensor norm clipping with
``tf1clip.core._batching.MAX_ELEMENTS`` set to each limit while the clipping
ops are built (0 = one reduction per tensor, no batching). Variants are timed
interleaved (best of 4 chunks of 10 steps per round, single-threaded
Session); the table gives the median over rounds of the time each variant adds
to the unclipped step, in microseconds per variable.
"""

import argparse
import ast
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

DEFAULT_SHAPES = [
    "[(8, 8), (8,)]",
    "[(16, 24), (24,), (24, 32), (32,), (32, 16), (16,)]",
    "[(64, 64), (64,)]",
    "[(128, 128)]",
]


def _build(shapes, clip, limit, n_vars):
    import tensorflow as tf

    from tf1clip.core import _batching

    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        src = [v1.get_variable("s%d" % i, shapes[i % len(shapes)]) for i in range(n_vars)]
        dst = [v1.get_variable("d%d" % i, shapes[i % len(shapes)]) for i in range(n_vars)]
        pairs = [(s * 2.0, d) for s, d in zip(src, dst)]
        if clip is not None:
            saved = _batching.MAX_ELEMENTS
            _batching.MAX_ELEMENTS = limit
            try:
                pairs = clip(pairs)
            finally:
                _batching.MAX_ELEMENTS = saved
        step = tf.group(*[d.assign(g) for g, d in pairs])
        init = v1.global_variables_initializer()
    sess = v1.Session(
        graph=graph, config=v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    )
    sess.run(init)
    sess.run(step)
    return sess, step


def measure(shapes, limits, n_vars=200, rounds=40):
    import numpy as np

    import tf1clip

    kinds = {
        "global": lambda pairs: tf1clip.clip_by_global_norm(pairs, 1.0)[0],
        "per tensor": lambda pairs: tf1clip.clip_by_norm(pairs, 1.0),
    }
    built = {("unclipped", 0): _build(shapes, None, 0, n_vars)}
    for kind, clip in kinds.items():
        for limit in limits:
            built[(kind, limit)] = _build(shapes, clip, limit, n_vars)
    keys = list(built)
    extra = {k: [] for k in keys}
    for r in range(rounds):
        seconds = {}
        for key in keys if r % 2 == 0 else keys[::-1]:
            sess, step = built[key]
            best = float("inf")
            for _ in range(4):
                start = time.perf_counter()
                for _ in range(10):
                    sess.run(step)
                best = min(best, (time.perf_counter() - start) / 10)
            seconds[key] = best
        for key in keys:
            extra[key].append(seconds[key] - seconds[("unclipped", 0)])
    for sess, _ in built.values():
        sess.close()
    return {key: 1e6 * float(np.median(v)) / n_vars for key, v in extra.items() if key[0] != "unclipped"}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", action="append", help="a Python list of shapes (repeatable)")
    parser.add_argument(
        "--limits",
        default="0,256,1024,4096,16384",
        help="comma-separated _batching.MAX_ELEMENTS values (default %(default)s)",
    )
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args(argv)
    limits = [int(x) for x in args.limits.split(",")]
    print("us added per variable (median over %d rounds), by _batching.MAX_ELEMENTS:" % args.rounds)
    print("| shapes | clipping | " + " | ".join(str(x) for x in limits) + " |")
    print("|---|---|" + "---|" * len(limits))
    for text in args.shapes or DEFAULT_SHAPES:
        shapes = [tuple(s) for s in ast.literal_eval(text)]
        result = measure(shapes, limits, rounds=args.rounds)
        for kind in ("global", "per tensor"):
            cells = ["%.2f" % result[(kind, limit)] for limit in limits]
            print("| %s | %s | %s |" % (text, kind, " | ".join(cells)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
