"""Contrib imports: moved to their tf1clip or TF 2 home, removed once unused, or reported (a rewrite rule)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import body_of
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._routes import contrib_error
from tf1clip.upgrade._routes import import_error
from tf1clip.upgrade._routes import importable
from tf1clip.upgrade._routes import importable_prefix
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
        if path is not None and edits.target != "estimator" and _estimator_import(edits, node, parent, alias, path):
            continue
        if path is not None and _v1_module(path):  # without ``as``, the uses are rewritten (rewrite_chain)
            old_import = pasta.dump(node).strip()
            alias.name = tf_module("tf.compat.v1" + path[len("tf") :])
            edits.add(INFO, node, "Changed import from %r to %r" % (old_import, pasta.dump(node).strip()))
            continue
        if path is None or not is_contrib(path):
            continue
        found = supported(path)
        if found is not None and found[0] == len(path.split(".")) and path not in T.MEMBERWISE:
            if found[2]:
                edits.note_extra(node, found[2])
            _rename_import(edits, node, parent, alias, found[1])
        elif alias.asname:
            edits.pending_imports.append((node, parent, alias, path))
        else:
            edits.add(ERROR, node, import_error("import " + alias.name, path))


def _estimator_import(edits, node, parent, alias, path):
    """``import tensorflow.estimator[.x] as y`` -> ``import tf1clip.estimator[.x] as y`` (or its ``from`` form);
    without ``as``: ``import tensorflow`` (its uses, ``tensorflow.estimator.X``, become ``tf1clip.estimator.X``)."""
    for prefix in T.ESTIMATOR_PREFIXES:
        if path == prefix or path.startswith(prefix + "."):
            if alias.asname is None:
                old = pasta.dump(node).strip()
                alias.name = "tensorflow"
                edits.add(INFO, node, "Changed import from %r to %r" % (old, pasta.dump(node).strip()))
            else:
                _rename_import(edits, node, parent, alias, T.TF1CLIP_ESTIMATOR + path[len(prefix) :])
            return True
    return False


def _rename_import(edits, node, parent, alias, target):
    """``import <contrib> [as y]`` -> ``import target [as y]``; where ``target`` is an attribute rather
    than a module: ``from <its module> import <name> as y`` (or ``import <nearest module>`` and
    ``y = target`` when that module is an attribute too), or, without ``as``, ``import <the nearest
    module>`` (the uses spell the whole path)."""
    old = pasta.dump(node).strip()
    module, _, name = target.rpartition(".")
    if importable(target) or alias.asname is None:
        alias.name = importable_prefix(target)
        edits.add(INFO, node, "Changed import from %r to %r" % (old, pasta.dump(node).strip()))
        return
    new_alias = ast.alias(name=name, asname=alias.asname)
    body = body_of(parent, node)
    index = next(i for i, item in enumerate(body) if item is node)
    node.names = [a for a in node.names if a is not alias]
    if importable(module):
        new_node = ast.ImportFrom(module=module, names=[new_alias], level=0)
        ast.copy_location(new_node, node)
        pasta.base.formatting.set(new_node, "prefix", _indentation(node))
        body.insert(index + 1, new_node)
        new = pasta.dump(new_node).strip()
    else:
        new = insert_after(node, body, index, _attribute_lines([(module, [new_alias])]))
    if node.names:
        new = pasta.dump(node).strip() + "; " + new
    else:
        drop_statement(body, node)
    edits.add(INFO, node, "Changed import from %r to %r" % (old, new))


def _attribute_lines(groups):
    """``import <M's nearest module>`` and ``b = M.a`` for each ``(M, [alias a as b])`` group."""
    lines = []
    for module, aliases in groups:
        lines.append("import " + importable_prefix(module))
        lines += ["%s = %s.%s" % (alias.asname or alias.name, module, alias.name) for alias in aliases]
    return list(dict.fromkeys(lines))


