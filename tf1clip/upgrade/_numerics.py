"""Names whose numbers stay different from TF 1.15's for a documented reason: the report names each use at its line.

``KNOWN_DIFFERENCES``: tf1clip name -> (severity, why its numbers differ, where the docs say so). The names are
matched in the converted code, through its imports (``from tf1clip.contrib.rnn import LayerNormBasicLSTMCell``).
"""

from tf1clip.upgrade._astutil import chains
from tf1clip.upgrade._astutil import collect_aliases
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._tables import INFO

_RNN_NUMERICS = "docs/rnn.rst, 'Numerics'"


def _kernel_drift(measured):
    return (
        "its ops, initial values and first training steps equal TF 1.15's, but training drifts from TF 1.15's "
        "numbers (%s after 300 Adam steps of tests/test_rnn_cell_drift.py): TensorFlow 2's CPU kernels for "
        "Sigmoid, Tanh, Softmax and their gradients round float32 differently from TF 1.15's, and this "
        "model amplifies the rounding" % measured
    )


KNOWN_DIFFERENCES = {
    "tf1clip.contrib.rnn.LayerNormBasicLSTMCell": (INFO, _kernel_drift("0.9 % in the loss"), _RNN_NUMERICS),
    "tf1clip.contrib.rnn.AttentionCellWrapper": (INFO, _kernel_drift("3.7 % in the loss"), _RNN_NUMERICS),
    "tf1clip.contrib.rnn.EmbeddingWrapper": (INFO, _kernel_drift("0.08 % in the loss"), _RNN_NUMERICS),
    "tf1clip.contrib.cudnn_rnn.CudnnCompatibleGRUCell": (INFO, _kernel_drift("0.06 % in the loss"), _RNN_NUMERICS),
}


def numeric_notes(tree, log, log_at):
    """Logs, with ``log_at(log, severity, node, message)``, each line of ``tree`` (converted code) that uses a
    name of ``KNOWN_DIFFERENCES``, once per name and line."""
    aliases = collect_aliases(tree, "tf1clip", "tf1clip")
    seen = set()
    for dotted, node in chains(tree):
        path = resolve(aliases, dotted) or dotted
        known = KNOWN_DIFFERENCES.get(path)
        line = getattr(node, "lineno", 0)
        if known is None or (path, line) in seen:
            continue
        seen.add((path, line))
        severity, why, docs = known
        log_at(log, severity, node, "%s differs from TF 1.15 in its numbers: %s (%s)." % (path, why, docs))
