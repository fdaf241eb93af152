"""TF 1 import paths (``tensorflow.examples``, ``tensorflow.python``): moved, or checked on this TensorFlow (a rule).

``tensorflow.examples.tutorials.mnist`` becomes tf1clip's re-creation; ``tensorflow.python.estimator.<module>``
becomes ``tf1clip.estimator``'s names (modern target) or tensorflow-estimator's own module (estimator target).
Every other ``tensorflow.python.*`` or ``tensorflow.examples.*`` import is imported here, on the TensorFlow
the conversion runs on: one that fails is an ERROR naming the public path of the name where TensorFlow has one.
"""

import ast
import functools
import importlib
import types

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import body_of
from tf1clip.upgrade._astutil import chains
from tf1clip.upgrade._engine import ast_edits
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._engine import tensorflow_version
from tf1clip.upgrade._routes import tf_path
from tf1clip.upgrade._rules_imports import drop_statement
from tf1clip.upgrade._rules_imports import insert_after
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO

_PRIVATE_ROOTS = ("tf.python", "tf.examples")
_ESTIMATOR = "tf.python.estimator"


def _under(path, prefix):
    return path == prefix or path.startswith(prefix + ".")


def _moved(path, target):
    """The module path replacing the TF path ``path`` (a module or a member), or None."""
    for old, new in T.PATH_MOVES.items():
        if _under(path, old) and _tf1clip_has(new + path[len(old) :]):
            return new + path[len(old) :]
    if target == "estimator" and _under(path, _ESTIMATOR):
        return T.ESTIMATOR_PACKAGE + path[len(_ESTIMATOR) :]
    return None


@functools.lru_cache(maxsize=None)
def _tf1clip_has(path):
    """Whether the tf1clip module or member ``path`` exists."""
    module, _, name = path.rpartition(".")
    return _import_fails(path, None) is None or _import_fails(module, name) is None


def _estimator_name(module, name):
    """``tf1clip.estimator``'s path of ``name`` from ``tensorflow.python.estimator.<module>``, or None."""
    same, other = T.PY_ESTIMATOR.get(module, ((), {}))
    if name in same:
        return T.TF1CLIP_ESTIMATOR + "." + name
    if name in other:
        return T.TF1CLIP_ESTIMATOR + "." + other[name]
    return None


def rewrite_paths(edits, tree):
    """Rewrites or checks every import of a ``tensorflow.python`` or ``tensorflow.examples`` path in ``tree``."""
    for node in [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]:
        if isinstance(node, ast.Import):
            for alias in list(node.names):
                path = tf_path(alias.name)
                if path is not None and any(_under(path, root) for root in _PRIVATE_ROOTS):
                    _import(edits, tree, node, alias, path)
        elif not node.level and tf_path(node.module or "") is not None:
            path = tf_path(node.module)
            if any(_under(path, root) for root in _PRIVATE_ROOTS):
                _import_from(edits, tree, node, path)


def _import(edits, tree, node, alias, path):
    moved = _moved(path, edits.target)
    old = pasta.dump(node).strip()
    if moved is not None:
        if alias.asname is None:
            _rename_chains(edits, tree, alias.name, moved)
        alias.name = moved
        edits.add(INFO, node, "Changed import from %r to %r" % (old, pasta.dump(node).strip()))
    elif _under(path, _ESTIMATOR) and edits.target != "estimator":
        module = path[len(_ESTIMATOR) + 1 :]
        if alias.asname is None or module not in T.PY_ESTIMATOR:
            edits.add(ERROR, node, _estimator_error("import " + alias.name, module))
        elif _estimator_module_uses(edits, tree, alias.asname, module):
            node.names.remove(alias)
            kept = [pasta.dump(node).strip()] if node.names else []
            _replace(edits, node, kept + ["import " + T.TF1CLIP_ESTIMATOR], old)
    else:
        _check(edits, node, "import " + alias.name, alias.name, None)


