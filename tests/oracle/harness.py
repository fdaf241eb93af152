"""Runs the oracle programs on TensorFlow 1.15 and, upgraded by tf1clip-upgrade, on the current TF.

Each program in tests/oracle/programs runs as ``program.py OUT.json [CKPT_DIR save|resume]``
(see programs/oracle_io.py). For every program this module produces, by *run*:

=====================  ==========================================================================
``tf115/full``         TF 1.15, the whole training (REPS times: ``.0``, ``.1``, ...)
``tf115/save``         TF 1.15, the first half, then a checkpoint (REPS times)
``tf115/resume``       TF 1.15, the second half from its own checkpoint (REPS times)
``upgraded/full``      the upgraded program on the current TF
``upgraded/save``      the same, first half (its checkpoint goes to TF 1.15)
``upgraded/resume``    the upgraded program resuming from TF 1.15's checkpoint
``tf115/resume_from_upgraded``  TF 1.15 resuming from the upgraded program's checkpoint
=====================  ==========================================================================

TF 1.15 runs every program REPS times (``full.N``, ``save.N``, ``resume.N``; each resume from
its own save). Its runs depend only on the program's text, so they are cached under
``~/.cache/tf1clip/tf115-results/<program>-<hash>/`` (with the checkpoint of ``save.0``):
the CI environments run them once (a lock file there makes a second process wait for the first's
runs instead of repeating them). A value that differs between any two of them, or that the
program declares racy (``RACY = ("pattern", ...)``, fnmatch patterns of value names), is
reported, not compared. A program with a mismatch first gets more TF 1.15 runs (up to MAX_REPS,
added to the cache), so a race the cached runs missed cannot keep failing. A failed TF 1.15 run
leaves nothing in the cache. The upgraded runs and TF 1.15's resume from their
checkpoint run every time (one process each for all programs).

    python tests/oracle/harness.py [--mode-line LINE] [PROGRAM ...]

prints the comparison for every program; ``--mode-line`` replaces the line tf1clip-upgrade
inserts to choose TF 1 semantics (e.g. ``tf.compat.v1.disable_eager_execution()``).
"""

import ast
import fcntl
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import tf115_env  # noqa: E402

PROGRAMS = os.path.join(HERE, "programs")
SHARED = ("oracle_io.py",)  # imported by the programs: part of every program's cache key
RUNNER = os.path.join(HERE, "run_programs.py")
CACHE_VERSION = "2"
RTOL, ATOL, SCALE = 1e-4, 1e-6, 1e-5
# TF 1.15 runs each program REPS times (cached); a check that fails runs it up to MAX_REPS times
# before the mismatch counts (a race TF 1.15 rarely loses shows up as a varying value). Two runs show
# a race that varies often; settle() finds the rest, only for the programs whose check fails.
REPS, MAX_REPS = 2, 12
# Two TF 1.15 runs differ in a value when an element differs by more than SPREAD_RTOL relative
# AND more than SPREAD_ATOL absolute: well above float32 rounding of the same computation,
# well below what the comparison tolerates (an absolute tolerance must not hide a race).
SPREAD_RTOL, SPREAD_ATOL = 1e-6, 1e-12
# Programs whose values come from float16 arithmetic: TF 1.15 and TF 2 kernels round float16
# matmuls differently (the difference stays with oneDNN off), so they agree to float16's precision.
RTOL_FOR = {"mixed_precision": 2e-3}
# Seconds one job of a runner process may take on average: a runner's bound is TIMEOUT_PER_JOB * jobs (a cold
# cache's TF 1.15 batch runs every program REPS times in one process).
TIMEOUT_PER_JOB = 120
# The line tf1clip-upgrade adds to a file that builds TF 1 graph code (any of the mode calls).
MODE_LINE = re.compile(
    r"^(?P<indent>\s*)(?P<call>\w+\.compat\.v1\.(?:disable_eager_execution|disable_v2_behavior)\(\))"
)


class ProgramFailed(Exception):
    pass


def programs():
    return sorted(f[:-3] for f in os.listdir(PROGRAMS) if f.endswith(".py") and f + "" not in SHARED)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def program_key(name):
    h = hashlib.sha256()
    for part in [CACHE_VERSION, tf115_env.TF_VERSION]:
        h.update(part.encode() + b"\0")
    for path in [os.path.join(PROGRAMS, name + ".py"), RUNNER] + [os.path.join(PROGRAMS, s) for s in SHARED]:
        h.update(_read(path) + b"\0")
    return "%s-%s" % (name, h.hexdigest()[:16])


