"""Estimator training steps per second: TensorFlow 2.15 (native) against the newest TensorFlow (tf1clip.estimator).

Run from the repository root::

    python benchmarks/bench_estimator.py --python /work/venvs/tf215/bin/python --python .venv/bin/python
    python benchmarks/bench_estimator.py --python A --python B --rounds 5 --steps 600 --markdown

The same model in every interpreter: a canned ``DNNRegressor`` (hidden units 64, 64, on 16 numeric
features) whose Adam optimizer is wrapped in ``tf1clip.clip_gradients_by_norm(..., 1.0)``, trained on a
repeated in-memory batch of 128 rows. On TF 2.15 it is TF's own ``tf.compat.v1.estimator`` (native; the
``tf1clip.estimator`` patches are not applied), on TF 2.16+ ``tf1clip.estimator``. A hook times the
steps after ``--warmup`` steps (graph building, the first checkpoint and the first runs are left out);
checkpoints and summaries are off after step 0. Each round runs every interpreter once, in turn, in a
fresh process, and the table gives the median steps/s over the rounds, the ratio of each interpreter's
median to the first one's, the same ratio of the fastest runs (on a shared machine the fastest run is
the least disturbed one), and the intra-/inter-op thread counts TensorFlow's runtime had.

``--threads one`` (the default): ``RunConfig(session_config=...)`` with intra- and inter-op pools of
one thread. On TF 2.x that config alone is not enough: the Estimator starts TF's eager runtime while it
builds the graph, and the CPU device's intra-op pool is then created with the runtime's counts (one
thread per core). Natively on TF 2.15 the run therefore also calls ``tf.config.threading`` with the
same counts, as a TF 2.15 user must; ``tf1clip.estimator`` does that itself (its ``session_threads``
patch). ``--threads default``: no session config and no thread settings (one thread per core).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def estimator_module():
    """TF 2.15's own ``tf.compat.v1.estimator`` on TF 2.15 (native), ``tf1clip.estimator`` on TF 2.16+."""
    import tensorflow as tf

    if tf.__version__.startswith("2.15."):
        return tf.compat.v1.estimator, "native"
    from tf1clip import estimator

    return estimator, "tf1clip.estimator"


def build(session_config=None):
    """``(regressor, input_fn)``: the timed model and its input, with checkpoints and summaries off.

    Natively on TF 2.15, ``session_config``'s thread counts also go to ``tf.config.threading`` where
    it can still take them (see the module docstring); ``tf1clip.estimator`` does that itself.
    """
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import numpy as np
    import tensorflow as tf

    import tf1clip

    est, kind = estimator_module()
    v1 = tf.compat.v1
    if kind == "native":
        from tf1clip.compat._estimator import session_threads

        session_threads(session_config)  # what the session_threads patch does in tf1clip.estimator
    v1.logging.set_verbosity(v1.logging.ERROR)
    rng = np.random.RandomState(0)
    x = rng.randn(128, 16).astype(np.float32)
    y = (x @ rng.randn(16, 1)).astype(np.float32)
    config = est.RunConfig(
        tf_random_seed=1,
        session_config=session_config,
        save_checkpoints_steps=None,
        save_checkpoints_secs=None,
        save_summary_steps=None,
        log_step_count_steps=None,
    )
    regressor = est.DNNRegressor(
        [64, 64],
        [tf.feature_column.numeric_column("x", shape=[16])],
        model_dir=tempfile.mkdtemp(),
        optimizer=tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.001), 1.0),
        config=config,
    )
    return regressor, lambda: tf.data.Dataset.from_tensors(({"x": x}, y)).repeat()


def one_thread_config():
    """A session config with intra- and inter-op pools of one thread."""
    import tensorflow as tf

    return tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)


def _run_once(steps, warmup, threads):
    import tensorflow as tf

    v1 = tf.compat.v1

    class Timer(v1.train.SessionRunHook):
        def __init__(self):
            self.count, self.began, self.ended = 0, None, None

        def after_run(self, run_context, run_values):
            self.count += 1
            if self.count == warmup:
                self.began = time.perf_counter()
            elif self.count == warmup + steps:
                self.ended = time.perf_counter()

    regressor, input_fn = build(one_thread_config() if threads == "one" else None)
    timer = Timer()
    regressor.train(input_fn, steps=warmup + steps, hooks=[timer])
    threading_api = tf.config.threading
    return {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "tf": tf.__version__,
        "estimator": estimator_module()[1],
        "threads": "%d/%d"
        % (threading_api.get_intra_op_parallelism_threads(), threading_api.get_inter_op_parallelism_threads()),
        "steps_per_s": steps / (timer.ended - timer.began),
    }


def _child(python, steps, warmup, threads, timeout):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", TF_USE_LEGACY_KERAS="1")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    proc = subprocess.run(
        [python, os.path.abspath(__file__), "--child", "--steps", str(steps), "--warmup", str(warmup)]
        + ["--threads", threads],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (python, proc.stderr[-3000:]))
    return json.loads(proc.stdout.splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="an interpreter to time (repeat; the first is the base)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=600, help="timed steps per run")
    parser.add_argument("--warmup", type=int, default=100, help="steps before the timing starts")
    parser.add_argument("--threads", choices=("one", "default"), default="one", help="see the module docstring")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_run_once(args.steps, args.warmup, args.threads)))
        return 0
    pythons = args.python or [sys.executable]
    runs = {python: [] for python in pythons}
    for _ in range(args.rounds):
        for python in pythons:
            runs[python].append(_child(python, args.steps, args.warmup, args.threads, args.timeout))
    base = statistics.median(r["steps_per_s"] for r in runs[pythons[0]])
    base_best = max(r["steps_per_s"] for r in runs[pythons[0]])
    rows = []
    for python in pythons:
        rates = [r["steps_per_s"] for r in runs[python]]
        first = runs[python][0]
        median = statistics.median(rates)
        rows.append(
            (
                first["tf"],
                first["python"],
                first["estimator"],
                first["threads"],
                "%.1f" % median,
                "%.1f-%.1f" % (min(rates), max(rates)),
                "%.3f" % (median / base),
                "%.3f" % (max(rates) / base_best),
            )
        )
    header = (
        "TensorFlow",
        "Python",
        "Estimator",
        "threads",
        "steps/s (median)",
        "min-max",
        "median ratio",
        "best ratio",
    )
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for row in [header] + rows:
            print("  ".join("%-18s" % cell for cell in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
