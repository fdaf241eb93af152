"""The same models' clipping overhead in Keras 3 (tf.function) and PyTorch, for comparison.

Run from the repository root::

    python benchmarks/bench_frameworks.py                 # many_small and few_large, ~4 minutes
    python benchmarks/bench_frameworks.py --scenario many_small --rounds 60

Builds the MLP models of ``bench_clip.py`` (same widths, batch, tanh, loss
``mean(h**2)``, Adam) and measures the step time with each framework's own
clipping relative to its unclipped step, as ``bench_clip.py`` does: variants
timed interleaved, the fastest of ``--chunks`` chunks per variant and round,
one ratio per round, median and interquartile range.

* Keras 3 (TensorFlow backend, ``keras.optimizers.Adam`` with ``clipnorm``,
  ``global_clipnorm``, ``clipvalue``) with the train step in a ``tf.function``;
  also the tf1clip functions inside that same ``tf.function`` in front of an
  unclipped Adam, to show them on TF2 code. Runs in its own process, without
  ``TF_USE_LEGACY_KERAS``.
* PyTorch (optional; skipped when ``torch`` is not installed):
  ``clip_grad_norm_`` over all parameters (global), a loop of
  ``clip_grad_norm_([p])`` (per tensor; PyTorch has no per-tensor helper) and
  ``clip_grad_value_``, eager, ``torch.optim.Adam`` with its default
  (foreach) implementation.

Every process is single-threaded (intra- and inter-op threads = 1).
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_clip  # noqa: E402

FRAMEWORK_SCENARIOS = ("many_small", "few_large")


def _summarise(name, framework, cfg, n_vars, timed, rounds, steps, chunks):
    import numpy as np

    base = timed["unclipped"]
    rows = []
    for variant, seconds in timed.items():
        ratios = [s / b for s, b in zip(seconds, base)]
        q25, q50, q75 = np.percentile(ratios, [25, 50, 75])
        rows.append(
            dict(
                variant=variant,
                ratio=float(q50),
                ratio_q25=float(q25),
                ratio_q75=float(q75),
                step_ms=1e3 * float(np.median(seconds)),
            )
        )
    return dict(
        scenario=name,
        framework=framework,
        title="%s - %s" % (framework, cfg["title"]),
        n_vars=n_vars,
        rounds=rounds,
        steps=steps,
        chunks=chunks,
        rows=rows,
    )


def _interleave(runs, rounds, steps, chunks):
    """runs: {name: callable(steps) -> seconds per step}; returns {name: [seconds per round]}.

    Each round runs every variant for ``chunks`` chunks of ``steps`` steps and
    keeps its fastest chunk, as bench_clip.py does.
    """
    names = list(runs)
    timed = {n: [] for n in names}
    for r in range(rounds):
        for n in names if r % 2 == 0 else names[::-1]:
            timed[n].append(min(runs[n](steps) for _ in range(chunks)))
    return timed


def _warmed_timer(step):
    """Returns ``run(n)``: mean seconds per call of ``step`` over ``n`` calls (3 warm-up calls made)."""

    def run(n):
        start = time.perf_counter()
        for _ in range(n):
            step()
        return (time.perf_counter() - start) / n

    run(3)
    return run


def run_keras(name, rounds, steps, chunks):
    import numpy as np
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    import keras

    import tf1clip

    cfg = bench_clip.SCENARIOS[name]
    widths = cfg["widths"]
    x = tf.constant(np.random.RandomState(0).randn(cfg["batch"], widths[0]).astype(np.float32))
    clip_norm, clip_value = bench_clip.CLIP_NORM, bench_clip.CLIP_VALUE

    def make(optimizer_kwargs=None, capper=None):
        keras.utils.set_random_seed(0)
        model = keras.Sequential(
            [keras.Input((widths[0],))]
            + [keras.layers.Dense(w, activation="tanh", use_bias=cfg.get("bias", True)) for w in widths[1:]]
        )
        optimizer = keras.optimizers.Adam(1e-4, **(optimizer_kwargs or {}))
        variables = model.trainable_variables
        optimizer.build(variables)

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x)))
            grads = tape.gradient(loss, variables)
            pairs = list(zip(grads, variables))
            if capper is not None:
                pairs = capper(pairs)
            optimizer.apply_gradients(pairs)
            return loss

        return _warmed_timer(step), len(variables)

    runs = {}
    runs["unclipped"], n_vars = make()
    runs["keras clipnorm (per tensor)"], _ = make(dict(clipnorm=clip_norm))
    runs["keras global_clipnorm"], _ = make(dict(global_clipnorm=clip_norm))
    runs["keras clipvalue"], _ = make(dict(clipvalue=clip_value))
    runs["tf1clip.clip_by_norm in tf.function"], _ = make(capper=tf1clip.clip_by_norm_fn(clip_norm))
    runs["tf1clip.clip_by_global_norm in tf.function"], _ = make(capper=tf1clip.clip_by_global_norm_fn(clip_norm))
    runs["tf1clip.clip_by_value in tf.function"], _ = make(capper=tf1clip.clip_by_value_fn(-clip_value, clip_value))
    timed = _interleave(runs, rounds, steps, chunks)
    result = _summarise(name, "Keras %s (tf.function)" % keras.__version__, cfg, n_vars, timed, rounds, steps, chunks)
    result["versions"] = "keras %s, tensorflow %s" % (keras.__version__, tf.__version__)
    return result


def run_torch(name, rounds, steps, chunks):
    import numpy as np
    import torch

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    cfg = bench_clip.SCENARIOS[name]
    widths = cfg["widths"]
    x = torch.from_numpy(np.random.RandomState(0).randn(cfg["batch"], widths[0]).astype(np.float32))
    clip_norm, clip_value = bench_clip.CLIP_NORM, bench_clip.CLIP_VALUE
    utils = torch.nn.utils

    def make(clip=None):
        torch.manual_seed(0)
        layers = []
        for n_in, n_out in zip(widths[:-1], widths[1:]):
            layers += [torch.nn.Linear(n_in, n_out, bias=cfg.get("bias", True)), torch.nn.Tanh()]
        model = torch.nn.Sequential(*layers)
        params = list(model.parameters())
        optimizer = torch.optim.Adam(params, lr=1e-4)

        def step():
            optimizer.zero_grad(set_to_none=True)
            loss = model(x).square().mean()
            loss.backward()
            if clip is not None:
                clip(params)
            optimizer.step()

        return _warmed_timer(step), len(params)

    def per_tensor(params):
        for p in params:
            utils.clip_grad_norm_([p], clip_norm)

    runs = {}
    runs["unclipped"], n_vars = make()
    runs["clip_grad_norm_ (global)"], _ = make(lambda ps: utils.clip_grad_norm_(ps, clip_norm))
    runs["clip_grad_norm_ per tensor (loop)"], _ = make(per_tensor)
    runs["clip_grad_value_"], _ = make(lambda ps: utils.clip_grad_value_(ps, clip_value))
    timed = _interleave(runs, rounds, steps, chunks)
    result = _summarise(name, "PyTorch %s (eager)" % torch.__version__, cfg, n_vars, timed, rounds, steps, chunks)
    result["versions"] = "torch %s" % torch.__version__
    return result


def format_table(result, markdown=False):
    head = ["variant", "ratio (IQR)", "step ms"]
    lines = [
        [
            row["variant"],
            "%.3f (%.3f-%.3f)" % (row["ratio"], row["ratio_q25"], row["ratio_q75"]),
            "%.3f" % row["step_ms"],
        ]
        for row in result["rows"]
    ]
    return bench_clip.render_table(bench_clip.step_caption(result), head, lines, markdown)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--scenario", action="append", choices=FRAMEWORK_SCENARIOS, help="scenario to run (repeatable); default: all"
    )
    parser.add_argument(
        "--framework",
        action="append",
        choices=("keras", "torch"),
        help="framework to run (repeatable); default: keras, and torch if installed",
    )
    parser.add_argument("--rounds", type=int, help="timing rounds (default: per scenario)")
    parser.add_argument("--steps", type=int, help="steps per chunk (default: per scenario)")
    parser.add_argument(
        "--chunks", type=int, help="chunks per variant per round, the fastest kept (default: per scenario)"
    )
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--json", metavar="FILE", help="also write all results to FILE")
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed per process")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = args.scenario or list(FRAMEWORK_SCENARIOS)
    frameworks = args.framework or ["keras", "torch"]

    if args.in_process:
        run = run_keras if frameworks[0] == "keras" else run_torch
        out = []
        for name in names:
            cfg = bench_clip.SCENARIOS[name]
            out.append(
                run(name, args.rounds or cfg["rounds"], args.steps or cfg["steps"], args.chunks or cfg.get("chunks", 1))
            )
        json.dump(out, sys.stdout)
        return 0

    print(bench_clip.machine_info())
    print("command: %s" % " ".join([os.path.basename(sys.executable)] + sys.argv))
    env = dict(os.environ)
    env.pop("TF_USE_LEGACY_KERAS", None)
    results = []
    failed = False
    for framework in frameworks:
        if framework == "torch" and importlib.util.find_spec("torch") is None:
            print("\nPyTorch is not installed: skipped (pip install torch to include it).")
            continue
        for name in names:
            cmd = [
                sys.executable,
                os.path.abspath(__file__),
                "--in-process",
                "--framework",
                framework,
                "--scenario",
                name,
            ]
            if args.rounds:
                cmd += ["--rounds", str(args.rounds)]
            if args.steps:
                cmd += ["--steps", str(args.steps)]
            if args.chunks:
                cmd += ["--chunks", str(args.chunks)]
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=args.timeout)
            if proc.returncode != 0:
                sys.stderr.write(proc.stderr.decode(errors="replace")[-4000:])
                print("%s / %s failed (exit %d)" % (framework, name, proc.returncode))
                failed = True
                continue
            result = json.loads(proc.stdout.decode())[0]
            results.append(result)
            print()
            print(format_table(result, markdown=args.markdown))
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(machine=bench_clip.machine_info(), results=results), f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
