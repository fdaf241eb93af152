"""The fake-quantization rewrite (TF 1.15's ``contrib/quantize/python/quantize.py``).

:func:`Quantize` finds the layers TF 1.15 found (a ``Conv2D``, ``MatMul`` or ``DepthwiseConv2dNative`` reading a
variable, or a folded ``Mul`` weight, with an optional ``BatchToSpaceND``, bias add, bypass ``Add``, activation
``Relu``/``Relu6``/``Identity`` and post-activation bypass), inserts a ``LastValueQuantize`` after the weights
(``<layer>/weights_quant``, narrow range) and ``MovingAvgQuantize`` after activations (``act_quant``), bias adds
before a bypass (``conv_quant``), bypasses (``add_quant``), post-activation bypasses
(``post_activation_bypass_quant``) and ``Add``/``Mul`` ops fed by quantized tensors
(``<op>/activation_<type>_quant``), rerouting the consumers to them. With ``quant_delay > 0`` each fake-quant is
selected by a v1 ``cond`` (``.../delayed_quant``) on ``fake_quantization_step >= quant_delay``, the step counting
the Session runs that evaluate it; the ranges are updated during the delay too.
"""

import collections
import re

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.quantize import quant_ops
from tf1clip.contrib.quantize.graph_matcher import GraphMatcher, OneofPattern, OpTypePattern

__all__ = ["InputToOps", "Quantize", "quantization_step", "reroute"]

v1 = tf.compat.v1

SKIPPED_PREFIXES = ("gradients/", "RMSProp/", "Adagrad/", "Const_", "HistogramSummary", "ScalarSummary")
_QUANTIZABLE_TYPES = "Conv2D|MatMul|DepthwiseConv2dNative"
_ACTIVATION_TYPES = {"Relu", "Relu6", "Identity"}
_RELU_TYPES = {"Relu", "Relu6"}
_VALID_SRC_OP = {"Add", "AddV2", "Mul"}
_INTERMEDIATE_OP = {"Add", "AddV2", "Mul"}
_PASS_THROUGH_OP = {"Reshape", "Identity", "BatchToSpaceND", "SpaceToBatchND", "MaxPool", "Max"}
_FAKE_QUANT_TYPES = {"FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVarsPerChannel"}

_LayerMatch = collections.namedtuple(
    "_LayerMatch", "layer_op weight_tensor activation_op bypass_op post_activation_bypass_op bias_add_op"
)


class InputToOps:
    """Consumers of each tensor of a graph, as of construction (ops under :data:`SKIPPED_PREFIXES` left out)."""

    def __init__(self, graph):
        self._consumers = collections.defaultdict(set)
        for op in graph.get_operations():
            if not op.name.startswith(SKIPPED_PREFIXES):
                for tensor in op.inputs:
                    self._consumers[tensor].add(op)

    def consumers(self, op):
        found = set()
        for tensor in op.outputs:
            found.update(self._consumers[tensor])
        return found


def quantization_step():
    """The ``fake_quantization_step/Identity:0`` tensor: ``fake_quantization_step`` (int64) incremented once per
    run that reads it; created at the graph's root on first use."""
    graph = v1.get_default_graph()
    try:
        return graph.get_tensor_by_name("fake_quantization_step/Identity:0")
    except KeyError:
        pass
    with graph.name_scope(None):
        step = v1.get_variable(
            "fake_quantization_step",
            shape=[],
            dtype=tf.int64,
            initializer=v1.zeros_initializer(),
            trainable=False,
            collections=[v1.GraphKeys.GLOBAL_VARIABLES],
            aggregation=v1.VariableAggregation.ONLY_FIRST_REPLICA,
        )
        with graph.name_scope(step.op.name + "/"):
            return tf.identity(v1.assign_add(step, 1))


def reroute(new, old, can_modify):
    """Makes the ops of ``can_modify`` (None: all) that read ``old`` read ``new``; the number of inputs changed."""
    changed = 0
    for op in [c for c in old.consumers() if can_modify is None or c in can_modify]:
        for index in [i for i, t in enumerate(op.inputs) if t is old]:
            _tf.update_op_input(op, index, new)
            changed += 1
    return changed


