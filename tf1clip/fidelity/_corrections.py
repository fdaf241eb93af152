"""The op-count corrections of ``use_tf1_random_seeds``, one entry each, and the constructs it cannot match.

TF 1.15 gave a random op without its own seed the number of ops its graph held; where TensorFlow 2 builds a
different number of ops than TF 1.15 did for the same call, an entry of ``CORRECTIONS`` counts the difference.
Each entry names its function, what the docs table shows (docs/oracle.rst, "Seeds", draws it from here) and the
recorded TF 1.15 cases (``tests/data/tf115_seeds/cases.py``) that prove it: they match TF 1.15 with it
and differ without it (both in tests/oracle/test_seeds.py). Adding a correction is
one entry here and its case.

What an entry's ``count`` is given (``scan``):

* ``"op"``: an op TensorFlow 2 made (each is scanned once, when the graph next draws an op seed); returns how
  many more ops TF 1.15 made for it;
* ``"call"``: the call making the random op now (``compat._tf.get_seed_call_site``: a dict, or None); returns
  ``(before, after)``, TF 1.15's extra ops before and after the random op;
* ``"convolution"``: a ``tf.nn.convolution`` call's ``dilations`` and whether the Keras layer making it called
  it before; returns TF 1.15's extra ops.

Each entry is on unless undone (``deactivate``; tf1clip.fidelity's ``Change.undo``). No TensorFlow import.
"""

import re
from typing import Any, Callable, Dict, NamedTuple, Set, Tuple


class Correction(NamedTuple):
    """One op-count correction: ``name``, ``scan`` (``"op"``, ``"call"`` or ``"convolution"``), ``count``, the
    ``construct`` TensorFlow 2 builds differently and the ``correction`` (reStructuredText, for the docs table),
    and the recorded TF 1.15 ``cases`` that need it."""

    name: str
    scan: str
    count: Callable[..., Any]
    construct: str
    correction: str
    cases: Tuple[str, ...]


class Unmatched(NamedTuple):
    """Calls after which TensorFlow 2's op count stays different from TF 1.15's (no correction): tf1clip-upgrade
    puts a WARNING (``why``) at each such call (a name ending in one of ``calls``) that a seed-drawing call
    follows; ``cases``: the recorded TF 1.15 cases that show the difference."""

    name: str
    calls: Tuple[str, ...]
    why: str
    cases: Tuple[str, ...]


# ---- "op": an op TensorFlow 2 made -> how many more ops TF 1.15 made for the same call -------------------------

_STACK_RANGE = re.compile(r"(^|/)TensorArrayStack(_\d+)?/range$")
_FLATTEN = re.compile(r"(^|/)flatten(_\d+)?/(Reshape|ExpandDims)$")
_REDUCTIONS = frozenset(["Sum", "Mean", "Max", "Min", "Prod", "All", "Any"])
_TENSORDOT_MATMUL = re.compile(r"(^|/)Tensordot(_\d+)?/MatMul$")
_ONES_LIKE = re.compile(r"(^|/)ones_like(_\d+)?$")


def _split_ops(op):
    """TF 1.15's ``tf.split(value, n)`` also made a constant of ``n`` (unused) before its ``Split`` op."""
    return 1 if op.type == "Split" else 0


def _tensor_array_stack_ops(op):
    """TF 1.15's ``TensorArray.stack`` read the size with a ``TensorArraySizeV3`` op; TF 2 reuses a static size."""
    if op.type == "Range" and _STACK_RANGE.search(op.name) and op.inputs[1].op.type != "TensorArraySizeV3":
        return 1
    return 0


def _is_flatten(op):
    """Whether ``op`` is TF 2's ``Flatten`` layer reshape: named ``flatten``, or (renamed) ``<scope>/Reshape`` to
    the constant ``<scope>/Const`` = ``[-1, n]`` made just before it."""
    if _FLATTEN.search(op.name):
        return True
    scope = op.name.rpartition("/")[0]
    shape_op = op.inputs[1].op
    if op.type != "Reshape" or not scope or op.name != scope + "/Reshape" or shape_op.name != scope + "/Const":
        return False
    from tf1clip.compat import _tf

    target = _tf.tf.get_static_value(op.inputs[1])
    return target is not None and target.shape == (2,) and int(target[0]) == -1


