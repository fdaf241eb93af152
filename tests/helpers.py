"""Shared test helpers."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_python(code, timeout=240):
    """Runs ``code`` (dedented) in a fresh interpreter with the checkout on ``PYTHONPATH``; returns its stdout.

    Fails the test with the end of stderr when the process exits non-zero.
    """
    path = os.pathsep.join(p for p in [ROOT, os.environ.get("PYTHONPATH", "")] if p)
    env = dict(os.environ, PYTHONPATH=path, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def evaluate(sess, grads):
    """Evaluates gradients (Tensor, IndexedSlices or None) to NumPy values."""
    fetches = []
    for g in grads:
        if g is None:
            fetches.append(tf.no_op())
        elif isinstance(g, tf.IndexedSlices):
            fetches.append((g.values, g.indices))
        else:
            fetches.append(g)
    out = sess.run(fetches)
    return [None if g is None else out[i] for i, g in enumerate(grads)]


def np_global_norm(arrays):
    return float(np.sqrt(sum(np.sum(np.square(np.asarray(a, np.float64))) for a in arrays)))
