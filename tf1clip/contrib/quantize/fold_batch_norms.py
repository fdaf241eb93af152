"""Folding batch norms into the layer before them (TF 1.15's ``contrib/quantize/python/fold_batch_norms.py``).

A ``FusedBatchNorm``/``FusedBatchNormV3`` after a ``Conv2D``, ``DepthwiseConv2dNative`` or ``MatMul`` (through an
optional ``BatchToSpaceND``, ``Identity`` or, for ``MatMul``, ``Reshape``) is replaced, as TF 1.15 did, by the
layer recomputed with folded weights ``w * gamma / sqrt(var + eps)`` (``<scope>/mul_fold``, ``<layer>_Fold``)
plus the folded bias ``beta - mean * gamma / sqrt(var + eps)`` (``<scope>/add_fold``, an ``Add`` op as in TF
1.15). A batch norm in training mode folds the batch statistics (the variance without Bessel's correction) and
adds TF 1.15's correction (``BatchNorm_Fold/batch_norm_correction``: the weights scaled by
``sigma_batch / sigma_moving``, undone after the layer until ``freeze_bn_delay``, from which on the moving
statistics are used and no longer updated); its gradient is TF 1.15's ``FoldFusedBatchNormGrad``.

An unfused slim batch norm (``<prefix>BatchNorm/batchnorm_1/...`` ops) is folded the same way, found by its op names
as TF 1.15 found it (``<prefix>mul_fold``, ``<layer>_Fold``, ``<prefix>add_fold``); there the rewrite's
``is_training`` chooses the correction.
"""

import collections
import re

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.quantize import quantize
from tf1clip.contrib.quantize.graph_matcher import GraphMatcher, OneofPattern, OpTypePattern

__all__ = ["FoldBatchNorms"]

v1 = tf.compat.v1

_GRADIENT = "FoldFusedBatchNormGrad"
_BATCHNORM_RE = re.compile(r"^(.*)BatchNorm/batchnorm")


@tf.RegisterGradient(_GRADIENT)
def _fold_fused_batch_norm_grad(op, unused_grad_y, grad_mean, grad_var, *unused):
    """The gradient of the folded batch norm's batch mean and variance outputs with respect to its input."""
    x = op.inputs[0]
    n = tf.cast(tf.size(x) / tf.size(grad_mean), tf.float32)
    dmean_dx = grad_mean / n
    dvar_dx = 2 * grad_var * (x - op.outputs[1]) / (n - 1)
    return (dmean_dx + dvar_dx, None, None, None, None)


_Match = collections.namedtuple(
    "_Match",
    "layer_op bn_op output_tensor input_tensor weight_tensor gamma_tensor beta_tensor mean_tensor variance_tensor "
    "moving_mean_tensor moving_variance_tensor bn_decay_mean_tensor bn_decay_var_tensor batch_epsilon "
    "batch_to_space_op",
)


def _smart_cond(pred, true_fn, false_fn, name):
    if isinstance(pred, bool):
        return true_fn() if pred else false_fn()
    return v1.cond(pred, true_fn, false_fn, name=name)


def _training_statistics(graph, bn_op, layer_tensor, moving_mul_p, moving_sub_p, decay_p):
    """(mean, variance without Bessel's correction, moving mean, moving variance, their two decays) of the
    training-mode fused batch norm ``bn_op``, whose gradient becomes TF 1.15's folded one."""
    _tf.set_op_attr(bn_op, "_gradient_op_type", v1.AttrValue(s=_GRADIENT.encode()))
    mean_tensor = bn_op.outputs[1]
    scope, sep, _ = bn_op.name.rpartition("/")
    with graph.as_default(), graph.name_scope(scope + sep):
        n = tf.cast(tf.size(layer_tensor) / tf.size(mean_tensor), tf.float32)
        variance_tensor = tf.multiply(bn_op.outputs[2], (n - 1) / n, name="Undo_Bessel_Correction")
    moving_mean = moving_variance = decay_mean = decay_var = None
    for mul in GraphMatcher(moving_mul_p).match_graph(graph):
        sub = mul.get_op(moving_sub_p)
        if sub.inputs[1].name == bn_op.outputs[1].name:
            moving_mean, decay_mean = sub.inputs[0], mul.get_tensor(decay_p)
        if sub.inputs[1].name == bn_op.outputs[2].name:
            moving_variance, decay_var = sub.inputs[0], mul.get_tensor(decay_p)
    return mean_tensor, variance_tensor, moving_mean, moving_variance, decay_mean, decay_var