def _flatten_ops(op):
    """TF 1.15's ``Flatten`` layer reshaped to ``(tf.shape(x)[0], -1)`` when the batch size was unknown (8 ops);
    TF 2's reshapes to a constant shape (2 ops) when the other sizes are known."""
    if op.type in ("Reshape", "ExpandDims") and op.inputs[1].op.type == "Const" and _is_flatten(op):
        shape = op.inputs[0].shape
        if shape.rank and shape.as_list()[0] is None:
            return 6
    return 0


def _clip_by_global_norm_ops(op):
    """TF 1.15's ``clip_by_global_norm`` made its scale NaN for a non-finite norm with ``where(is_finite(norm),
    scale, nan)`` (3 ops); TF 2 adds ``norm - norm`` (2 ops)."""
    if op.type == "Sub" and op.name.endswith("/sub") and op.inputs[0].name == op.inputs[1].name:
        consumers = op.outputs[0].consumers()
        return 1 if not consumers or consumers[0].type in ("AddV2", "Add") else 0
    return 0


def _scalar_reduction_ops(op):
    """TF 2 reduces a scalar over ``range(0, rank)`` (4 ops); TF 1.15 over a constant ``[]`` (1 op)."""
    if op.type in _REDUCTIONS and op.inputs[0].shape.rank == 0:
        axes = op.inputs[1].op
        if axes.type == "Range" and all(t.op.type == "Const" for t in axes.inputs):
            return -3
    return 0


def _zeros_of_tensor_list_ops(op):
    """TF 1.15's ``tf.zeros``/``tf.ones`` of a list holding tensors first tried ``np.prod(shape) < 1000``: NumPy
    multiplied the elements left to right (a ``mul`` per step involving a tensor, plus a constant for a Python
    number) and compared (``Less`` and its constant); TF 2's tensors refuse NumPy, so it builds none of them."""
    if op.type != "Fill":
        return 0
    pack, value = op.inputs[0].op, op.inputs[1].op
    if (pack.type, pack.name, value.type, value.name) != ("Pack", op.name + "/packed", "Const", op.name + "/Const"):
        return 0
    numbers = [t.op.type == "Const" and t.op.name == "%s/%d" % (pack.name, i) for i, t in enumerate(pack.inputs)]
    extra, product_is_number = 2, numbers[0]
    for is_number in numbers[1:]:
        if not (product_is_number and is_number):
            extra += 2 if product_is_number or is_number else 1
            product_is_number = False
    return extra


def _tensordot_side_ops(tensor, scope):
    """TF 1.15's extra ops for one operand of ``tensordot``'s ``MatMul``: with a fully defined shape, TF 1.15
    always transposed and reshaped it (2 ops each); TF 2 skips an identity transpose and a no-op reshape."""
    built = 0
    for kind in ("Reshape", "Transpose"):
        if tensor.op.type == kind and tensor.op.name.startswith(scope):
            built += 2
            tensor = tensor.op.inputs[0]
    return 4 - built if tensor.shape.is_fully_defined() else 0


def _tensordot_ops(op):
    """``tf.tensordot`` (and the Dense layers on inputs of rank 3 or more): its operands (above), and the result,
    which TF 1.15 always reshaped to the free dimensions (2 ops) and TF 2 leaves when it already has that shape."""
    if op.type != "MatMul" or not _TENSORDOT_MATMUL.search(op.name):
        return 0
    scope = op.name[: -len("MatMul")]
    reshaped = any(c.type == "Reshape" and c.name == scope[:-1] for c in op.outputs[0].consumers())
    return sum(_tensordot_side_ops(t, scope) for t in op.inputs) + (0 if reshaped else 2)


def _ones_like_ops(op):
    """TF 1.15's ``tf.ones_like`` made ``Shape``, ``Const`` and ``Fill``; TF 2's makes one ``OnesLike`` (shape not
    fully defined) or one ``Const`` (fully defined, fewer than 1,000 elements, the default name)."""
    if op.type == "OnesLike" or (op.type == "Const" and _ONES_LIKE.search(op.name)):
        return 2
    return 0


# ---- "call": the random op being made -> TF 1.15's extra ops (before, after) ----------------------------------


def _random_uniform_ops(site):
    """TF 1.15 always made the ``min`` and ``max`` constants before drawing, and ``sub``, ``mul`` and ``add``
    after it; TF 2 skips them for the default [0, 1) range, and makes only ``mul`` for [0, maxval)."""
    if site is None or site["op"] != "random_uniform" or site["integer"]:
        return 0, 0
    if site["default_range"]:
        return 2, 3
    return 0, 2 if site["zero_min"] else 0


