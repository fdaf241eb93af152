"""Dotted names (``tf.contrib.x.y``, ``alias.y``): routed to tf1clip or TF 2, or reported (a rule of the rewrite)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._routes import contrib_error
from tf1clip.upgrade._routes import is_contrib
from tf1clip.upgrade._routes import is_module
from tf1clip.upgrade._routes import supported
from tf1clip.upgrade._rules_estimator import rewrite_estimator
from tf1clip.upgrade._rules_estimator import rewrite_mode_key
from tf1clip.upgrade._rules_imports import defer_binding
from tf1clip.upgrade._rules_mixed_precision import rewrite_mixed_precision
from tf1clip.upgrade._tables import ERROR


def _literal_name(call):
    """The attribute name of ``getattr(x, "name"[, default])``, or None."""
    if len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str):
        return call.args[1].value
    return None


def _is_getattr(node, parent):
    return (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id in ("getattr", "hasattr")
        and parent.args
        and parent.args[0] is node
    )


def find_opaque(edits, tree):
    """Adds to ``edits.opaque`` the aliases of provided contrib modules used other than by attribute."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
            continue
        path = edits.aliases.get(node.id)
        if path is None or not is_contrib(path) or not is_module(path):
            continue
        parent = edits.parents.get(node)
        if isinstance(parent, ast.Attribute) or (isinstance(parent, ast.Assign) and parent.value is node):
            continue
        if _is_getattr(node, parent) and (
            path in T.COMPLETE_MODULES
            or (_literal_name(parent) is not None and supported(path + "." + _literal_name(parent)) is not None)
        ):
            continue
        edits.opaque.add(node.id)


def _getattr_ok(edits, node, call, path):
    name = _literal_name(call)
    if name is None and path in T.COMPLETE_MODULES:
        return True
    if name is None:
        edits.add(
            ERROR,
            call,
            "%s(%s, ...) names a member of %s that cannot be known before "
            "the program runs, so the module was left as is: tf1clip provides only some of "
            "%s (%s)." % (call.func.id, dotted(node), path, path, T.successor(path)),
        )
        return False
    if supported(path + "." + name) is None:
        edits.add(ERROR, call, contrib_error("%s(%s, %r)" % (call.func.id, dotted(node), name), path + "." + name))
        return False
    return True


def _module_use_ok(edits, node, path):
    """Whether a bare reference ``node`` to the provided contrib module ``path`` may be rewritten."""
    parent = edits.parents.get(node)
    if _is_getattr(node, parent):
        return _getattr_ok(edits, node, parent, path)
    if isinstance(parent, ast.Assign) and parent.value is node:
        return not any(t.id in edits.opaque for t in parent.targets if isinstance(t, ast.Name))
    if isinstance(node, ast.Name) and node.id in edits.opaque:
        return True  # reported at the binding's opaque use below
    edits.add(
        ERROR,
        node,
        "%s (%s) is passed around as a module object, so tf1clip cannot check that "
        "it provides every member the program uses; it was left as is (%s)." % (dotted(node), path, T.successor(path)),
    )
    return False


def rewrite_chain(edits, node, parent):
    """Rewrites or reports the Name/Attribute chain ``node`` (a child of ``parent``)."""
    name = dotted(node)
    if not isinstance(node.ctx, ast.Load):
        return
    path = resolve(edits.aliases, name)
    _report_opt_in_fix(edits, node, parent, path)
    if (
        path is None
        or _prefix_rename(edits, node, parent, name, path)
        or rewrite_mode_key(edits, node, parent, path)
        or rewrite_estimator(edits, node, parent, name, path)
    ):
        return
    if not is_contrib(path):
        _v1_module(edits, node, parent, name, path)
    elif supported(path) is not None:
        _provided(edits, node, parent, name, path)
    elif not _converted_elsewhere(edits, node, parent, name, path):
        root = name.split(".")[0]
        edits.count_unconverted(root)
        if root in edits.opaque and name == root:
            _module_use_ok(edits, node, path)
        else:
            edits.add(ERROR, node, contrib_error(name, path))


def _report_opt_in_fix(edits, node, parent, path):
    """WARNING at a call of a contrib.opt/estimator name that keeps a TF 1.15 quirk, without its fix's keyword."""
    if path is None or not path.startswith(("tf.contrib.opt.", "tf.contrib.estimator.")):
        return
    name = path.rsplit(".", 1)[-1]
    fix = T.OPT_IN_FIXES.get(name)
    if not fix or not isinstance(parent, ast.Call) or parent.func is not node:
        return
    if name == "MultitaskOptimizerWrapper" and not _wrapped_optimizer_kept(edits, parent):
        return
    if name == "clip_gradients_by_norm" and not _uses_distribute(edits):
        return
    if name == "ElasticAverageOptimizer" and not _passes_var_list(edits):
        return
    if fix[0] not in {k.arg for k in parent.keywords}:
        edits.add(T.WARNING, parent, fix[1])


def _uses_distribute(edits):
    """Whether the file names ``tf.distribute`` (or ``tf.contrib.distribute``) or passes ``train_distribute``."""
    return any(
        (isinstance(n, ast.Attribute) and n.attr == "distribute")
        or (isinstance(n, ast.keyword) and n.arg in ("train_distribute", "eval_distribute"))
        for n in edits.parents
    ) or any(".distribute" in path for path in edits.aliases.values())


