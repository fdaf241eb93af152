"""``tf.contrib.quantize``'s four functions (TF 1.15's ``contrib/quantize/python/quantize_graph.py``).

Each rewrites a ``tf.compat.v1`` graph in place for quantization-aware training or evaluation: the fake-quant
ops, their ``min``/``max`` variables and the ``quant_delay`` gating TF 1.15 inserted, with its names
(:mod:`tf1clip.contrib.quantize.quantize`), after folding batch norms into the layers before them
(:mod:`tf1clip.contrib.quantize.fold_batch_norms`).
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.quantize import fold_batch_norms, quantize

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1

_APPLY = "Adagrad AdagradDA Adam AddSign CenteredRMSProp Ftrl FtrlV2 GradientDescent Momentum PowerSign"
_PROXIMAL = " ProximalAdagrad ProximalGradientDescent RMSProp"
_SPARSE = "Adadelta Adagrad AdagradDA CenteredRMSProp Ftrl FtrlV2 Momentum" + _PROXIMAL
_TRAINING_OPS = frozenset(
    ["Apply" + n for n in (_APPLY + _PROXIMAL).split()]
    + ["ResourceApply" + n for n in ("Adadelta " + _APPLY + _PROXIMAL).split()]
    + ["ResourceSparseApply" + n for n in _SPARSE.split()]
    + ["SparseApply" + n for n in _SPARSE.split()]
)
"""TF 1.15's list of the optimizer ops whose presence means the gradients are already built."""


def _check_graph(graph):
    if not isinstance(graph, tf.Graph):
        raise TypeError("input_graph must be a tf.Graph or None, got %r" % (graph,))
    types = {op.type for op in graph.get_operations()}
    found = types & _TRAINING_OPS
    if found:
        raise ValueError("Training op found in graph, exiting %s" % found)


def _check_bits(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 16:
        raise ValueError("%s must be an int in [2, 16], got %r" % (name, value))


def _check_delay(name, value, allow_none):
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an int%s, got %r" % (name, " or None" if allow_none else "", value))


def _create_graph(
    input_graph=None,
    is_training=True,
    weight_bits=8,
    activation_bits=8,
    symmetric=False,
    quant_delay=None,
    freeze_bn_delay=None,
    scope=None,
):
    if input_graph is None:
        input_graph = v1.get_default_graph()
    _check_bits("weight_bits", weight_bits)
    _check_bits("activation_bits", activation_bits)
    _check_delay("quant_delay", quant_delay, allow_none=True)
    _check_delay("freeze_bn_delay", freeze_bn_delay, allow_none=True)
    if scope is not None and not isinstance(scope, str):
        raise TypeError("scope must be a str or None, got %r" % (scope,))
    _check_graph(input_graph)
    with input_graph.as_default():
        fold_batch_norms.FoldBatchNorms(input_graph, is_training, freeze_batch_norm_delay=freeze_bn_delay)
        quantize.Quantize(
            input_graph,
            is_training,
            quant_delay=quant_delay,
            weight_bits=weight_bits,
            activation_bits=activation_bits,
            symmetric=symmetric,
            scope=scope,
        )


def create_training_graph(input_graph=None, quant_delay=0):
    """Rewrites a training graph (default: the default graph) in place for quantization-aware training.

    Call it before the gradients are built. The fake-quant ops are active from global run ``quant_delay`` on
    (counted by the ``fake_quantization_step`` variable); their range variables are global variables.

    Raises:
      ValueError: the graph already has training ops.
    """
    _create_graph(input_graph=input_graph, is_training=True, quant_delay=quant_delay, freeze_bn_delay=None)


def create_eval_graph(input_graph=None):
    """Rewrites an eval graph (default: the default graph) in place with the fake-quant ops reading the range
    variables a training graph learned (same names: restore its checkpoint)."""
    _create_graph(input_graph=input_graph, is_training=False)


def experimental_create_training_graph(
    input_graph=None, weight_bits=8, activation_bits=8, symmetric=False, quant_delay=0, freeze_bn_delay=None, scope=None
):
    """:func:`create_training_graph` with the bit widths, symmetric ranges and a ``scope`` whose ops alone are
    rewritten, and ``freeze_bn_delay``: from that step on, folded batch norms use (and stop updating) their moving
    statistics."""
    _create_graph(
        input_graph=input_graph,
        is_training=True,
        weight_bits=weight_bits,
        activation_bits=activation_bits,
        symmetric=symmetric,
        quant_delay=quant_delay,
        freeze_bn_delay=freeze_bn_delay,
        scope=scope,
    )


def experimental_create_eval_graph(
    input_graph=None, weight_bits=8, activation_bits=8, symmetric=False, quant_delay=None, scope=None
):
    """:func:`create_eval_graph` with the bit widths, symmetric ranges, a ``quant_delay`` and a ``scope``."""
    _create_graph(
        input_graph=input_graph,
        is_training=False,
        weight_bits=weight_bits,
        activation_bits=activation_bits,
        symmetric=symmetric,
        quant_delay=quant_delay,
        scope=scope,
    )