def _dropout_ops(site):
    """TF 1.15: ``rate`` as a constant (a number's), then after the draw ``1 - rate``, ``1 / keep_prob``, ``>=``,
    ``x * scale`` and ``* cast(mask)``. TF 2: ``x * scale`` (a number) or ``x / (1 - rate)`` (a tensor) before
    the draw, then ``>=`` and ``where``."""
    if site is None or site.get("dropout_rate_is_number") is None:
        return 0, 0
    return (-1, 4) if site["dropout_rate_is_number"] else (-3, 5)


def _random_gamma_ops(site):
    """TF 1.15 broadcast ``alpha`` as ``alpha + zeros_like(beta)`` (2 ops), TF 2 with ``broadcast_to(alpha,
    broadcast_dynamic_shape(shape(alpha), shape(beta)))`` (4 ops)."""
    return (-2, 0) if site is not None and site["op"] == "random_gamma" else (0, 0)


# ---- "convolution": a tf.nn.convolution call -> TF 1.15's extra ops ----------------------------------------


def all_ones(dilations):
    """Whether ``dilations`` (None, an int, a list or a NumPy array; not a tensor) are all 1."""
    import numpy as np

    if dilations is None:
        return True
    if not isinstance(dilations, (int, list, tuple, np.ndarray)):
        return False
    try:
        return all(int(d) == 1 for d in np.ravel(dilations))
    except (TypeError, ValueError):
        return False


def _dilation_constant_ops(dilations, called_before):
    """TF 1.15's ``tf.nn.convolution`` made a ``dilation_rate`` constant (with rates of 1; dilated ones build the
    same ops on both)."""
    return 1 if all_ones(dilations) else 0


def _layer_called_again_ops(dilations, called_before):
    """TF 1.15's convolution layers made that constant once per layer (in ``build``), TF 2's at each call."""
    return -1 if called_before and all_ones(dilations) else 0


