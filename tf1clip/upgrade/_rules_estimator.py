"""``tf.estimator`` and ``tf.contrib.estimator`` code, and mode keys: chain rules of ``_registry`` (``is_X`` tells
whether the rule claims a chain's TF path, reading only ``chain.path`` and the target; ``rewrite_X`` rewrites or
reports the chain, or returns ``DECLINED`` where its context says the rule does not apply)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._engine import ast_edits
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._tables import DECLINED
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO


def is_mode_key(chain):
    """``tf.estimator.ModeKeys.TRAIN`` or ``tf.contrib.learn.ModeKeys.X``."""
    module, _, key = chain.path.rpartition(".")
    return key in T.MODE_KEYS.get(module, ())


def rewrite_mode_key(chain):
    """``ModeKeys.TRAIN`` -> ``"train"`` (modern target) or ``tf.estimator.ModeKeys.TRAIN``; declined for a bare name
    bound to a mode key (its binding is rewritten)."""
    edits, node, parent = chain.edits, chain.node, chain.parent
    if "." not in chain.name:
        return DECLINED
    module, _, key = chain.path.rpartition(".")
    values = T.MODE_KEYS[module]
    if edits.target == "estimator":
        if module != "tf.estimator.ModeKeys":
            edits.replace(parent, node, "tf.estimator.ModeKeys." + ("PREDICT" if key == "INFER" else key))
        return
    constant = ast.copy_location(ast.Constant(values[key]), node)
    pasta.ast_utils.replace_child(parent, node, constant)
    edits.add(
        INFO,
        node,
        "Replaced %r by its value %r: mode keys are strings, and %s is gone on TF 2.16+."
        % (dotted(node), values[key], module.rpartition(".")[0]),
    )


def is_removed_estimator(chain):
    """A ``tf.estimator`` class tensorflow-estimator 2.15 no longer has (``BoostedTreesClassifier``)."""
    return T.removed_estimator(chain.path) is not None


def report_removed_estimator(chain):
    chain.edits.add(ERROR, chain.node, T.removed_estimator(chain.path))


def _tpu_member(path):
    """``[member, attribute...]`` of a ``tf.contrib.tpu`` path, else ``[""]``."""
    return path[len("tf.contrib.tpu.") :].split(".") if path.startswith("tf.contrib.tpu.") else [""]


def is_tpu_estimator(chain):
    """A ``tf.contrib.tpu`` Estimator class, or an attribute of one (``InputPipelineConfig.PER_HOST_V2``)."""
    return _tpu_member(chain.path)[0] in T.CONTRIB_TPU_ESTIMATOR


def rewrite_tpu_estimator(chain):
    """-> ``tf1clip.estimator.tpu.X`` (modern target) or ``tf.compat.v1.estimator.tpu.X``."""
    member = _tpu_member(chain.path)
    if len(member) > len(chain.name.split(".")):
        return  # a name bound to an attribute of the member: the binding is converted
    home = T.TF1CLIP_ESTIMATOR if chain.edits.target != "estimator" else "tf.compat.v1.estimator"
    chain.edits.replace_prefix(chain.parent, chain.node, len(member) - 1, home + ".tpu." + member[0])


def _contrib_estimator_member(path):
    return path[len("tf.contrib.estimator.") :] if path.startswith("tf.contrib.estimator.") else None


def is_moved_contrib_estimator(chain):
    """A ``tf.contrib.estimator`` member that TF 1.13-1.15 moved to ``tf.estimator``."""
    member = _contrib_estimator_member(chain.path)
    return member in T.CONTRIB_ESTIMATOR or member in T.CONTRIB_ESTIMATOR_V1


def rewrite_moved_contrib_estimator(chain):
    """-> its ``tf1clip.estimator`` home (modern target), or its ``tf.estimator`` / ``tf.compat.v1.estimator`` one."""
    member = _contrib_estimator_member(chain.path)
    moved = T.CONTRIB_ESTIMATOR.get(member)
    if chain.edits.target != "estimator":
        new = T.TF1CLIP_ESTIMATOR + (moved[len("tf.estimator") :] if moved else "." + member)
    else:
        new = moved or "tf.compat.v1.estimator." + member
    chain.edits.replace(chain.parent, chain.node, new)


def _estimator_prefix(path):
    return next((p for p in T.ESTIMATOR_PREFIXES if path == p or path.startswith(p + ".")), None)


def is_tf1_estimator_spelled_out(chain):
    """Modern target: ``tf.estimator.X`` or ``tf.compat.v1.estimator.X``."""
    return chain.edits.target != "estimator" and _estimator_prefix(chain.path) is not None


def rewrite_to_tf1clip_estimator(chain):
    """``tf.estimator.X`` (TF 1's, the v1 API) -> ``tf1clip.estimator.X``, that API on every supported TensorFlow;
    declined unless spelled from ``tf``/``tensorflow`` (an alias bound by an import is converted with the import)."""
    if _spelled(chain.name) != chain.path or not chain.name.startswith(("tf.", "tensorflow.")):
        return DECLINED
    prefix = _estimator_prefix(chain.path)
    kept = len(chain.path.split(".")) - len(prefix.split("."))
    chain.edits.replace_prefix(chain.parent, chain.node, kept, T.TF1CLIP_ESTIMATOR)


def _estimator_member(chain):
    """``X...`` of ``tf.estimator.X...`` on the estimator target, else None."""
    if chain.edits.target != "estimator" or not chain.path.startswith("tf.estimator."):
        return None
    return chain.path[len("tf.estimator.") :]


def is_v1_only_estimator(chain):
    """Estimator target: a ``tf.estimator`` member whose TF 1 form only ``tf.compat.v1.estimator`` keeps."""
    member = _estimator_member(chain)
    return member is not None and any(member == p or member.startswith(p + ".") for p in T.ESTIMATOR_V1_ONLY)


def rewrite_v1_only_estimator(chain):
    chain.edits.replace(chain.parent, chain.node, "tf.compat.v1.estimator." + _estimator_member(chain))


def is_canned_estimator_call(chain):
    """Estimator target: a canned ``tf.estimator`` class (``DNNClassifier``)."""
    return _estimator_member(chain) in T.CANNED_ESTIMATORS


def rewrite_canned_estimator_call(chain):
    """As TF 2.15's tf_upgrade_v2: ``tf.compat.v1.estimator.X`` when given a v1 optimizer or partitioner, else TF
    1's default ``loss_reduction`` made explicit; declined where the class is not called."""
    parent = chain.parent
    if not (isinstance(parent, ast.Call) and parent.func is chain.node):
        return DECLINED
    _canned_estimator(chain.edits, chain.node, chain.parent, chain.name, _estimator_member(chain))


def _spelled(name):
    """``name`` with ``tensorflow`` (bound by ``import tensorflow.x``) spelled ``tf``."""
    return "tf" + name[len("tensorflow") :] if name.split(".")[0] == "tensorflow" else name


def _canned_estimator(edits, node, call, name, member):
    arg_names, add_reduction = T.CANNED_ESTIMATORS[member]
    if any(ast_edits.get_arg_value(call, a)[0] for a in arg_names):
        edits.replace(
            call,
            node,
            "tf.compat.v1.estimator." + member,
            "(it is given a tf.compat.v1 optimizer or input_layer_partitioner, which "
            "only the tf.compat.v1.estimator class takes)",
        )
    elif add_reduction and not any(k.arg == "loss_reduction" for k in call.keywords):
        call.keywords.append(ast.keyword(arg="loss_reduction", value=pasta.parse("tf.keras.losses.Reduction.SUM")))
        edits.add(
            INFO,
            node,
            "%s: added loss_reduction=tf.keras.losses.Reduction.SUM, the TF 1 "
            "default (TF 2's is SUM_OVER_BATCH_SIZE)." % name,
        )


__all__ = [
    "is_mode_key",
    "rewrite_mode_key",
    "is_removed_estimator",
    "report_removed_estimator",
    "is_tpu_estimator",
    "rewrite_tpu_estimator",
    "is_moved_contrib_estimator",
    "rewrite_moved_contrib_estimator",
    "is_tf1_estimator_spelled_out",
    "rewrite_to_tf1clip_estimator",
    "is_v1_only_estimator",
    "rewrite_v1_only_estimator",
    "is_canned_estimator_call",
    "rewrite_canned_estimator_call",
]