def results_dir():
    return os.path.join(tf115_env.cache_root(), "tf115-results")


def _run_jobs(python, jobs, env, workdir, what):
    """Runs ``jobs`` in one process of ``python``; returns their statuses (None or a traceback)."""
    jobs_path = os.path.join(workdir, "jobs-%s.json" % what)
    status_path = os.path.join(workdir, "status-%s.json" % what)
    with open(jobs_path, "w") as f:
        json.dump(jobs, f)
    proc = subprocess.run(
        [python, RUNNER, jobs_path, status_path],
        env=env,
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=60 + TIMEOUT_PER_JOB * len(jobs),
    )
    if proc.returncode != 0 or not os.path.exists(status_path):
        raise ProgramFailed("%s: the runner exited %d:\n%s" % (what, proc.returncode, proc.stderr[-4000:]))
    with open(status_path) as f:
        return json.load(f)


def _load(path):
    with open(path) as f:
        return json.load(f)


def racy_patterns(name):
    """The program's ``RACY``: a module-level tuple of ``fnmatch`` patterns of value names it declares racy."""
    with open(os.path.join(PROGRAMS, name + ".py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "RACY" for t in node.targets):
            value = ast.literal_eval(node.value)
            if not isinstance(value, (tuple, list)) or not all(isinstance(p, str) for p in value):
                raise ValueError("%s.py: RACY must be a tuple of strings, got %r" % (name, value))
            return tuple(value)
    return ()


def cached_reps(d):
    """How many complete repetitions of TF 1.15's runs the cache directory ``d`` holds (0 if none)."""
    try:
        with open(os.path.join(d, "reps")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return 0


def _rep_jobs(program, d, rep):
    ckpt = os.path.join(d, "ckpt.%d" % rep)
    save = [
        {"program": program, "argv": [os.path.join(d, "full.%d.json" % rep)]},
        {"program": program, "argv": [os.path.join(d, "save.%d.json" % rep), ckpt, "save"]},
    ]
    resume = [{"program": program, "argv": [os.path.join(d, "resume.%d.json" % rep), ckpt + "-r", "resume"]}]
    return save, resume


def _run_tf115(python, wanted, work, run_jobs):
    """Runs, in ``work``/NAME, repetitions ``wanted[NAME]`` (a range) of each program; raises if any failed."""
    saves, resumes = [], []
    for name, reps in wanted.items():
        os.makedirs(os.path.join(work, name))
        for rep in reps:
            s, r = _rep_jobs(os.path.join(PROGRAMS, name + ".py"), os.path.join(work, name), rep)
            saves += s
            resumes += r
    status = run_jobs(python, saves, tf115_env.clean_env(), work, "tf115-save")
    for job in resumes:  # each resume reads a copy of its own repetition's checkpoint
        ckpt = job["argv"][1][: -len("-r")]
        if os.path.isdir(ckpt):
            _copy_checkpoint(ckpt, job["argv"][1])
    status = list(status) + list(run_jobs(python, resumes, tf115_env.clean_env(), work, "tf115-resume"))
    failed = {}
    for job, st in zip(saves + resumes, status):
        if st is not None:
            failed.setdefault(os.path.basename(job["program"]), st)
    if failed:
        raise ProgramFailed("on TensorFlow 1.15:\n" + "\n".join("%s:\n%s" % kv for kv in failed.items()))


def _store(name, src, reps):
    """Moves the runs ``reps`` of ``name`` from ``src`` into the cache; returns the cache directory."""
    target = os.path.join(results_dir(), program_key(name))
    if not os.path.isdir(target):
        os.makedirs(target)
    for rep in reps:
        for mode in ("full", "save", "resume"):
            os.replace(os.path.join(src, "%s.%d.json" % (mode, rep)), os.path.join(target, "%s.%d.json" % (mode, rep)))
    if 0 in reps:
        shutil.rmtree(os.path.join(target, "ckpt"), ignore_errors=True)
        os.rename(os.path.join(src, "ckpt.0"), os.path.join(target, "ckpt"))
        _rewrite_checkpoint_paths(os.path.join(target, "ckpt"))
    tmp = os.path.join(target, "reps.%d" % os.getpid())
    with open(tmp, "w") as f:
        f.write("%d\n" % (max(reps) + 1))
    os.replace(tmp, os.path.join(target, "reps"))
    return target


def tf115_runs(names, reps=REPS, run_jobs=None, python=None):
    """{program: runs} of TF 1.15's own runs, at least ``reps`` repetitions each: from the cache, and
    the missing repetitions run now and added to it. Nothing of a failed run is cached.
    """
    run_jobs = run_jobs or _run_jobs
    os.makedirs(results_dir(), exist_ok=True)
    # One filler at a time (CI's parallel lanes share the cache): a second process waits, then finds the runs.
    with open(os.path.join(results_dir(), ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        wanted = {}
        for name in names:
            have = cached_reps(os.path.join(results_dir(), program_key(name)))
            if have < reps:
                wanted[name] = range(have, reps)
        if wanted:
            python = python or tf115_env.ensure()
            work = tempfile.mkdtemp(prefix="tf115-", dir=results_dir())
            try:
                _run_tf115(python, wanted, work, run_jobs)
                for name, new in wanted.items():
                    _store(name, os.path.join(work, name), list(new))
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return {name: _cached_values(name, os.path.join(results_dir(), program_key(name))) for name in names}


def _cached_values(name, d):
    runs = {}
    n = cached_reps(d)
    for mode in ("full", "save", "resume"):
        for rep in range(n):
            runs["%s.%d" % (mode, rep)] = _load(os.path.join(d, "%s.%d.json" % (mode, rep)))
    runs.update(ckpt=os.path.join(d, "ckpt"), reps=n, racy=racy_patterns(name))
    return runs


def _rewrite_checkpoint_paths(directory):
    """Makes every ``checkpoint`` state file in ``directory`` name its checkpoints relatively."""
    for dirpath, _, files in os.walk(directory):
        if "checkpoint" in files:
            path = os.path.join(dirpath, "checkpoint")
            with open(path) as f:
                text = f.read()
            text = re.sub(r'"(?:[^"]*/)?([^"/]+)"', r'"\1"', text)
            with open(path, "w") as f:
                f.write(text)


def _copy_checkpoint(src, dst):
    shutil.copytree(src, dst)
    _rewrite_checkpoint_paths(dst)


def upgrade(workdir, mode_line=None):
    """Upgrades every program (and oracle_io) into ``workdir``/upgraded; returns that directory.

    ``mode_line`` replaces the TF 1 semantics line tf1clip-upgrade inserts (for comparing choices).
    """
    import tf1clip.upgrade

    out = os.path.join(workdir, "upgraded")
    os.makedirs(out, exist_ok=True)
    for f in sorted(os.listdir(PROGRAMS)):
        if not f.endswith(".py"):
            continue
        dst = os.path.join(out, f)
        result = tf1clip.upgrade.upgrade_file(os.path.join(PROGRAMS, f), dst)
        if result.status not in ("converted", "unchanged") or result.errors:
            raise ProgramFailed(
                "tf1clip-upgrade on %s: %s %s %s" % (f, result.status, result.errors, result.crash or "")
            )
        if mode_line is not None:
            with open(dst) as fh:
                lines = fh.read().split("\n")
            lines = [
                MODE_LINE.sub(
                    lambda m: m.group("indent") + mode_line.replace("tf.", m.group("call").split(".")[0] + ".", 1), l
                )
                for l in lines
            ]
            with open(dst, "w") as fh:
                fh.write("\n".join(lines))
    return out


def upgraded_env():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    env.setdefault("TF_USE_LEGACY_KERAS", "1")
    return env


def run_all(names=None, workdir=None, mode_line=None):
    """{program: {run: values}} for every run in this module's docstring."""
    names = programs() if names is None else list(names)
    workdir = workdir or tempfile.mkdtemp(prefix="oracle-")
    reference = tf115_runs(names)
    upgraded = upgrade(workdir, mode_line)
    jobs = []
    for name in names:
        program = os.path.join(upgraded, name + ".py")
        d = os.path.join(workdir, name)
        os.makedirs(d, exist_ok=True)
        _copy_checkpoint(reference[name]["ckpt"], os.path.join(d, "tf115-ckpt"))
        jobs += [
            {"program": program, "argv": [os.path.join(d, "full.json")]},
            {"program": program, "argv": [os.path.join(d, "save.json"), os.path.join(d, "upgraded-ckpt"), "save"]},
            {"program": program, "argv": [os.path.join(d, "resume.json"), os.path.join(d, "tf115-ckpt"), "resume"]},
        ]
    status = _run_jobs(sys.executable, jobs, upgraded_env(), workdir, "upgraded")
    back = []
    for name in names:
        d = os.path.join(workdir, name)
        if os.path.isdir(os.path.join(d, "upgraded-ckpt")):
            _copy_checkpoint(os.path.join(d, "upgraded-ckpt"), os.path.join(d, "upgraded-ckpt-r"))
        back.append(
            {
                "program": os.path.join(PROGRAMS, name + ".py"),
                "argv": [os.path.join(d, "resume_from_upgraded.json"), os.path.join(d, "upgraded-ckpt-r"), "resume"],
            }
        )
    status += _run_jobs(tf115_env.ensure(), back, tf115_env.clean_env(), workdir, "tf115-back")
    results = {}
    for i, name in enumerate(names):
        runs = dict(reference[name])
        d = os.path.join(workdir, name)
        errors = {}
        for run, st in zip(("upgraded/full", "upgraded/save", "upgraded/resume"), status[3 * i : 3 * i + 3]):
            errors[run] = st
        errors["tf115/resume_from_upgraded"] = status[3 * len(names) + i]
        for run, f in [
            ("upgraded/full", "full"),
            ("upgraded/save", "save"),
            ("upgraded/resume", "resume"),
            ("tf115/resume_from_upgraded", "resume_from_upgraded"),
        ]:
            path = os.path.join(d, f + ".json")
            runs[run] = _load(path) if errors[run] is None and os.path.exists(path) else None
        runs["errors"] = errors
        results[name] = runs
    settle(results)
    return results


def settle(results, rerun=None):
    """Before a mismatch counts, TF 1.15 runs the program up to MAX_REPS times (added to the cache): a
    value that then varies was a race the cached runs had not shown. Returns the programs rerun."""
    names = [
        name
        for name, runs in results.items()
        if runs.get("reps", 0) < MAX_REPS and any(check(name, runs, run, ref)[1] for run, ref in CHECKS)
    ]
    if names:
        fresh = (rerun or tf115_runs)(names, MAX_REPS)
        for name in names:
            results[name].update(fresh[name])
    return names


def _array(values):
    """Whether the JSON list ``values`` is one numeric array (not ragged, no text)."""
    if any(isinstance(v, (dict, str)) for v in values):
        return False
    try:
        np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def flatten(values, prefix=""):
    """{"a/b/0": leaf} for nested dicts and lists of JSON ``values`` (numeric lists stay arrays; a list holding
    text or lists of different shapes, such as a histogram summary's, is split into its elements)."""
    flat = {}
    if isinstance(values, dict):
        for k, v in values.items():
            flat.update(flatten(v, "%s%s/" % (prefix, k)))
    elif isinstance(values, list) and not _array(values):
        for i, v in enumerate(values):
            flat.update(flatten(v, "%s%d/" % (prefix, i)))
    else:
        flat[prefix.rstrip("/")] = values
    return flat


def _close(a, b, rtol=RTOL):
    if isinstance(a, (str, bool)) or isinstance(b, (str, bool)) or a is None or b is None:
        return a == b
    try:
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError):
        return a == b
    if a.shape != b.shape:
        return False
    # An element of a matrix (weights, slots) is also compared to SCALE of the matrix's largest
    # element: float32 kernels that sum in another order (TF 2.15's conv and matmul gradients
    # against TF 1.15's) leave an absolute error of the order of the whole tensor, which momentum's
    # cancellations make large relative to its smallest elements.
    atol = ATOL + (SCALE * float(np.nanmax(np.abs(a))) if a.ndim >= 2 and a.size else 0.0)
    return bool(np.allclose(b, a, rtol=rtol, atol=atol, equal_nan=True))


MISSING = "<no such value>"


def differ(a, b):
    """Whether two TF 1.15 runs computed different values: another type, shape or text, or an element
    off by more than SPREAD_RTOL relative and SPREAD_ATOL absolute."""
    if isinstance(a, (str, bool)) or isinstance(b, (str, bool)) or a is None or b is None:
        return a != b
    try:
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError):
        return a != b
    if a.shape != b.shape:
        return True
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if np.any(nan_a != nan_b):
        return True
    with np.errstate(invalid="ignore"):
        gap = np.where(nan_a, 0.0, np.abs(a - b))
        scale = np.maximum(np.abs(a), np.abs(b))
        return bool(np.any((gap > SPREAD_RTOL * scale) & (gap > SPREAD_ATOL)))


def declared(keys, patterns):
    """The ``keys`` that match one of the ``fnmatch`` ``patterns`` (a program's RACY)."""
    return {k for k in keys if any(fnmatch.fnmatchcase(k, p) for p in patterns)}


def unstable_keys(runs):
    """Keys TF 1.15 computes differently from run to run: those whose values differ between any of its
    repetitions of the same kind of run (any kind), and those the program declares RACY."""
    keys = set()
    reps = runs.get("reps", 2)
    for mode in ("full", "save", "resume"):
        flat = [flatten(runs["%s.%d" % (mode, rep)]) for rep in range(reps)]
        for k, first in flat[0].items():
            if any(k not in other or differ(first, other[k]) for other in flat[1:]):
                keys.add(k)
        keys.update(declared(flat[0], runs.get("racy", ())))
    return keys


def _same_shape(a, b):
    try:
        return np.shape(a) == np.shape(b)
    except ValueError:
        return False


def compare(expected, actual, unstable=(), rtol=RTOL):
    """(mismatches, unstable): keys whose values differ from TF 1.15's, and the keys of ``unstable``
    (those TF 1.15 itself computes differently from run to run: reported, not compared) present here.
    A key present on one side only is a mismatch, and so is an unstable value of another shape.
    """
    e, a = flatten(expected), flatten(actual)
    unstable = sorted(k for k in e if k in unstable)
    mismatches = []
    for k in sorted(set(e) | set(a)):
        if k not in a:
            mismatches.append((k, e[k], MISSING))
        elif k not in e:
            mismatches.append((k, MISSING, a[k]))
        elif k in unstable:
            if not _same_shape(e[k], a[k]):
                mismatches.append((k, e[k], a[k]))
        elif not _close(e[k], a[k], rtol):
            mismatches.append((k, e[k], a[k]))
    return mismatches, unstable


# (run checked, TF 1.15's runs it is checked against)
CHECKS = [
    ("upgraded/full", "full"),
    ("upgraded/save", "save"),
    ("upgraded/resume", "resume"),
    ("tf115/resume_from_upgraded", "resume"),
]


def check(name, runs, run, reference):
    """(error or None, mismatches, unstable) of program ``name``'s ``run`` against TF 1.15's ``reference`` run."""
    if runs[run] is None:
        return runs["errors"][run] or "no values written", [], []
    unstable = unstable_keys(runs)
    if run == "tf115/resume_from_upgraded" and declared(flatten(runs["save.0"]), runs.get("racy", ())):
        # It restores the racy variables the upgraded run saved: everything it computes depends on them.
        unstable |= set(flatten(runs[reference + ".0"]))
    mismatches, unstable = compare(runs[reference + ".0"], runs[run], unstable, RTOL_FOR.get(name, RTOL))
    return None, mismatches, unstable


def short(value, n=120):
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= n else text[: n - 3] + "..."


def report(results):
    lines = []
    for name, runs in results.items():
        for run, reference in CHECKS:
            error, mismatches, unstable = check(name, runs, run, reference)
            state = "ERROR" if error else ("MISMATCH %d" % len(mismatches) if mismatches else "ok")
            lines.append(
                "%-36s %-28s %s%s"
                % (name, run, state, " (unstable in TF 1.15: %d)" % len(unstable) if unstable else "")
            )
            if error:
                lines.append("    " + error.strip().splitlines()[-1])
            for k, want, got in mismatches[:6]:
                lines.append("    %s: TF 1.15 %s, got %s" % (k, short(want), short(got)))
            for k in unstable[:6]:
                lines.append("    unstable: %s" % k)
    return "\n".join(lines)


def main(argv):
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mode-line", default=None)
    p.add_argument("names", nargs="*")
    args = p.parse_args(argv)
    print(report(run_all(args.names or None, mode_line=args.mode_line)))


if __name__ == "__main__":
    main(sys.argv[1:])
