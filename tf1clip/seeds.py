"""TF 1.15's op seeds for programs seeded at the graph level only (``tf.compat.v1.set_random_seed(s)``).

In a graph with a graph-level seed, TF 1.15 gave each random op without its own seed the op seed
``graph._last_id``: the number of ops the graph held when the op was made. TensorFlow 2 numbers those
ops 0, 1, 2, ... per graph instead (``random_seed.get_seed``), so the same program starts from other
weights and draws other dropout masks. :func:`use_tf1_random_seeds` derives the op seed from the op
count again (``Graph.version``, which is TF 1.15's ``_last_id``), corrected where TensorFlow 2 builds a
different number of ops than TF 1.15 did for the same call. docs/oracle.rst ("Seeds") lists what is
matched and what is not.
"""

import re
import weakref

import numpy as np

from tf1clip.compat import _tf

__all__ = ["use_tf1_random_seeds", "tf1_random_seeds_enabled"]

_STACK_RANGE = re.compile(r"(^|/)TensorArrayStack(_\d+)?/range$")


def _split_ops(op):
    """TF 1.15's ``tf.split(value, n)`` also made a constant of ``n`` (unused) before its ``Split`` op."""
    return 1 if op.type == "Split" else 0


def _tensor_array_stack_ops(op):
    """TF 1.15's ``TensorArray.stack`` read the size with a ``TensorArraySizeV3`` op; TF 2 reuses a static size."""
    if op.type == "Range" and _STACK_RANGE.search(op.name) and op.inputs[1].op.type != "TensorArraySizeV3":
        return 1
    return 0


_FLATTEN = re.compile(r"(^|/)flatten(_\d+)?/(Reshape|ExpandDims)$")


def _is_flatten(op):
    """Whether ``op`` is TF 2's ``Flatten`` layer reshape: named ``flatten``, or (renamed) ``<scope>/Reshape`` to
    the constant ``<scope>/Const`` = ``[-1, n]`` made just before it."""
    if _FLATTEN.search(op.name):
        return True
    scope = op.name.rpartition("/")[0]
    shape_op = op.inputs[1].op
    if op.type != "Reshape" or not scope or op.name != scope + "/Reshape" or shape_op.name != scope + "/Const":
        return False
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


_REDUCTIONS = frozenset(["Sum", "Mean", "Max", "Min", "Prod", "All", "Any"])


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


_TENSORDOT_MATMUL = re.compile(r"(^|/)Tensordot(_\d+)?/MatMul$")


def _tensordot_ops(op):
    """``tf.tensordot`` (and the Dense layers on inputs of rank 3 or more): its operands (above), and the result,
    which TF 1.15 always reshaped to the free dimensions (2 ops) and TF 2 leaves when it already has that shape."""
    if op.type != "MatMul" or not _TENSORDOT_MATMUL.search(op.name):
        return 0
    scope = op.name[: -len("MatMul")]
    reshaped = any(c.type == "Reshape" and c.name == scope[:-1] for c in op.outputs[0].consumers())
    return sum(_tensordot_side_ops(t, scope) for t in op.inputs) + (0 if reshaped else 2)


_ONES_LIKE = re.compile(r"(^|/)ones_like(_\d+)?$")


def _ones_like_ops(op):
    """TF 1.15's ``tf.ones_like`` made ``Shape``, ``Const`` and ``Fill``; TF 2's makes one ``OnesLike`` (shape not
    fully defined) or one ``Const`` (fully defined, fewer than 1,000 elements, the default name)."""
    if op.type == "OnesLike" or (op.type == "Const" and _ONES_LIKE.search(op.name)):
        return 2
    return 0


# Each rule: an op TensorFlow 2 made -> how many more ops TF 1.15 made for the same call.
_OP_RULES = (
    _split_ops,
    _tensor_array_stack_ops,
    _flatten_ops,
    _scalar_reduction_ops,
    _clip_by_global_norm_ops,
    _zeros_of_tensor_list_ops,
    _tensordot_ops,
    _ones_like_ops,
)


def _random_uniform_ops(site):
    """``(before, after)``: TF 1.15's extra ops before and after ``random_uniform``'s random op.

    TF 1.15 always made the ``min`` and ``max`` constants before drawing, and ``sub``, ``mul`` and ``add``
    after it; TF 2 skips them for the default [0, 1) range, and makes only ``mul`` for [0, maxval).
    """
    if site["integer"]:
        return 0, 0
    if site["default_range"]:
        return 2, 3
    return 0, 2 if site["zero_min"] else 0


def _dropout_ops(rate_is_number):
    """``(before, after)``: TF 1.15's extra ops in ``tf.nn.dropout`` before and after its ``random_uniform``.

    TF 1.15: ``rate`` as a constant (a number's), then after the draw ``1 - rate``, ``1 / keep_prob``,
    ``>=``, ``x * scale`` and ``* cast(mask)``. TF 2: ``x * scale`` (a number) or ``x / (1 - rate)`` (a
    tensor) before the draw, then ``>=`` and ``where``.
    """
    return (-1, 4) if rate_is_number else (-3, 5)


def _call_site_ops(site):
    """``(before, after)``: TF 1.15's extra ops before and after the random op of the call ``site``.

    ``random_gamma``: TF 1.15 broadcast ``alpha`` as ``alpha + zeros_like(beta)`` (2 ops), TF 2 with
    ``broadcast_to(alpha, broadcast_dynamic_shape(shape(alpha), shape(beta)))`` (4 ops).
    """
    if site is None:
        return 0, 0
    if site["op"] == "random_gamma":
        return -2, 0
    before, after = _random_uniform_ops(site)
    if site["dropout_rate_is_number"] is not None:
        extra_before, extra_after = _dropout_ops(site["dropout_rate_is_number"])
        before, after = before + extra_before, after + extra_after
    return before, after