def _find_fused_batch_norms(graph):
    any_ = OpTypePattern
    input_p, weight_p = any_("*"), any_("*")
    gamma_p, beta_p, mean_p, variance_p = any_("*"), any_("*"), any_("*"), any_("*")
    moving_average_p, decay_p = any_("*"), any_("*")
    layer_p = OpTypePattern("Conv2D|DepthwiseConv2dNative|MatMul", inputs=[input_p, weight_p])
    batch_to_space_p = OpTypePattern("BatchToSpaceND", inputs=[layer_p, any_("*"), any_("*")])
    layer_identity_p = OpTypePattern("Identity", inputs=[OneofPattern([batch_to_space_p, layer_p])])
    layer_output_p = OneofPattern([layer_identity_p, layer_p, batch_to_space_p])
    matmul_reshape_p = OpTypePattern("Reshape", inputs=[layer_output_p, any_("*")])
    bn_p = OpTypePattern(
        "FusedBatchNorm|FusedBatchNormV3",
        inputs=[OneofPattern([matmul_reshape_p, layer_output_p]), gamma_p, beta_p, mean_p, variance_p],
    )
    bn_reshape_p = OpTypePattern("Reshape", inputs=[bn_p, any_("*")])
    bn_identity_p = OpTypePattern("Identity", inputs=[bn_p, bn_reshape_p])
    moving_sub_p = OpTypePattern("Sub", inputs=[moving_average_p, bn_p])
    moving_mul_p = OpTypePattern("Mul", inputs=[moving_sub_p, decay_p])

    def layer_match(m):
        layer_op, layer_tensor, bn_op = m.get_op(layer_p), m.get_tensor(layer_p), m.get_op(bn_p)
        output_tensor = bn_op.outputs[0]
        if layer_op.type == "MatMul":
            reshape = m.get_op(bn_reshape_p)
            if reshape is None:
                return None
            output_tensor = reshape.outputs[0]
        if not output_tensor.consumers():
            return None
        if bn_op.get_attr("is_training"):
            statistics = _training_statistics(graph, bn_op, layer_tensor, moving_mul_p, moving_sub_p, decay_p)
        else:
            statistics = (m.get_tensor(mean_p), m.get_tensor(variance_p), None, None, None, None)
        mean_tensor, variance_tensor, moving_mean, moving_variance, decay_mean, decay_var = statistics
        return _Match(
            layer_op,
            bn_op,
            output_tensor,
            m.get_tensor(input_p),
            m.get_tensor(weight_p),
            m.get_tensor(gamma_p),
            m.get_tensor(beta_p),
            mean_tensor,
            variance_tensor,
            moving_mean,
            moving_variance,
            decay_mean,
            decay_var,
            bn_op.get_attr("epsilon"),
            m.get_op(batch_to_space_p),
        )

    matches, seen = [], set()
    for pattern in (bn_identity_p, OneofPattern([bn_reshape_p, bn_p])):
        for m in GraphMatcher(pattern).match_graph(graph):
            match = layer_match(m)
            if match is not None and match.layer_op not in seen:
                seen.add(match.layer_op)
                matches.append(match)
    return matches


