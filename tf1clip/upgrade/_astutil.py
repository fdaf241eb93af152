"""Reading Python syntax trees: dotted names, aliases, parents (no TensorFlow import).

Works on ``ast`` trees and on pasta's trees (the same node classes).
"""

import ast


def dotted(node):
    """``"a.b.c"`` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def chains(tree):
    """``(dotted, node)`` for every maximal Name/Attribute chain read in ``tree``."""
    found = []

    def visit(node):
        for child in ast.iter_child_nodes(node):
            name = dotted(child) if isinstance(child, (ast.Name, ast.Attribute)) else None
            if name is not None:
                if isinstance(child.ctx, ast.Load):
                    found.append((name, child))
            else:
                visit(child)

    visit(tree)
    return found


def parents(tree):
    """``{node: parent}`` for every node of ``tree``."""
    found = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            found[child] = node
    return found


def body_of(parent, node):
    """The statement list of ``parent`` that holds ``node``."""
    return next(
        value for _, value in ast.iter_fields(parent) if isinstance(value, list) and any(item is node for item in value)
    )


def module_path(module, package, short):
    """``package.x.y`` -> ``short.x.y`` (``tensorflow.contrib`` -> ``tf.contrib``); None for other modules."""
    if module == package or module.startswith(package + "."):
        return short + module[len(package) :]
    return None


def resolve(aliases, name):
    """``name`` with its first part replaced by what ``aliases`` binds it to; None if it binds nothing."""
    if name is None:
        return None
    root, dot, rest = name.partition(".")
    base = aliases.get(root)
    if base is None:
        return None
    return base + dot + rest


def _import_aliases(tree, package, short):
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                path = module_path(alias.name, package, short)
                if path is not None and alias.asname:
                    aliases[alias.asname] = path
                elif path is not None:
                    aliases[package] = short
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            base = module_path(node.module, package, short)
            if base is not None:
                for alias in node.names:
                    if alias.name != "*":
                        aliases[alias.asname or alias.name] = base + "." + alias.name
    aliases.setdefault(short, short)
    return aliases


def _binding_counts(tree):
    """How often each name is bound (an argument counts twice: it is bound by every call)."""
    counts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            counts[node.arg] = counts.get(node.arg, 0) + 2
    return counts


def collect_aliases(tree, package="tensorflow", short="tf", follow=lambda path: True):
    """``{name: path}``: the names bound to ``package`` modules and members anywhere in ``tree``.

    Paths are spelled with ``short`` for ``package`` (``tf.contrib.slim``); ``short``
    itself is always bound to ``short``. Imports bind (``import tensorflow.contrib.slim
    as slim``, ``from tensorflow.contrib import layers``); so does ``name = <path>``
    when the path passes ``follow`` and ``name`` is bound nowhere else in the file.
    """
    aliases = _import_aliases(tree, package, short)
    bindings = _binding_counts(tree)
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            path = resolve(aliases, dotted(node.value))
            if path is None or not follow(path):
                continue
            for target in node.targets:
                if isinstance(target, ast.Name) and bindings.get(target.id) == 1 and aliases.get(target.id) != path:
                    aliases[target.id] = path
                    changed = True
    return aliases


def rename_keywords(call, renames):
    """Renames the keyword arguments of ``call`` found in ``renames``."""
    for keyword in call.keywords:
        if keyword.arg in renames:
            keyword.arg = renames[keyword.arg]


__all__ = [
    "dotted",
    "chains",
    "parents",
    "body_of",
    "module_path",
    "resolve",
    "collect_aliases",
    "rename_keywords",
]
