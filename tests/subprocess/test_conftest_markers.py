"""tests/conftest.py in a pytest run of its own: folder markers, the quick loop, and the rule that a test of
tests/unit or tests/upgrade starting a process fails."""

import os
import shutil
import subprocess
import sys

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)

_STARTS = (
    "import subprocess, sys\n\n\ndef test_starts():\n    subprocess.run([sys.executable, '-c', 'pass'], check=True)\n"
)
_QUIET = (
    "def test_quiet(request):\n    print('MARKERS', __name__, sorted(m.name for m in request.node.iter_markers()))\n"
)


def _pytest(tree, *args):
    env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-q", "-rA", "-p", "no:cacheprovider", *args],
        cwd=str(tree),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.stdout + proc.stderr


def _tree(tmp_path):
    tests = tmp_path / "tests"
    tests.mkdir()
    for name in ("conftest.py", "companion.py"):
        shutil.copy(os.path.join(TESTS, name), str(tests / name))
    for folder in ("unit", "upgrade", "subprocess", "oracle"):
        (tests / folder).mkdir()
        (tests / folder / ("test_%s_starts.py" % folder)).write_text(_STARTS)
        (tests / folder / ("test_%s_quiet.py" % folder)).write_text(_QUIET)
    return tmp_path


def test_folders_give_the_markers_and_only_quick_loop_modules_may_not_start_processes(tmp_path):
    out = _pytest(_tree(tmp_path))
    assert "8 passed, 2 errors" in out, out
    for folder in ("unit", "upgrade"):
        assert "ERROR tests/%s/test_%s_starts.py::test_starts" % (folder, folder) in out, out
    assert "from a quick-loop module: move it to tests/subprocess" in out, out
    for folder in ("subprocess", "oracle"):
        assert "PASSED tests/%s/test_%s_starts.py::test_starts" % (folder, folder) in out, out
    markers = {"unit": [], "upgrade": [], "subprocess": ["slow", "subprocess"], "oracle": ["oracle", "slow"]}
    for folder, names in markers.items():
        assert "MARKERS test_%s_quiet %s" % (folder, names) in out, out