def _corrections(match, freeze_batch_norm_delay, context=""):
    graph = v1.get_default_graph()
    with graph.name_scope(context + "batch_norm_correction"):
        recip_sigma_mv = tf.math.rsqrt(match.moving_variance_tensor + match.batch_epsilon)
        recip_sigma = tf.math.rsqrt(match.variance_tensor + match.batch_epsilon)
        scale = tf.identity(tf.math.divide(recip_sigma_mv, recip_sigma, name="scale_compute"), name="correction_scale")
        recip = tf.math.reciprocal(scale, name="reciprocal_compute")
        offset = tf.multiply(
            match.gamma_tensor,
            match.mean_tensor * recip_sigma - match.moving_mean_tensor * recip_sigma_mv,
            name="offset_compute",
        )
        if freeze_batch_norm_delay is not None:
            use_moving = tf.greater_equal(
                quantize.quantization_step(), freeze_batch_norm_delay, name="use_moving_average"
            )
        else:
            use_moving = False
        for decay, name in (
            (match.bn_decay_mean_tensor, "freeze_moving_mean"),
            (match.bn_decay_var_tensor, "freeze_moving_var"),
        ):
            consumers = list(decay.consumers())
            frozen = _smart_cond(use_moving, lambda: 0.0, lambda decay=decay: decay, name=name)
            quantize.reroute(frozen, decay, consumers)
        recip = _smart_cond(use_moving, lambda: tf.ones(scale.shape), lambda: recip, name="correction_recip")
        offset = _smart_cond(use_moving, lambda: offset, lambda: tf.zeros(offset.shape), name="correction_offset")
    return scale, recip, offset


def _clone_layer(layer_op, input_tensor, weight_tensor, batch_to_space_op):
    name = layer_op.name.split("/")[-1] + "_Fold"
    if layer_op.type == "Conv2D":
        return tf.nn.conv2d(
            input_tensor,
            weight_tensor,
            strides=layer_op.get_attr("strides"),
            padding=layer_op.get_attr("padding"),
            data_format=layer_op.get_attr("data_format").decode(),
            name=name,
        )
    if layer_op.type == "MatMul":
        return tf.linalg.matmul(
            input_tensor,
            weight_tensor,
            transpose_a=layer_op.get_attr("transpose_a"),
            transpose_b=layer_op.get_attr("transpose_b"),
            name=name,
        )
    conv = v1.nn.depthwise_conv2d(
        input_tensor,
        weight_tensor,
        strides=layer_op.get_attr("strides"),
        padding=layer_op.get_attr("padding"),
        name=name,
    )
    if batch_to_space_op:
        op = layer_op.outputs[0].consumers()[0]
        conv = tf.batch_to_space(conv, op.inputs[1], op.inputs[2], name=op.name.split("/")[-1] + "_Fold")
    return conv


def FoldBatchNorms(graph, is_training, freeze_batch_norm_delay=None):
    """Folds every batch norm TF 1.15 folded into the layer before it, in place.

    A fused batch norm's own ``is_training`` attribute chooses its fold; ``is_training`` chooses the unfused ones'.
    """
    _fold_fused(graph, freeze_batch_norm_delay)
    _fold_unfused(graph, is_training, freeze_batch_norm_delay)


def _fold_fused(graph, freeze_batch_norm_delay):
    for match in _find_fused_batch_norms(graph):
        scope, sep, _ = match.layer_op.name.rpartition("/")
        with graph.as_default(), graph.name_scope(scope + sep):
            with graph.name_scope(scope + sep + "BatchNorm_Fold" + sep):
                multiplier = match.gamma_tensor * tf.math.rsqrt(match.variance_tensor + match.bn_op.get_attr("epsilon"))
                bias = tf.subtract(match.beta_tensor, match.mean_tensor * multiplier, name="bias")
                scale = recip = offset = None
                if match.bn_op.get_attr("is_training"):
                    scale, recip, offset = _corrections(match, freeze_batch_norm_delay)
                weights = match.weight_tensor
                if match.layer_op.type == "DepthwiseConv2dNative":
                    shape = weights.get_shape().as_list()[2:4]
                    multiplier = tf.reshape(multiplier, shape, name="scale_reshape")
                    if scale is not None:
                        scale = tf.reshape(scale, shape, name="correction_reshape")
            if scale is not None:
                weights = tf.multiply(scale, weights, name="correction_mult")
            folded_weights = tf.multiply(weights, multiplier, name="mul_fold")
            layer = _clone_layer(match.layer_op, match.input_tensor, folded_weights, match.batch_to_space_op)
            if recip is not None:
                layer = tf.multiply(recip, layer, name="post_conv_mul")
                layer = tf.raw_ops.Add(x=layer, y=offset, name="correction_add")
            folded = tf.raw_ops.Add(x=layer, y=bias, name="add_fold")
            if quantize.reroute(folded, match.output_tensor, None) == 0:
                raise ValueError("Folding batch norms failed, %s had no outputs." % match.output_tensor.name)