def insert_after(node, body, index, lines):
    """Inserts ``lines`` (statements) after ``body[index]``, with ``node``'s indentation; returns them joined."""
    new_nodes = pasta.parse("\n".join(lines) + "\n").body
    for offset, new_node in enumerate(new_nodes, 1):
        for part in ast.walk(new_node):
            ast.copy_location(part, node)
        pasta.base.formatting.set(new_node, "prefix", _indentation(node))
        body.insert(index + offset, new_node)
    return "; ".join(lines)


def _indentation(node):
    """The indentation of the statement ``node`` (the end of its pasta prefix, which holds the comments above it)."""
    return (pasta.base.formatting.get(node, "prefix") or "").rpartition("\n")[2]


def drop_statement(body, node):
    """Removes ``node`` from ``body``, keeping the comment lines above it (on the next statement).

    On a line shared with other statements (``a; node; b``; pasta gives a statement followed on its line the
    suffix ``;``), the neighbours keep the line: ``b`` takes ``node``'s prefix, or ``a`` its end of line."""
    index = next(i for i, item in enumerate(body) if item is node)
    prefix = pasta.base.formatting.get(node, "prefix") or ""
    suffix = pasta.base.formatting.get(node, "suffix") or ""
    before = body[index - 1] if index else None
    if suffix.strip() == ";" and index + 1 < len(body):
        pasta.base.formatting.set(body[index + 1], "prefix", prefix)
        del body[index]
        return
    if before is not None and (pasta.base.formatting.get(before, "suffix") or "").strip() == ";":
        pasta.base.formatting.set(before, "suffix", suffix)
        del body[index]
        return
    above = prefix.rpartition("\n")
    if above[1] and index + 1 < len(body):
        following = body[index + 1]
        prefix = pasta.base.formatting.get(following, "prefix") or ""
        pasta.base.formatting.set(following, "prefix", above[0] + above[1] + prefix)
    del body[index]


def _v1_module(path):
    """Whether ``path`` is ``tf.M`` or lies under it, for a TF 1 module ``M`` that TF 2 lacks or changed."""
    parts = path.split(".")
    return len(parts) >= 2 and parts[0] == "tf" and parts[1] in T.V1_FROM_IMPORTS


def _new_home(edits, node, path, alias):
    """``(module, alias)`` that replaces the imported ``alias`` of contrib ``path``, or None."""
    removed = T.removed_estimator(path)
    if removed is not None:
        edits.add(ERROR, node, removed)
        return None
    if path in T.PREFIX_RENAMES:
        return tf_module(T.PREFIX_RENAMES[path].rpartition(".")[0]), ast.alias(name=alias.name, asname=alias.asname)
    if _v1_module(path):
        module = path.rpartition(".")[0]
        return tf_module("tf.compat.v1" + module[len("tf") :]), ast.alias(name=alias.name, asname=alias.asname)
    if edits.target != "estimator" and alias.name != "*":
        for prefix in T.ESTIMATOR_PREFIXES:
            if path == prefix or path.startswith(prefix + "."):
                module, _, name = (T.TF1CLIP_ESTIMATOR + path[len(prefix) :]).rpartition(".")
                return module, ast.alias(name=name, asname=alias.asname)
    rnn = T.rnn_target(path)
    if rnn is not None:
        module, _, name = rnn.rpartition(".")
        return tf_module(module), ast.alias(
            name=name, asname=alias.asname or (alias.name if name != alias.name else None)
        )
    if path in T.MEMBERWISE:  # decided once its uses are known (finish_imports)
        return None
    found = supported(path) if is_contrib(path) and alias.name != "*" else None
    if found is None or found[0] != len(path.split(".")):
        return None
    if found[2]:
        edits.note_extra(node, found[2])
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
    attributes = [(m, a) for m, a in moved.items() if m.startswith("tf1clip.") and not importable(m)]
    groups = [(m, a) for m, a in moved.items() if not (m.startswith("tf1clip.") and not importable(m))]
    if attributes:
        _bind_attributes(edits, node, parent, attributes)
    if groups or (attributes and keep):
        _split_import(edits, node, parent, keep, groups)
    elif attributes:
        drop_statement(body_of(parent, node), node)


