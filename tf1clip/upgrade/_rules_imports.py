"""Contrib imports: moved to their tf1clip or TF 2 home, removed once unused, or reported (a rewrite rule)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import body_of
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._routes import contrib_error
from tf1clip.upgrade._routes import import_error
from tf1clip.upgrade._routes import is_contrib
from tf1clip.upgrade._routes import supported
from tf1clip.upgrade._routes import tf_module
from tf1clip.upgrade._routes import tf_path
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO


def rewrite_import(edits, node, parent):
    """``import tensorflow.contrib.x [as y]``: renamed when tf1clip provides it, else decided later or reported."""
    for alias in node.names:
        path = tf_path(alias.name)
        if path is None or not is_contrib(path):
            continue
        found = supported(path)
        if found is not None and found[0] == len(path.split(".")):
            old = pasta.dump(node)
            alias.name = found[1]
            edits.add(INFO, node, "Changed import from %r to %r" % (old.strip(), pasta.dump(node).strip()))
        elif alias.asname:
            edits.pending_imports.append((node, parent, alias, path))
        else:
            edits.add(ERROR, node, import_error("import " + alias.name, path))


def _new_home(edits, node, path, alias):
    """``(module, alias)`` that replaces the imported ``alias`` of contrib ``path``, or None."""
    if path in T.PREFIX_RENAMES:
        return tf_module(T.PREFIX_RENAMES[path].rpartition(".")[0]), ast.alias(name=alias.name, asname=alias.asname)
    rnn = T.rnn_target(path)
    if rnn is not None:
        module, _, name = rnn.rpartition(".")
        return tf_module(module), ast.alias(
            name=name, asname=alias.asname or (alias.name if name != alias.name else None)
        )
    found = supported(path) if is_contrib(path) and alias.name != "*" else None
    if found is None or found[0] != len(path.split(".")):
        return None
    if found[2]:
        edits.note_slim(node)
    module, _, name = found[1].rpartition(".")
    return module, ast.alias(name=name, asname=alias.asname or (alias.name if name != alias.name else None))


def rewrite_import_from(edits, node, parent):
    """``from tensorflow.contrib.x import a, b``: each name moves to its home; the others stay, decided later."""
    base = tf_path(node.module or "")
    if node.level or base is None:
        return
    keep, moved = [], {}
    for alias in node.names:
        path = base + "." + alias.name
        new = _new_home(edits, node, path, alias)
        if new is not None:
            moved.setdefault(new[0], []).append(new[1])
            continue
        keep.append(alias)
        if is_contrib(path) and alias.name != "*":
            edits.pending_imports.append((node, parent, alias, path))
        elif is_contrib(path):
            edits.add(ERROR, node, import_error("from %s import %s" % (node.module, alias.name), path))
    if moved:
        _split_import(edits, node, parent, keep, list(moved.items()))


def _split_import(edits, node, parent, keep, groups):
    """Rewrites ``node`` to import ``keep``, with one ``from module import ...`` after it per group."""
    old = pasta.dump(node)
    if not keep and len(groups) == 1:  # in place, keeping the statement's formatting
        module, aliases = groups.pop()
        for alias, new in zip(node.names, aliases):
            alias.name, alias.asname = new.name, new.asname
        node.module = module
    elif not keep:
        node.module, node.names = groups.pop(0)
    else:
        node.names = keep
    body = body_of(parent, node)
    index = next(i for i, item in enumerate(body) if item is node)
    new_nodes = []
    for offset, (module, aliases) in enumerate(groups, 1):
        new_node = ast.ImportFrom(module=module, names=aliases, level=0)
        ast.copy_location(new_node, node)
        body.insert(index + offset, new_node)
        pasta.base.formatting.set(new_node, "prefix", pasta.base.formatting.get(node, "prefix"))
        new_nodes.append(new_node)
    edits.add(
        INFO,
        node,
        "Changed import from %r to %r" % (old.strip(), "; ".join(pasta.dump(n).strip() for n in [node] + new_nodes)),
    )


def defer_binding(edits, node, parent):
    """Defers ``alias = tf.contrib.<memberwise module>`` until its uses are known; False if ``parent`` is not one."""
    if (
        not isinstance(parent, ast.Assign)
        or parent.value is not node
        or len(parent.targets) != 1
        or not isinstance(parent.targets[0], ast.Name)
    ):
        return False
    edits.pending_bindings.append((parent, parent.targets[0].id, dotted(node)))
    return True


def _still_used(edits, bound):
    return bool(edits.unconverted.get(bound)) or bound in edits.opaque


def finish_imports(edits):
    """Removes a contrib import (and repoints an alias) whose every use was converted; else an ERROR."""
    for assign, bound, name in edits.pending_bindings:
        path = resolve(edits.aliases, name)
        if _still_used(edits, bound):
            edits.add(ERROR, assign.value, contrib_error(name, path))
            continue
        edits.replace(assign, assign.value, T.MEMBERWISE[path], "(every use of %s was converted)" % bound)
    for node, parent, alias, path in edits.pending_imports:
        bound = alias.asname or alias.name.split(".")[0]
        statement = ("import " if isinstance(node, ast.Import) else "from %s import " % node.module) + alias.name
        if _still_used(edits, bound):
            edits.add(ERROR, node, import_error(statement, path))
            continue
        node.names = [a for a in node.names if a is not alias]
        edits.add(INFO, node, "Removed %r: every use of %s was converted." % (statement, bound))
        if node.names:
            continue
        body = body_of(parent, node)
        if len(body) > 1:
            body.remove(node)
        else:
            body[0] = ast.copy_location(ast.Pass(), node)


__all__ = ["rewrite_import", "rewrite_import_from", "defer_binding", "finish_imports"]
