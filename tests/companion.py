"""The companion: tests/keras2 runs in a second pytest process in TF 1 mode, beside the main one.

TF 1 mode is what an upgraded TF 1.x program runs under: Keras 2 as ``tf.keras`` (``TF_USE_LEGACY_KERAS=1``
before TensorFlow is imported), ``tf.compat.v1.disable_v2_behavior()`` (v1 control flow, reference variables)
and ``tf1clip.estimator`` imported (it patches TensorFlow). None of it can be undone in a process, so the main
pytest process (Keras 3, TF 2 behavior) cannot run these tests itself. When a run's paths include tests/keras2,
the main process starts ONE companion process at configure time (``python -m pytest <the tests/keras2 part of
the paths> -m ... -k ...``, on the other core) and collects each of the companion's tests as a proxy item of the
same node id: the proxy waits for that test's outcome in the companion's results stream (JSON lines) and passes,
fails (with the companion's report), skips or xfails as it did. The proxies run after the main process's own
tests. Bounds: a companion test that runs longer than TEST_TIMEOUT ends the companion (faulthandler prints every
thread's traceback on its stderr); a companion that exits, or writes nothing for SILENCE seconds, fails the
proxies still waiting with the end of its stderr. Nothing waits without a bound.

``TF1CLIP_COMPANION=1 python3 -m pytest tests/keras2`` runs them in the current process (what the companion
is; for ``--pdb``). docs/contributing.rst describes the folder.
"""

import faulthandler
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)
FOLDER = os.path.join(TESTS, "keras2")
ENV = "TF1CLIP_COMPANION"  # "1" in the companion process
RESULTS_ENV = "TF1CLIP_COMPANION_RESULTS"  # the companion's results stream (a file), set by the main process
# Seconds one companion test may take (setup, call and teardown); tests/subprocess/test_companion.py lowers it.
TEST_TIMEOUT = int(os.environ.get("TF1CLIP_COMPANION_TEST_TIMEOUT", "600"))
SILENCE = 900  # seconds the main process waits for the companion's next record
COLLECT_TIMEOUT = 600  # seconds the main process waits for the companion's list of tests
# Marks that act where they are (the companion applied them); a proxy takes the others, for -m.
ACTING_MARKS = ("parametrize", "skip", "skipif", "xfail", "usefixtures", "filterwarnings")


def is_companion():
    return os.environ.get(ENV) == "1"


def enter_tf1_mode(tf):
    """The companion's process-wide setup, once, before any test: TF 1 behavior and tf1clip.estimator.

    Returns why tf1clip.estimator is missing (tests needing it skip with that reason), or None."""
    tf.compat.v1.disable_v2_behavior()
    try:
        import tf1clip.estimator  # noqa: F401
    except ImportError as err:
        return "tf1clip.estimator is not available with TensorFlow %s: %s" % (tf.__version__, err)
    return None


def _inside(path, folder):
    path, folder = os.path.abspath(str(path)), os.path.abspath(folder)
    return path == folder or path.startswith(folder + os.sep)


def companion_args(args, invocation_dir):
    """The part of pytest's ``args`` (paths, maybe with ``::`` node names) inside tests/keras2: an arg inside it as
    given, an arg holding it as tests/keras2 itself."""
    found = []
    for arg in args:
        path = os.path.join(str(invocation_dir), arg.split("::")[0])
        if _inside(path, FOLDER):
            found.append(arg)
        elif _inside(FOLDER, path):
            found.append(FOLDER)
    return sorted(set(found), key=found.index)


class CompanionFailure(Exception):
    """The companion did not report a test: its text is the proxy's failure."""


