"""Processes of a TensorFlow cluster on 127.0.0.1: free ports, bounded waits, and every process stopped at the end.

Used by ps_cluster.py and by the tests that start clusters (tests/subprocess/_contrib_opt_cluster.py,
tests/subprocess/test_estimator_cluster.py)::

    with LocalCluster(timeout=120) as cluster:
        ps = cluster.start([sys.executable, "task.py", "--job", "ps"])
        chief = cluster.start([sys.executable, "task.py", "--job", "worker"])
        cluster.wait(chief)
        result = cluster.result(chief)
"""

import json
import os
import socket
import subprocess
import tempfile
import time


def free_ports(count):
    """``count`` distinct TCP ports that were free on 127.0.0.1 a moment ago."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def wait_until(predicate, timeout, interval=0.01):
    """Calls ``predicate()`` every ``interval`` seconds until it is true; RuntimeError after ``timeout`` seconds."""
    deadline = time.time() + timeout
    while not predicate():
        if time.time() > deadline:
            raise RuntimeError("timed out after %.0f s" % timeout)
        time.sleep(interval)


def task_env(**overrides):
    """``os.environ`` with ``overrides``, and ``TF_CPP_MIN_LOG_LEVEL`` 2 unless set."""
    env = dict(os.environ, **overrides)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


class LocalCluster:
    """Processes started together and given ``timeout`` seconds in all, counted from construction.

    Each process writes stdout and stderr to a temporary file (``output``).
    Leaving the ``with`` block terminates every process still running (killed
    if it has not exited 5 s later) and closes the files.
    """

    def __init__(self, timeout):
        self.timeout = timeout
        self.deadline = time.time() + timeout
        self.procs = []
        self._logs = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in self._logs.values():
            log.close()

    def start(self, cmd, env=None):
        """Starts ``cmd`` (an argument list) with ``env`` (default: this process's environment); returns its Popen."""
        log = tempfile.TemporaryFile()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.procs.append(proc)
        self._logs[proc] = log
        return proc

    def output(self, proc):
        """What ``proc`` has written so far (stdout and stderr)."""
        log = self._logs[proc]
        log.seek(0)
        return log.read().decode(errors="replace")

    def wait(self, proc):
        """Waits for ``proc`` until the deadline and returns its exit code.

        Raises:
          RuntimeError: the deadline passed; the message has the end of every process's output.
        """
        try:
            return proc.wait(timeout=max(1.0, self.deadline - time.time()))
        except subprocess.TimeoutExpired:
            tails = "\n----\n".join(self.output(p)[-2000:] for p in self.procs)
            raise RuntimeError("the cluster did not finish within %.0f s:\n%s" % (self.timeout, tails)) from None

    def result(self, proc):
        """The JSON value on ``proc``'s last line starting with ``RESULT `` after it exits 0.

        Raises:
          RuntimeError: ``proc`` exited with another code or printed no such line; the message has its output's end.
        """
        code = self.wait(proc)
        text = self.output(proc)
        lines = [line for line in text.splitlines() if line.startswith("RESULT ")]
        if code != 0 or not lines:
            raise RuntimeError("a task failed (exit %s):\n%s" % (code, text[-4000:]))
        return json.loads(lines[-1][len("RESULT ") :])
