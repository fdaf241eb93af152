"""The recorded listing of TF 1.15's tf.contrib (tf1clip/upgrade/_tf115_contrib.py) is what its script renders:
the script's rendering sorts everything, so the committed file comes back byte for byte from its own data in any
order, and a re-run keeps the header's date while the data is unchanged (tests/oracle/test_tf115_contrib_listing.py
re-runs the script on TF 1.15)."""

import ast
import importlib.util
import os
import re

from tf1clip.upgrade import _contrib_names

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "tf115_contrib_listing.py")
LISTING = os.path.join(ROOT, "tf1clip", "upgrade", "_tf115_contrib.py")


def _script():
    spec = importlib.util.spec_from_file_location("tf115_contrib_listing", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _committed():
    with open(LISTING, encoding="utf-8") as f:
        text = f.read()
    found = re.search(r"^TensorFlow (\S+) \(git (\S+)\), Python (\S+), (\S+)\.$", text, re.M)
    return text, found.groups()


def _data(reverse):
    """The committed data as the script collects it, each level in listing order or reversed."""
    order = (lambda items: list(reversed(list(items)))) if reverse else list
    modules = {
        path: {name: (kind, tuple(order(core))) for name, (kind, core) in order(names.items())}
        for path, names in order(_contrib_names.modules().items())
    }
    return {
        "modules": modules,
        "module_paths": dict(order(_contrib_names.module_paths().items())),
        "failed": dict(order(_contrib_names.failed().items())),
    }


def test_the_committed_listing_renders_back_byte_for_byte_from_its_data_in_any_order():
    script = _script()
    text, (version, git, python, date) = _committed()
    for reverse in (False, True):
        data = _data(reverse)
        data["tf"] = {"version": version, "git": git}
        assert script.render(data, date, python) == text


def test_a_rerun_keeps_the_date_while_the_data_is_unchanged():
    script = _script()
    text, (version, git, python, date) = _committed()
    data = _data(False)
    assert script.existing_date(text, script.render_body(data)) == date
    data["modules"]["tf.contrib"]["new_name"] = ("function", ())
    assert script.existing_date(text, script.render_body(data)) is None


def test_core_paths_are_sorted_preferred_first():
    for entry in _contrib_names.every_name():
        assert list(entry.core) == sorted(entry.core, key=lambda p: (p.startswith("tf.compat."), p.count("."), p))
    assert _contrib_names.entry("tf.contrib.framework.nest.flatten").core == (
        "tf.nest.flatten",
        "tf.compat.v1.nest.flatten",
    )


def test_the_listing_module_imports_nothing():
    with open(LISTING, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    assert [type(node).__name__ for node in tree.body] == ["Expr", "Assign", "Assign", "Assign"]
