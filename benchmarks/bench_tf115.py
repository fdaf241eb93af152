"""Step time of TF 1.x programs on TensorFlow 1.15 with tf.contrib against the same programs upgraded
by tf1clip-upgrade on the current TensorFlow with tf1clip (issue 21).

    python3 benchmarks/bench_tf115.py [--suite clip|seq2seq] [--rounds 3] [--steps 50] [--warmup 10] [--markdown]

The programs are in benchmarks/tf115_programs/, plain TF 1.15 code: the contrib decorator
around Adam over 200 variables, optimize_loss with per-tensor clipping, a slim CNN under
slim.learning.train, and an embedding model with sparse gradients. Each runs clipped and
unclipped (``clip``/``noclip``): the unclipped ratio is what TF 2's runtime itself costs, the
clipped one what the program costs with tf1clip; their quotient is what tf1clip adds.
``--suite seq2seq`` (issue 30) times an attention seq2seq model instead (seq2seq_attention.py): a training
step, a greedy decode and a beam-search decode (beam 4) of one batch.

Two processes per (side, thread setting, round) run every program (tests/oracle/run_programs.py).
The sides alternate in ABBA order within each round (BAAB in odd rounds), for one thread (intra- and inter-op
pools of 1) and for TensorFlow's default pools. Reported: per-step medians and interquartile
ranges over all rounds' timed steps. The TF 1.15 environment is the oracle's
(tests/oracle/tf115_env.py: $TF1CLIP_TF115_VENV or ~/.cache/tf1clip/tf115-venv).
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "oracle"))
import tf115_env  # noqa: E402

PROGRAMS = os.path.join(HERE, "tf115_programs")
RUNNER = os.path.join(ROOT, "tests", "oracle", "run_programs.py")
SUITES = {
    "clip": (
        ["decorator_adam_200", "optimize_loss_per_tensor", "slim_cnn_learning_train", "embedding_sparse"],
        ["noclip", "clip"],
    ),
    "seq2seq": (["seq2seq_attention"], ["train", "greedy", "beam"]),
}
TIMEOUT = 1800


def upgrade(out):
    import tf1clip.upgrade

    os.makedirs(out, exist_ok=True)
    for f in sorted(os.listdir(PROGRAMS)):
        if f.endswith(".py"):
            result = tf1clip.upgrade.upgrade_file(os.path.join(PROGRAMS, f), os.path.join(out, f))
            if result.errors or result.status not in ("converted", "unchanged"):
                raise SystemExit("tf1clip-upgrade on %s: %s %s" % (f, result.status, result.errors))
    return out


def run_side(python, programs_dir, env, threads, args, work, tag):
    cells = [(name, variant) for name in SUITES[args.suite][0] for variant in SUITES[args.suite][1]]
    jobs = []
    for name, variant in cells:
        jobs.append(
            {
                "program": os.path.join(programs_dir, name + ".py"),
                "argv": [os.path.join(work, "%s-%s-%s.json" % (tag, name, variant)), variant],
            }
        )
    jobs_path, status_path = os.path.join(work, tag + "-jobs.json"), os.path.join(work, tag + "-status.json")
    with open(jobs_path, "w") as f:
        json.dump(jobs, f)
    env = dict(
        env,
        BENCH_THREADS=str(threads),
        BENCH_STEPS=str(args.steps),
        BENCH_WARMUP=str(args.warmup),
        TF_CPP_MIN_LOG_LEVEL="2",
        CUDA_VISIBLE_DEVICES="",
    )
    proc = subprocess.run(
        [python, RUNNER, jobs_path, status_path], env=env, cwd=work, capture_output=True, text=True, timeout=TIMEOUT
    )
    if proc.returncode != 0:
        raise SystemExit("%s: runner exited %d\n%s" % (tag, proc.returncode, proc.stderr[-3000:]))
    with open(status_path) as f:
        status = json.load(f)
    for job, st in zip(jobs, status):
        if st is not None:
            raise SystemExit("%s: %s failed:\n%s" % (tag, job["program"], st))
    times = {}
    for name, variant in cells:
        with open(os.path.join(work, "%s-%s-%s.json" % (tag, name, variant))) as f:
            times[name, variant] = json.load(f)["times"]
    return times


def pooled(collected, threads, name, variant, side):
    """Every round's timed steps of one cell."""
    return [t for key, ts in sorted(collected.items()) if key[:4] == (threads, name, variant, side) for t in ts]