def _context(name):
    found = re.search(r"^(.*)/([^/]+)", name)
    return found.group(1) if found else ""


def _followed_by_fake_quant(tensor):
    pending = list(tensor.consumers())
    while pending:
        op = pending.pop()
        if op.type in _FAKE_QUANT_TYPES:
            return True
        if op.type in ("Reshape", "Identity"):
            for output in op.outputs:
                pending.extend(output.consumers())
    return False


def _insert_quant_op(
    context,
    name,
    producer,
    consumers,
    is_training,
    moving_avg=True,
    init_min=-6.0,
    init_max=6.0,
    bits=8,
    symmetric=False,
    ema_decay=0.999,
    quant_delay=None,
    vars_collection=v1.GraphKeys.GLOBAL_VARIABLES,
    narrow_range=False,
    producer_scope=None,
    consumer_scope=None,
):
    """Inserts a fake-quant of ``producer``'s first output, named ``<context>/<name>``, before ``consumers``."""
    if producer_scope and not producer.name.startswith(producer_scope):
        return
    if consumer_scope:
        if any(not c.name.startswith(consumer_scope) for c in consumers):
            return
        consumers = list(consumers)
    prefix = context + "/" + name if context else name
    current = v1.get_default_graph().get_name_scope()
    if current and prefix.startswith(current + "/"):
        prefix = prefix[len(current) + 1 :]
    inputs = producer.outputs[0]
    if _followed_by_fake_quant(inputs):
        return
    options = dict(
        init_min=init_min,
        init_max=init_max,
        is_training=is_training,
        num_bits=bits,
        symmetric=symmetric,
        narrow_range=narrow_range,
        vars_collection=vars_collection,
        name_prefix=prefix,
    )
    if moving_avg:
        quant = quant_ops.MovingAvgQuantize(inputs, ema_decay=ema_decay, **options)
    else:
        quant = quant_ops.LastValueQuantize(inputs, **options)
    if quant_delay and quant_delay > 0:
        activate = tf.greater_equal(quantization_step(), quant_delay, name=prefix + "/activate_quant")
        quant = v1.cond(activate, lambda: quant, lambda: inputs, name=prefix + "/delayed_quant")
    if consumers and reroute(quant, inputs, consumers) < len(consumers):
        raise ValueError("No inputs quantized for ops: [%s]" % ", ".join(c.name for c in consumers))


def _layer_patterns():
    """The patterns of TF 1.15's ``_FindLayersToQuantize``, by role."""
    weight_var = OpTypePattern("Variable|VariableV2")
    partition_identity = OpTypePattern("Identity", inputs=[weight_var])
    partition_concat = OpTypePattern("ConcatV2", inputs=[partition_identity, "*", "*"])
    weight_identity = OpTypePattern(
        "Identity", inputs=[OneofPattern([partition_identity, partition_concat, weight_var])]
    )
    weight_resource = OpTypePattern("ReadVariableOp")
    folded_weight = OpTypePattern("Mul")
    layer = OpTypePattern(
        _QUANTIZABLE_TYPES,
        inputs=[OpTypePattern("*"), OneofPattern([weight_identity, weight_resource, folded_weight])],
        ordered_inputs=False,
    )
    batch_to_space = OpTypePattern("BatchToSpaceND", inputs=[layer, OpTypePattern("*"), OpTypePattern("*")])
    layer_output = OneofPattern([batch_to_space, layer])
    sep_conv = OpTypePattern(
        _QUANTIZABLE_TYPES, inputs=[OneofPattern([layer_output]), OpTypePattern("*")], ordered_inputs=False
    )
    folded_bias_mul = OpTypePattern("Mul", inputs=[OpTypePattern("*"), layer_output], ordered_inputs=False)
    correction = OpTypePattern("Add|AddV2", inputs=[folded_bias_mul, OpTypePattern("*")], ordered_inputs=False)
    folded_bias_add = OpTypePattern("Add|AddV2", inputs=[correction, OpTypePattern("*")], ordered_inputs=False)
    bn_identity = OpTypePattern("Identity", inputs=[folded_bias_add])
    bias_add = OpTypePattern("Add|AddV2|BiasAdd", inputs=[layer_output, "*"], ordered_inputs=False)
    bypass = OpTypePattern(
        "Add|AddV2", inputs=[OneofPattern([bias_add, folded_bias_add, bn_identity]), "*"], ordered_inputs=False
    )
    activation = OpTypePattern(
        "|".join(sorted(_ACTIVATION_TYPES)) + "|Identity",
        inputs=[OneofPattern([bias_add, folded_bias_add, bn_identity, bypass, layer])],
    )
    post_bypass = OpTypePattern("Add|AddV2", inputs=["*", activation], ordered_inputs=False)
    return dict(
        weight_identity=weight_identity,
        weight_resource=weight_resource,
        folded_weight=folded_weight,
        layer=layer,
        sep_conv=sep_conv,
        folded_bias_add=folded_bias_add,
        bias_add=bias_add,
        bypass=bypass,
        activation=activation,
        post_bypass=post_bypass,
    )