CORRECTIONS = (
    Correction(
        "random_uniform_range",
        "call",
        _random_uniform_ops,
        "``tf.random_uniform`` with the default [0, 1) range (also inside ``tf.nn.dropout`` and "
        "``random_uniform_initializer()``)",
        "TF 1.15 made ``min`` / ``max`` before the draw and ``sub`` / ``mul`` / ``add`` after it: +2 before, "
        "+3 after; [0, maxval): +2 after",
        ("random_ops", "dropout"),
    ),
    Correction(
        "dropout",
        "call",
        _dropout_ops,
        "``tf.nn.dropout``, ``tf.layers.dropout``, ``slim.dropout``, ``DropoutWrapper``",
        "TF 1.15: a ``rate`` constant, then ``1 - rate``, ``1 / keep_prob``, ``x * scale * mask`` (17 ops with "
        "the draw; TF 2: 9)",
        ("dropout", "layers_dense", "fully_connected"),
    ),
    Correction(
        "split_constant",
        "op",
        _split_ops,
        "``tf.split(x, n)`` (in ``LSTMCell``, ``BasicLSTMCell``, ``GRUCell``)",
        "TF 1.15 also made a constant of ``n``: +1",
        ("lstm", "rnn_cells"),
    ),
    Correction(
        "tensor_array_stack_size",
        "op",
        _tensor_array_stack_ops,
        "``TensorArray.stack`` (``dynamic_rnn``)",
        "TF 1.15 read the size with an op: +1",
        ("lstm",),
    ),
    Correction(
        "convolution_dilation_constant",
        "convolution",
        _dilation_constant_ops,
        "convolution layers (``tf.layers.conv2d``, slim / contrib ``conv2d``, ``tf.nn.convolution``)",
        "TF 1.15's ``tf.nn.convolution`` made a ``dilation_rate`` constant: +1",
        ("cnn_layers", "cnn_slim"),
    ),
    Correction(
        "flatten_dynamic_batch",
        "op",
        _flatten_ops,
        "``Flatten`` layers (``tf.layers.flatten``, ``slim.flatten``, also renamed) with an unknown batch size",
        "TF 1.15 reshaped to ``(tf.shape(x)[0], -1)``: +6",
        ("cnn_layers", "cnn_slim", "flatten_renamed"),
    ),
    Correction(
        "scalar_reduction",
        "op",
        _scalar_reduction_ops,
        "reductions of a scalar (``tf.losses.*``)",
        "TF 2 reduces over ``range(0, rank)``: -3",
        ("losses_then_random",),
    ),
    Correction(
        "convolution_layer_called_again",
        "convolution",
        _layer_called_again_ops,
        "a convolution layer object called more than once (``tf.layers.Conv2D(...)`` reused)",
        "TF 1.15 made its ``dilation_rate`` constant once per layer (in ``build``), TF 2 once per call: +1 at the "
        "first call only",
        ("conv_layer_twice",),
    ),
    Correction(
        "clip_by_global_norm_nan",
        "op",
        _clip_by_global_norm_ops,
        "``tf.clip_by_global_norm``",
        "TF 1.15 made the scale NaN for a non-finite norm with ``where(is_finite(norm), ...)`` (3 ops), TF 2 with "
        "``+ (norm - norm)`` (2): +1",
        ("clip_by_global_norm_then_random",),
    ),
    Correction(
        "random_gamma_broadcast",
        "call",
        _random_gamma_ops,
        "``tf.random_gamma``",
        "TF 1.15 broadcast ``alpha`` with ``alpha + zeros_like(beta)`` (2 ops), TF 2 with ``broadcast_to`` (4): "
        "-2, before the draw",
        ("gamma_then_random",),
    ),
    Correction(
        "zeros_of_tensor_list",
        "op",
        _zeros_of_tensor_list_ops,
        "``tf.zeros`` / ``tf.ones`` of a list holding tensors (``tf.zeros([batch_size], tf.int64)``)",
        "TF 1.15 first tried ``np.prod(shape) < 1000`` as ops: a ``mul`` per product step with a tensor (+1 for a "
        "Python number in it) and a ``Less``: +2 for ``[b]``, +4 for ``[b, 8]``",
        ("zeros_of_tensor_list",),
    ),
    Correction(
        "tensordot_reshapes",
        "op",
        _tensordot_ops,
        "``tf.tensordot``, Dense layers on inputs of rank 3 or more (``tf.layers.dense``, attention mechanisms' "
        "memory and query layers)",
        "TF 1.15 always transposed and reshaped an operand of fully defined shape (4 ops) and reshaped the result "
        "(2 ops); TF 2 skips an identity transpose and a no-op reshape: +4 for a kernel, +2 for an unneeded final "
        "reshape",
        ("tensordot_then_random", "seq2seq_attention"),
    ),
    Correction(
        "ones_like_fill",
        "op",
        _ones_like_ops,
        "``tf.ones_like``",
        "TF 1.15 made ``Shape``, ``Const`` and ``Fill``; TF 2 one ``OnesLike`` (or one ``Const`` named "
        "``ones_like``): +2",
        ("ones_like_then_random", "seq2seq_attention"),
    ),
)

_GRADIENT_OPS = (
    "TensorFlow 2 builds gradients with another number of ops than TF 1.15 (reduce_mean, broadcasting "
    "arithmetic, strided slices, sparse softmax cross-entropy, while loops)"
)
UNMATCHED = (
    Unmatched("gradients", ("gradients", "minimize", "compute_gradients"), _GRADIENT_OPS, ("gradients_then_random",)),
)

_BY_NAME = dict((entry.name, entry) for entry in CORRECTIONS)
_inactive: Set[str] = set()
_active_counts: Dict[str, Tuple[Callable[..., Any], ...]] = {}


def _entry(name):
    if name not in _BY_NAME:
        raise ValueError("no op-count correction named %r (known: %s)" % (name, ", ".join(sorted(_BY_NAME))))
    return _BY_NAME[name]


def _changed():
    _active_counts.clear()


def activate(name):
    """Puts the correction ``name`` back in effect (every correction is, unless deactivated)."""
    _entry(name)
    _inactive.discard(name)
    _changed()


def deactivate(name):
    """Takes the correction ``name`` out of effect, for the ops ``use_tf1_random_seeds`` counts from now on."""
    _entry(name)
    _inactive.add(name)
    _changed()


def is_active(name):
    """Whether the correction ``name`` is in effect."""
    return _entry(name).name not in _inactive


def counts(scan):
    """The ``count`` functions of the corrections of ``scan`` in effect, in ``CORRECTIONS`` order."""
    found = _active_counts.get(scan)
    if found is None:
        found = _active_counts[scan] = tuple(e.count for e in CORRECTIONS if e.scan == scan and e.name not in _inactive)
    return found
