"""Runs oracle programs one after another in this process (TF 1.15 on Python 3.7, or the current TF).

    python run_programs.py JOBS.json STATUS.json

JOBS.json is a list of ``{"program": path, "argv": [...]}``; each program runs as ``__main__``
with ``sys.argv = [program] + argv`` and its directory first on ``sys.path``, in a fresh default graph. STATUS.json gets, per job, ``null``
or the traceback of what it raised. One process for all jobs: importing TensorFlow costs seconds.
Python 3.7 syntax (it runs in the TF 1.15 environment too).
"""

import json
import os
import runpy
import sys
import traceback


def run(jobs):
    import tensorflow as tf

    reset = tf.compat.v1.reset_default_graph
    status = []
    saved_argv = sys.argv
    for job in jobs:
        reset()
        sys.argv = [job["program"]] + list(job["argv"])
        sys.path.insert(0, os.path.dirname(os.path.abspath(job["program"])))
        try:
            runpy.run_path(job["program"], run_name="__main__")
            status.append(None)
        except SystemExit as e:
            status.append(None if e.code in (None, 0) else "SystemExit(%r)" % (e.code,))
        except BaseException:  # noqa: B036 - reported per job, the others still run
            status.append(traceback.format_exc())
        finally:
            sys.argv = saved_argv
            del sys.path[0]
    reset()
    return status


def main():
    with open(sys.argv[1]) as f:
        jobs = json.load(f)
    status = run(jobs)
    with open(sys.argv[2], "w") as f:
        json.dump(status, f)


if __name__ == "__main__":
    main()
