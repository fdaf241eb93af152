"""The TensorFlow 1.15 environment the oracle runs TF 1.x programs in: built once, then reused.

    python tests/oracle/tf115_env.py        # builds it if needed, prints its python

Location: ``$TF1CLIP_TF115_VENV`` if set (an existing environment with TensorFlow 1.15 is used
as it is), else ``~/.cache/tf1clip/tf115-venv`` (``$XDG_CACHE_HOME`` if set). It is a Python 3.7
venv (``pyenv prefix 3.7``, else ``python3.7`` on PATH) with :data:`PACKAGES`, installed without
byte-compiling (Python compiles what TF 1.15 imports on first use). Building it takes about 20 s of
CPU with a warm pip cache (80-150 s wall measured on the shared, loaded 2-core machine). Concurrent builders wait on a lock file next to it.
Standard library only: the oracle's results cache uses it before TensorFlow is imported.
"""

import fcntl
import glob
import os
import shutil
import subprocess
import sys

PACKAGES = ("tensorflow==1.15.5", "numpy<1.19", "protobuf<3.21")
TF_VERSION = "1.15.5"
BUILD_TIMEOUT = 900
_READY = "tf1clip-ready"


class Unavailable(Exception):
    """No Python 3.7 to build the environment with (the oracle tests skip)."""


class BuildFailed(Exception):
    """Building the environment failed (the oracle tests fail: the image promises Python 3.7)."""


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tf1clip")


def venv_dir():
    return os.environ.get("TF1CLIP_TF115_VENV") or os.path.join(cache_root(), "tf115-venv")


def venv_python(venv):
    return os.path.join(venv, "bin", "python")


def find_python37():
    """The path of a Python 3.7 interpreter, or raises :class:`Unavailable` saying where it looked."""
    pyenv = shutil.which("pyenv")
    if pyenv:
        try:
            prefix = subprocess.run([pyenv, "prefix", "3.7"], capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            prefix = ""
        candidate = os.path.join(prefix.splitlines()[0], "bin", "python3.7") if prefix else ""
        if candidate and os.path.exists(candidate):
            return candidate
    found = shutil.which("python3.7")
    if found:
        return found
    raise Unavailable(
        "no Python 3.7 for the TensorFlow 1.15 oracle: `pyenv prefix 3.7` found none and python3.7 is not on "
        "PATH (or set TF1CLIP_TF115_VENV to a venv with tensorflow==1.15.5)"
    )


def has_tf115(venv):
    """Whether ``venv`` has TensorFlow 1.15 installed (checked on disk: no TensorFlow import)."""
    if os.path.exists(os.path.join(venv, _READY)):
        return True
    pattern = os.path.join(venv, "lib", "python3.*", "site-packages", "tensorflow-%s.dist-info" % TF_VERSION)
    return os.path.exists(venv_python(venv)) and bool(glob.glob(pattern))


def clean_env(**extra):
    """The environment for a TF 1.15 process started from a process that may have imported TF 2.

    Without ``TF2_BEHAVIOR`` (TF 2 sets it in ``os.environ`` on import; TF 1.15 would run eagerly),
    ``PYTHONPATH`` (nothing of the current environment leaks in) and pip's ``PIP_CONSTRAINT`` (``.ci/run`` pins
    the current environment's TensorFlow with it: tensorflow-estimator==2.15.0 there made pip refuse
    tensorflow==1.15.5 when CI built this environment on a fresh machine).
    """
    dropped = ("TF2_BEHAVIOR", "PYTHONPATH", "PYTHONHOME", "PIP_CONSTRAINT")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="", PYTHONHASHSEED="0")
    env.update(extra)
    return env


def ensure():
    """The python of a TensorFlow 1.15 environment, built if missing.

    Raises :class:`Unavailable` without Python 3.7, :class:`BuildFailed` when pip fails.
    """
    venv = venv_dir()
    if has_tf115(venv):
        return venv_python(venv)
    if os.environ.get("TF1CLIP_TF115_VENV") and os.path.exists(venv) and os.listdir(venv):
        raise BuildFailed("TF1CLIP_TF115_VENV=%s exists but has no tensorflow==%s" % (venv, TF_VERSION))
    python37 = find_python37()
    os.makedirs(os.path.dirname(os.path.abspath(venv)), exist_ok=True)
    with open(venv + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if has_tf115(venv):
            return venv_python(venv)
        shutil.rmtree(venv, ignore_errors=True)
        env = clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1")
        steps = [
            [python37, "-m", "venv", venv],
            [venv_python(venv), "-m", "pip", "install", "-q", "--no-compile", *PACKAGES],
        ]
        for cmd in steps:
            try:
                proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
            except (OSError, subprocess.SubprocessError) as e:
                shutil.rmtree(venv, ignore_errors=True)
                raise BuildFailed("%s: %s" % (" ".join(cmd), e)) from e
            if proc.returncode != 0:
                shutil.rmtree(venv, ignore_errors=True)
                raise BuildFailed("%s exited %d:\n%s" % (" ".join(cmd), proc.returncode, proc.stderr[-3000:]))
        with open(os.path.join(venv, _READY), "w") as f:
            f.write("\n".join(PACKAGES) + "\n")
    return venv_python(venv)


if __name__ == "__main__":
    try:
        print(ensure())
    except (Unavailable, BuildFailed) as e:
        sys.exit("tf115_env: %s" % e)
