"""Shape helpers the seq2seq modules share: TF 1.15's ``rnn_cell_impl._concat`` and ``_zero_state_tensors``.

``attention_wrapper`` keeps TF 1.15's module name ``_zero_state_tensors`` as an alias of ``zero_state_tensors``.
"""

from tf1clip.compat._tf import tf


def _vector_part(part, role):
    """TF 1.15's ``rnn_cell_impl._concat`` for one part: ``(int32 vector tensor or None, static list or None)``;
    a scalar tensor becomes ``expand_dims(part, 0)``, a fully defined shape a constant."""
    if isinstance(part, tf.Tensor):
        static = tf.get_static_value(part)
        if part.shape.ndims == 0:
            return tf.expand_dims(part, 0), static
        if part.shape.ndims != 1:
            raise ValueError("%s tensor must be either a scalar or vector, but saw tensor: %s" % (role, part))
        return part, static
    shape = tf.TensorShape(part)
    static = shape.as_list() if shape.ndims is not None else None
    return (tf.constant(shape.as_list(), dtype=tf.int32) if shape.is_fully_defined() else None), static


def concat(prefix, suffix, static=False):
    """TF 1.15's ``rnn_cell_impl._concat``: ``prefix + suffix`` as an int32 shape tensor, or (``static``) as a
    list; both forms build the parts' ops, as TF 1.15's did."""
    p, p_static = _vector_part(prefix, "prefix")
    s, s_static = _vector_part(suffix, "suffix")
    if static:
        shape = tf.TensorShape(p_static).concatenate(s_static)
        return shape.as_list() if shape.ndims is not None else None
    if p is None or s is None:
        raise ValueError("Provided a prefix or suffix of None: %s and %s" % (prefix, suffix))
    return tf.concat((p, s), 0)


def zero_state_tensors(state_size, batch_size, dtype):
    """TF 1.15's ``rnn_cell_impl._zero_state_tensors``: zeros ``[batch_size] + s`` of ``dtype`` for each size
    ``s`` of the structure ``state_size``, with the same ops."""

    def zeros(s):
        value = tf.zeros(concat(batch_size, s), dtype=dtype)
        if not tf.executing_eagerly():
            value.set_shape(concat(batch_size, s, static=True))
        return value

    return tf.nest.map_structure(zeros, state_size)
