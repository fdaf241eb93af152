"""``tf.contrib.rnn.LSTMBlockCell``, ``LSTMBlockWrapper`` and ``LSTMBlockFusedCell`` (TF 1.15's ``lstm_ops.py``).

TF 1.15 ran ``LSTMBlockCell`` as one fused kernel (``LSTMBlockCell``, whose gradient TF 2 no longer registers);
here the same equations are TensorFlow ops. ``LSTMBlockFusedCell`` runs TF 1.15's own op, ``BlockLSTM``, which
TF 2 still has with its gradient. Variables: ``<scope>/kernel`` (``[input + num_units, 4 * num_units]``, gates in
the order ``i, ci, f, o``), ``<scope>/bias`` and, with peepholes, ``w_i_diag``, ``w_f_diag``, ``w_o_diag``.
"""

import abc

from tf1clip.compat._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def lstm_block_step(x, cs_prev, h_prev, w, b, wci, wcf, wco, forget_bias, cell_clip, use_peephole):
    """One step of TF 1.15's ``LSTMBlockCell`` kernel; returns ``(cs, h)``.

    ``cell_clip`` < 0 means no clipping. The kernel's gradient ignored the clip (it differentiates as if ``cs``
    had not been clipped), and so does this: the clip passes gradients straight through.
    """
    gates = tf.nn.bias_add(tf.matmul(tf.concat([x, h_prev], 1), w), b)
    i, ci, f, o = tf.split(gates, 4, axis=1)
    if use_peephole:
        i += cs_prev * wci
        f += cs_prev * wcf
    i = tf.sigmoid(i)
    f = tf.sigmoid(f + forget_bias)
    cs = tf.tanh(ci) * i + cs_prev * f
    if cell_clip > 0:
        cs += tf.stop_gradient(tf.clip_by_value(cs, -cell_clip, cell_clip) - cs)
    if use_peephole:
        o += cs * wco
    h = tf.tanh(cs) * tf.sigmoid(o)
    return cs, h


class LSTMBlockCell(_base.LayerRNNCell):
    """LSTM cell of ``tf.contrib.rnn.LSTMBlockCell`` (TF 1.15): no projection, optional peepholes and cell clip.

    ``forget_bias`` is added to the forget gate; ``cell_clip`` (default None: no clipping) clips the cell state.
    The kernel's initializer is the variable scope's (``glorot_uniform`` by default), the bias starts at 0.
    """

    def __init__(
        self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, dtype=None, reuse=None, name="lstm_cell"
    ):
        super().__init__(_reuse=reuse, dtype=dtype, name=name)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._use_peephole = use_peephole
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self._names = {"W": "kernel", "b": "bias", "wci": "w_i_diag", "wcf": "w_f_diag", "wco": "w_o_diag"}

    @property
    def state_size(self):
        return _base.LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        input_size = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
        if not input_size:
            raise ValueError("Expecting inputs_shape[1] to be set: %s" % str(inputs_shape))
        n = self._num_units
        self._kernel = self.add_weight(self._names["W"], [input_size + n, n * 4])
        self._bias = self.add_weight(self._names["b"], [n * 4], initializer=v1.constant_initializer(0.0))
        if self._use_peephole:
            self._w_i_diag = self.add_weight(self._names["wci"], [n])
            self._w_f_diag = self.add_weight(self._names["wcf"], [n])
            self._w_o_diag = self.add_weight(self._names["wco"], [n])
        self.built = True

    def call(self, inputs, state):
        if len(state) != 2:
            raise ValueError("Expecting state to be a tuple with length 2.")
        peep = (self._w_i_diag, self._w_f_diag, self._w_o_diag) if self._use_peephole else (None, None, None)
        cs_prev, h_prev = state
        cs, h = lstm_block_step(
            inputs,
            cs_prev,
            h_prev,
            self._kernel,
            self._bias,
            *peep,
            forget_bias=self._forget_bias,
            cell_clip=self._cell_clip,
            use_peephole=self._use_peephole,
        )
        return h, _base.LSTMStateTuple(cs, h)