def batch_norm_groups(graph):
    """The prefixes (``"conv1/"``) of the unfused slim batch norms (``<prefix>BatchNorm/batchnorm...`` ops)."""
    found = []
    for op in graph.get_operations():
        m = _BATCHNORM_RE.search(op.name)
        if m and not m.group(1).startswith(quantize.SKIPPED_PREFIXES) and m.group(1) not in found:
            found.append(m.group(1))
    return found


def _find_matching_tensor(graph, suffix, scope):
    """The output of the op ending with ``suffix`` whose name shares most components with ``scope``."""
    parts = set(scope.split("/"))
    counts = {}
    for op in graph.get_operations():
        if op.name.endswith(suffix):
            shared = len(set(op.name.split("/")) & parts)
            if shared > 0 or not scope:
                counts[op.name] = shared
    if not counts:
        return None
    return graph.get_tensor_by_name(max(counts, key=counts.get) + ":0")


def _unfused_params(graph, context, has_scaling):
    if v1.get_variable_scope().use_resource:
        gamma, moving_var, moving_mean = (
            "BatchNorm/%s/Read/ReadVariableOp" % n for n in ("gamma", "moving_variance", "moving_mean")
        )
    else:
        gamma, moving_var, moving_mean = (
            "BatchNorm/gamma",
            "BatchNorm/moving_variance/read",
            "BatchNorm/moving_mean/read",
        )

    def find(suffix):
        return _find_matching_tensor(graph, suffix, context)

    mean, variance = find("BatchNorm/moments/Squeeze"), find("BatchNorm/moments/Squeeze_1")
    moving_mean_t, moving_var_t = find(moving_mean), find(moving_var)
    epsilon = find("BatchNorm/batchnorm_1/add/y")
    decay_mean, decay_var = find("BatchNorm/AssignMovingAvg/decay"), find("BatchNorm/AssignMovingAvg_1/decay")
    gamma_t = find(gamma) if has_scaling else tf.ones(moving_mean_t.shape)
    return _Match(
        None,
        None,
        None,
        None,
        None,
        gamma_t,
        None,
        mean,
        variance,
        moving_mean_t,
        moving_var_t,
        decay_mean,
        decay_var,
        epsilon,
        None,
    )


def _assert_shapes_match(name, in_tensor, out_tensor):
    if not in_tensor.get_shape().is_compatible_with(out_tensor.get_shape()):
        raise ValueError(
            "%s should not change tensor shape: input %s, output %s"
            % (name, in_tensor.get_shape(), out_tensor.get_shape())
        )


def _clone(op, inputs, name):
    """``op`` recomputed from ``inputs`` as TF 1.15's ``_OpCloner`` did (``Add``/``AddV2`` become ``Add``)."""
    if op.type == "Mul":
        return tf.multiply(inputs[0], inputs[1], name=name).op
    if op.type in ("Add", "AddV2"):
        return tf.raw_ops.Add(x=inputs[0], y=inputs[1], name=name).op
    if op.type in ("Conv2D", "DepthwiseConv2dNative"):
        in_shape, w_shape = inputs[0].get_shape(), inputs[1].get_shape()
        if len(in_shape) != 4 or len(w_shape) != 4 or in_shape[3] != w_shape[2]:
            raise ValueError("Incompatible shapes for op %s inputs: %s and %s" % (op.name, in_shape, w_shape))
        if op.type == "Conv2D":
            return tf.nn.conv2d(
                inputs[0],
                inputs[1],
                strides=op.get_attr("strides"),
                padding=op.get_attr("padding"),
                data_format=op.get_attr("data_format").decode(),
                name=name,
            ).op
        return v1.nn.depthwise_conv2d(
            inputs[0], inputs[1], strides=op.get_attr("strides"), padding=op.get_attr("padding"), name=name
        ).op
    if op.type == "MatMul":
        a_shape, b_shape = inputs[0].get_shape(), inputs[1].get_shape()
        if len(a_shape) != 2 or len(b_shape) != 2 or a_shape[1] != b_shape[0]:
            raise ValueError("Incompatible shapes for op %s inputs: %s and %s" % (op.name, a_shape, b_shape))
        return tf.linalg.matmul(
            inputs[0],
            inputs[1],
            transpose_a=op.get_attr("transpose_a"),
            transpose_b=op.get_attr("transpose_b"),
            name=name,
        ).op
    raise TypeError("Unsupported operation type: %s" % op.type)


