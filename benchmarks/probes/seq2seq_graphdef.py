"""Probe: is a seq2seq step slower on TF 2 because of TF 2's runtime or because of tf1clip's graph?

    python3 benchmarks/probes/seq2seq_graphdef.py [--rounds 3] [--steps 20] [--warmup 3] [--threads 1]

Builds benchmarks/tf115_programs/seq2seq_attention.py once with TF 1.15 (contrib's seq2seq) and once upgraded
with tf1clip on the current TF, writes each graph's GraphDef, and times the same GraphDef on both runtimes:
TF 1.15's graph imported into TF 1.15 and into the current TF, and tf1clip's graph imported into both. The
fetch ``beam_loop`` is the beam search's raw step outputs (predicted and parent ids: the decoding while loop
without the final trace) and runs everywhere; ``beam`` (with ``gather_tree``) is timed where the graph's ops
exist (TF 2 has no ``GatherTree`` op). The MatMul gradient hints (``grad_a``, ``grad_x``, ...), unknown to
TF 1.15, are dropped from the GraphDefs. The sides alternate ABBA per round; printed: median ms per step and the
per-round ratios current / TF 1.15.

    python seq2seq_graphdef.py export DIR      # in either TF: build the program, write DIR/graph.pb, DIR/meta.json
    python seq2seq_graphdef.py time OUT.json THREADS STEPS WARMUP DIR...  # import each DIR/graph.pb, time its fetches
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = os.path.join(ROOT, "benchmarks", "tf115_programs")


def export(out_dir, program_dir):
    import runpy

    import numpy as np
    import tensorflow as tf

    os.environ.update(BENCH_STEPS="0", BENCH_WARMUP="0")
    sys.path.insert(0, program_dir)
    sys.argv = ["seq2seq_attention.py", os.path.join(out_dir, "unused.json"), "train"]
    g = runpy.run_path(os.path.join(program_dir, "seq2seq_attention.py"), run_name="__main__")
    graph = g["train_op"].graph
    raw = g["beam"].beam_search_decoder_output
    gather = [op for op in graph.get_operations() if op.type == "GatherTree"]
    fetches = {
        "train": [g["train_op"].name],
        "greedy": [g["greedy"].sample_id.name],
        "beam": [g["beam"].predicted_ids.name],
        "beam_loop": [raw.predicted_ids.name, raw.parent_ids.name],
    }
    init = [op.name for op in graph.get_operations() if op.type == "NoOp" and op.name.split("/")[-1].startswith("init")]
    feed = g["batches"][0]
    np.savez(os.path.join(out_dir, "feed.npz"), **{k.name: v for k, v in feed.items()})
    with open(os.path.join(out_dir, "graph.pb"), "wb") as f:
        graph_def = tf.compat.v1.train.export_meta_graph(graph=graph, strip_default_attrs=True).graph_def
        for node in graph_def.node:
            for hint in ("grad_a", "grad_b", "grad_x", "grad_y"):
                if hint in node.attr:
                    del node.attr[hint]
        f.write(graph_def.SerializeToString())
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump({"fetches": fetches, "init": init[-1], "has_gather_tree_op": bool(gather)}, f)


def time_graph(graph_dir, threads, steps, warmup):
    import numpy as np
    import tensorflow as tf

    v1 = tf.compat.v1
    v1.disable_eager_execution()
    with open(os.path.join(graph_dir, "meta.json")) as f:
        meta = json.load(f)
    graph_def = v1.GraphDef()
    with open(os.path.join(graph_dir, "graph.pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    fetches = dict(meta["fetches"])
    if tf.__version__.startswith("1."):
        tf.contrib.seq2seq.gather_tree  # noqa: B018 - registers the GatherTree op
    elif meta["has_gather_tree_op"]:
        del fetches["beam"]
        dest = [n.split(":")[0] for names in fetches.values() for n in names] + [meta["init"]]
        graph_def = v1.graph_util.extract_sub_graph(graph_def, dest)
    feed = dict(np.load(os.path.join(graph_dir, "feed.npz")))
    cfg = v1.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=threads)
    results = {}
    with tf.Graph().as_default():
        v1.import_graph_def(graph_def, name="")
        with v1.Session(config=cfg) as sess:
            sess.run(meta["init"])
            for key, names in sorted(fetches.items()):
                times = []
                for step in range(warmup + steps):
                    start = time.perf_counter()
                    sess.run(names, feed)
                    if step >= warmup:
                        times.append(time.perf_counter() - start)
                results[key] = times
    return results


def time_or_error(graph_dir, threads, steps, warmup):
    try:
        return time_graph(graph_dir, threads, steps, warmup)
    except Exception as e:  # noqa: BLE001 - reported in the table, the other graph still runs
        print("%s: %s" % (graph_dir, str(e).splitlines()[0]), file=sys.stderr)
        return {}


def drive(argv):
    import argparse

    import numpy as np

    sys.path.insert(0, os.path.join(ROOT, "tests", "oracle"))
    import tf115_env

    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    from bench_tf115 import upgrade

    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    work = tempfile.mkdtemp(prefix="probe-s2s-")
    env_new = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env_new["PYTHONPATH"] = os.pathsep.join([ROOT] + [x for x in [env_new.get("PYTHONPATH")] if x])
    env_old = dict(tf115_env.clean_env(), TF_CPP_MIN_LOG_LEVEL="2")
    sides = {"tf115": (tf115_env.ensure(), env_old), "current": (sys.executable, env_new)}
    upgraded = upgrade(os.path.join(work, "upgraded"))
    graphs = {"tf115_graph": ("tf115", PROGRAMS), "tf1clip_graph": ("current", upgraded)}
    for graph, (side, program_dir) in graphs.items():
        os.makedirs(os.path.join(work, graph))
        python, env = sides[side]
        subprocess.run(
            [python, __file__, "export", os.path.join(work, graph), program_dir], env=env, check=True, cwd=work
        )
    collected = {}
    for r in range(args.rounds):
        order = ["tf115", "current", "current", "tf115"] if r % 2 == 0 else ["current", "tf115", "tf115", "current"]
        for i, side in enumerate(order):
            python, env = sides[side]
            out = os.path.join(work, "%s-%d-%d.json" % (side, r, i))
            cmd = [python, __file__, "time", out, str(args.threads), str(args.steps), str(args.warmup)]
            subprocess.run(cmd + [os.path.join(work, graph) for graph in graphs], env=env, cwd=work, check=True)
            with open(out) as f:
                for graph, results in json.load(f).items():
                    for key, times in results.items():
                        collected.setdefault((graph, key, side, r), []).extend(times)
    shutil.rmtree(work, ignore_errors=True)
    print("| graph | fetch | TF 1.15 runtime ms | current runtime ms | current / TF 1.15 | per-round ratios |")
    print("|---|---|---|---|---|---|")
    for graph in graphs:
        for key in ["train", "greedy", "beam_loop", "beam"]:
            rounds = [r for r in range(args.rounds) if (graph, key, "tf115", r) in collected]
            both = [r for r in rounds if (graph, key, "current", r) in collected]
            med = {
                side: np.median([t for r in range(args.rounds) for t in collected.get((graph, key, side, r), [])])
                if any((graph, key, side, r) in collected for r in range(args.rounds))
                else float("nan")
                for side in sides
            }
            ratios = [
                np.median(collected[graph, key, "current", r]) / np.median(collected[graph, key, "tf115", r])
                for r in both
            ]
            print(
                "| %s | %s | %.2f | %.2f | %.3f | %s |"
                % (
                    graph,
                    key,
                    med["tf115"] * 1e3,
                    med["current"] * 1e3,
                    med["current"] / med["tf115"],
                    " ".join("%.2f" % x for x in ratios),
                )
            )


if __name__ == "__main__":
    if sys.argv[1:2] == ["export"]:
        export(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["time"]:
        with open(sys.argv[2], "w") as f:
            json.dump({os.path.basename(d): time_or_error(d, *map(int, sys.argv[3:6])) for d in sys.argv[6:]}, f)
    else:
        drive(sys.argv[1:])
