"""``tf.contrib.summary`` in TF 1 graphs: what TF 2's summary API does the same, and what it does not (a rule of
the registry; imports TensorFlow's converter).

tf_upgrade_v2 renames every ``tf.contrib.summary`` writer function to ``tf.compat.v2.summary``'s (with a step where
the call had none: contrib's default, the global step). Where TF 2's function records the same tags and values in
a ``tf.compat.v1`` graph, that conversion stays: ``create_file_writer``, ``always_record_summaries`` /
``never_record_summaries`` (``record_if(True)`` / ``record_if(False)``), ``scalar``, ``initialize``,
``all_summary_ops`` (``tf.compat.v1.summary.all_v2_summary_ops``) and ``flush``;
``record_summaries_every_n_global_steps(n, global_step)`` becomes
``record_if(tf.math.equal(global_step % n, 0))``, the condition TF 1.15 built in a graph. The others record
something else in TF 2 and are ERRORs naming why (:data:`NOT_EQUIVALENT`), left as written; a ``family=``
argument, which TF 2 has no counterpart of, is an ERROR too.
"""

import ast

from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._tables import ERROR

SUMMARY = "tf.contrib.summary"
_TO_TF1 = (
    "port the call by hand, or keep writing it with tf.compat.v1.summary's ops and a tf.compat.v1.summary.FileWriter"
)
NOT_EQUIVALENT = {
    "histogram": "TF 2's tf.summary.histogram (TensorBoard's) records 30 equal-width buckets as a tensor, where TF "
    "1.15's recorded TensorFlow's HistogramProto (exponential buckets, min, max, sum, sum of squares)",
    "image": "TF 2's tf.summary.image takes floats in [0, 1] and max_outputs, where TF 1.15's rescaled float images "
    "by their range and took bad_color and max_images",
    "audio": "TF 2's tf.summary.audio (TensorBoard's) records encoded WAV files in a tensor, where TF 1.15's recorded "
    "Summary.Audio values, and its arguments differ",
    "generic": "TF 2's tf.summary.write takes the tag as given, where TF 1.15's derived it from the name scope and "
    "family",
}
"""``tf.contrib.summary`` functions TF 2 has no equivalent of in a ``tf.compat.v1`` graph -> why."""
FAMILY = (
    "TF 2's tf.summary functions have no family: TF 1.15 recorded this summary under the tag "
    "'<family>/<name scope>/<family>/<name>', TF 2 under '<name scope>/<name>'; drop family= and put the family into "
    "the name to keep TF 1.15's tags"
)
_ENGINE_TABLES = (
    "symbol_renames",
    "function_transformers",
    "function_keyword_renames",
    "function_reorders",
    "function_warnings",
    "function_arg_warnings",
)
EVERY_N = SUMMARY + ".record_summaries_every_n_global_steps"
_GLOBAL_STEP = "tf.compat.v1.train.get_or_create_global_step()"


def _is_call_of(chain):
    return isinstance(chain.parent, ast.Call) and chain.parent.func is chain.node


def is_summary_decision(chain):
    """A ``tf.contrib.summary`` name this module decides on (see the module docstring)."""
    if not chain.path.startswith(SUMMARY + "."):
        return False
    name = chain.path[len(SUMMARY) + 1 :]
    if name in NOT_EQUIVALENT:
        return True
    if chain.path == EVERY_N:
        return _is_call_of(chain)
    return _is_call_of(chain) and any(k.arg == "family" for k in chain.parent.keywords)


def decide_summary(chain):
    """The ERROR for a function TF 2 does not match (tf_upgrade_v2's rename of it is dropped, for every file), the
    ``record_if`` condition for ``record_summaries_every_n_global_steps``, the ERROR for ``family=``."""
    name = chain.path[len(SUMMARY) + 1 :]
    edits = chain.edits
    if name in NOT_EQUIVALENT:
        for table in _ENGINE_TABLES:
            getattr(edits.spec, table, {}).pop(chain.path, None)
        edits.count_unconverted(chain.name.split(".")[0])
        edits.add(
            ERROR,
            chain.node,
            "%s cannot be converted automatically: %s; %s (install: nothing, it is part of TensorFlow 2)."
            % (chain.name, NOT_EQUIVALENT[name], _TO_TF1),
        )
    elif chain.path == EVERY_N:
        _every_n(chain)
    else:
        edits.add(ERROR, chain.parent, "%s(family=...): %s." % (chain.name, FAMILY))


def _operand(node):
    """The source of ``node`` as an operand of ``%`` (parenthesized unless it is a name, call, constant ...)."""
    text = pasta.dump(node).strip()
    return text if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Constant, ast.Subscript)) else "(%s)" % text


def _every_n(chain):
    """``record_summaries_every_n_global_steps(n[, global_step])`` -> ``record_if(tf.math.equal(step % n, 0))``."""
    call = chain.parent
    arguments = dict(zip(("n", "global_step"), call.args))
    arguments.update((k.arg, k.value) for k in call.keywords)
    if "n" not in arguments or set(arguments) - {"n", "global_step"}:
        chain.edits.add(ERROR, call, "%s: unexpected arguments; %s." % (chain.name, _TO_TF1))
        return
    step = _operand(arguments["global_step"]) if "global_step" in arguments else _GLOBAL_STEP
    text = "tf.compat.v2.summary.record_if(tf.math.equal(%s %% %s, 0))" % (step, _operand(arguments["n"]))
    new = pasta.parse(text).body[0].value
    holder = chain.edits.parents[call]
    pasta.ast_utils.replace_child(holder, call, new)
    for part in ast.walk(new):
        ast.copy_location(part, call)
        chain.edits.parents.setdefault(part, holder)
    chain.edits.add("INFO", call, "Changed %s(...) to %s: the condition TF 1.15 built in a graph" % (chain.name, text))


__all__ = ["SUMMARY", "NOT_EQUIVALENT", "FAMILY", "EVERY_N", "is_summary_decision", "decide_summary"]
