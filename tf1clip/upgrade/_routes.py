"""Questions about a contrib path, answered from ``_tables`` (no TensorFlow import)."""

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import module_path


def lookup(path):
    """``(tf1clip path, needs tf-slim)`` for a contrib module or member tf1clip provides, or None."""
    table = T.provided()
    if path in table:
        return table[path][0], path not in T.OWN  # a module only tf-slim provides
    module, _, name = path.rpartition(".")
    if module in table and name in table[module][1]:
        return table[module][0] + "." + name, name in table[module][2]
    return None


def supported(path):
    """``(prefix_length, target, needs tf-slim)`` if tf1clip provides the contrib ``path``, else None.

    The whole dotted path must be a provided module or member, or start with a
    provided member (``OPTIMIZER_CLS_NAMES.keys``); ``prefix_length`` counts the
    parts that ``target`` replaces.
    """
    parts = path.split(".")
    table = T.provided()
    for k in range(len(parts), 1, -1):
        prefix = ".".join(parts[:k])
        found = lookup(prefix)
        if found is None:
            continue
        if k == len(parts) or prefix not in table:
            return (k,) + found
        return None
    return None


def is_contrib(path):
    return path == "tf.contrib" or path.startswith("tf.contrib.")


def is_module(path):
    """Whether ``path`` is a contrib module tf1clip provides (some of)."""
    return path in T.provided()


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
    "is_contrib",
    "is_module",
    "tf_path",
    "tf_module",
    "contrib_error",
    "import_error",
]
