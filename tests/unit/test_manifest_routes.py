"""The routes to tf-slim and TF-GAN are one table, ``_manifest.DELEGATES``; every other place derives from it."""

import os
import re

from tf1clip.compat import _gan
from tf1clip.compat import _slim
from tf1clip.contrib import _manifest
from tf1clip.upgrade import _gan_names
from tf1clip.upgrade import _slim_names
from tf1clip.upgrade import _tables

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
C = "tf1clip.contrib."


def _package(namespace):
    return _manifest.DELEGATES[namespace][0].split(".")[0]


def _namespaces(successor):
    return [ns for ns in _manifest.DELEGATES if _package(ns) == successor]


def test_each_namespace_routes_to_modules_of_one_successor():
    for namespace, modules in _manifest.DELEGATES.items():
        assert modules and {m.split(".")[0] for m in modules} == {_package(namespace)}, namespace
        assert _package(namespace) in ("tf_slim", "tensorflow_gan"), namespace


def test_routes_are_the_table_s_modules():
    assert [r.target for r in _manifest.ROUTES] == [C + ns for ns in _manifest.DELEGATES if "." not in ns]
    for namespace in _manifest.DELEGATES:
        route = _manifest.route_of(C + namespace)
        assert route is not None and route.successor == _package(namespace), namespace
    assert {r.extra for r in _manifest.ROUTES if r.successor == "tf_slim"} == {"slim"}
    assert {r.extra for r in _manifest.ROUTES if r.successor == "tensorflow_gan"} == {"gan"}
    assert _manifest.route_of(C + "rnn") is None


def test_the_routing_modules_read_the_table():
    assert _slim.DELEGATES == {ns: _manifest.DELEGATES[ns] for ns in _namespaces("tf_slim")}
    assert _gan.DELEGATES == {ns: _manifest.DELEGATES[ns][0] for ns in _namespaces("tensorflow_gan")}
    assert all(len(_manifest.DELEGATES[ns]) == 1 for ns in _namespaces("tensorflow_gan"))


def test_the_generated_upgrade_tables_agree_with_the_table():
    slim = _namespaces("tf_slim")
    for namespace in slim:
        assert _slim_names.MODULES[namespace] == _manifest.DELEGATES[namespace], namespace
    for key, modules in _slim_names.MODULES.items():
        assert key in slim or any(key.startswith(ns + ".") for ns in slim), key
        assert all(m.startswith("tf_slim") for m in modules), key
    assert set(_gan_names.NAMES) == set(_namespaces("tensorflow_gan"))
    assert set(_tables.GAN_MODULES.values()) <= set(_namespaces("tensorflow_gan"))
    assert set(_tables.SLIM_ROOTS) == {ns for ns in slim if "." not in ns}


def _list_table_rows(path, title):
    """The rows (lists of cell texts) of the list-table after ``title`` in the docs page ``path``."""
    with open(os.path.join(ROOT, "docs", path)) as f:
        text = f.read()
    lines = text[text.index(title) :].split(".. list-table::", 1)[1].splitlines()[1:]
    rows = []
    for line in lines:
        if line and not line.startswith(" "):
            break
        if line.startswith("   :"):
            continue
        if line.startswith("   * - "):
            rows.append([line[7:]])
        elif line.startswith("     - "):
            rows[-1].append(line[7:])
        elif line.strip():
            rows[-1][-1] += " " + line.strip()
    return rows[1:]


def _literals(cell):
    return re.findall(r"``([^`]+)``", cell)


def test_the_slim_page_s_table_is_the_table_s():
    documented = {}
    for namespace, _own, modules in _list_table_rows("slim.rst", "Where each name comes from"):
        [target] = _literals(namespace)
        documented[target[len(C) :]] = tuple(m for m in _literals(modules) if m.startswith("tf_slim"))
    for namespace, modules in documented.items():
        assert _manifest.DELEGATES[namespace] == modules, namespace
    assert {ns for ns in _namespaces("tf_slim") if "." not in ns} <= set(documented)


def test_the_gan_page_s_table_has_the_table_s_namespaces():
    documented = []
    for namespaces, modules in _list_table_rows("gan.rst", "Where the names come from"):
        documented += [n for n in _literals(namespaces) if re.fullmatch(r"gan(\.\w+)*", n)]
        assert all(m.startswith(("tensorflow_gan", ".")) for m in _literals(modules)), modules
    assert sorted(documented) == sorted(_namespaces("tensorflow_gan"))