def _all_ones(dilations):
    """Whether ``dilations`` (None, an int, a list or a NumPy array; not a tensor) are all 1."""
    if dilations is None:
        return True
    if not isinstance(dilations, (int, list, tuple, np.ndarray)):
        return False
    try:
        return all(int(d) == 1 for d in np.ravel(dilations))
    except (TypeError, ValueError):
        return False


class _GraphCount:
    """Per graph: how many of its ops are counted (``scanned``), TF 1.15's extra ops among them (``extra``), and
    those TF 1.15 made before the random op of the ``get_seed`` call under way (``pending``)."""

    __slots__ = ("scanned", "extra", "pending", "last", "conv_layers")

    def __init__(self):
        self.scanned = self.extra = self.pending = self.last = 0
        self.conv_layers = weakref.WeakSet()


class _Tf1OpSeeds:
    """Stands in for TF 2's per-graph seed counter: ``setdefault(graph, 0)`` returns TF 1.15's op seed.

    Graphs that drew an op seed before it was installed keep TF 2's counter (``previous``).
    """

    def __init__(self, previous):
        self.previous = previous
        self._graphs = weakref.WeakKeyDictionary()
        undo_convolution = _tf.wrap_convolution(self._convolution)
        undo_get_seed = _tf.wrap_get_seed(self._wrap_get_seed)
        self.undo_hooks = lambda: (undo_convolution(), undo_get_seed())

    def _state(self, graph):
        count = self._graphs.get(graph)
        if count is None:
            count = self._graphs[graph] = _GraphCount()
        return count

    def _convolution(self, dilations, layer):
        """TF 1.15's ``tf.nn.convolution`` made a ``dilation_rate`` constant; its convolution layers made it
        once per layer (in ``build``), TF 2's layers call ``tf.nn.convolution`` at each call."""
        if _tf.tf.executing_eagerly() or not _all_ones(dilations):
            return
        count = self._state(_tf.tf.compat.v1.get_default_graph())
        if layer is not None:
            if layer in count.conv_layers:
                return
            count.conv_layers.add(layer)
        count.extra += 1

    def _wrap_get_seed(self, get_seed):
        def get_seed_counting_tf1_ops(op_seed):
            """TF 2's ``get_seed``; also counts the ops TF 1.15 made around the random op, with or without
            an op seed (TF 1.15's later graph-derived seeds count them)."""
            if _tf.tf.executing_eagerly():
                return get_seed(op_seed)
            count = self._count(_tf.tf.compat.v1.get_default_graph())
            before, after = _call_site_ops(_tf.get_seed_call_site(_tf.caller_frame(1)))
            count.pending = before
            try:
                return get_seed(op_seed)
            finally:
                count.pending = 0
                count.extra += before + after

        return get_seed_counting_tf1_ops

    def _count(self, graph):
        count = self._state(graph)
        ops = graph.version
        if ops > count.scanned:
            for op in graph.get_operations()[count.scanned : ops]:
                for rule in _OP_RULES:
                    count.extra += rule(op)
            count.scanned = ops
        return count

    def setdefault(self, graph, default=None):
        if graph in self.previous:
            return self.previous.setdefault(graph, default)
        count = self._count(graph)
        count.last = count.scanned + count.extra + count.pending
        return count.last

    def __getitem__(self, graph):
        if graph in self.previous:
            return self.previous[graph]
        return self._graphs[graph].last

    def __setitem__(self, graph, value):
        if graph in self.previous:
            self.previous[graph] = value

    def __contains__(self, graph):
        return graph in self.previous or graph in self._graphs

    def get(self, graph, default=None):
        return self[graph] if graph in self else default


def use_tf1_random_seeds(enabled=True):
    """Makes random ops get TF 1.15's op seeds in graphs seeded only at the graph level.

    After this call, a random op or initializer without an op-level seed, built in a graph whose seed was
    set with ``tf.compat.v1.set_random_seed`` (or by an Estimator's ``RunConfig(tf_random_seed=...)``),
    gets the op seed TF 1.15 gave it: the number of ops TF 1.15's graph held at that point. It then draws
    TF 1.15's numbers wherever the program built the same ops as on TF 1.15 up to there (docs/oracle.rst,
    "Seeds", lists the constructs whose op counts tf1clip corrects for, and those it cannot match).

    Applies to graphs that draw their first op seed after the call; op-level seeds, eager execution and
    ``tf.random.set_seed`` in TF 2 code are unchanged. Process-wide and idempotent;
    ``use_tf1_random_seeds(False)`` restores TensorFlow 2's numbering for graphs built afterwards.
    tf1clip-upgrade adds the call to converted programs that set a graph-level seed.
    """
    if not isinstance(enabled, bool):
        raise TypeError("use_tf1_random_seeds: enabled must be True or False, got %r" % (enabled,))
    counter = _tf.graph_seed_counter()
    if enabled and not isinstance(counter, _Tf1OpSeeds):
        _tf.set_graph_seed_counter(_Tf1OpSeeds(counter))
    elif not enabled and isinstance(counter, _Tf1OpSeeds):
        counter.undo_hooks()
        _tf.set_graph_seed_counter(counter.previous)


def tf1_random_seeds_enabled():
    """Whether :func:`use_tf1_random_seeds` is in effect."""
    return isinstance(_tf.graph_seed_counter(), _Tf1OpSeeds)
