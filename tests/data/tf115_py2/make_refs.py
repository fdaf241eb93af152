"""Records what mlp_train_py2.py computes on TF 1.15 under Python 2.7, unchanged, for
tests/subprocess/test_python2_program_upgraded.py. Run ONCE, with Python 3, naming a Python 2.7 and a folder where its pip
installed TensorFlow 1.15.0 (the last TensorFlow with Python 2 wheels)::

    ~/.pyenv/versions/2.7.18/bin/pip install --target SITE grpcio==1.39.0 numpy==1.16.6 h5py==2.10.0 \\
        protobuf==3.17.3 tensorflow==1.15.0
    python3 tests/data/tf115_py2/make_refs.py ~/.pyenv/versions/2.7.18/bin/python SITE

refs.json: the results the script pickled (cPickle, protocol 0), its printed lines (the timing line left out), and
the versions.
"""

import json
import os
import pickle
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


# site.addsitedir, not PYTHONPATH: protobuf's `google` namespace is set up by a .pth file of SITE.
RUN = "import runpy, site, sys; site.addsitedir(sys.argv.pop(1)); sys.argv.pop(0); runpy.run_path(sys.argv[0], run_name='__main__')"


def main(python2, site):
    env = {k: v for k, v in os.environ.items() if k not in ("TF2_BEHAVIOR", "PYTHONPATH")}
    env.update(TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "results.pkl")
        proc = subprocess.run(
            [python2, "-c", RUN, site, os.path.join(HERE, "mlp_train_py2.py"), "--out", out],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
        )
        with open(out, "rb") as f:
            results = pickle.load(f, encoding="latin1")
    version = "import sys, site; site.addsitedir(sys.argv[1]); import tensorflow as tf; "
    version += "print('%d.%d.%d %s' % (sys.version_info[:3] + (tf.__version__,)))"
    versions = subprocess.run(
        [python2, "-c", version, site],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    printed = [line for line in proc.stdout.splitlines() if not line.startswith("trained in")]
    refs = {"python": versions[0], "tensorflow": versions[1], "results": results, "printed": printed}
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
