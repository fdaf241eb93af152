"""The quick loop (``python3 -m pytest tests -m "not slow"``) reaches every product: each tf1clip.contrib package and
module, the clipping core, tf1clip-upgrade and tf1clip.estimator is imported by a test module of a quick folder
(tests/unit, tests/upgrade, tests/keras2), and recorded TF 1.15 numbers (tests/data/tf115_*) are compared there."""

import ast
import os

import conftest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTRIB = os.path.join(os.path.dirname(TESTS), "tf1clip", "contrib")


def _quick_modules():
    for folder, markers in conftest.FOLDERS.items():
        if "slow" in markers:
            continue
        for name in sorted(os.listdir(os.path.join(TESTS, folder))):
            if name.startswith("test_") and name.endswith(".py"):
                yield os.path.join(TESTS, folder, name)


def _imported(path):
    """The tf1clip modules ``path`` imports (``from tf1clip.contrib import rnn`` counts as tf1clip.contrib.rnn)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(node.module + "." + alias.name for alias in node.names)
    return {name for name in found if name == "tf1clip" or name.startswith("tf1clip.")}


def _contrib_names():
    names = []
    for entry in sorted(os.listdir(CONTRIB)):
        path = os.path.join(CONTRIB, entry)
        if entry.startswith("_"):
            continue
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "__init__.py")):
            names.append(entry)
        elif entry.endswith(".py"):
            names.append(entry[:-3])
    return names


def _reached(imported, name):
    return any(m == name or m.startswith(name + ".") for m in imported)


def test_every_contrib_package_and_product_is_imported_by_a_quick_test():
    imported = set().union(*(_imported(p) for p in _quick_modules()))
    contrib = _contrib_names()
    assert {"rnn", "seq2seq", "crf", "cudnn_rnn", "learn", "legacy_seq2seq", "opt", "slim"} <= set(contrib)
    wanted = ["tf1clip.contrib." + name for name in contrib]
    wanted += ["tf1clip.core", "tf1clip.upgrade", "tf1clip.estimator"]
    missing = [name for name in wanted if not _reached(imported, name)]
    assert not missing, "no test module of tests/unit, tests/upgrade or tests/keras2 imports %s" % missing


def test_quick_tests_compare_with_recorded_tf115_numbers():
    data = os.path.join(TESTS, "data")
    recorded = sorted(d for d in os.listdir(data) if d.startswith("tf115_"))
    texts = [open(p).read() for p in _quick_modules()]
    read = [d for d in recorded if any('"%s"' % d in text for text in texts)]
    for name in ("tf115_rnn", "tf115_seq2seq", "tf115_seq2seq_decode", "tf115_crf", "tf115_cudnn", "tf115_learn"):
        assert name in read, name
