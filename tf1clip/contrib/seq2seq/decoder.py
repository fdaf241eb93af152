"""``tf.contrib.seq2seq.Decoder`` and ``dynamic_decode`` (TF 1.15's ``seq2seq/python/ops/decoder.py``).

``dynamic_decode`` runs a ``tf.compat.v1.while_loop`` under the variable scope ``scope`` or ``"decoder"``: a
decoder's cell variables are ``decoder/<cell scope>/...`` and its output layer's ``decoder/<layer name>/...``,
as in TF 1.15.
"""

import abc

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.seq2seq._shapes import zero_state_tensors

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def transpose_batch_time(x):
    """``x`` with its first two dimensions swapped (rank < 2: ``x``), keeping what is known of its static shape."""
    static = x.get_shape()
    if static.rank is not None and static.rank < 2:
        return x
    perm = tf.concat(([1, 0], tf.range(2, tf.rank(x))), axis=0)
    x_t = tf.transpose(x, perm)
    x_t.set_shape(tf.TensorShape([static.dims[1].value, static.dims[0].value]).concatenate(static[2:]))
    return x_t


def zero_tensors(size, dtype, batch_size):
    """Zeros of shape ``[batch_size] + s`` for each ``s`` of the structure ``size`` and dtype of the structure
    ``dtype`` (TF 1.15's ``decoder._create_zero_outputs``)."""
    return tf.nest.map_structure(lambda s, d: zero_state_tensors(s, batch_size, d), size, dtype)


