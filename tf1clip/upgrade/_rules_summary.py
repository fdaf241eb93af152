"""``tf.contrib.summary`` in TF 1 graphs: TF 2's summary ops that record what TF 1.15 recorded (a rule of the
registry; imports TensorFlow's converter).

tf_upgrade_v2 renames every ``tf.contrib.summary`` function to ``tf.compat.v2.summary``'s. Where TF 2's function
records the same in a ``tf.compat.v1`` graph, that conversion stays: ``create_file_writer``,
``always_record_summaries`` / ``never_record_summaries`` (``record_if(True)`` / ``record_if(False)``),
``initialize``, ``all_summary_ops`` (``tf.compat.v1.summary.all_v2_summary_ops``) and ``flush``. The writing
functions are not the same in TF 2 (TensorBoard's scalar, histogram, image and audio record tensors, 30
equal-width buckets, images scaled from [0, 1], under tags without TF 1.15's name-scope uniquifying and family, and
need the tensorboard package), so a call of ``scalar``, ``histogram``, ``image`` or ``audio`` becomes the
``tf.compat.v1.summary`` op TF 1.15's contrib function shared its kernel and tag with, written by
``tf.compat.v2.summary.experimental.write_raw_pb`` to the default writer under the same ``record_if`` condition, at
contrib's step (the global step when the call had none)::

    tf.contrib.summary.scalar("loss", loss, family="train")
    # becomes
    tf.compat.v2.summary.experimental.write_raw_pb(
        tf.compat.v1.summary.scalar("loss", loss, family="train", collections=[]),
        step=tf.compat.v1.train.get_or_create_global_step())

``record_summaries_every_n_global_steps(n, global_step)`` becomes ``record_if(tf.math.equal(global_step % n, 0))``,
the condition TF 1.15 built in a graph. ``generic`` (a literal tag in TF 2) and ``image(bad_color=...)`` (no
counterpart) are ERRORs naming why.
"""

import ast

from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._tables import DECLINED
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO

SUMMARY = "tf.contrib.summary"
_TO_TF1 = "write it with tf.compat.v1.summary's op and tf.compat.v2.summary.experimental.write_raw_pb"
NOT_EQUIVALENT = {
    "generic": "TF 2's tf.summary.write takes the tag as given, where TF 1.15's derived it from the name scope and "
    "family",
}
"""``tf.contrib.summary`` functions TF 2 has no equivalent of in a ``tf.compat.v1`` graph -> why."""
WRITERS = {
    "scalar": (("name", "tensor", "family", "step"), ()),
    "histogram": (("name", "tensor", "family", "step"), ()),
    "image": (("name", "tensor", "bad_color", "max_images", "family", "step"), (("max_images", "max_outputs"),)),
    "audio": (("name", "tensor", "sample_rate", "max_outputs", "family", "step"), (("max_outputs", "max_outputs"),)),
}
"""Contrib writing function -> (TF 1.15's parameters, ``(contrib keyword, tf.compat.v1.summary keyword)`` renames)."""
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
    return name in NOT_EQUIVALENT or name in WRITERS or chain.path == EVERY_N


def decide_summary(chain):
    """The ERROR for a function TF 2 does not match (tf_upgrade_v2's rename of it is dropped, for the rest of the
    file), the ``record_if`` condition for ``record_summaries_every_n_global_steps``, a writing function's TF 1 op;
    declined where a writing function or ``record_summaries_every_n_global_steps`` is not called (tf_upgrade_v2's
    rules convert the name)."""
    name = chain.path[len(SUMMARY) + 1 :]
    edits = chain.edits
    if name not in NOT_EQUIVALENT and not _is_call_of(chain):
        return DECLINED
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
        _writer(chain, name)


def _arguments(call, parameters):
    """``{parameter: node}`` of ``call`` against ``parameters``, or None when it passes ``*args``/``**kwargs`` or an
    unknown or repeated one."""
    if len(call.args) > len(parameters) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    found = dict(zip(parameters, call.args))
    for keyword in call.keywords:
        if keyword.arg is None or keyword.arg not in parameters or keyword.arg in found:
            return None
        found[keyword.arg] = keyword.value
    return found


def _replace_call(chain, text, why):
    """Replaces the call of ``chain`` by the expression ``text``, and logs it."""
    call = chain.parent
    new = pasta.parse(text).body[0].value
    holder = chain.edits.parents[call]
    pasta.ast_utils.replace_child(holder, call, new)
    for part in ast.walk(new):
        ast.copy_location(part, call)
        chain.edits.parents.setdefault(part, holder)
    chain.edits.add(INFO, call, "Changed %s(...) to %s: %s" % (chain.name, text, why))


def _writer(chain, name):
    """``scalar(name, tensor, family, step)`` (and histogram, image, audio) -> ``write_raw_pb`` of the v1 op."""
    parameters, renames = WRITERS[name]
    arguments = _arguments(chain.parent, parameters)
    bad_color = (arguments or {}).get("bad_color")
    if arguments is None or not {"name", "tensor"} <= set(arguments) or not _is_none(bad_color):
        chain.edits.add(
            ERROR,
            chain.parent,
            "%s(...): tf1clip-upgrade converts calls that pass TF 1.15's arguments by name or position (no bad_color "
            "for image: TF 2's image op has no counterpart); %s (install: nothing, it is part of TensorFlow 2)."
            % (chain.name, _TO_TF1),
        )
        return
    source = {k: pasta.dump(v).strip() for k, v in arguments.items() if k != "bad_color"}
    positional = [source.pop("name"), source.pop("tensor")] + ([source.pop("sample_rate")] if name == "audio" else [])
    step = source.pop("step", _GLOBAL_STEP)
    for old, new in renames:
        if old in source:
            source[new] = source.pop(old)
    keywords = ["%s=%s" % (k, source[k]) for k in ("max_outputs", "family") if k in source] + ["collections=[]"]
    op = "tf.compat.v1.summary.%s(%s)" % (name, ", ".join(positional + keywords))
    text = "tf.compat.v2.summary.experimental.write_raw_pb(%s, step=%s)" % (op, step)
    _replace_call(chain, text, "the TF 1 op with TF 1.15's tag and value, written to the default writer")


def _is_none(node):
    return node is None or (isinstance(node, ast.Constant) and node.value is None)


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
        chain.edits.add(
            ERROR,
            call,
            "%s: unexpected arguments; write tf.compat.v2.summary.record_if(tf.math.equal(global_step %% n, 0)) "
            "(install: nothing, it is part of TensorFlow 2)." % chain.name,
        )
        return
    step = _operand(arguments["global_step"]) if "global_step" in arguments else _GLOBAL_STEP
    text = "tf.compat.v2.summary.record_if(tf.math.equal(%s %% %s, 0))" % (step, _operand(arguments["n"]))
    _replace_call(chain, text, "the condition TF 1.15 built in a graph")


__all__ = ["SUMMARY", "NOT_EQUIVALENT", "WRITERS", "EVERY_N", "is_summary_decision", "decide_summary"]
