"""No tf1clip module uses another tf1clip module's underscore name (``from tf1clip.x import _name``,
``from ._mod import _name``, ``mod._name``): what modules share is a public name, of a private (``_``) module
when it is not API. Private modules themselves (``from tf1clip.contrib import _manifest``) are importable;
dunder names (``__version__``) are not private. Imports from TensorFlow's private modules are
``tf1clip.compat``'s and not checked here.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (file relative to the checkout, the name used): why a TF 1.15 API alias has to be used across modules.
ALLOWED = {}


def _module_name(relpath):
    name = relpath[: -len(".py")].replace(os.sep, ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


def _modules(root):
    found = {}
    for folder, dirs, files in os.walk(os.path.join(root, "tf1clip")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                relpath = os.path.relpath(os.path.join(folder, name), root)
                found[_module_name(relpath)] = relpath
    return found


def _is_private(name):
    return name.startswith("_") and not name.startswith("__")


def _source_module(module, node, modules):
    """The absolute module an ``ImportFrom`` in ``module`` reads."""
    if node.level == 0:
        return node.module
    parts = module.split(".")
    if not modules[module].endswith("__init__.py"):
        parts = parts[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def _attribute_target(node, bound, modules):
    """``(module, attribute)`` for ``a.b.c`` whose ``a.b`` is a tf1clip module, else None."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in bound:
        return None
    names.reverse()
    module = bound[node.id]
    for name in names[:-1]:
        if module + "." + name not in modules:
            return None
        module += "." + name
    return module, names[-1]


def violations(root):
    """``(relpath, line, what)`` for each use of another tf1clip module's underscore name under ``root``."""
    modules = _modules(root)
    found = []
    for module, relpath in sorted(modules.items()):
        with open(os.path.join(root, relpath), encoding="utf-8") as f:
            tree = ast.parse(f.read(), relpath)
        bound = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _source_module(module, node, modules)
                if not source or not (source == "tf1clip" or source.startswith("tf1clip.")):
                    continue
                for alias in node.names:
                    if source + "." + alias.name in modules:
                        bound[alias.asname or alias.name] = source + "." + alias.name
                    elif _is_private(alias.name) and source != module:
                        found.append((relpath, node.lineno, "from %s import %s" % (source, alias.name)))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "tf1clip" or alias.name.startswith("tf1clip."):
                        bound[alias.asname or "tf1clip"] = alias.name if alias.asname else "tf1clip"
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            target = _attribute_target(node, bound, modules)
            if target is None:
                continue
            owner, name = target
            if _is_private(name) and owner + "." + name not in modules and owner != module:
                found.append((relpath, node.lineno, "%s.%s" % (owner, name)))
    return sorted(set(found))


def _unallowed(found):
    return [v for v in found if (v[0], v[2].rsplit(" ", 1)[-1].rsplit(".", 1)[-1]) not in ALLOWED]


def test_no_tf1clip_module_uses_another_modules_underscore_name():
    found = _unallowed(violations(ROOT))
    assert not found, "give these a public name in a private module:\n" + "\n".join("%s:%d: %s" % v for v in found)


def test_every_allowed_name_is_still_used():
    used = {(v[0], v[2].rsplit(" ", 1)[-1].rsplit(".", 1)[-1]) for v in violations(ROOT)}
    assert not set(ALLOWED) - used


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        ("tf1clip/a/b.py", "from tf1clip.a.c import _helper\n", ["from tf1clip.a.c import _helper"]),
        ("tf1clip/a/b.py", "from .c import _helper\n", ["from tf1clip.a.c import _helper"]),
        ("tf1clip/a/b.py", "from . import c\nc._helper()\n", ["tf1clip.a.c._helper"]),
        ("tf1clip/a/b.py", "import tf1clip.a.c\ntf1clip.a.c._helper()\n", ["tf1clip.a.c._helper"]),
        ("tf1clip/a/b.py", "import tf1clip.a.c as m\nm._X\n", ["tf1clip.a.c._X"]),
        ("tf1clip/a/b.py", "from tf1clip.a import _d\n_d.helper()\n", []),
        ("tf1clip/a/b.py", "from tf1clip.a import c\nc.helper()\nc.__name__\n", []),
        ("tf1clip/a/b.py", "from tf1clip.a._d import helper as _helper\n", []),
        ("tf1clip/a/b.py", "from os import _exit\nimport tf1clip.a.c\nx._y\n", []),
        ("tf1clip/a/__init__.py", "from .c import _helper\n", ["from tf1clip.a.c import _helper"]),
    ],
)
def test_the_scan_names_file_line_and_name(tmp_path, path, source, expected):
    for name in ("tf1clip/__init__.py", "tf1clip/a/__init__.py", "tf1clip/a/c.py", "tf1clip/a/_d.py", path):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        if not (tmp_path / name).exists():
            (tmp_path / name).write_text("")
    (tmp_path / path).write_text(source)
    found = violations(str(tmp_path))
    assert [v[2] for v in found] == expected
    assert all(v[0] == path and v[1] >= 1 for v in found)