def _bind_attributes(edits, node, parent, groups):
    """``from M import a as b`` where the tf1clip name ``M`` is an attribute (a tf-slim module tf1clip
    delegates to), not a module: ``import <M's nearest module>`` and ``b = M.a`` after ``node``."""
    body = body_of(parent, node)
    index = next(i for i, item in enumerate(body) if item is node)
    new = insert_after(node, body, index, _attribute_lines(groups))
    edits.add(
        INFO,
        node,
        "Changed import from %r to %r: tf1clip takes these modules from tf-slim when first used, so they are "
        "attributes, not importable modules" % (pasta.dump(node).strip(), new),
    )


def _split_import(edits, node, parent, keep, groups):
    """Rewrites ``node`` to import ``keep``, with one ``from module import ...`` after it per group."""
    old = pasta.dump(node)
    if not keep and len(groups) == 1 and len(groups[0][1]) == len(node.names):  # in place, keeping the formatting
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
        pasta.base.formatting.set(new_node, "prefix", _indentation(node))
        new_nodes.append(new_node)
    edits.add(
        INFO,
        node,
        "Changed import from %r to %r" % (old.strip(), "; ".join(pasta.dump(n).strip() for n in [node] + new_nodes)),
    )


def can_defer_binding(edits, node, parent):
    """Whether ``parent`` is ``alias = <node>`` binding a contrib module whose uses can all be known (``alias`` is
    bound nowhere else, or the module is converted member by member)."""
    path = resolve(edits.aliases, dotted(node))
    return (
        isinstance(parent, ast.Assign)
        and parent.value is node
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Name)
        and (path in T.MEMBERWISE or edits.aliases.get(parent.targets[0].id) == path)
    )


def defer_binding(edits, node, parent):
    """Defers ``alias = tf.contrib.<module>`` until its uses are known; False if ``parent`` is not one (or
    ``alias`` is bound elsewhere too, so its uses are not known)."""
    if not can_defer_binding(edits, node, parent):
        return False
    edits.pending_bindings.append((parent, parent.targets[0].id, dotted(node)))
    return True


def _still_used(edits, bound):
    return bool(edits.unconverted.get(bound)) or bound in edits.opaque


def finish_imports(edits):
    """Removes a contrib import or alias binding (or repoints the alias) whose every use was converted; else
    an ERROR."""
    for assign, bound, name in edits.pending_bindings:
        path = resolve(edits.aliases, name)
        if _still_used(edits, bound):
            edits.add(ERROR, assign.value, contrib_error(name, path))
        elif path in T.MEMBERWISE:
            edits.replace(assign, assign.value, T.MEMBERWISE[path], "(every use of %s was converted)" % bound)
        else:
            edits.add(INFO, assign, "Removed %r: every use of %s was converted." % ("%s = %s" % (bound, name), bound))
            _remove(assign, edits.parents[assign])
    for node, parent, alias, path in edits.pending_imports:
        bound = alias.asname or alias.name.split(".")[0]
        statement = ("import " if isinstance(node, ast.Import) else "from %s import " % node.module) + alias.name
        if _still_used(edits, bound):
            edits.add(ERROR, node, import_error(statement, path))
            continue
        node.names = [a for a in node.names if a is not alias]
        edits.add(INFO, node, "Removed %r: every use of %s was converted." % (statement, bound))
        if not node.names:
            _remove(node, parent)


def _remove(node, parent):
    """Removes the statement ``node`` from ``parent`` (a ``pass`` replaces a block's only statement)."""
    body = body_of(parent, node)
    if len(body) > 1:
        drop_statement(body, node)
    else:
        body[0] = ast.copy_location(ast.Pass(), node)


__all__ = [
    "rewrite_import",
    "rewrite_import_from",
    "can_defer_binding",
    "defer_binding",
    "finish_imports",
    "insert_after",
    "drop_statement",
]
