"""Time of tf1clip-upgrade on a 1,000-line Python 2 TF 1 file, and the Python 2 pass's share (issue 36's bar:
converting a 1,000-line file stays under 2 s).

    PYTHONPATH=$PWD python3 benchmarks/bench_upgrade_python2.py [--rounds 5] [--lines 1000]

The file is tests/data/tf115_py2/mlp_train_py2.py's functions repeated under new names until it has ``--lines``
lines. Timed, in one process after a warm-up conversion (TensorFlow imported, fissix's fixers compiled): the whole
``upgrade_source`` of the Python 2 file; the Python 2 pass alone (``_py2.to_python3``); and ``upgrade_source`` of
the pass's Python 3 output with ``python2="never"`` (the TF conversion of the same program); with
``--unparsable``, also the Python 2 file with a line no parser reads in each function and the Python 3 output with an
IPython line before each function (docs/upgrade.rst, "Files the parsers read only in part"). Medians of
``--rounds`` runs, wall and CPU time.
"""

import argparse
import os
import platform
import re
import statistics
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "data", "tf115_py2", "mlp_train_py2.py")


def python2_file(lines):
    """A Python 2 file of about ``lines`` lines: the script's head, then its functions under new names."""
    with open(SCRIPT) as f:
        text = f.read()
    head, _, body = text.partition("\ndef make_data")
    body = "def make_data" + body.split("\nif __name__")[0]
    parts, copy = [head], 0
    while sum(part.count("\n") for part in parts) < lines:
        parts.append(re.sub(r"\b(make_data|batches|main|sys_stdout)\b", r"\1_%d" % copy, body))
        copy += 1
    return "\n".join(parts)


def median_seconds(function, rounds):
    """Median wall and CPU seconds of ``rounds`` calls, and the wall times (CPU time: the process's, which a busy
    machine inflates less than wall time; the code timed is single-threaded Python)."""
    walls, cpus = [], []
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), walls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument(
        "--unparsable", action="store_true", help="also time files with statements no parser reads (kept, reported)"
    )
    args = parser.parse_args()
    from tf1clip.upgrade import _py2, upgrade_source

    text = python2_file(args.lines)
    python3 = _py2.to_python3(text).text
    upgrade_source(text, target="modern")  # warm-up
    rows = [
        ("upgrade_source, Python 2 file", lambda: upgrade_source(text, target="modern")),
        ("the Python 2 pass alone", lambda: _py2.to_python3(text)),
        ("upgrade_source, its Python 3 output, python2='never'", lambda: upgrade_source(python3, python2="never")),
    ]
    if args.unparsable:
        # One statement no parser reads in each function (kept, reported), or an IPython line before each one.
        broken = re.sub(r"(\ndef [^\n]*:\n)", r'\1    print "step" %\n', text)
        magic = re.sub(r"\ndef ", "\n%matplotlib inline\ndef ", python3)
        count = broken.count('print "step" %')
        rows += [
            (
                "upgrade_source, Python 2 file, %d functions with a line 2to3 cannot read" % count,
                lambda: upgrade_source(broken, target="modern"),
            ),
            (
                "upgrade_source, its Python 3 output, %d IPython lines" % magic.count("%matplotlib"),
                lambda: upgrade_source(magic, target="modern"),
            ),
        ]
    print("%d lines; Python %s, %s" % (text.count("\n") + 1, platform.python_version(), platform.machine()))
    print("load average before: %.1f" % os.getloadavg()[0])
    print("| what | median wall s | median CPU s | per-round wall s |\n|---|---|---|---|")
    for name, function in rows:
        wall, cpu, times = median_seconds(function, args.rounds)
        print("| %s | %.3f | %.3f | %s |" % (name, wall, cpu, ", ".join("%.3f" % t for t in times)))


if __name__ == "__main__":
    main()