class LSTMBlockWrapper(v1.layers.Layer, metaclass=abc.ABCMeta):  # type: ignore[misc,valid-type,name-defined]
    """Base of fused LSTMs (TF 1.15): ``call(inputs, initial_state, dtype, sequence_length)`` over a whole sequence.

    Subclasses define ``num_units`` and ``_call_cell(inputs, initial_cell_state, initial_output, dtype,
    sequence_length)`` returning the ``[time, batch, num_units]`` cell states and outputs. Inputs are time-major
    (a ``[time, batch, depth]`` tensor or a list of ``[batch, depth]`` tensors, then the outputs are a list).
    With ``sequence_length`` the outputs past each length are zero and the final state is the state at
    ``length - 1`` (the initial state for length 0).
    """

    @property
    @abc.abstractmethod
    def num_units(self):
        """Number of units in this cell (output dimension)."""

    @abc.abstractmethod
    def _call_cell(self, inputs, initial_cell_state, initial_output, dtype, sequence_length):
        """``(cell_states, outputs)``, both ``[time_len, batch_size, num_units]``."""

    def call(self, inputs, initial_state=None, dtype=None, sequence_length=None):
        is_list = isinstance(inputs, list)
        if is_list:
            inputs = tf.stack(inputs)
        inputs_shape = inputs.get_shape().with_rank(3)
        if not inputs_shape[2]:
            raise ValueError("Expecting inputs_shape[2] to be set: %s" % inputs_shape)
        batch_size = tf.compat.dimension_value(inputs_shape[1])
        if batch_size is None:
            batch_size = tf.shape(inputs)[1]
        time_len = tf.compat.dimension_value(inputs_shape[0])
        if time_len is None:
            time_len = tf.shape(inputs)[0]
        if initial_state is None:
            if dtype is None:
                raise ValueError("Either initial_state or dtype needs to be specified")
            z = tf.zeros(tf.stack([batch_size, self.num_units]), dtype=dtype)
            initial_state = z, z
        else:
            if len(initial_state) != 2:
                raise ValueError("Expecting initial_state to be a tuple with length 2 or None")
            if dtype is None:
                dtype = initial_state[0].dtype
        if sequence_length is not None:
            sequence_length = tf.convert_to_tensor(sequence_length)
        initial_cell_state, initial_output = initial_state
        cell_states, outputs = self._call_cell(inputs, initial_cell_state, initial_output, dtype, sequence_length)
        if sequence_length is not None:
            mask = tf.transpose(tf.sequence_mask(sequence_length, time_len, dtype=dtype), [1, 0])
            outputs *= tf.tile(tf.expand_dims(mask, [-1]), [1, 1, self.num_units])
            mod_cell_states = tf.concat([tf.expand_dims(initial_cell_state, [0]), cell_states], 0)
            mod_outputs = tf.concat([tf.expand_dims(initial_output, [0]), outputs], 0)
            final_cell_state = self._gather_states(mod_cell_states, sequence_length, batch_size)
            final_output = self._gather_states(mod_outputs, sequence_length, batch_size)
        else:
            final_cell_state = cell_states[-1]
            final_output = outputs[-1]
        if is_list:
            outputs = tf.unstack(outputs)
        return outputs, _base.LSTMStateTuple(final_cell_state, final_output)

    def _gather_states(self, data, indices, batch_size):
        """``out[i, j] = data[indices[i], i, j]``."""
        return tf.gather_nd(data, tf.stack([indices, tf.range(batch_size)], axis=1))


class LSTMBlockFusedCell(LSTMBlockWrapper):
    """The whole-sequence LSTM of ``tf.contrib.rnn.LSTMBlockFusedCell`` (TF 1.15), on the ``BlockLSTM`` op.

    Call it as ``outputs, (c, h) = cell(inputs, initial_state=None, dtype=None, sequence_length=None)`` with
    time-major inputs. Equations and variables as ``LSTMBlockCell``'s, in the scope ``lstm_fused_cell``.
    """

    def __init__(
        self,
        num_units,
        forget_bias=1.0,
        cell_clip=None,
        use_peephole=False,
        reuse=None,
        dtype=None,
        name="lstm_fused_cell",
    ):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self._use_peephole = use_peephole
        self.input_spec = v1.layers.InputSpec(ndim=3)

    @property
    def num_units(self):
        """Number of units in this cell (output dimension)."""
        return self._num_units

    def build(self, input_shape):
        input_size = tf.compat.dimension_value(tf.TensorShape(input_shape)[2])
        n = self._num_units
        self._kernel = self.add_weight("kernel", [input_size + n, n * 4])
        self._bias = self.add_weight("bias", [n * 4], initializer=v1.constant_initializer(0.0))
        if self._use_peephole:
            self._w_i_diag = self.add_weight("w_i_diag", [n])
            self._w_f_diag = self.add_weight("w_f_diag", [n])
            self._w_o_diag = self.add_weight("w_o_diag", [n])
        self.built = True

    def _call_cell(self, inputs, initial_cell_state=None, initial_output=None, dtype=None, sequence_length=None):
        time_len = tf.compat.dimension_value(inputs.get_shape().with_rank(3)[0])
        if time_len is None:
            time_len = tf.shape(inputs)[0]
        if self._use_peephole:
            wci, wcf, wco = self._w_i_diag, self._w_f_diag, self._w_o_diag
        else:
            wci = wcf = wco = tf.zeros([self._num_units], dtype=dtype)
        if sequence_length is None:
            max_seq_len = tf.cast(time_len, tf.int64)
        else:
            max_seq_len = tf.cast(tf.reduce_max(sequence_length), tf.int64)
        _, cs, _, _, _, _, h = tf.raw_ops.BlockLSTM(
            seq_len_max=max_seq_len,
            x=inputs,
            cs_prev=initial_cell_state,
            h_prev=initial_output,
            w=self._kernel,
            wci=wci,
            wcf=wcf,
            wco=wco,
            b=self._bias,
            forget_bias=self._forget_bias,
            cell_clip=self._cell_clip,
            use_peephole=self._use_peephole,
        )
        return cs, h
