"""Cost of gradient clipping in tf.compat.v1 graphs: raw TensorFlow recipes vs tf1clip.

Run from the repository root::

    python benchmarks/bench_clip.py                      # every scenario, ~5 minutes
    python benchmarks/bench_clip.py --scenario many_small --rounds 60

Each scenario runs in its own Python process (one TensorFlow runtime per
scenario). Inside it, the same model is built once per variant (unclipped, the
raw TensorFlow recipes, tf1clip), each in its own Graph and Session, and the
variants are then timed interleaved: every round runs each variant in turn
(alternating the order) for ``--chunks`` chunks of ``--steps`` training steps
and keeps its fastest chunk (a chunk during which another process took the
core is discarded), and the round's step time of a variant is divided by the
unclipped one's. The table reports the median of these per-round ratios with
the interquartile range, so load from other processes on a shared machine
cancels out as far as it can.

Columns:

* ``ratio`` - median over rounds of (step time with clipping) / (unclipped step
  time), wall clock, with the 25th-75th percentile range; ``cpu ratio`` - the
  same with the process's CPU time (less sensitive to other processes);
* ``nodes/var`` - executed graph nodes added per variable:
  ``(nodes_clipped - nodes_unclipped) / n_vars``, nodes counted from the
  ``RunOptions(trace_level=FULL_TRACE)`` step stats of one training step (what
  the executor ran after grappler);
* ``build ms`` - time to build the clipping ops alone (the recipe's Python
  call, model and gradients already built), median over repetitions;
* ``peak MB`` - peak bytes allocated by the step's kernels and not yet freed,
  from the allocation records of the same traced step.

Sessions use the default ``ConfigProto`` (grappler on, default rewriters) with
``intra_op_parallelism_threads=1`` and ``inter_op_parallelism_threads=1`` so
that one step uses one core; each variant also gets a second Session with
TensorFlow's default thread pools (``--threads 1,0``), timed in the same
rounds, for the ``ratio, default pools`` column. Variants named ``tf1clip
wrapper ...`` wrap the optimizer with ``clip_gradients_by_norm`` and a
non-finite policy instead of clipping the pairs; the ``reference: ...`` row
is the "nan" wrapper plus one bare ``Switch``/``Merge`` pair, to show what
any conditional in the step costs (TensorFlow's executor runs every node of
a graph holding one in its slower control-flow mode).
"""

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

CLIP_NORM = 1.0
CLIP_VALUE = 0.01

# A reference row, not a recipe: the "nan" wrapper plus one Switch/Merge pair on a
# run-time predicate, which puts TensorFlow's executor in its control-flow mode for
# every node of the step. What any conditional (the policies' gates, tf.cond) costs.
BARE_SWITCH = "reference: nan wrapper + one bare Switch/Merge"

# name -> model description (see build_model); steps per chunk, chunks per
# variant per round (the fastest is kept), timing rounds, repetitions of the
# construction timing.
SCENARIOS = {
    "many_small": dict(
        title="many small: 100 dense layers, 200 variables (kernels 16x24/24x32/32x16 + biases), Adam",
        widths=[16, 24, 32] * 33 + [16, 24],
        batch=32,
        optimizer="adam",
        policies=True,
        steps=5,
        chunks=4,
        rounds=60,
        builds=7,
    ),
    "many_small_distinct": dict(
        title="many small, every shape distinct: 200 variables of shape [8, 8+i], Adam",
        distinct=200,
        batch=8,
        optimizer="adam",
        steps=5,
        chunks=4,
        rounds=40,
        builds=7,
    ),
    "few_large": dict(
        title="few large: 8 dense layers 1024x1024 (no bias), batch 16, Adam",
        widths=[1024] * 9,
        bias=False,
        batch=16,
        optimizer="adam",
        steps=1,
        chunks=2,
        rounds=20,
        builds=7,
    ),
    "sparse_embedding": dict(
        title="sparse: embedding 100000x64 (IndexedSlices, 1024 ids) + dense head, Adagrad",
        embedding=(100000, 64),
        widths=[64, 32],
        batch=1024,
        optimizer="adagrad",
        steps=5,
        chunks=4,
        rounds=40,
        builds=7,
    ),
    "mixed_precision": dict(
        title="mixed: 100 dense layers, 200 variables, odd layers float16 (kernels and biases), Adam",
        widths=[16, 24, 32] * 33 + [16, 24],
        half_every_other=True,
        batch=32,
        optimizer="adam",
        steps=5,
        chunks=4,
        rounds=40,
        builds=7,
    ),
    "many_2000": dict(
        title="many small at scale: 1000 dense layers, 2000 variables (kernels 16x16 + biases), Adam",
        widths=[16] * 1001,
        batch=4,
        optimizer="adam",
        policies=True,
        # A 2,000-variable graph takes about 45 s to build here: one thread setting.
        threads=(1,),
        steps=2,
        chunks=3,
        rounds=12,
        builds=3,
    ),
    "bert_base": dict(
        title="BERT-base-like set: 199 tensors, 109M parameters, loss sum(w**2)/2 (bandwidth-bound), Adam",
        bert=True,
        optimizer="adam",
        # 109M float32 parameters: variables, Adam slots and gradients are ~1.8 GB per Session,
        # so one thread setting and the norm recipes only.
        threads=(1,),
        only=(
            "unclipped",
            "tf.clip_by_norm per tensor",
            "tf.clip_by_global_norm",
            "tf1clip.clip_by_norm",
            "tf1clip.clip_by_global_norm",
        ),
        steps=1,
        chunks=1,
        rounds=6,
        builds=3,
    ),
    "construction_2000": dict(
        title="construction only: 2000 variables (1000 dense layers, kernels 16x16 + biases)",
        widths=[16] * 1001,
        batch=4,
        optimizer="adam",
        construction_only=True,
        steps=0,
        rounds=0,
        builds=3,
    ),
}


