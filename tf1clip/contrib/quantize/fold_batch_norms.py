"""Folding fused batch norms into the layer before them (TF 1.15's ``contrib/quantize/python/fold_batch_norms.py``,
its fused half).

A ``FusedBatchNorm``/``FusedBatchNormV3`` after a ``Conv2D``, ``DepthwiseConv2dNative`` or ``MatMul`` (through an
optional ``BatchToSpaceND``, ``Identity`` or, for ``MatMul``, ``Reshape``) is replaced, as TF 1.15 did, by the
layer recomputed with folded weights ``w * gamma / sqrt(var + eps)`` (``<scope>/mul_fold``, ``<layer>_Fold``)
plus the folded bias ``beta - mean * gamma / sqrt(var + eps)`` (``<scope>/add_fold``, an ``Add`` op as in TF
1.15). A batch norm in training mode folds the batch statistics (the variance without Bessel's correction) and
adds TF 1.15's correction (``BatchNorm_Fold/batch_norm_correction``: the weights scaled by
``sigma_batch / sigma_moving``, undone after the layer until ``freeze_bn_delay``, from which on the moving
statistics are used and no longer updated); its gradient is TF 1.15's ``FoldFusedBatchNormGrad``. Unfused batch
norms are not folded (``quantize_graph`` refuses them).
"""

import collections

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.quantize import quantize
from tf1clip.contrib.quantize.graph_matcher import GraphMatcher, OneofPattern, OpTypePattern

__all__ = ["FoldBatchNorms"]

v1 = tf.compat.v1

_GRADIENT = "FoldFusedBatchNormGrad"


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
        moving_mean = moving_variance = decay_mean = decay_var = None
        if bn_op.get_attr("is_training"):
            _tf.set_op_attr(bn_op, "_gradient_op_type", v1.AttrValue(s=_GRADIENT.encode()))
            mean_tensor = bn_op.outputs[1]
            scope, sep, _ = bn_op.name.rpartition("/")
            with graph.as_default(), graph.name_scope(scope + sep):
                n = tf.cast(tf.size(layer_tensor) / tf.size(mean_tensor), tf.float32)
                variance_tensor = tf.multiply(bn_op.outputs[2], (n - 1) / n, name="Undo_Bessel_Correction")
            for mul in GraphMatcher(moving_mul_p).match_graph(graph):
                sub = mul.get_op(moving_sub_p)
                if sub.inputs[1].name == bn_op.outputs[1].name:
                    moving_mean, decay_mean = sub.inputs[0], mul.get_tensor(decay_p)
                if sub.inputs[1].name == bn_op.outputs[2].name:
                    moving_variance, decay_var = sub.inputs[0], mul.get_tensor(decay_p)
        else:
            mean_tensor, variance_tensor = m.get_tensor(mean_p), m.get_tensor(variance_p)
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


def _corrections(match, freeze_batch_norm_delay):
    graph = v1.get_default_graph()
    with graph.name_scope("batch_norm_correction"):
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
    """Folds every fused batch norm TF 1.15 folded into the layer before it, in place.

    A batch norm's own ``is_training`` attribute chooses the training fold (``is_training`` is TF 1.15's
    argument, which its fused fold did not read).
    """
    del is_training
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
