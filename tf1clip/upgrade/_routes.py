"""Questions about a contrib path, answered from ``_tables`` (no TensorFlow import)."""

import os

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import module_path


def lookup(path):
    """``(tf1clip path, extra)`` for a contrib module or member tf1clip provides, or None.

    ``extra``: ``"tf1clip[slim]"`` or ``"tf1clip[gan]"`` when the name comes from tf-slim or TF-GAN, else None.
    """
    table = T.provided()
    if path in table:
        target = table[path][0]
        return target, (T.extra_for(target) if path not in T.own() else None)  # a module only a successor provides
    module, _, name = path.rpartition(".")
    if module in table and name in table[module][1]:
        target = table[module][0] + "." + name
        return target, (T.extra_for(target) if name in table[module][2] else None)
    return None


def supported(path):
    """``(prefix_length, target, extra)`` if tf1clip provides the contrib ``path``, else None.

    The whole dotted path must be a provided module or member, or start with a
    provided member (``OPTIMIZER_CLS_NAMES.keys``); ``prefix_length`` counts the
    parts that ``target`` replaces.
    """
    shift = 0
    for module, read_as in T.MEMBER_MODULES.items():
        if path.startswith(module + "."):
            shift = module.count(".") - read_as.count(".")
            path = read_as + path[len(module) :]
    parts = path.split(".")
    table = T.provided()
    for k in range(len(parts), 1, -1):
        prefix = ".".join(parts[:k])
        found = lookup(prefix)
        if found is None:
            continue
        if k == len(parts) or prefix not in table:
            return (k + shift,) + found
        return None
    return None


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def importable(target):
    """Whether ``import target`` works for a tf1clip path: tf1clip's modules are files, the names
    it delegates to tf-slim (``tf1clip.contrib.layers.initializers``) are attributes."""
    parts = target.split(".")
    if parts[0] != "tf1clip":
        return False
    path = os.path.join(_PACKAGE_DIR, *parts[1:])
    return os.path.isfile(os.path.join(path, "__init__.py")) or os.path.isfile(path + ".py")


def importable_prefix(target):
    """The longest prefix of the tf1clip path ``target`` that ``import`` accepts."""
    parts = target.split(".")
    return next(".".join(parts[:k]) for k in range(len(parts), 0, -1) if importable(".".join(parts[:k])))


def is_contrib(path):
    return path == "tf.contrib" or path.startswith("tf.contrib.")


def is_module(path):
    """Whether ``path`` is a contrib module tf1clip provides (some of)."""
    return path in T.provided()


def engine_alias_path(key):
    """The contrib path of a tf_upgrade_v2 rule keyed by a guessed alias (``contrib_layers.x``), else None."""
    root, dot, rest = key.partition(".")
    if not dot:
        return None
    if root in T.ENGINE_ALIASES:
        return T.ENGINE_ALIASES[root] + dot + rest
    if root.startswith(T.ENGINE_ALIAS_PREFIX) and len(root) > len(T.ENGINE_ALIAS_PREFIX):
        return "tf.contrib." + root[len(T.ENGINE_ALIAS_PREFIX) :] + dot + rest
    return None


def tf_path(module):
    """``tensorflow.x.y`` -> ``tf.x.y``; None for other modules."""
    return module_path(module, "tensorflow", "tf")


def tf_module(path):
    """``tf.x.y`` -> ``tensorflow.x.y``."""
    return "tensorflow" + path[len("tf") :]


def contrib_error(literal, path):
    """The ERROR for a use of the contrib ``path`` (spelled ``literal``) that nothing converts."""
    named = literal if literal == path else "%s (%s)" % (literal, path)
    return (
        "%s cannot be converted automatically: tf.contrib is not part of TensorFlow 2 and "
        "tf1clip does not provide it; %s." % (named, T.successor(path))
    )


def import_error(statement, path):
    """The ERROR for an import of the contrib ``path`` that stays."""
    return (
        "%s fails on TensorFlow 2: tf.contrib is gone and tf1clip does not provide %s; %s. Remove "
        "the import once its uses are ported." % (statement, path, T.successor(path))
    )


__all__ = [
    "lookup",
    "supported",
    "importable",
    "importable_prefix",
    "is_contrib",
    "is_module",
    "engine_alias_path",
    "tf_path",
    "tf_module",
    "contrib_error",
    "import_error",
]
