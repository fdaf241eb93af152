"""tests/companion.py in pytest runs of their own: tests/keras2 runs in the companion process in TF 1 mode, each of
its tests reported in the main process as itself (passed, failed with the companion's text, skipped, xfailed,
deselected by -m), and a companion that hangs or breaks fails the tests still waiting, with its stderr, in bounded
time."""

import os
import shutil
import subprocess
import sys

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)

_UNIT = """
import os


def test_main_process_has_keras_3():
    assert "TF_USE_LEGACY_KERAS" not in os.environ
"""
_KERAS2 = """
import os
import sys

import pytest
import tensorflow as tf


def test_tf1_mode():
    assert os.environ["TF_USE_LEGACY_KERAS"] == "1" and os.environ["TF1CLIP_COMPANION"] == "1"
    assert not tf.compat.v1.resource_variables_enabled() and not tf.compat.v1.control_flow_v2_enabled()
    print("ESTIMATOR", "tf1clip.estimator" in sys.modules)


@pytest.mark.parametrize("x", [1, 2])
def test_fails_with_its_message(x):
    assert x == 1, "the companion's own message %d" % x


@pytest.mark.skip(reason="a reason of its own")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known", strict=True)
def test_xfailed():
    assert False


@pytest.mark.slow
def test_slow():
    pass
"""
_HANGS = """
import time


def test_hangs():
    time.sleep(120)


def test_after_the_hang():
    pass
"""


def _tree(tmp_path, keras2_files):
    tests = tmp_path / "tests"
    for folder in ("unit", "keras2"):
        (tests / folder).mkdir(parents=True)
    for name in ("conftest.py", "companion.py"):
        shutil.copy(os.path.join(TESTS, name), str(tests / name))
    (tests / "unit" / "test_unit_side.py").write_text(_UNIT)
    for name, text in keras2_files.items():
        (tests / "keras2" / name).write_text(text)
    return tmp_path


def _pytest(tree, *args):
    env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3", TF1CLIP_COMPANION_TEST_TIMEOUT="20")
    env.pop("TF_USE_LEGACY_KERAS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-rA", "-p", "no:cacheprovider", *args],
        cwd=str(tree),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return proc.stdout + proc.stderr


def test_outcomes_markers_and_a_hang(tmp_path):
    out = _pytest(_tree(tmp_path, {"test_a.py": _KERAS2, "test_b_hangs.py": _HANGS}), "-m", "not slow")
    for line in (
        "PASSED tests/unit/test_unit_side.py::test_main_process_has_keras_3",
        "PASSED tests/keras2/test_a.py::test_tf1_mode",
        "PASSED tests/keras2/test_a.py::test_fails_with_its_message[1]",
        "FAILED tests/keras2/test_a.py::test_fails_with_its_message[2]",
        ": a reason of its own",
        "XFAIL tests/keras2/test_a.py::test_xfailed",
        "FAILED tests/keras2/test_b_hangs.py::test_hangs",
        "FAILED tests/keras2/test_b_hangs.py::test_after_the_hang",
        "3 failed, 3 passed, 1 skipped, 1 xfailed",
    ):
        assert line in out, line + "\n" + out
    assert "AssertionError: the companion's own message 2" in out, out
    assert "exited with status 1 before reporting tests/keras2/test_b_hangs.py::test_hangs" in out, out
    assert "Timeout (0:00:20)!" in out and "in test_hangs" in out, out  # faulthandler's traceback, from its stderr
    assert "exited with status 1 before reporting tests/keras2/test_b_hangs.py::test_after_the_hang" in out, out
    assert "During handling" not in out, out
    assert "the companion reported 5 tests and exited with status 1 before it finished" in out, out


def test_a_module_that_fails_to_import_is_a_collection_error(tmp_path):
    out = _pytest(_tree(tmp_path, {"test_broken.py": "import no_such_module_here\n"}))
    assert "ERROR tests/keras2/test_broken.py" in out, out
    assert "ModuleNotFoundError: No module named 'no_such_module_here'" in out, out
    assert "1 error" in out, out
