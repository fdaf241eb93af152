"""``tf.contrib.rnn.GRUBlockCell`` and ``GRUBlockCellV2`` re-created on ``tf.compat.v1.nn.rnn_cell``.

The equations of TF 1.15's fused ``GRUBlockCell`` kernel as TensorFlow ops. Variables: ``gru_cell/w_ru``,
``b_ru`` (starts at 1), ``w_c``, ``b_c`` (starts at 0); V2 names them ``gates/kernel``, ``gates/bias``,
``candidate/kernel``, ``candidate/bias`` (the names of ``tf.compat.v1.nn.rnn_cell.GRUCell``).
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


class GRUBlockCell(_base.LayerRNNCell):
    r"""GRU cell of ``tf.contrib.rnn.GRUBlockCell`` (TF 1.15).

    ``[r, u] = sigmoid([x, h_prev] @ w_ru + b_ru)``, ``c = tanh([x, r * h_prev] @ w_c + b_c)``,
    ``h = (1 - u) * c + u * h_prev``. ``cell_size`` is the deprecated name of ``num_units``.
    """

    _names = ("w_ru", "b_ru", "w_c", "b_c")

    def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
        super().__init__(_reuse=reuse, name=name)
        if (cell_size is None) == (num_units is None):
            raise ValueError("Exactly one of num_units or cell_size must be provided.")
        if num_units is None:
            num_units = cell_size
        _base.check_positive_int("num_units", num_units)
        self._cell_size = num_units

    @property
    def state_size(self):
        return self._cell_size

    @property
    def output_size(self):
        return self._cell_size

    def build(self, input_shape):
        input_size = tf.compat.dimension_value(tf.TensorShape(input_shape)[1])
        if input_size is None:
            raise ValueError("Expecting input_size to be set.")
        n = self._cell_size
        w_ru, b_ru, w_c, b_c = self._names
        self._gate_kernel = self.add_weight(w_ru, [input_size + n, n * 2])
        self._gate_bias = self.add_weight(b_ru, [n * 2], initializer=v1.constant_initializer(1.0))
        self._candidate_kernel = self.add_weight(w_c, [input_size + n, n])
        self._candidate_bias = self.add_weight(b_c, [n], initializer=v1.constant_initializer(0.0))
        self.built = True

    def call(self, inputs, h_prev):
        cell_size = tf.compat.dimension_value(h_prev.get_shape().with_rank(2)[1])
        if cell_size != self._cell_size:
            raise ValueError("Shape of h_prev[1] incorrect: cell_size %i vs %s" % (self._cell_size, cell_size))
        gates = tf.sigmoid(
            tf.nn.bias_add(tf.matmul(tf.concat([inputs, h_prev], 1), self._gate_kernel), self._gate_bias)
        )
        r, u = tf.split(gates, 2, axis=1)
        c = tf.tanh(
            tf.nn.bias_add(tf.matmul(tf.concat([inputs, r * h_prev], 1), self._candidate_kernel), self._candidate_bias)
        )
        new_h = (1 - u) * c + u * h_prev
        return new_h, new_h


class GRUBlockCellV2(GRUBlockCell):
    """``GRUBlockCell`` with ``tf.compat.v1.nn.rnn_cell.GRUCell``'s variable names (``gates/kernel`` ...)."""

    _names = ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")