def _bert_shapes(hidden=768, layers=12, vocab=30522, positions=512, ffn=3072):
    """Shapes of BERT-base's trainable tensors (embeddings, 12 encoder layers, pooler)."""
    shapes = [(vocab, hidden), (positions, hidden), (2, hidden), (hidden,), (hidden,)]
    for _ in range(layers):
        shapes += [(hidden, hidden), (hidden,)] * 4  # query, key, value, attention output
        shapes += [(hidden,), (hidden,)]  # attention layer norm
        shapes += [(hidden, ffn), (ffn,), (ffn, hidden), (hidden,)]
        shapes += [(hidden,), (hidden,)]  # output layer norm
    return shapes + [(hidden, hidden), (hidden,)]


def _variants(cfg):
    import tensorflow as tf

    import tf1clip

    def raw_norm(gv):
        return [(None if g is None else tf.clip_by_norm(g, CLIP_NORM), v) for g, v in gv]

    def raw_global(gv):
        grads = [g for g, _ in gv]
        if len({g.dtype for g in grads if g is not None}) > 1:
            # tf.clip_by_global_norm cannot stack float16 and float32 norms:
            # users cast to float32 and back.
            cast = [None if g is None else tf.cast(g, tf.float32) for g in grads]
            clipped, _ = tf.clip_by_global_norm(cast, CLIP_NORM)
            grads = [None if c is None else tf.cast(c, g.dtype) for c, g in zip(clipped, grads)]
        else:
            grads, _ = tf.clip_by_global_norm(grads, CLIP_NORM)
        return list(zip(grads, [v for _, v in gv]))

    def raw_value(gv):
        return [(None if g is None else tf.clip_by_value(g, -CLIP_VALUE, CLIP_VALUE), v) for g, v in gv]

    def wrapper(policy, bare_switch=False):
        def wrap(optimizer):
            return tf1clip.clip_gradients_by_norm(optimizer, CLIP_NORM, on_nonfinite=policy)

        wrap.wraps_optimizer = True
        wrap.bare_switch = bare_switch
        return wrap

    policies = []
    if cfg.get("policies"):
        policies = [("tf1clip wrapper, global, on_nonfinite=%s" % p, wrapper(p)) for p in ("nan", "skip", "raise")]
        policies.append((BARE_SWITCH, wrapper("nan", bare_switch=True)))
    return [
        ("unclipped", None),
        ("tf.clip_by_norm per tensor", raw_norm),
        ("tf.clip_by_global_norm", raw_global),
        ("tf.clip_by_value per tensor", raw_value),
        ("tf1clip.clip_by_norm", lambda gv: tf1clip.clip_by_norm(gv, CLIP_NORM)),
        ("tf1clip.clip_by_global_norm", lambda gv: tf1clip.clip_by_global_norm(gv, CLIP_NORM)[0]),
        ("tf1clip.clip_by_value", lambda gv: tf1clip.clip_by_value(gv, -CLIP_VALUE, CLIP_VALUE)),
    ] + policies