class Main:
    """The main process's side: starts the companion, reads its results stream, answers the proxies."""

    def __init__(self, config, args):
        self.config = config
        self.dir = tempfile.mkdtemp(prefix="tf1clip-companion-")
        self.results_path = os.path.join(self.dir, "results.jsonl")
        self.stderr_path = os.path.join(self.dir, "stderr.txt")
        self.tracebacks_path = self.results_path + ".tracebacks"  # faulthandler's, past pytest's capture
        self.collected = None  # {node id: [marker names]} once the companion has collected
        self.errors = {}  # {file node id: collection error text}
        self.outcomes = {}  # {node id: record}
        self.finished = None
        self.started = time.time()
        self.last_record = self.started
        self._buffer = ""
        open(self.results_path, "w").close()
        self._stream = open(self.results_path)
        self._stdout = open(os.path.join(self.dir, "stdout.txt"), "w")
        self._stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen(
            self._command(config, args),
            cwd=str(config.invocation_params.dir),
            env=self._env(),
            stdout=self._stdout,
            stderr=self._stderr,
            start_new_session=True,
        )

    def _command(self, config, args):
        command = [sys.executable, "-m", "pytest", *args, "-q", "-p", "no:cacheprovider"]
        command += ["--rootdir", str(config.rootpath), "--tb", config.option.tbstyle or "auto"]
        if config.option.markexpr:
            command += ["-m", config.option.markexpr]
        if config.option.keyword:
            command += ["-k", config.option.keyword]
        if config.option.collectonly:
            command.append("--collect-only")
        return command

    def _env(self):
        path = os.pathsep.join(p for p in [ROOT, os.environ.get("PYTHONPATH", "")] if p)
        return dict(os.environ, PYTHONPATH=path, TF_USE_LEGACY_KERAS="1", **{ENV: "1", RESULTS_ENV: self.results_path})

    def _read(self):
        """Takes in the records the companion has written since the last call."""
        self._buffer += self._stream.read()
        *lines, self._buffer = self._buffer.split("\n")
        for line in lines:
            record = json.loads(line)
            self.last_record = time.time()
            if "collected" in record:
                self.collected = record["collected"]
            elif "collect_error" in record:
                self.errors[record["collect_error"]] = record["text"]
            elif "finished" in record:
                self.finished = record
            else:
                self.outcomes[record["nodeid"]] = record

    def _stderr_tail(self):
        self._stderr.flush()
        text = ""
        for path in (self.tracebacks_path, self.stderr_path):
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    text += f.read()
        return text[-6000:]

    def wait_for(self, ready, what, timeout):
        """Reads records until ``ready()``; raises CompanionFailure when the companion exits or falls silent first."""
        while True:
            self._read()
            if ready():
                return
            code = self.proc.poll()
            if code is not None:
                self._read()
                if ready():
                    return
                raise CompanionFailure(
                    "the companion (pid %d) exited with status %s before reporting %s; the end of its stderr:\n%s"
                    % (self.proc.pid, code, what, self._stderr_tail())
                )
            if time.time() - self.last_record > timeout:
                self.stop()
                raise CompanionFailure(
                    "the companion (pid %d) wrote nothing for %d s while this process waited for %s; stopped it; the "
                    "end of its stderr:\n%s" % (self.proc.pid, timeout, what, self._stderr_tail())
                )
            time.sleep(0.05)

    def tests_of(self, file_nodeid):
        """``{node id: markers}`` of the companion's tests in the file ``file_nodeid``; raises CompanionFailure."""
        self.wait_for(lambda: self.collected is not None or file_nodeid in self.errors, "its tests", COLLECT_TIMEOUT)
        if file_nodeid in self.errors:
            raise CompanionFailure(self.errors[file_nodeid])
        prefix = file_nodeid + "::"
        return {nodeid: markers for nodeid, markers in self.collected.items() if nodeid.startswith(prefix)}

    def outcome(self, nodeid):
        self.wait_for(lambda: nodeid in self.outcomes, nodeid, SILENCE)
        return self.outcomes[nodeid]

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def close(self):
        self.stop()
        self._read()
        for f in (self._stream, self._stdout, self._stderr):
            f.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def summary(self):
        if self.finished:
            return "tests/keras2 ran in the companion process (TF 1 mode): %d tests, %.1f s after it started" % (
                len(self.outcomes),
                self.finished["at"] - self.started,
            )
        code = self.proc.poll()
        ended = "was stopped" if code in (None, -signal.SIGTERM, -signal.SIGKILL) else "exited with status %s" % code
        return "tests/keras2: the companion reported %d tests and %s before it finished" % (len(self.outcomes), ended)


class CompanionModule(pytest.File):
    """A tests/keras2 module in the main process: never imported here; its items are the companion's."""

    def collect(self):
        main = self.config.stash[MAIN]
        try:
            tests = main.tests_of(self.nodeid)
        except CompanionFailure as failure:
            if main.collected is None and self.nodeid not in main.errors:  # the companion died: one failing proxy
                yield CompanionItem.from_parent(self, name="companion", markers=[], failure=str(failure))
                return
            raise self.CollectError(str(failure)) from None
        for nodeid, markers in tests.items():
            yield CompanionItem.from_parent(self, name=nodeid[len(self.nodeid) + 2 :], markers=markers)