def _is_skip_layer(activation_op):
    """A conv/fc followed by an ``Identity`` feeding a fused batch norm only."""
    if activation_op.type == "Identity" and len(activation_op.outputs) == 1:
        consumers = activation_op.outputs[0].consumers()
        return len(consumers) == 1 and consumers[0].type in ("FusedBatchNorm", "FusedBatchNormV3")
    return False


def _find_layers(graph):
    p = _layer_patterns()

    def weight(match):
        for role in ("weight_identity", "weight_resource", "folded_weight"):
            tensor = match.get_tensor(p[role])
            if tensor is not None:
                return tensor
        return None

    def bias_add(match):
        op = match.get_op(p["bias_add"])
        return op if op is not None else match.get_op(p["folded_bias_add"])

    layers, seen = [], set()

    def add(layer_op, *rest):
        seen.add(layer_op)
        layers.append(_LayerMatch(layer_op, *rest))

    for m in GraphMatcher(p["post_bypass"]).match_graph(graph):
        if m.get_op(p["layer"]) not in seen:
            add(
                m.get_op(p["layer"]),
                weight(m),
                m.get_op(p["activation"]),
                m.get_op(p["bypass"]),
                m.get_op(p["post_bypass"]),
                bias_add(m),
            )
    for m in GraphMatcher(p["activation"]).match_graph(graph):
        if m.get_op(p["layer"]) not in seen and not _is_skip_layer(m.get_op(p["activation"])):
            add(m.get_op(p["layer"]), weight(m), m.get_op(p["activation"]), m.get_op(p["bypass"]), None, bias_add(m))
    for m in GraphMatcher(OneofPattern([p["bias_add"], p["folded_bias_add"]])).match_graph(graph):
        if m.get_op(p["layer"]) not in seen:
            add(m.get_op(p["layer"]), weight(m), bias_add(m), None, None, None)
    for m in GraphMatcher(p["sep_conv"]).match_graph(graph):
        if m.get_op(p["layer"]) not in seen:
            tensor = m.get_tensor(p["weight_identity"])
            if tensor is None:
                tensor = m.get_tensor(p["weight_resource"])
            add(m.get_op(p["layer"]), tensor, m.get_op(p["layer"]), None, None, None)
    return layers


def _quantizable_after(op, quantized):
    """Whether the output of an ``Add``/``AddV2``/``Mul`` ``op`` reads (through pass-through and intermediate ops)
    a fake-quantized tensor, and is not already quantized nor feeds a single activation."""
    if op in quantized or op.type not in _VALID_SRC_OP:
        return False
    if len(op.outputs) == 1 and len(op.outputs[0].consumers()) == 1:
        if op.outputs[0].consumers()[0].type in _RELU_TYPES:
            return False
    for tensor in op.inputs:
        source = tensor.op
        while source.type in _PASS_THROUGH_OP:
            source = source.inputs[0].op
        if source.type == "FakeQuantWithMinMaxVars" or source.name.find("delayed_quant/Merge") > 0:
            return True
        if source.type in _INTERMEDIATE_OP:
            if any(_quantizable_after(t.op, quantized) for t in source.inputs):
                return True
    return False


