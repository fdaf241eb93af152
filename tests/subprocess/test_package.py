"""The public API and the import-time TensorFlow check."""

import ast
import os
import re
import subprocess
import sys

import pytest

import tf1clip

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PUBLIC = {
    "global_norm",
    "clip_by_value",
    "clip_by_norm",
    "clip_by_average_norm",
    "clip_by_global_norm",
    "clip_by_value_fn",
    "clip_by_norm_fn",
    "clip_by_average_norm_fn",
    "clip_by_global_norm_fn",
    "chain",
    "sum_duplicate_indices",
    "transform_gradients",
    "clip_gradients_by_norm",
    "TransformGradientsOptimizer",
    "GradientNorms",
    "AutoClip",
    "AGC",
    "ZClip",
    "NormRecorder",
    "attach_state_updates",
    "STATE_UPDATES",
}


def test_all_lists_every_public_name_and_each_exists():
    assert PUBLIC <= set(tf1clip.__all__)
    for name in tf1clip.__all__:
        assert hasattr(tf1clip, name), name
    assert not any(name.startswith("_") and name != "__version__" for name in tf1clip.__all__)


def test_setup_py_has_the_packages_version_and_every_subpackage():
    """The version ``setup.py`` builds with is ``tf1clip.__version__``, and its package list has every
    directory of tf1clip that holds an ``__init__.py`` (a missing one would be absent from the wheel)."""
    pytest.importorskip("setuptools")
    assert re.fullmatch(r"\d+\.\d+\.\d+", tf1clip.__version__)
    code = (
        "import runpy, sys, setuptools\n"
        "setuptools.setup = lambda **kw: print(kw['version'], ' '.join(sorted(kw['packages'])))\n"
        "runpy.run_path('setup.py', run_name='__main__')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    version, *packages = proc.stdout.split()
    on_disk = sorted(
        os.path.relpath(d, ROOT).replace(os.sep, ".")
        for d, _, files in os.walk(os.path.join(ROOT, "tf1clip"))
        if "__init__.py" in files
    )
    assert version == tf1clip.__version__
    assert packages == on_disk and "tf1clip.contrib.slim" in packages


def test_every_public_name_is_in_the_docs():
    docs = os.path.join(ROOT, "docs")
    text = ""
    for name in sorted(os.listdir(docs)):
        if name.endswith(".rst"):
            with open(os.path.join(docs, name)) as f:
                text += f.read()
    missing = [name for name in PUBLIC if name not in text]
    assert not missing


def _min_tf_version():
    with open(os.path.join(ROOT, "tf1clip", "compat", "_tf.py")) as f:
        return tuple(int(n) for n in re.search(r"^MIN_TF_VERSION = \((\d+), (\d+)\)", f.read(), re.M).groups())


def _import_with_fake_tensorflow(tmp_path, body):
    """``import tf1clip`` (must work), then the first use of a public name (must fail clearly)."""
    fake = tmp_path / "tensorflow"
    fake.mkdir()
    (fake / "__init__.py").write_text(body)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    code = "import tf1clip, sys; print('imported', 'tensorflow' in sys.modules); tf1clip.clip_by_norm"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


def test_missing_tensorflow_gives_a_clear_message_on_first_use(tmp_path):
    proc = _import_with_fake_tensorflow(tmp_path, "raise ImportError('No module named tensorflow')\n")
    assert proc.stdout.strip() == "imported False"  # import tf1clip itself needs no TensorFlow
    assert proc.returncode != 0
    assert "ImportError: tf1clip needs TensorFlow >= %d.%d, which is not installed" % _min_tf_version() in proc.stderr
    assert "python3 -m pip install 'tensorflow-cpu>=%d.%d'" % _min_tf_version() in proc.stderr


def test_old_tensorflow_gives_a_clear_message_on_first_use(tmp_path):
    major, minor = _min_tf_version()
    old = "%d.%d.1" % (major, minor - 1)
    proc = _import_with_fake_tensorflow(tmp_path, "__version__ = %r\n" % old)
    assert proc.stdout.strip() == "imported False"
    assert proc.returncode != 0
    assert "ImportError: tf1clip needs TensorFlow >= %d.%d; found %s." % (major, minor, old) in proc.stderr


def test_import_tf1clip_does_not_import_tensorflow():
    code = (
        "import sys, tf1clip, tf1clip.upgrade; assert 'tensorflow' not in sys.modules; "
        "tf1clip.global_norm; assert 'tensorflow' in sys.modules; print(sorted(dir(tf1clip))[:1])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]


MAX_FUNCTION_LINES = 60


def _function_lengths(path):
    """``(line, name, length)`` for every function and method in ``path``; a docstring's lines are not counted."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                length -= first.end_lineno - first.lineno + 1
            yield node.lineno, node.name, length


def test_no_function_in_the_package_is_longer_than_60_lines():
    """Every function, method and nested function under tf1clip/ has at most 60 lines besides its docstring."""
    offenders = []
    for d, _, files in os.walk(os.path.join(ROOT, "tf1clip")):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(d, name)
                rel = os.path.relpath(path, ROOT)
                offenders += [
                    "%s:%d %s (%d lines)" % (rel, line, func, n)
                    for line, func, n in _function_lengths(path)
                    if n > MAX_FUNCTION_LINES
                ]
    assert not offenders, "functions over %d lines:\n%s" % (MAX_FUNCTION_LINES, "\n".join(sorted(offenders)))


INTERNAL_PACKAGES = ("tensorflow.python", "tensorflow_estimator.python")
IMPORT_CALLS = {"import_module", "__import__", "find_spec"}


def _internal_imports_by_name(path):
    """``(line, module)`` for every ``import_module`` / ``__import__`` / ``find_spec`` of a TensorFlow or
    tensorflow-estimator internal module named by a string literal in ``path``."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            module = node.args[0].value
            if name in IMPORT_CALLS and isinstance(module, str) and module.startswith(INTERNAL_PACKAGES):
                yield node.lineno, module


def _internal_imports_outside_compat(root):
    found = []
    for d, _, files in os.walk(os.path.join(root, "tf1clip")):
        if os.path.relpath(d, root).replace(os.sep, "/").startswith("tf1clip/compat"):
            continue
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(d, name)
                found += ["%s:%d %s" % (os.path.relpath(path, root), n, m) for n, m in _internal_imports_by_name(path)]
    return found


def test_no_internal_module_is_imported_by_name_outside_compat(tmp_path):
    """ruff's TID251 bans ``tensorflow.python`` / ``tensorflow_estimator.python`` imports and attributes outside
    tf1clip/compat/ (SLF001 their private names); this catches the same modules imported by name."""
    assert _internal_imports_outside_compat(ROOT) == []
    (tmp_path / "tf1clip" / "compat").mkdir(parents=True)
    (tmp_path / "tf1clip" / "contrib").mkdir()
    violation = "import importlib\nimportlib.import_module('tensorflow.python.ops.lookup_ops')\n"
    (tmp_path / "tf1clip" / "compat" / "_tf.py").write_text(violation)
    (tmp_path / "tf1clip" / "contrib" / "m.py").write_text(violation)
    assert _internal_imports_outside_compat(str(tmp_path)) == [
        "tf1clip/contrib/m.py:2 tensorflow.python.ops.lookup_ops".replace("/", os.sep)
    ]


def _layout_problems(modules, layout):
    """Modules (``tf1clip/...py`` paths) that docs/layout.rst does not name on a line of their own, and paths it
    names that are not modules."""
    listed = set(re.findall(r"^\* ``(tf1clip/[\w/]+\.py)``: \S", layout, re.M))
    mentioned = set(re.findall(r"``(tf1clip/[\w/]+\.py)``", layout))
    return sorted("not in docs/layout.rst: " + m for m in set(modules) - listed) + sorted(
        "docs/layout.rst names a module that does not exist: " + m for m in mentioned - set(modules)
    )


def test_layout_names_every_module():
    modules = [
        os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
        for d, _, files in os.walk(os.path.join(ROOT, "tf1clip"))
        for f in files
        if f.endswith(".py")
    ]
    with open(os.path.join(ROOT, "docs", "layout.rst"), encoding="utf-8") as f:
        layout = f.read()
    assert len(modules) > 140
    assert _layout_problems(modules, layout) == []


def test_layout_check_reports_a_missing_and_a_stale_module():
    layout = "* ``tf1clip/a.py``: one job.\n``tf1clip/gone.py`` in prose.\n* ``tf1clip/b.py``\n"
    assert _layout_problems(["tf1clip/a.py", "tf1clip/b.py"], layout) == [
        "not in docs/layout.rst: tf1clip/b.py",
        "docs/layout.rst names a module that does not exist: tf1clip/gone.py",
    ]