def round_ratios(collected, threads, name, variant):
    """Per round: the upgraded median step time over TF 1.15's (both from that round's ABBA pair)."""
    rounds = sorted({key[4] for key in collected if key[:3] == (threads, name, variant)})
    return [
        np.median(collected[threads, name, variant, "upgraded", r])
        / np.median(collected[threads, name, variant, "tf115", r])
        for r in rounds
    ]


def stats(times):
    t = np.asarray(times) * 1e3
    q1, med, q3 = np.percentile(t, [25, 50, 75])
    return med, q1, q3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", choices=sorted(SUITES), default="clip")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    names, variants = SUITES[args.suite]

    tf115 = tf115_env.ensure()
    work = tempfile.mkdtemp(prefix="bench-tf115-")
    try:
        upgraded = upgrade(os.path.join(work, "upgraded"))
        env_new = dict(os.environ, TF_USE_LEGACY_KERAS="1")
        env_new["PYTHONPATH"] = os.pathsep.join([ROOT] + [x for x in [env_new.get("PYTHONPATH")] if x])
        sides = {
            "tf115": (tf115, PROGRAMS, tf115_env.clean_env()),
            "upgraded": (sys.executable, upgraded, env_new),
        }
        collected = {}
        for threads in (1, 0):
            for r in range(args.rounds):
                order = (
                    ["tf115", "upgraded", "upgraded", "tf115"]
                    if r % 2 == 0
                    else ["upgraded", "tf115", "tf115", "upgraded"]
                )
                for i, side in enumerate(order):
                    python, programs_dir, env = sides[side]
                    tag = "%s-t%d-r%d-%d" % (side, threads, r, i)
                    for key, t in run_side(python, programs_dir, env, threads, args, work, tag).items():
                        collected.setdefault((threads,) + key + (side, r), []).extend(t)
                    print("done", tag, file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    import tensorflow as tf

    print(
        "Measured %s UTC on %s (nproc %d), Python %s; TF 1.15.5 (Python 3.7, tf.contrib) against TF %s with tf1clip; "
        "%d rounds x %d steps (after %d warm-up) per cell; `%s`"
        % (
            datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
            platform.processor() or platform.machine(),
            os.cpu_count(),
            platform.python_version(),
            tf.__version__,
            args.rounds,
            args.steps,
            args.warmup,
            " ".join(["python3", "benchmarks/bench_tf115.py"] + sys.argv[1:]),
        )
    )
    print()
    print_table(collected, names, variants)


def print_table(collected, names, variants):
    clip = "clip" in variants
    print(
        "| threads | program | variant | TF 1.15 ms (IQR) | upgraded ms (IQR) | upgraded / TF 1.15 | per-round ratios |"
        + (" clip / noclip TF 1.15 | clip / noclip upgraded |" if clip else "")
    )
    print("|---|---|---|---|---|---|---|" + ("---|---|" if clip else ""))
    for threads in (1, 0):
        for name in names:
            for variant in variants:
                old = stats(pooled(collected, threads, name, variant, "tf115"))
                new = stats(pooled(collected, threads, name, variant, "upgraded"))
                extra = ["", ""]
                if variant == "clip":
                    extra = [
                        "%.3f" % (old[0] / stats(pooled(collected, threads, name, "noclip", "tf115"))[0]),
                        "%.3f" % (new[0] / stats(pooled(collected, threads, name, "noclip", "upgraded"))[0]),
                    ]
                print(
                    "| %s | %s | %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.3f | %s |"
                    % (
                        (("1" if threads == 1 else "default"), name, variant)
                        + old
                        + new
                        + (
                            new[0] / old[0],
                            " ".join("%.2f" % x for x in round_ratios(collected, threads, name, variant)),
                        )
                    )
                    + (" %s | %s |" % tuple(extra) if clip else "")
                )


if __name__ == "__main__":
    main()