def _quantize_bypass(match, context, add_context, consumers_of, is_training, bits, scope, common, quantized):
    """Quantizes a layer's output before its bypass ``Add`` (``conv_quant``), and the sum where no activation
    follows it (``add_quant``); adds the quantized ops to ``quantized``."""
    _insert_quant_op(
        context,
        "conv_quant",
        match.bias_add_op,
        consumers_of.consumers(match.bias_add_op),
        is_training,
        bits=bits,
        producer_scope=scope,
        consumer_scope=scope,
        **common,
    )
    quantized.add(match.bias_add_op)
    bypass_consumers = consumers_of.consumers(match.bypass_op)
    if not any(c.type in _ACTIVATION_TYPES for c in bypass_consumers):
        _insert_quant_op(
            add_context,
            "add_quant",
            match.bypass_op,
            bypass_consumers,
            is_training,
            bits=bits,
            producer_scope=scope,
            consumer_scope=scope,
            **common,
        )
        quantized.add(match.bypass_op)


def _quantize_post_activation(match, consumers_of, is_training, bits, scope, common, quantized):
    """Quantizes the bypass ``Add`` after an activation where no ReLU follows it; adds it to ``quantized``."""
    op = match.post_activation_bypass_op
    post_consumers = consumers_of.consumers(op)
    if not any(c.type in _RELU_TYPES for c in post_consumers):
        _insert_quant_op(
            _context(op.name),
            "post_activation_bypass_quant",
            op,
            post_consumers,
            is_training,
            bits=bits,
            producer_scope=scope,
            **common,
        )
        quantized.add(op)


def Quantize(
    graph,
    is_training,
    weight_bits=8,
    activation_bits=8,
    symmetric=False,
    ema_decay=0.999,
    quant_delay=None,
    vars_collection=v1.GraphKeys.GLOBAL_VARIABLES,
    scope=None,
):
    """Inserts the fake-quant ops into ``graph`` (in place), in the default graph's current name scope.

    ``scope``: only producers (and, for weights, consumers) whose names start with it are quantized.
    """
    if scope and not scope.endswith("/"):
        scope += "/"
    consumers_of = InputToOps(graph)
    quantized = set()
    common = dict(ema_decay=ema_decay, quant_delay=quant_delay, vars_collection=vars_collection, symmetric=symmetric)
    for match in _find_layers(graph):
        context = _context(match.layer_op.name)
        if match.weight_tensor is not None:
            _insert_quant_op(
                context,
                "weights_quant",
                match.weight_tensor.op,
                consumers_of.consumers(match.weight_tensor.op),
                is_training,
                moving_avg=False,
                narrow_range=True,
                bits=weight_bits,
                consumer_scope=scope,
                **common,
            )
        add_context = context
        if match.activation_op is not None:
            if match.bypass_op:
                add_context = _context(context)
            _insert_quant_op(
                add_context,
                "act_quant",
                match.activation_op,
                consumers_of.consumers(match.activation_op),
                is_training,
                bits=activation_bits,
                init_min=0.0,
                producer_scope=scope,
                **common,
            )
            quantized.add(match.activation_op)
        if match.bypass_op is not None:
            _quantize_bypass(
                match, context, add_context, consumers_of, is_training, activation_bits, scope, common, quantized
            )
        if match.post_activation_bypass_op is not None:
            _quantize_post_activation(match, consumers_of, is_training, activation_bits, scope, common, quantized)
    _quantize_activation_layers(
        quantized, graph, is_training, activation_bits, ema_decay, quant_delay, vars_collection, scope
    )


def _quantize_activation_layers(
    quantized, graph, is_training, activation_bits, ema_decay, quant_delay, vars_collection, scope
):
    consumers_of = InputToOps(graph)
    for op in graph.get_operations():
        if _quantizable_after(op, quantized):
            _insert_quant_op(
                op.name,
                "activation_%s_quant" % op.type,
                op,
                consumers_of.consumers(op),
                is_training,
                bits=activation_bits,
                ema_decay=ema_decay,
                quant_delay=quant_delay,
                vars_collection=vars_collection,
                producer_scope=scope,
            )
