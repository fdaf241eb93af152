"""Shared by the TF 1.15 benchmark programs: ``program.py OUT.json VARIANT`` (``clip``/``noclip``, or what the
program times, e.g. ``train``/``greedy``/``beam``) and the timing loop.

BENCH_THREADS (environment): 1 for one intra-op and one inter-op thread, 0 for TensorFlow's
defaults; BENCH_STEPS, BENCH_WARMUP: timed and untimed steps.
"""

import json
import os
import sys
import time

import tensorflow as tf


def parse_args():
    """(out path, whether to clip)."""
    return sys.argv[1], sys.argv[2] == "clip"


def variant():
    """The program's second argument."""
    return sys.argv[2]


def config():
    threads = int(os.environ.get("BENCH_THREADS", "0"))
    return tf.ConfigProto(intra_op_parallelism_threads=threads, inter_op_parallelism_threads=threads)


def steps():
    return int(os.environ.get("BENCH_WARMUP", "10")), int(os.environ.get("BENCH_STEPS", "50"))


def time_steps(sess, fetch, feed_fn):
    """Per-step seconds of ``sess.run(fetch, feed_fn(step))`` after the warm-up steps."""
    warmup, n = steps()
    times = []
    for step in range(warmup + n):
        feed = feed_fn(step)
        start = time.perf_counter()
        sess.run(fetch, feed)
        if step >= warmup:
            times.append(time.perf_counter() - start)
    return times


def write(out, times):
    with open(out, "w") as f:
        json.dump({"times": times}, f)
