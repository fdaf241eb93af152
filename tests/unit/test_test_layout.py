"""The test suite's layout: every test module in one folder of tests/conftest.py's FOLDERS, each basename once
(pytest's default rootdir import mode imports a module by its basename), workers beside the tests that start them."""

import ast
import collections
import os

import companion
import conftest
import pytest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python_files():
    for folder, dirs, files in os.walk(TESTS):
        dirs[:] = [d for d in dirs if d not in ("data", "__pycache__", "programs")]
        for name in files:
            if name.endswith(".py"):
                yield os.path.relpath(os.path.join(folder, name), TESTS)


def test_every_test_module_is_in_a_folder_of_conftest():
    modules = [p for p in _python_files() if os.path.basename(p).startswith("test_")]
    misplaced = [p for p in modules if p.split(os.sep)[0] not in conftest.FOLDERS]
    assert len(modules) > 50
    assert not misplaced, "put these in tests/%s: %s" % (", tests/".join(conftest.FOLDERS), misplaced)


def test_no_two_test_modules_share_a_basename():
    names = collections.Counter(os.path.basename(p) for p in _python_files() if os.path.dirname(p))
    assert not [n for n, count in names.items() if count > 1]


def test_no_test_module_imports_a_cases_file_by_its_bare_name():
    """``tests/data/*/cases.py`` share one basename: in one pytest process ``import cases`` gives every importer
    the first one imported (``helpers.load_cases`` gives each its own). Workers run in processes of their own."""
    bare = []
    for path in (p for p in _python_files() if os.path.basename(p).startswith("test_")):
        with open(os.path.join(TESTS, path)) as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            if "cases" in names:
                bare.append("%s:%d" % (path, node.lineno))
    assert not bare, "use helpers.load_cases(directory): %s" % bare


def test_workers_and_cases_sit_beside_process_starting_tests():
    helpers = [
        p for p in _python_files() if os.path.basename(p).startswith("_") and p.endswith(("_worker.py", "_cases.py"))
    ]
    assert helpers
    assert not [p for p in helpers if "slow" not in conftest.FOLDERS[p.split(os.sep)[0]]]


@pytest.mark.parametrize(
    ("path", "markers"),
    [
        ("unit/test_x.py", ()),
        ("upgrade/test_x.py", ()),
        ("subprocess/test_x.py", ("subprocess", "slow")),
        ("oracle/test_x.py", ("oracle", "slow")),
        ("keras2/test_x.py", ("keras2",)),
        ("test_x.py", ()),
    ],
)
def test_a_module_gets_the_markers_of_its_folder(path, markers):
    assert conftest.folder_markers(os.path.join(TESTS, path)) == markers


def test_the_quick_loop_is_unit_upgrade_and_keras2_and_slow_is_subprocess_and_oracle():
    quick = sorted(f for f, markers in conftest.FOLDERS.items() if "slow" not in markers)
    slow = sorted(f for f, markers in conftest.FOLDERS.items() if "slow" in markers)
    assert (quick, slow) == (["keras2", "unit", "upgrade"], ["oracle", "subprocess"])


def test_the_companion_takes_the_keras2_part_of_the_paths():
    keras2 = os.path.join(TESTS, "keras2")
    root = os.path.dirname(TESTS)
    assert companion.companion_args(["tests"], root) == [keras2]
    assert companion.companion_args(["."], TESTS) == [keras2]
    assert companion.companion_args(["tests/unit", "tests/upgrade/test_x.py"], root) == []
    assert companion.companion_args(["tests/keras2/test_a.py::test_b[1]", "tests/keras2/test_a.py"], root) == [
        "tests/keras2/test_a.py::test_b[1]",
        "tests/keras2/test_a.py",
    ]
    assert companion.companion_args(["tests/keras2x"], root) == []
