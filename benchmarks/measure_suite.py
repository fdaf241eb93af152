"""Measures the test suite, the main job and CI, and records each in benchmarks/results.json (one record per kind).

    python3 benchmarks/measure_suite.py quick-loop    # python3 -m pytest tests -m "not slow" -q
    python3 benchmarks/measure_suite.py full-suite    # python3 -m pytest tests -q
    python3 benchmarks/measure_suite.py main-job      # python3 legacy_examples/exploding_rnn.py
    python3 benchmarks/measure_suite.py ci            # .ci/run

Run from the checkout root with tf1clip importable (``PYTHONPATH=$PWD``). A record holds the date (UTC), the
commit, the machine's core count, the 1-minute load average before and after (``uptime``: other work on the
machine slows a run), the command, the wall time and the counts the command printed. README.rst, docs/install.rst
(docs/_ext/results.py) and benchmarks/RESULTS.md quote these records; tests/unit/test_results_file.py fails when
they disagree. ``describe(kind)`` is the one wording of a record.
"""

import datetime
import json
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmarks", "results.json")
COMMANDS = {
    "quick-loop": [sys.executable, "-m", "pytest", "tests", "-m", "not slow", "-q", "-p", "no:cacheprovider"],
    "full-suite": [sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider"],
    "main-job": [sys.executable, "legacy_examples/exploding_rnn.py"],
    "ci": ["bash", ".ci/run"],
}
COUNTS = ("passed", "failed", "skipped", "deselected", "xfailed", "errors")


def load(path=RESULTS):
    with open(path) as f:
        return json.load(f)


def minutes(seconds):
    """``"3 min 5 s"``, ``"51 min"`` (whole minutes above 30), ``"15 s"``."""
    seconds = int(round(seconds))
    if seconds < 60:
        return "%d s" % seconds
    if seconds >= 30 * 60:
        return "%d min" % round(seconds / 60.0)
    return "%d min %d s" % divmod(seconds, 60)


def counts(text):
    """The counts of the last pytest summary line (or CI's ``total:`` line) of ``text``."""
    lines = [line for line in text.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    if not lines:
        return {}
    found = {}
    for n, kind in re.findall(r"(\d+) (passed|failed|skipped|deselected|xfailed|errors?)\b", lines[-1]):
        found["errors" if kind.startswith("error") else kind] = int(n)
    return {kind: found[kind] for kind in COUNTS if kind in found}


def describe(record):
    """A record in words: ``"1,420 passed, 3 failed and 6 skipped in 3 min 5 s (5 min 2 s of CPU, load 1.1-2.0,
    2026-12-02)"``."""
    parts = ["{:,} {}".format(record[kind], kind) for kind in ("passed", "failed", "skipped") if record.get(kind)]
    text = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else "ran"
    loads = sorted(record[key] for key in ("load_before", "load_after") if record.get(key) is not None)
    load = "load %.1f-%.1f, " % (loads[0], loads[-1]) if loads else ""
    cpu = "%s of CPU, " % minutes(record["cpu_seconds"]) if record.get("cpu_seconds") else ""
    return "%s in %s (%s%s%s)" % (text, minutes(record["seconds"]), cpu, load, record["date"])


def _load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _commit():
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip()


def measure(kind):
    """Runs ``kind``'s command once; returns its record."""
    command = COMMANDS[kind]
    commit = _commit()
    before, start, cpu = _load_average(), time.time(), _children_cpu()
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds, after, cpu = time.time() - start, _load_average(), _children_cpu() - cpu
    output = proc.stdout + proc.stderr
    record = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "commit": commit,
        "cores": os.cpu_count(),
        "load_before": before,
        "load_after": after,
        "command": " ".join(command[1:] if command[0] == sys.executable else command),
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu, 1),  # of every process it started: what the load cannot inflate much
        "status": proc.returncode,
    }
    record.update(counts(output))
    failures = re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.M)
    if failures:
        record["failures"] = failures
    if kind == "ci":
        record["counted"] = "two whole suites and two quick loops"
    companion = re.search(r"companion process \(TF 1 mode\): (\d+) tests, ([\d.]+) s", output)
    if companion:
        record["companion_tests"], record["companion_seconds"] = int(companion.group(1)), float(companion.group(2))
    return record


def main(argv):
    if len(argv) != 1 or argv[0] not in COMMANDS:
        sys.exit("usage: measure_suite.py {%s}" % ",".join(COMMANDS))
    kind = argv[0].replace("-", "_")
    record = measure(argv[0])
    results = load()
    results[kind] = record
    with open(RESULTS, "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    print("%s: %s" % (kind, describe(record)))


if __name__ == "__main__":
    main(sys.argv[1:])