def _rename_chains(edits, tree, old, new):
    """``old.x`` -> ``new.x`` in every chain read in ``tree`` (an import without ``as`` binds the package)."""
    for name, chain in chains(tree):
        if _under(name, old):
            edits.replace_prefix(edits.parents[chain], chain, name.count(".") - old.count("."), new)


def _import_from(edits, tree, node, path):
    moved = {_moved(path + "." + alias.name, edits.target) for alias in node.names}
    if None not in moved and len({m.rpartition(".")[0] for m in moved}) == 1:
        old = pasta.dump(node).strip()
        node.module = moved.pop().rpartition(".")[0]
        edits.add(INFO, node, "Changed import from %r to %r" % (old, pasta.dump(node).strip()))
    elif _under(path, _ESTIMATOR) and edits.target != "estimator":
        _estimator_from(edits, tree, node, path[len(_ESTIMATOR) + 1 :])
    else:
        for alias in node.names:
            _check(edits, node, "from %s import %s" % (node.module, alias.name), node.module, alias.name)


def _estimator_from(edits, tree, node, module):
    """``from tensorflow.python.estimator[.module] import a [as b]`` -> tf1clip.estimator's ``a``, when every
    name has one (a module: when every use of it has one)."""
    names, lines = [], []
    for alias in node.names:
        bound = alias.asname or alias.name
        sub = (module + "." + alias.name).lstrip(".")
        target = _estimator_name(module, alias.name)
        if target is not None and "." not in target[len(T.TF1CLIP_ESTIMATOR) + 1 :]:
            names.append(alias.name + ("" if bound == alias.name else " as " + bound))
        elif target is not None:
            lines.append("%s = %s" % (bound, target))
        elif sub in T.PY_ESTIMATOR and _estimator_module_uses(edits, tree, bound, sub):
            continue
        else:
            edits.add(ERROR, node, _estimator_error("from %s import %s" % (node.module, alias.name), module))
            return
    new = (["from tf1clip.estimator import " + ", ".join(names)] if names else []) + (
        ["import tf1clip.estimator"] if lines or len(names) < len(node.names) else []
    )
    _replace(edits, node, new + lines)


def _replace(edits, node, lines, old=None):
    """Replaces the statement ``node`` by ``lines`` (``import tf1clip.estimator`` once per file)."""
    old = old or pasta.dump(node).strip()
    once = "import " + T.TF1CLIP_ESTIMATOR
    if once in lines and once in edits.added_imports:
        lines = [line for line in lines if line != once]
    edits.added_imports.update(lines)
    body = body_of(edits.parents[node], node)
    index = next(i for i, item in enumerate(body) if item is node)
    new = insert_after(node, body, index, lines) if lines else ""
    if len(body) > 1:
        drop_statement(body, node)
    else:
        body[0] = ast.copy_location(ast.Pass(), node)
    edits.add(INFO, node, "Changed import from %r to %r" % (old, new))


def _estimator_module_uses(edits, tree, bound, module):
    """Rewrites ``bound.X`` (``bound``: the module ``tensorflow.python.estimator.<module>``) to tf1clip.estimator's
    ``X``; True if every use was one, else ERRORs at the others and changes nothing."""
    uses, bad = [], []
    for name, chain in chains(tree):
        if name == bound or name.startswith(bound + "."):
            member = name[len(bound) + 1 :].split(".")[0] if name != bound else None
            target = _estimator_name(module, member) if member else None
            (uses if target else bad).append((name, chain, target))
    for name, chain, _ in bad:
        edits.add(ERROR, chain, _estimator_error(name, module))
    if bad:
        return False
    for name, chain, target in uses:
        edits.replace_prefix(edits.parents[chain], chain, name.count(".") - 1, target)
    return True


def _estimator_error(literal, module):
    """The ERROR for a use of ``tensorflow.python.estimator[.module]`` that tf1clip.estimator has no name for."""
    suffix = "." + module if module else ""
    return (
        "%s fails on TensorFlow 2: tensorflow.python.estimator%s was TF 1.15's copy of %s%s, a private module of "
        "tensorflow-estimator, and tf1clip.estimator (tf.compat.v1.estimator's public names) has no such name; "
        "port the code to public names" % (literal, suffix, T.ESTIMATOR_PACKAGE, suffix)
    )