class CompanionItem(pytest.Item):
    """One companion test in the main process: its outcome is the companion's."""

    def __init__(self, *, markers, failure=None, **kwargs):
        super().__init__(**kwargs)
        self.failure = failure
        for name in markers:
            self.add_marker(name)

    def runtest(self):
        if self.failure:
            pytest.fail(self.failure, pytrace=False)
        try:
            record = self.config.stash[MAIN].outcome(self.nodeid)
        except CompanionFailure as failure:
            record = {"outcome": "failed", "text": str(failure)}
        if record["outcome"] == "failed":
            pytest.fail(record["text"], pytrace=False)
        if record["outcome"] == "skipped":
            pytest.skip(record["text"])
        if record["outcome"] == "xfailed":
            pytest.xfail(record["text"])

    def reportinfo(self):
        return self.path, 0, self.name


MAIN = pytest.StashKey[Main]()


class MainPlugin:
    """Hooks of the main process (registered when a run's paths include tests/keras2)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_pycollect_makemodule(self, module_path, parent):
        if _inside(module_path, FOLDER):
            return CompanionModule.from_parent(parent, path=module_path)
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, items):
        items.sort(key=lambda item: isinstance(item, CompanionItem))  # stable: the main process's own tests first

    def pytest_terminal_summary(self, terminalreporter, config):
        main = config.stash[MAIN]
        main._read()
        terminalreporter.write_line(main.summary())

    def pytest_unconfigure(self, config):
        config.stash[MAIN].close()


class CompanionPlugin:
    """Hooks of the companion process: collects tests/keras2 only and writes its results stream."""

    def __init__(self, path):
        self.stream = open(path, "a") if path else None
        self.tracebacks = open(path + ".tracebacks", "w") if path else sys.__stderr__
        self.reports = {}

    def _write(self, record):
        if self.stream:
            self.stream.write(json.dumps(record) + "\n")
            self.stream.flush()

    def pytest_ignore_collect(self, collection_path):
        if not (_inside(collection_path, FOLDER) or _inside(FOLDER, collection_path)):
            return True
        return None

    def pytest_collectreport(self, report):
        if report.failed:
            self._write({"collect_error": report.nodeid, "text": report.longreprtext})

    def pytest_collection_finish(self, session):
        marks = {item.nodeid: {m.name for m in item.iter_markers()} - set(ACTING_MARKS) for item in session.items}
        self._write({"collected": {nodeid: sorted(names) for nodeid, names in marks.items()}})

    @pytest.hookimpl(hookwrapper=True)  # old-style: setup.py allows pytest 7
    def pytest_runtest_protocol(self, item):
        faulthandler.dump_traceback_later(TEST_TIMEOUT, exit=True, file=self.tracebacks)
        yield
        faulthandler.cancel_dump_traceback_later()

    def pytest_runtest_logreport(self, report):
        self.reports.setdefault(report.nodeid, []).append(report)
        if report.when == "teardown":
            self._write(_outcome(report.nodeid, self.reports.pop(report.nodeid)))

    def pytest_sessionfinish(self, session, exitstatus):
        self._write({"finished": True, "status": int(exitstatus), "at": time.time()})


def _outcome(nodeid, reports):
    """One record for a test's setup, call and teardown reports."""
    for report in reports:
        if report.failed:
            sections = "".join("\n--- %s ---\n%s" % section for section in report.sections)
            text = "in the companion process:\n" + report.longreprtext + sections
            return {"nodeid": nodeid, "outcome": "failed", "text": text}
    for report in reports:
        if report.skipped:
            if hasattr(report, "wasxfail"):
                return {"nodeid": nodeid, "outcome": "xfailed", "text": report.wasxfail}
            return {"nodeid": nodeid, "outcome": "skipped", "text": report.longrepr[2].replace("Skipped: ", "", 1)}
    return {"nodeid": nodeid, "outcome": "passed", "text": ""}


def configure(config):
    """Registers the side this process plays: the companion's, or the main one's when its paths reach tests/keras2."""
    if is_companion():
        config.pluginmanager.register(CompanionPlugin(os.environ.get(RESULTS_ENV)), "tf1clip-companion")
        return
    args = companion_args(config.args, config.invocation_params.dir)
    if args:
        config.stash[MAIN] = Main(config, args)
        config.pluginmanager.register(MainPlugin(), "tf1clip-companion-main")
