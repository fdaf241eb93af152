"""Fake-quantization layers (TF 1.15's ``contrib/quantize/python/quant_ops.py``).

``LastValueQuantize`` and ``MovingAvgQuantize`` create the variables ``min`` and ``max`` in a variable scope named
``name_prefix`` (made unique), as TF 1.15 did, so checkpoints are interchangeable; in a training graph they
assign the range of the current input (``LastValueQuantize``) or its zero-debiased moving average
(``MovingAvgQuantize``, with the ``<scope>/<scope>/min/biased`` and ``.../local_step`` variables of TF 1.15's
``assign_moving_average``) and fake-quantize with the assigned values.
"""

from tf1clip.compat._tf import tf

__all__ = ["FixedQuantize", "LastValueQuantize", "MovingAvgQuantize"]

v1 = tf.compat.v1


def FixedQuantize(inputs, init_min=-6.0, init_max=6.0, scope=None):
    """Fake-quantizes ``inputs`` to the fixed interval ``[init_min, init_max]``."""
    with v1.name_scope(scope, "FixedQuantize", values=[inputs]):
        return tf.quantization.fake_quant_with_min_max_args(inputs, min=init_min, max=init_max)


def _range_variable(name, shape, value, collections):
    return v1.get_variable(
        name,
        shape=shape,
        initializer=v1.constant_initializer(value),
        collections=list(collections) + [v1.GraphKeys.GLOBAL_VARIABLES],
        trainable=False,
        aggregation=v1.VariableAggregation.MEAN,
    )


def _unique_in_scope(name):
    """``name``, or ``name_<k>`` when the variable scope already has a global variable of that name."""
    scope = v1.get_variable_scope()
    if scope.reuse:
        return name
    taken = {var.op.name for var in scope.global_variables()}
    full = scope.name + "/" + name
    if full not in taken:
        return name
    k = 1
    while "%s_%d" % (full, k) in taken:
        k += 1
    return "%s_%d" % (name, k)


def _assign_moving_average(var, value, decay, name):
    """TF 1.15's ``assign_moving_average(var, value, decay, zero_debias=True, name=name)``."""
    with v1.name_scope(name, "AssignMovingAvg", [var, value, decay]) as scope:
        decay = tf.convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype != var.dtype.base_dtype:
            decay = tf.cast(decay, var.dtype.base_dtype)
        with v1.variable_scope(var.name[: -len(":0")], values=[var, value, decay]):
            with v1.colocate_with(var):
                biased = v1.get_variable(
                    _unique_in_scope("biased"),
                    initializer=v1.zeros_initializer(),
                    shape=var.get_shape(),
                    dtype=var.dtype.base_dtype,
                    trainable=False,
                )
                local_step = v1.get_variable(
                    _unique_in_scope("local_step"),
                    shape=[],
                    dtype=var.dtype.base_dtype,
                    initializer=v1.zeros_initializer(),
                    trainable=False,
                )
        with v1.colocate_with(var):
            update_biased = v1.assign_sub(biased, (biased - value) * decay)
            update_step = local_step.assign_add(1)
            bias_factor = 1 - tf.pow(1.0 - decay, update_step)
            return v1.assign(var, update_biased / bias_factor, name=scope)


def _batch_range(inputs, per_channel, num_bits, narrow_range, symmetric):
    rank = len(inputs.get_shape())
    if per_channel and rank < 2:
        batch_min = batch_max = inputs
    else:
        axis = ([0] if rank == 2 else [0, 1, 2]) if per_channel else None
        batch_min = tf.reduce_min(inputs, axis=axis, name="BatchMin")
        batch_max = tf.reduce_max(inputs, axis=axis, name="BatchMax")
    if symmetric:
        ratio = -1 if narrow_range else -((1 << num_bits) - 2) / (1 << num_bits)
        return tf.minimum(batch_min, batch_max / ratio), tf.maximum(batch_max, batch_min * ratio)
    return tf.minimum(batch_min, 0.0), tf.maximum(batch_max, 0.0)


def _fake_quant(inputs, min_value, max_value, per_channel, num_bits, narrow_range):
    if per_channel:
        return tf.quantization.fake_quant_with_min_max_vars_per_channel(
            inputs, min_value, max_value, num_bits=num_bits, narrow_range=narrow_range
        )
    return tf.quantization.fake_quant_with_min_max_vars(
        inputs, min_value, max_value, num_bits=num_bits, narrow_range=narrow_range
    )


def _quantize(
    inputs,
    per_channel,
    init_min,
    init_max,
    vars_collection,
    name_prefix,
    reuse,
    is_training,
    num_bits,
    narrow_range,
    symmetric,
    assign,
):
    with v1.variable_scope(None, default_name=name_prefix, values=[inputs], reuse=reuse) as scope:
        scope.set_partitioner(None)
        shape = inputs.get_shape()
        if per_channel:
            if len(shape) not in (1, 2, 4):
                raise ValueError("Expected 1D, 2D or 4D input, was: %s in  scope: %s" % (shape, name_prefix))
            range_shape = [shape[-1]]
        else:
            range_shape = []
        collections = [vars_collection] if vars_collection else []
        min_var = _range_variable("min", range_shape, init_min, collections)
        max_var = _range_variable("max", range_shape, init_max, collections)
        if not is_training:
            return _fake_quant(inputs, min_var, max_var, per_channel, num_bits, narrow_range)
        range_min, range_max = _batch_range(inputs, per_channel, num_bits, narrow_range, symmetric)
        new_min, new_max = assign(min_var, range_min, "Min"), assign(max_var, range_max, "Max")
        return _fake_quant(inputs, new_min, new_max, per_channel, num_bits, narrow_range)


def LastValueQuantize(
    inputs,
    per_channel=False,
    init_min=-6.0,
    init_max=6.0,
    vars_collection=None,
    name_prefix="LastValueQuant",
    reuse=None,
    is_training=True,
    num_bits=8,
    narrow_range=False,
    symmetric=False,
):
    """Fake-quantizes ``inputs`` to the range of its last value (with 0 inside, or symmetric).

    ``min`` and ``max`` (initialized to ``init_min``, ``init_max``) are assigned the range in a training graph
    (``AssignMinLast``, ``AssignMaxLast``) and read as they are in an eval graph.
    """

    def assign(var, value, which):
        return v1.assign(var, value, name="Assign%sLast" % which)

    return _quantize(
        inputs,
        per_channel,
        init_min,
        init_max,
        vars_collection,
        name_prefix,
        reuse,
        is_training,
        num_bits,
        narrow_range,
        symmetric,
        assign,
    )


def MovingAvgQuantize(
    inputs,
    per_channel=False,
    init_min=-6.0,
    init_max=6.0,
    ema_decay=0.999,
    vars_collection=v1.GraphKeys.MOVING_AVERAGE_VARIABLES,
    name_prefix="MovingAvgQuantize",
    reuse=None,
    is_training=True,
    num_bits=8,
    narrow_range=False,
    symmetric=False,
):
    """Fake-quantizes ``inputs`` to the zero-debiased moving average (decay ``ema_decay``) of its range.

    ``min`` and ``max`` are assigned the average in a training graph (``AssignMinEma``, ``AssignMaxEma``) and read
    as they are in an eval graph.
    """

    def assign(var, value, which):
        return _assign_moving_average(var, value, ema_decay, name="Assign%sEma" % which)

    return _quantize(
        inputs,
        per_channel,
        init_min,
        init_max,
        vars_collection,
        name_prefix,
        reuse,
        is_training,
        num_bits,
        narrow_range,
        symmetric,
        assign,
    )
