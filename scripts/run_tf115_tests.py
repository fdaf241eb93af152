"""Runs TF 1.15-style ``*_test.py`` files with unittest and prints one line per test.

Usage (works on Python 3.7 with TF 1.15 and on Python 3.11 with TF 2)::

    python scripts/run_tf115_tests.py DIR [NAME_test.py ...] [--json OUT.json]

Each file runs in its own subprocess (a fresh TensorFlow runtime) with DIR on
``sys.path``; the output is ``<file>::<Class>.<test>  ok|FAIL|ERROR|skip``.
Where ``portpicker`` (used by the cluster tests) is not installed, a stand-in
module with ``pick_unused_port()`` (a free port on 127.0.0.1) is put on the path.
"""

import argparse
import json
import os
import subprocess
import sys

_CHILD = r"""
import json, socket, sys, types, unittest
sys.path.insert(0, sys.argv[1])
try:
    import portpicker
except ImportError:
    def _pick_unused_port():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    sys.modules["portpicker"] = types.SimpleNamespace(pick_unused_port=_pick_unused_port)
module = __import__(sys.argv[2])
suite = unittest.defaultTestLoader.loadTestsFromModule(module)
results = {}

class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test); results.setdefault(test.id(), "ok")
    def addFailure(self, test, err):
        super().addFailure(test, err); results[test.id()] = "FAIL"
    def addError(self, test, err):
        super().addError(test, err); results[test.id()] = "ERROR"
    def addSkip(self, test, reason):
        super().addSkip(test, reason); results[test.id()] = "skip"
    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            results[test.id()] = "FAIL" if issubclass(err[0], test.failureException) else "ERROR"

unittest.TextTestRunner(resultclass=Result, verbosity=0, stream=sys.stderr).run(suite)
print("@@RESULTS@@" + json.dumps(results))
"""


def run_file(directory, name, timeout):
    module = name[:-3]
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, directory, module],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            universal_newlines=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {module: "TIMEOUT"}, ""
    for line in proc.stdout.splitlines():
        if line.startswith("@@RESULTS@@"):
            found = json.loads(line[len("@@RESULTS@@") :])
            return {k.split(".", 1)[1]: v for k, v in found.items() if not k.endswith("test_session")}, proc.stderr
    return {module: "IMPORT-ERROR"}, proc.stderr


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("names", nargs="*")
    parser.add_argument("--json", help="write {file: {test: outcome}} here")
    parser.add_argument("--log", help="write each file's stderr here (appended)")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    directory = os.path.abspath(args.directory)
    names = args.names or sorted(n for n in os.listdir(directory) if n.endswith("_test.py"))
    everything = {}
    for name in names:
        results, stderr = run_file(directory, name, args.timeout)
        everything[name] = results
        for test, outcome in sorted(results.items()):
            print("%s::%s  %s" % (name, test, outcome))
        sys.stdout.flush()
        if args.log:
            with open(args.log, "a") as f:
                f.write("==== %s\n%s\n" % (name, stderr))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(everything, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