_VAR_LIST_POSITION = {"compute_gradients": 1, "minimize": 2}


def _passes_var_list(edits):
    """Whether the file calls ``compute_gradients``/``minimize`` with a ``var_list`` (by keyword or position)."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in _VAR_LIST_POSITION
        and (any(k.arg == "var_list" for k in n.keywords) or len(n.args) > _VAR_LIST_POSITION[n.func.attr])
        for n in edits.parents
    )


def _wrapped_optimizer_kept(edits, call):
    """Whether ``call``'s first argument is a name that stays bound to it (``w = Wrapper(opt)``, not
    ``opt = Wrapper(opt)`` nor ``Wrapper(AdamOptimizer(...))``)."""
    if not call.args or not isinstance(call.args[0], ast.Name):
        return False
    assign = edits.parents.get(call)
    targets = assign.targets if isinstance(assign, ast.Assign) else []
    return not any(isinstance(t, ast.Name) and t.id == call.args[0].id for t in targets)


def _binding_supported(edits, root):
    path = edits.aliases.get(root)
    return (
        path is not None
        and is_contrib(path)
        and path not in T.MEMBERWISE
        and supported(path) is not None
        and root not in edits.opaque
    )


def _alias_gives(edits, root, name, path, length, target):
    """Whether ``name`` (through the alias ``root``, whose binding is rewritten) reaches what ``path`` is
    routed to; not so where a member has a route of its own (``layers.python.layers.optimizers`` is
    tf1clip's ``optimize_loss`` module, ``tf1clip.contrib.layers``)."""
    parts = path.split(".")
    bound = supported(edits.aliases[root])[1]
    return bound + name[len(root) :] == ".".join([target] + parts[length:])


def _provided(edits, node, parent, name, path):
    """Rewrites a chain to the tf1clip module or member replacing the contrib ``path``."""
    length, target, extra = supported(path)
    root = name.split(".")[0]
    if extra:
        edits.note_extra(node, extra)
    if _binding_supported(edits, root) and _alias_gives(edits, root, name, path, length, target):
        return  # the alias itself now names a tf1clip module or member
    if length == len(path.split(".")) and path in T.MEMBERWISE and defer_binding(edits, node, parent):
        return  # ``alias = tf.contrib.rnn``: its uses go member by member
    if length == len(path.split(".")) and is_module(path) and not _module_use_ok(edits, node, path):
        edits.count_unconverted(root)
        return
    edits.replace_prefix(parent, node, len(path.split(".")) - length, target)


def _converted_elsewhere(edits, node, parent, name, path):
    """Whether a contrib chain tf1clip does not provide is converted by another rule or tf_upgrade_v2."""
    if path.startswith(T.MIXED_PRECISION + ".") and rewrite_mixed_precision(edits, node, parent, path):
        return True
    rnn = T.rnn_target(path)
    if rnn is not None:
        if "." in name:  # a bare name comes from an import that is rewritten
            edits.replace(parent, node, rnn)
        return True
    if edits.engine_converts(name):
        return True
    if edits.engine_converts(path):
        edits.replace(parent, node, path, "so that tf_upgrade_v2 converts it")
        return True
    parts = path.split(".")
    for k in range(len(parts) - 1, 2, -1):  # a member of a renamed class: tf.contrib.data.Iterator.from_structure
        if ".".join(parts[:k]) in T.CONTRIB_RENAMES:
            edits.replace_prefix(parent, node, len(parts) - k, T.CONTRIB_RENAMES[".".join(parts[:k])])
            return True
    if T.MEMBERWISE.get(path):
        return defer_binding(edits, node, parent)
    return _removable_binding(edits, name, path) and defer_binding(edits, node, parent)


def _removable_binding(edits, name, path):
    """Whether ``name``, read as ``path``, is a contrib module tf1clip does not provide, spelled from ``tf``
    (``mp = tf.contrib.mixed_precision``): such a binding goes once its alias has no use left."""
    return path.count(".") == 2 and edits.aliases.get(name.split(".")[0]) == "tf"


def _v1_module(edits, node, parent, name, path):
    """``getattr(tf.train, name)``: a TF 1 module object, used bare, becomes its tf.compat.v1 module; and
    ``tensorflow.gfile.X`` (bound by ``import tensorflow.gfile``) becomes ``tensorflow.compat.v1.gfile.X``."""
    parts = path.split(".")
    if name.split(".")[0] == "tensorflow" and len(parts) > 1 and parts[1] in T.V1_FROM_IMPORTS:
        edits.replace_prefix(parent, node, len(parts) - 2, "tensorflow.compat.v1." + parts[1])
        return
    if (
        path.startswith("tf.")
        and path[3:] in T.V1_MODULES
        and name.split(".")[0] == "tf"
        and not (edits.target == "estimator" and path == "tf.estimator")
    ):
        edits.replace(
            parent,
            node,
            "tf.compat.v1." + path[3:],
            "(the module object itself is used, so it must have every TF 1 member)",
        )


def _prefix_rename(edits, node, parent, name, path):
    for old, new in T.PREFIX_RENAMES.items():
        if path == old or path.startswith(old + "."):
            if edits.aliases.get(name.split(".")[0], "").startswith(old):
                return True  # the alias's binding is renamed
            edits.replace_prefix(parent, node, len(path.split(".")) - len(old.split(".")), new)
            return True
    return False


__all__ = ["find_opaque", "rewrite_chain"]
