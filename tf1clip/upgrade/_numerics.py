"""Names whose numbers stay different from TF 1.15's for a documented reason: the report names each use at its line.

:func:`known_differences` derives them from the manifest rows' ``drift``. The names are matched in the converted
code, through its imports (``from tf1clip.contrib.rnn import LayerNormBasicLSTMCell``).
"""

import ast

from tf1clip.contrib import _manifest
from tf1clip.upgrade._astutil import chains
from tf1clip.upgrade._astutil import collect_aliases
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._tables import INFO
from tf1clip.upgrade._tables import WARNING

_RNN_NUMERICS = "docs/rnn.rst, 'Numerics'"
_SHUFFLE_REPEAT = (
    "tf.data's shuffle followed directly by repeat: TF 1.15 fused the two into one ShuffleAndRepeatDataset, "
    "which draws another order than TensorFlow 2's shuffle, with or without seeds (each epoch is still a "
    "permutation; shuffle(..., reshuffle_each_iteration=False), or a map between shuffle and repeat, draws "
    "TF 1.15's order) (docs/oracle.rst, 'Seeds')."
)


def _kernel_drift(measured):
    return (
        "its ops, initial values and first training steps equal TF 1.15's, but training drifts from TF 1.15's "
        "numbers (%s after 300 Adam steps of tests/oracle/test_rnn_cell_drift.py): TensorFlow 2's CPU kernels for "
        "Sigmoid, Tanh, Softmax and their gradients round float32 differently from TF 1.15's, and this "
        "model amplifies the rounding" % measured
    )


def known_differences():
    """tf1clip name -> (severity, why its numbers differ, where the docs say so), from the manifest rows' ``drift``."""
    return {path: (INFO, _kernel_drift(measured), _RNN_NUMERICS) for path, measured in _manifest.drifting().items()}


def _seeded(call, seed_index):
    return len(call.args) > seed_index or any(k.arg == "seed" for k in call.keywords)


def _shuffle_then_repeat(call, graph_seed):
    """Whether ``call`` is ``<dataset>.shuffle(...).repeat(...)`` (reshuffling) or a ``shuffle_and_repeat(...)``,
    seeded (its own ``seed`` or ``graph_seed``): without a seed, neither TensorFlow repeats its order."""
    func = call.func
    if getattr(func, "attr", getattr(func, "id", None)) == "shuffle_and_repeat":
        return graph_seed or _seeded(call, 2)
    if not (isinstance(func, ast.Attribute) and func.attr == "repeat" and isinstance(func.value, ast.Call)):
        return False
    inner = func.value
    if not (isinstance(inner.func, ast.Attribute) and inner.func.attr == "shuffle"):
        return False
    fixed = [k for k in inner.keywords if k.arg == "reshuffle_each_iteration"]
    if fixed and isinstance(fixed[0].value, ast.Constant) and fixed[0].value.value is False:
        return False
    return graph_seed or _seeded(inner, 1)


def numeric_notes(tree, log, log_at, graph_seed=False):
    """Logs, with ``log_at(log, severity, node, message)``, each line of ``tree`` (converted code) that uses a
    name of :func:`known_differences` (once per name and line), and each seeded ``shuffle(...).repeat(...)``
    (``graph_seed``: whether the file sets a graph-level seed)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _shuffle_then_repeat(node, graph_seed):
            log_at(log, WARNING, node, _SHUFFLE_REPEAT)
    aliases = collect_aliases(tree, "tf1clip", "tf1clip")
    seen = set()
    table = known_differences()
    for dotted, node in chains(tree):
        path = resolve(aliases, dotted) or dotted
        known = table.get(path)
        line = getattr(node, "lineno", 0)
        if known is None or (path, line) in seen:
            continue
        seen.add((path, line))
        severity, why, docs = known
        log_at(log, severity, node, "%s differs from TF 1.15 in its numbers: %s (%s)." % (path, why, docs))