def _check(edits, node, statement, module, name):
    reason = _import_fails(module, name)
    if reason is None:
        return
    if _under(tf_path(module), "tf.examples"):
        hint = "tf1clip re-creates only tensorflow.examples.tutorials.mnist.input_data"
    else:
        hint = _public_hint(name or module.rpartition(".")[2])
    edits.add(
        ERROR,
        node,
        "%s fails on TensorFlow %d.%d (%s): tensorflow.python and tensorflow.examples are not TensorFlow's API; %s."
        % ((statement,) + tensorflow_version() + (reason, hint)),
    )


@functools.lru_cache(maxsize=None)
def _import_fails(module, name):
    """Why ``import module`` (``from module import name``) fails on this TensorFlow, or None."""
    try:
        loaded = importlib.import_module(module)
    except Exception as err:  # noqa: BLE001 - any failure of the import is the answer
        return "%s: %s" % (type(err).__name__, err)
    if name is None or name == "*" or hasattr(loaded, name):
        return None
    try:
        importlib.import_module(module + "." + name)
    except Exception:  # noqa: BLE001
        return "%s has no %s" % (module, name)
    return None


@functools.lru_cache(maxsize=None)
def _public_index():
    """``{name: [public paths]}`` over ``tf.compat.v1`` and its modules (not Keras, Estimator or contrib)."""
    import tensorflow as tf

    index, seen, todo = {}, set(), [("tf.compat.v1", tf.compat.v1)]
    while todo:
        prefix, module = todo.pop(0)
        for key in sorted(k for k in dir(module) if not k.startswith("_")):
            if prefix == "tf.compat.v1" and key in ("keras", "estimator", "compat", "contrib"):
                continue
            try:
                value = getattr(module, key)
            except Exception:  # noqa: BLE001, S112 - a lazily loaded module that fails is skipped
                continue
            if isinstance(value, types.ModuleType):
                if id(value) not in seen and prefix.count(".") < 5:
                    seen.add(id(value))
                    todo.append((prefix + "." + key, value))
            else:
                index.setdefault(key, []).append(prefix + "." + key)
    return index


def _public_hint(name):
    found = _public_index().get(name, [])
    if found:
        return "the public name is " + " or ".join(sorted(found, key=len)[:3])
    return "no public TensorFlow name is %r: use the public tf.compat.v1 API or port the code" % name


_DATASET_PROPERTIES = ("output_types", "output_shapes", "output_classes")


def rewrite_dataset_properties(edits, tree):
    """``x.output_types`` (``_shapes``, ``_classes``) -> ``tf.compat.v1.data.get_output_types(x)`` in a file that
    builds ``tf.data`` pipelines: TF 2's datasets lack these TF 1 properties; the functions take datasets and
    iterators."""
    if not any("Dataset" in name or "contrib.data" in name for name, _ in chains(tree)):
        return
    for node in [n for n in ast.walk(tree) if isinstance(n, ast.Attribute)]:
        parent = edits.parents.get(node)
        if node.attr not in _DATASET_PROPERTIES or not isinstance(node.ctx, ast.Load) or parent is None:
            continue
        call = ast.Call(
            func=ast_edits.full_name_node("tf.compat.v1.data.get_" + node.attr), args=[node.value], keywords=[]
        )
        for part in ast.walk(call.func):
            ast.copy_location(part, node)
        ast.copy_location(call, node)
        pasta.ast_utils.replace_child(parent, node, call)
        edits.parents[call] = parent
        edits.add(
            INFO, node, "Changed .%s to tf.compat.v1.data.get_%s(...): TF 2's datasets lack it" % (node.attr, node.attr)
        )


__all__ = ["rewrite_paths", "rewrite_dataset_properties"]
