"""``tf.estimator`` and ``tf.contrib.estimator`` code, and mode keys (a rule of the rewrite)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._engine import ast_edits
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._tables import INFO


def rewrite_mode_key(edits, node, parent, path):
    """``ModeKeys.TRAIN`` -> ``"train"`` (modern target) or ``tf.estimator.ModeKeys.TRAIN``."""
    module, _, key = path.rpartition(".")
    values = T.MODE_KEYS.get(module)
    if values is None or key not in values or "." not in dotted(node):
        return False  # a bare name bound to a mode key keeps its binding, which is rewritten
    if edits.target == "estimator":
        if module == "tf.estimator.ModeKeys":
            return True
        edits.replace(parent, node, "tf.estimator.ModeKeys." + ("PREDICT" if key == "INFER" else key))
        return True
    constant = ast.copy_location(ast.Constant(values[key]), node)
    pasta.ast_utils.replace_child(parent, node, constant)
    edits.add(
        INFO,
        node,
        "Replaced %r by its value %r: mode keys are strings, and %s is gone on TF 2.16+."
        % (dotted(node), values[key], module.rpartition(".")[0]),
    )
    return True


def rewrite_estimator(edits, node, parent, name, path):
    """Converts TF 1 estimator code: to ``tf1clip.estimator`` (modern target), or as TF 2.15's tf_upgrade_v2
    does (estimator target)."""
    member = path[len("tf.contrib.tpu.") :].split(".") if path.startswith("tf.contrib.tpu.") else [""]
    if member[0] in T.CONTRIB_TPU_ESTIMATOR:  # the member, or an attribute of it (InputPipelineConfig.PER_HOST_V2)
        if len(member) > len(name.split(".")):
            return True  # a name bound to an attribute of the member: the binding is converted
        home = T.TF1CLIP_ESTIMATOR if edits.target != "estimator" else "tf.compat.v1.estimator"
        edits.replace_prefix(parent, node, len(member) - 1, home + ".tpu." + member[0])
        return True
    if edits.target != "estimator":
        return _to_tf1clip_estimator(edits, node, parent, name, path)
    if path.startswith("tf.contrib.estimator."):
        member = path[len("tf.contrib.estimator.") :]
        if member in T.CONTRIB_ESTIMATOR:
            edits.replace(parent, node, T.CONTRIB_ESTIMATOR[member])
            return True
        if member in T.CONTRIB_ESTIMATOR_V1:
            edits.replace(parent, node, "tf.compat.v1.estimator." + member)
            return True
        return False
    if not path.startswith("tf.estimator."):
        return False
    member = path[len("tf.estimator.") :]
    if any(member == p or member.startswith(p + ".") for p in T.ESTIMATOR_V1_ONLY):
        edits.replace(parent, node, "tf.compat.v1.estimator." + member)
        return True
    if member in T.CANNED_ESTIMATORS and isinstance(parent, ast.Call) and parent.func is node:
        _canned_estimator(edits, node, parent, name, member)
        return True
    return False


def _to_tf1clip_estimator(edits, node, parent, name, path):
    """``tf.estimator.X`` (TF 1's, the v1 API) and ``tf.contrib.estimator``'s moved members ->
    ``tf1clip.estimator.X``, which is that API on every supported TensorFlow."""
    if path.startswith("tf.contrib.estimator."):
        member = path[len("tf.contrib.estimator.") :]
        moved = T.CONTRIB_ESTIMATOR.get(member)
        if moved is None and member not in T.CONTRIB_ESTIMATOR_V1:
            return False
        edits.replace(parent, node, T.TF1CLIP_ESTIMATOR + (moved[len("tf.estimator") :] if moved else "." + member))
        return True
    for prefix in T.ESTIMATOR_PREFIXES:
        if path == prefix or path.startswith(prefix + "."):
            if _spelled(name) != path or not name.startswith(("tf.", "tensorflow.")):
                return False  # an alias bound by an import: the import is converted
            edits.replace_prefix(parent, node, len(path.split(".")) - len(prefix.split(".")), T.TF1CLIP_ESTIMATOR)
            return True
    return False


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


__all__ = ["rewrite_mode_key", "rewrite_estimator"]
