"""A Python 2 TF 1 training script (tests/data/tf115_py2/mlp_train_py2.py: print statements, xrange, iteritems over a
feed dict, cPickle, map/zip/keys used as lists, integer `/` for sizes, ranges and indices, tf.contrib.layers),
converted by tf1clip-upgrade and run on today's TensorFlow, computes what the unchanged script computed on TF 1.15
under Python 2.7 (tests/data/tf115_py2/refs.json, recorded by make_refs.py there): the same losses, accuracies,
variable shapes, weights and printed lines.
"""

import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

from tf1clip.upgrade import upgrade_file

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data", "tf115_py2")

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")


@pytest.fixture(scope="module")
def refs():
    with open(os.path.join(DATA, "refs.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("py2") / "mlp_train.py")
    result = upgrade_file(os.path.join(DATA, "mlp_train_py2.py"), out)
    with open(out) as f:
        return result, f.read(), out


def test_the_refs_are_python_2_on_tf_1_15(refs):
    assert refs["python"].startswith("2.7.") and refs["tensorflow"].startswith("1.15.")


def test_the_script_converts_without_an_error_and_names_each_python_2_change(converted):
    result, text, _ = converted
    assert result.status == "converted" and result.errors == []
    lines = {(e.line, e.severity): e.message for e in result.log if e.message.startswith("Python 2 -> 3:")}
    source = open(os.path.join(DATA, "mlp_train_py2.py")).read().split("\n")

    def at(fragment):
        return next(i + 1 for i, line in enumerate(source) if fragment in line)

    for fragment in ("len(x_data) / FLAGS.batch_size", "FLAGS.hidden / 2", "losses[len(losses) / 2]"):
        assert "which Python 2 floored: now `//`" in lines[(at(fragment), "INFO")], fragment
    assert "kept `/`" in lines[(at("100 * n_correct / len(x_data)"), "WARNING")]
    assert "the print statement is print()" in lines[(at('print "epoch'), "INFO")]
    assert "xrange is range" in lines[(at("xrange(FLAGS.epochs)"), "INFO")]
    assert "d.iteritems()" in lines[(at("arrays.iteritems()"), "INFO")]
    assert "opened in binary mode" in lines[(at("cPickle.dump"), "INFO")]
    for python3 in (
        "num_batches = len(x_data) // FLAGS.batch_size",
        "FLAGS.hidden // 2",
        "middle = losses[len(losses) // 2]",
        "accuracies.append(100 * n_correct / len(x_data))",
        "starts = list(range(0, n, size))",
        "return list(zip(starts, ends))",
        "names = list(shapes.keys())",
        "for placeholder, value in arrays.items():",
        "pickle.dump(results, open(FLAGS.out, 'wb'))",
        "print('trained in %.1f s' % (elapsed / 1), file=sys_stdout())",
    ):
        assert python3 in text, python3


def test_the_converted_script_runs_with_the_numbers_python_2_got_on_tf_1_15(converted, refs, tmp_path):
    _, _, script = converted
    out = str(tmp_path / "results.pkl")
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]), TF_CPP_MIN_LOG_LEVEL="3"
    )
    proc = subprocess.run(
        [sys.executable, script, "--out", out], capture_output=True, text=True, timeout=600, env=env, cwd=str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out, "rb") as f:
        got = pickle.load(f)
    want = refs["results"]
    assert got["steps"] == want["steps"] == 18  # 3 epochs of len(x_data) // batch_size == 6 batches
    np.testing.assert_allclose(got["losses"], want["losses"], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got["middle"], want["middle"], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got["checksum"], want["checksum"], rtol=1e-5, atol=1e-5)
    assert got["accuracies"] == want["accuracies"]
    assert got["shapes"] == want["shapes"] and got["shapes"]["half/weights"] == [12, 6]
    assert got["names"] == want["names"] == sorted(want["shapes"])
    printed = [line for line in proc.stdout.splitlines() if not line.startswith("trained in")]
    assert printed == refs["printed"]
