"""``tf.contrib.rnn.LSTMBlockCell`` re-created on ``tf.compat.v1.nn.rnn_cell``.

TF 1.15 ran it as one fused kernel (``LSTMBlockCell``, whose gradient TF 2 no longer registers); here the same
equations are TensorFlow ops. Variables: ``lstm_cell/kernel`` (``[input + num_units, 4 * num_units]``, gates in the
order ``i, ci, f, o``), ``lstm_cell/bias`` and, with peepholes, ``w_i_diag``, ``w_f_diag``, ``w_o_diag``.
"""

from tf1clip._tf import tf
from tf1clip.contrib.rnn import _base

__all__ = ["LSTMBlockCell"]

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