def build_model(cfg):
    """Builds the scenario's model in the default graph; returns (loss, optimizer)."""
    import numpy as np
    import tensorflow as tf

    v1 = tf.compat.v1
    rng = np.random.RandomState(0)
    init = v1.glorot_uniform_initializer(seed=1)
    if cfg.get("bert"):
        small = v1.random_normal_initializer(stddev=0.02, seed=1)
        terms = [
            tf.reduce_sum(tf.square(v1.get_variable("t%d" % i, shape, initializer=small)))
            for i, shape in enumerate(_bert_shapes())
        ]
        loss = 0.5 * tf.add_n(terms)
    elif "distinct" in cfg:
        x = tf.constant(rng.randn(cfg["batch"], 8).astype(np.float32))
        terms = []
        for i in range(cfg["distinct"]):
            w = v1.get_variable("w%d" % i, [8, 8 + i], initializer=init)
            terms.append(tf.reduce_mean(tf.square(tf.tanh(tf.matmul(x, w)))))
        loss = tf.add_n(terms)
    else:
        widths = cfg["widths"]
        if "embedding" in cfg:
            rows, dim = cfg["embedding"]
            table = v1.get_variable("embedding", [rows, dim], initializer=init)
            ids = tf.constant(rng.randint(0, rows, cfg["batch"]).astype(np.int32))
            h = tf.nn.embedding_lookup(table, ids)
        else:
            h = tf.constant(rng.randn(cfg["batch"], widths[0]).astype(np.float32))
        for i, (n_in, n_out) in enumerate(zip(widths[:-1], widths[1:])):
            dtype = tf.float16 if cfg.get("half_every_other") and i % 2 else tf.float32
            w = v1.get_variable("w%d" % i, [n_in, n_out], dtype, initializer=init)
            z = tf.matmul(tf.cast(h, dtype), w)
            if cfg.get("bias", True):
                z = z + v1.get_variable("b%d" % i, [n_out], dtype, initializer=v1.zeros_initializer())
            h = tf.cast(tf.tanh(z), tf.float32)
        loss = tf.reduce_mean(tf.square(h))
    if cfg["optimizer"] == "adagrad":
        optimizer = v1.train.AdagradOptimizer(0.01)
    else:
        optimizer = v1.train.AdamOptimizer(1e-4)
    return loss, optimizer


def _session_config(threads):
    import tensorflow as tf

    if threads == 0:
        return tf.compat.v1.ConfigProto()
    return tf.compat.v1.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=threads)


class Variant(object):
    """One variant of a scenario: its own graph, session and train op."""

    def __init__(self, name, clip, cfg, threads):
        import tensorflow as tf

        self.name = name
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.compat.v1.set_random_seed(0)
            loss, optimizer = build_model(cfg)
            wrap = None
            if getattr(clip, "wraps_optimizer", False):
                wrap, clip = clip, None
                optimizer = wrap(optimizer)
            grads_and_vars = optimizer.compute_gradients(loss)
            self.n_vars = len(grads_and_vars)
            if clip is not None:
                grads_and_vars = clip(grads_and_vars)
            train = optimizer.apply_gradients(grads_and_vars)
            if getattr(wrap, "bare_switch", False):
                pred = tf.compat.v1.placeholder_with_default(True, [])
                when_false, when_true = tf.raw_ops.Switch(data=pred, pred=pred)
                merged = tf.raw_ops.Merge(inputs=[tf.identity(when_false), tf.identity(when_true)])[0]
                train = tf.group(train, merged)
            self.train_op = train if isinstance(train, tf.Operation) else train.op
            init = tf.compat.v1.global_variables_initializer()
        self.graph.finalize()
        # One Session per thread setting, on the same graph (each holds its own variables).
        self.sessions = {}
        for t in threads:
            self.sessions[t] = tf.compat.v1.Session(graph=self.graph, config=_session_config(t))
            self.sessions[t].run(init)
        self.sess = self.sessions[threads[0]]

    def close(self):
        for sess in self.sessions.values():
            sess.close()

    def run(self, steps, threads=None):
        """Runs ``steps`` steps; returns (wall seconds, process CPU seconds) per step."""
        run = (self.sess if threads is None else self.sessions[threads]).run
        op = self.train_op
        cpu = time.process_time()
        start = time.perf_counter()
        for _ in range(steps):
            run(op)
        return (time.perf_counter() - start) / steps, (time.process_time() - cpu) / steps

    def traced_step(self):
        """Runs one traced step; returns (executed nodes, peak bytes allocated in it).

        The peak is the running maximum of the step's allocation records
        (allocations minus deallocations by its kernels, in time order, at the
        trace's microsecond resolution; ties count deallocations first).
        """
        import tensorflow as tf

        v1 = tf.compat.v1
        metadata = v1.RunMetadata()
        self.sess.run(
            self.train_op,
            options=v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE),
            run_metadata=metadata,
        )
        nodes = 0
        records = []
        for dev in metadata.step_stats.dev_stats:
            nodes += len(dev.node_stats)
            for node in dev.node_stats:
                for memory in node.memory:
                    records.extend((r.alloc_micros, r.alloc_bytes) for r in memory.allocation_records)
        live = peak = 0
        for _, nbytes in sorted(records):
            live += nbytes
            peak = max(peak, live)
        return nodes, peak


