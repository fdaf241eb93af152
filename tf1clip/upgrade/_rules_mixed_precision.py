"""``tf.contrib.mixed_precision`` -> TF 2's ``tf.compat.v1`` loss scaling (a chain rule of ``_registry``)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import rename_keywords

_DYNAMIC = "tf.compat.v1.mixed_precision.DynamicLossScale"
_EXPONENTIAL_RENAMES = {
    "init_loss_scale": "initial_loss_scale",
    "incr_every_n_steps": "increment_period",
    "incr_ratio": "multiplier",
}


_CLASSES = ("LossScaleOptimizer", "FixedLossScaleManager", "ExponentialUpdateLossScaleManager")


def is_loss_scaling(chain):
    """One of ``tf.contrib.mixed_precision``'s three classes."""
    return chain.path.startswith(T.MIXED_PRECISION + ".") and chain.path[len(T.MIXED_PRECISION) + 1 :] in _CLASSES


def rewrite_loss_scaling(chain):
    """Rewrites the ``tf.contrib.mixed_precision`` chain to TF 2's ``tf.compat.v1`` loss scaling."""
    edits, node, parent = chain.edits, chain.node, chain.parent
    member = chain.path[len(T.MIXED_PRECISION) + 1 :]
    call = parent if isinstance(parent, ast.Call) and parent.func is node else None
    if member == "LossScaleOptimizer":
        if call is not None:
            rename_keywords(call, {"loss_scale_manager": "loss_scale"})
        edits.replace(parent, node, T.LOSS_SCALE_OPTIMIZER)
    elif member == "FixedLossScaleManager":
        _fixed(edits, node, parent, call)
    elif call is not None and _exponential_is_dynamic(call):
        rename_keywords(call, _EXPONENTIAL_RENAMES)
        call.keywords = [k for k in call.keywords if k.arg not in ("decr_every_n_nan_or_inf", "decr_ratio")]
        if len(call.args) >= 4:
            call.keywords.insert(0, ast.keyword(arg="multiplier", value=call.args[3]))
        call.args = call.args[:2]
        edits.replace(parent, node, _DYNAMIC)
    else:
        edits.replace(parent, node, T.DYNAMIC_LOSS_SCALE)


def _fixed(edits, node, parent, call):
    # contrib's LossScaleOptimizer skips non-finite steps with any manager; TF 2's optimizer does so
    # only for a DynamicLossScale, and one that multiplies by 1 keeps the scale fixed.
    if call is not None:
        rename_keywords(call, {"loss_scale": "initial_loss_scale"})
        call.keywords += [
            ast.keyword(arg="increment_period", value=ast.Constant(1)),
            ast.keyword(arg="multiplier", value=ast.Constant(1.0)),
        ]
    edits.replace(
        parent,
        node,
        _DYNAMIC,
        "with increment_period=1, multiplier=1.0: a fixed scale that still skips "
        "non-finite steps, as contrib's LossScaleOptimizer did",
    )


def _number(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.Div, ast.Mult)):
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Div) and right == 0):
            return None
        try:
            return {ast.Pow: left**right, ast.Div: left / (right or 1), ast.Mult: left * right}[type(node.op)]
        except OverflowError:
            return None
    return None


def _exponential_is_dynamic(call):
    """Whether ``ExponentialUpdateLossScaleManager(...)`` equals a ``DynamicLossScale``.

    True when the call's literal arguments decrease after every non-finite step
    (``decr_every_n_nan_or_inf=1``) by ``decr_ratio == 1 / incr_ratio``.
    """
    names = ("init_loss_scale", "incr_every_n_steps", "decr_every_n_nan_or_inf", "incr_ratio", "decr_ratio")
    values = dict(zip(names, call.args))
    values.update({k.arg: k.value for k in call.keywords if k.arg})
    if set(values) - set(names) or any(k.arg is None for k in call.keywords):
        return False
    every = _number(values["decr_every_n_nan_or_inf"]) if "decr_every_n_nan_or_inf" in values else 2.0
    incr = _number(values["incr_ratio"]) if "incr_ratio" in values else 2.0
    decr = _number(values["decr_ratio"]) if "decr_ratio" in values else 0.8
    return every == 1.0 and incr is not None and decr is not None and abs(decr * incr - 1.0) < 1e-12


__all__ = ["is_loss_scaling", "rewrite_loss_scaling"]