class Decoder(abc.ABC):
    """``tf.contrib.seq2seq.Decoder``: the interface ``dynamic_decode`` drives.

    Subclasses define ``batch_size``, ``output_size`` (structure of ints/``TensorShape``), ``output_dtype``,
    ``initialize(name=None) -> (finished, inputs, state)``, ``step(time, inputs, state, name=None) ->
    (outputs, next_state, next_inputs, finished)`` and optionally ``finalize(outputs, final_state,
    sequence_lengths)`` and ``tracks_own_finished``.
    """

    @property
    def batch_size(self):
        raise NotImplementedError

    @property
    def output_size(self):
        raise NotImplementedError

    @property
    def output_dtype(self):
        raise NotImplementedError

    @abc.abstractmethod
    def initialize(self, name=None):
        raise NotImplementedError

    @abc.abstractmethod
    def step(self, time, inputs, state, name=None):
        raise NotImplementedError

    def finalize(self, outputs, final_state, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        """Whether ``step`` returns the complete ``finished`` (True) or ``dynamic_decode`` ORs it in (False)."""
        return False


def _output_tas(decoder, maximum_iterations, dynamic_size):
    def shape(s):
        if not isinstance(s, tf.TensorShape) or s.ndims == 0:
            return None
        batch = tf.get_static_value(tf.convert_to_tensor(decoder.batch_size, name="batch_size"))
        return tf.TensorShape([batch]).concatenate(s)

    def create(s, d):
        size = 0 if dynamic_size else maximum_iterations
        return tf.TensorArray(dtype=d, size=size, dynamic_size=dynamic_size, element_shape=shape(s))

    return tf.nest.map_structure(create, decoder.output_size, decoder.output_dtype)


def _copy_finished_state(finished):
    def copy(new, cur):
        if isinstance(cur, tf.TensorArray):
            return new
        new.set_shape(cur.shape)
        return new if new.shape.ndims == 0 else v1.where(finished, cur, new)

    return copy


def _loop_body(decoder, impute_finished, zero_outputs):
    def body(time, outputs_ta, state, inputs, finished, sequence_lengths):
        outputs, decoder_state, next_inputs, decoder_finished = decoder.step(time, inputs, state)
        if decoder.tracks_own_finished:
            next_finished = decoder_finished
        else:
            next_finished = tf.logical_or(decoder_finished, finished)
        next_sequence_lengths = v1.where(
            tf.logical_not(finished), tf.fill(tf.shape(sequence_lengths), time + 1), sequence_lengths
        )
        tf.nest.assert_same_structure(state, decoder_state)
        tf.nest.assert_same_structure(outputs_ta, outputs)
        tf.nest.assert_same_structure(inputs, next_inputs)
        if impute_finished:
            emit = tf.nest.map_structure(lambda out, zero: v1.where(finished, zero, out), outputs, zero_outputs)
            next_state = tf.nest.map_structure(_copy_finished_state(finished), decoder_state, state)
        else:
            emit, next_state = outputs, decoder_state
        outputs_ta = tf.nest.map_structure(lambda ta, out: ta.write(time, out), outputs_ta, emit)
        return time + 1, outputs_ta, next_state, next_inputs, next_finished, next_sequence_lengths

    return body


def _check_max_iterations(maximum_iterations):
    if maximum_iterations is None:
        return None
    maximum_iterations = tf.convert_to_tensor(maximum_iterations, dtype=tf.int32, name="maximum_iterations")
    if maximum_iterations.get_shape().ndims != 0:
        raise ValueError("maximum_iterations must be a scalar")
    return maximum_iterations


def dynamic_decode(
    decoder,
    output_time_major=False,
    impute_finished=False,
    maximum_iterations=None,
    parallel_iterations=32,
    swap_memory=False,
    scope=None,
    **kwargs,
):
    """Decodes with ``decoder`` (``initialize`` once, ``step`` in a while loop, then ``finalize``).

    Args as TF 1.15's: ``output_time_major`` returns ``[time, batch, ...]`` outputs; ``impute_finished`` zeroes
    the outputs and copies the state of finished entries; ``maximum_iterations`` (int32 scalar) bounds the
    steps; ``parallel_iterations``/``swap_memory`` go to the while loop; ``scope`` replaces ``"decoder"``.
    ``kwargs`` (TF 1.15's ``BaseDecoder`` arguments) are accepted and ignored.

    Returns:
      ``(final_outputs, final_state, final_sequence_lengths)``.

    Raises:
      TypeError: ``decoder`` is not a ``Decoder``. ValueError: ``maximum_iterations`` is not a scalar, or is
      None inside an XLA context.
    """
    del kwargs
    if not isinstance(decoder, Decoder):
        raise TypeError("Expected decoder to be type Decoder, but saw: %s" % type(decoder))
    with v1.variable_scope(scope, "decoder") as varscope:
        in_while_loop, is_xla = _tf.control_flow_contexts()
        if not tf.executing_eagerly() and not in_while_loop and varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        maximum_iterations = _check_max_iterations(maximum_iterations)
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = zero_tensors(decoder.output_size, decoder.output_dtype, decoder.batch_size)
        if is_xla and maximum_iterations is None:
            raise ValueError("maximum_iterations is required for XLA compilation.")
        if maximum_iterations is not None:
            initial_finished = tf.logical_or(initial_finished, 0 >= maximum_iterations)
        initial_sequence_lengths = tf.zeros_like(initial_finished, dtype=tf.int32)
        initial_time = tf.constant(0, dtype=tf.int32)
        dynamic_size = maximum_iterations is None or not is_xla
        res = v1.while_loop(
            lambda *loop_vars: tf.logical_not(tf.reduce_all(loop_vars[4])),
            _loop_body(decoder, impute_finished, zero_outputs),
            loop_vars=(
                initial_time,
                _output_tas(decoder, maximum_iterations, dynamic_size),
                initial_state,
                initial_inputs,
                initial_finished,
                initial_sequence_lengths,
            ),
            parallel_iterations=parallel_iterations,
            maximum_iterations=maximum_iterations,
            swap_memory=swap_memory,
        )
        final_state, final_sequence_lengths = res[2], res[5]
        final_outputs = tf.nest.map_structure(lambda ta: ta.stack(), res[1])
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state, final_sequence_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = tf.nest.map_structure(transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_sequence_lengths