def _construction_times(cfg, variants, repeats):
    """Median seconds to build each variant's clipping ops on one shared model."""
    import numpy as np
    import tensorflow as tf

    times = {name: [] for name, clip in variants if clip is not None and not getattr(clip, "wraps_optimizer", False)}
    with tf.Graph().as_default():
        loss, optimizer = build_model(cfg)
        grads_and_vars = optimizer.compute_gradients(loss)
        for r in range(repeats):
            order = variants if r % 2 == 0 else variants[::-1]
            for name, clip in order:
                if clip is None or getattr(clip, "wraps_optimizer", False):
                    continue
                gc.collect()
                gc.disable()
                try:
                    with tf.name_scope("rep%d" % r):
                        start = time.perf_counter()
                        clip(grads_and_vars)
                        times[name].append(time.perf_counter() - start)
                finally:
                    gc.enable()
    return {name: float(np.median(t)) for name, t in times.items()}


def run_scenario(name, rounds=None, steps=None, chunks=None, threads=(1, 0)):
    """Measures one scenario in this process; returns a JSON-able dict."""
    import numpy as np
    import tensorflow as tf

    cfg = SCENARIOS[name]
    rounds = rounds or cfg["rounds"]
    steps = steps or cfg["steps"]
    chunks = chunks or cfg.get("chunks", 1)
    variants = [v for v in _variants(cfg) if v[0] in cfg.get("only", (v[0],))]
    threads = tuple(cfg.get("threads", threads))
    build_s = _construction_times(cfg, variants, cfg["builds"])
    result = dict(
        scenario=name,
        title=cfg["title"],
        rounds=rounds,
        steps=steps,
        chunks=chunks,
        threads=list(threads),
        tensorflow=tf.__version__,
    )
    if cfg.get("construction_only"):
        with tf.Graph().as_default():
            loss, optimizer = build_model(cfg)
            result["n_vars"] = len(optimizer.compute_gradients(loss))
        result.update(rounds=0, steps=0)
        result["rows"] = [dict(variant=v, build_ms=1e3 * build_s.get(v, 0.0)) for v, _ in variants]
        return result
    built = [Variant(vname, clip, cfg, threads) for vname, clip in variants]
    n_vars = built[0].n_vars
    for variant in built:
        for t in threads:
            variant.run(max(3, steps), t)
    traced = {v.name: v.traced_step() for v in built}
    wall = {(v.name, t): [] for v in built for t in threads}
    cpu = {(v.name, t): [] for v in built for t in threads}
    for r in range(rounds):
        for t in threads:
            order = built if r % 2 == 0 else built[::-1]
            seconds = {v.name: min(v.run(steps, t) for _ in range(chunks)) for v in order}
            for v in built:
                wall[v.name, t].append(seconds[v.name][0])
                cpu[v.name, t].append(seconds[v.name][1])
    rows = []
    first = threads[0]
    for v in built:
        ratios = np.array(wall[v.name, first]) / np.array(wall["unclipped", first])
        cpu_ratios = np.array(cpu[v.name, first]) / np.array(cpu["unclipped", first])
        q25, q50, q75 = np.percentile(ratios, [25, 50, 75])
        pools = {t: float(np.median(np.array(wall[v.name, t]) / np.array(wall["unclipped", t]))) for t in threads[1:]}
        rows.append(
            dict(
                variant=v.name,
                ratio=float(q50),
                ratio_q25=float(q25),
                ratio_q75=float(q75),
                pools_ratio=pools.get(0),
                cpu_ratio=float(np.median(cpu_ratios)),
                step_ms=1e3 * float(np.median(wall[v.name, first])),
                nodes=traced[v.name][0],
                nodes_per_var=(traced[v.name][0] - traced["unclipped"][0]) / n_vars,
                build_ms=1e3 * build_s.get(v.name, 0.0),
                peak_mb=traced[v.name][1] / 2.0**20,
            )
        )
        v.close()
    result.update(n_vars=n_vars, rows=rows)
    return result