def _clone_with(op, name, replacements):
    inputs = list(op.inputs)
    for index, tensor in replacements:
        inputs[index] = tensor
    return _clone(op, inputs, name)


def _create_folded_op(graph, context, has_scaling, freeze_batch_norm_delay, is_training):
    prefix = context + "BatchNorm/batchnorm_1/"
    mul_scale = graph.get_operation_by_name(prefix + ("mul_1" if has_scaling else "mul"))
    op_below = mul_scale.inputs[0].op
    batch_to_space = None
    if op_below.type == "BatchToSpaceND":
        batch_to_space, op_below = op_below, op_below.inputs[0].op
    weights = op_below.inputs[1]
    match = _unfused_params(graph, context, has_scaling)
    scale = recip = offset = None
    if is_training:
        scale, recip, offset = _corrections(match, freeze_batch_norm_delay, context)
    if op_below.type == "DepthwiseConv2dNative":
        shape = weights.get_shape().as_list()[2:4]
        factor = graph.get_operation_by_name(prefix + ("mul" if has_scaling else "Rsqrt"))
        factor = tf.reshape(factor.outputs[0], shape, context + "scale_reshape")
        if scale is not None:
            scale = tf.reshape(scale, shape, context + "correction_reshape")
            with graph.device(mul_scale.device):
                weights = tf.multiply(scale, weights, context + "correction_mult")
        mul_fold = _clone_with(mul_scale, context + "mul_fold", [(0, weights), (1, factor)])
    elif op_below.type in ("Conv2D", "MatMul"):
        if scale is not None:
            with graph.device(mul_scale.device):
                weights = tf.multiply(scale, weights, context + "correction_mult")
        mul_fold = _clone_with(mul_scale, context + "mul_fold", [(0, weights)])
    else:
        raise ValueError("Cannot handle operation of type: %s" % op_below.type)
    _assert_shapes_match("mul_fold", mul_fold.inputs[0], mul_fold.outputs[0])
    folded_layer = _clone_with(op_below, op_below.name + "_Fold", [(1, mul_fold.outputs[0])])
    add_shift = graph.get_operation_by_name(prefix + "add_1")
    output = folded_layer.outputs[0]
    if batch_to_space is not None:
        output = tf.batch_to_space(
            output, batch_to_space.inputs[1], batch_to_space.inputs[2], name=batch_to_space.name + "_Fold"
        )
    if offset is not None:
        with graph.device(folded_layer.device):
            output = tf.multiply(recip, output, context + "post_conv_mul")
            output = tf.raw_ops.Add(x=output, y=offset, name=context + "correction_add")
    add_fold = _clone_with(add_shift, context + "add_fold", [(0, output)])
    _assert_shapes_match("add_fold", add_fold.inputs[0], add_fold.outputs[0])
    return add_shift, add_fold


def _fold_unfused(graph, is_training, freeze_batch_norm_delay):
    consumers_of = quantize.InputToOps(graph)
    for bn in batch_norm_groups(graph):
        rsqrt = graph.get_operation_by_name(bn + "BatchNorm/batchnorm_1/Rsqrt")
        has_scaling = sum(1 for op in consumers_of.consumers(rsqrt) if op.type == "Mul") == 1
        if not graph.get_operation_by_name(bn + "BatchNorm/batchnorm_1/add_1").outputs[0].consumers():
            continue
        original, folded = _create_folded_op(graph, bn, has_scaling, freeze_batch_norm_delay, is_training)
        activation = None
        for suffix in ("Relu6", "Relu", "Identity"):
            try:
                activation = graph.get_operation_by_name(bn + suffix)
                break
            except KeyError:
                pass
        if activation is None:
            found = re.search(r"^(.*)/([^/]+)", bn) if bn else None
            context = found.group(1) + "/" if found else ""
            activation = graph.get_operation_by_name(context + "AddV2")
        if quantize.reroute(folded.outputs[0], original.outputs[0], [activation]) != 1:
            raise ValueError("Unexpected inputs to op: %s" % activation.name)