def format_table(result, markdown=False):
    if result["rounds"]:
        head = [
            "variant",
            "ratio (IQR)",
            "ratio, default pools",
            "cpu ratio",
            "nodes/var",
            "build ms",
            "peak MB",
            "step ms",
        ]
        lines = [
            [
                row["variant"],
                "%.3f (%.3f-%.3f)" % (row["ratio"], row["ratio_q25"], row["ratio_q75"]),
                "-" if row.get("pools_ratio") is None else "%.3f" % row["pools_ratio"],
                "%.3f" % row["cpu_ratio"],
                "%.3f" % row["nodes_per_var"],
                "%.1f" % row["build_ms"] if row["build_ms"] else "-",
                "%.2f" % row["peak_mb"],
                "%.3f" % row["step_ms"],
            ]
            for row in result["rows"]
        ]
        caption = step_caption(result)
    else:
        head = ["variant", "build ms"]
        lines = [[row["variant"], "%.1f" % row["build_ms"]] for row in result["rows"][1:]]
        caption = "%s - %s (%d variables)" % (result["scenario"], result["title"], result["n_vars"])
    return render_table(caption, head, lines, markdown)


def step_caption(result):
    """The caption of a step-time table: scenario, title, size and timing schedule."""
    return "%s - %s (%d variables, %d rounds x best of %d x %d steps)" % (
        result["scenario"],
        result["title"],
        result["n_vars"],
        result["rounds"],
        result["chunks"],
        result["steps"],
    )


def render_table(caption, head, lines, markdown=False):
    """A captioned table of strings: Markdown, or aligned plain text."""
    if markdown:
        out = ["**%s**" % caption, "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(cells) + " |" for cells in lines]
        return "\n".join(out) + "\n"
    widths = [max(len(r[i]) for r in [head] + lines) for i in range(len(head))]
    fmt = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([caption, fmt(head)] + [fmt(c) for c in lines]) + "\n"


def machine_info():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "nproc=%d, CPU %s, Python %s, %s" % (
        os.cpu_count() or 0,
        model,
        platform.python_version(),
        time.strftime("%Y-%m-%d %H:%M %Z"),
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--scenario", action="append", choices=sorted(SCENARIOS), help="scenario to run (repeatable); default: all"
    )
    parser.add_argument("--rounds", type=int, help="timing rounds (default: per scenario)")
    parser.add_argument("--steps", type=int, help="steps per chunk (default: per scenario)")
    parser.add_argument(
        "--chunks", type=int, help="chunks per variant per round, the fastest kept (default: per scenario)"
    )
    parser.add_argument(
        "--threads",
        default="1,0",
        help="comma-separated intra/inter-op thread settings, each timed in its own Session; "
        "0 = TensorFlow's default pools; the first gives the main ratio (default 1,0)",
    )
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--json", metavar="FILE", help="also write all results to FILE")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed per scenario process (default 900)")
    args = parser.parse_args(argv)
    names = args.scenario or list(SCENARIOS)

    if args.in_process:
        threads = [int(t) for t in args.threads.split(",")]
        results = [run_scenario(n, args.rounds, args.steps, args.chunks, threads) for n in names]
        json.dump(results, sys.stdout)
        return 0

    print(machine_info())
    print("command: %s" % " ".join([os.path.basename(sys.executable)] + sys.argv))
    results = []
    for name in names:
        cmd = [sys.executable, os.path.abspath(__file__), "--in-process", "--scenario", name, "--threads", args.threads]
        if args.rounds:
            cmd += ["--rounds", str(args.rounds)]
        if args.steps:
            cmd += ["--steps", str(args.steps)]
        if args.chunks:
            cmd += ["--chunks", str(args.chunks)]
        start = time.time()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=args.timeout)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr.decode(errors="replace")[-4000:])
            print("scenario %s failed (exit %d)" % (name, proc.returncode))
            continue
        result = json.loads(proc.stdout.decode())[0]
        result["wall_s"] = time.time() - start
        results.append(result)
        print()
        print(format_table(result, markdown=args.markdown))
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(machine=machine_info(), results=results), f, indent=1)
    return 0 if len(results) == len(names) else 1


if __name__ == "__main__":
    sys.exit(main())
