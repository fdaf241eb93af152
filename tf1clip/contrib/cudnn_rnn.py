"""``tf.contrib.cudnn_rnn``: the cuDNN-compatible cells, re-created; the cuDNN layers are not.

``CudnnCompatibleLSTMCell`` and ``CudnnCompatibleGRUCell`` compute what cuDNN's LSTM and GRU compute, with the
variable names under which a ``tf.contrib.cudnn_rnn.CudnnLSTM``/``CudnnGRU`` model's ``tf.train.Saver`` wrote its
weights (the canonical names of TF 1.15's ``CudnnLSTMSaveable``/``CudnnGRUSaveable``:
``<layer scope>/rnn/multi_rnn_cell/cell_<i>/cudnn_compatible_lstm_cell/{kernel,bias}`` for a unidirectional model,
``.../stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/...`` for a bidirectional one), so such a
checkpoint restores into a ``MultiRNNCell`` of these cells under ``dynamic_rnn`` (or into
``tf1clip.contrib.rnn.stack_bidirectional_dynamic_rnn``). See docs/rnn.rst.

``CudnnLSTM``, ``CudnnGRU``, ``CudnnRNNTanh`` and ``CudnnRNNRelu`` keep their weights in one opaque cuDNN buffer
whose layout only the cuDNN kernels (GPU, TF 1.x) define; they are not re-created, and constructing one raises
``NotImplementedError`` saying what to use instead.
"""

from tf1clip._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib.rnn.lstm_ops import LSTMBlockCell
from tf1clip.contrib import _manifest

__all__ = list(_manifest.names("tf1clip.contrib.cudnn_rnn"))

v1 = tf.compat.v1


class CudnnCompatibleLSTMCell(LSTMBlockCell):
    """``LSTMBlockCell`` with ``forget_bias=0``, no peepholes, no clip, named ``cudnn_compatible_lstm_cell``.

    ``kernel`` is ``[input + num_units, 4 * num_units]`` (gates ``i, c, f, o``); ``bias`` is the sum of cuDNN's
    two bias vectors, as TF 1.15's saveable stored it.
    """

    def __init__(self, num_units, reuse=None):
        super().__init__(
            num_units, forget_bias=0, cell_clip=None, use_peephole=False, reuse=reuse, name="cudnn_compatible_lstm_cell"
        )


class CudnnCompatibleGRUCell(_base.LayerRNNCell):
    r"""cuDNN's GRU (TF 1.15's ``tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell``).

    ``[r, u] = sigmoid([x, h] @ gates/kernel + gates/bias)`` (``gates/bias`` starts at 1);
    ``c = tanh(x @ candidate/input_projection/kernel + candidate/input_projection/bias
    + r * (h @ candidate/hidden_projection/kernel + candidate/hidden_projection/bias))``;
    ``h' = (1 - u) * c + u * h``. It differs from ``GRUCell``, whose candidate is ``[x, r * h] @ kernel``.
    """

    def __init__(self, num_units, reuse=None, kernel_initializer=None):
        super().__init__(_reuse=reuse)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._kernel_initializer = kernel_initializer

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        input_depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
        if input_depth is None:
            raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s" % inputs_shape)
        n = self._num_units
        init = self._kernel_initializer
        self._gate_kernel = self.add_weight("gates/kernel", [input_depth + n, 2 * n], initializer=init)
        self._gate_bias = self.add_weight("gates/bias", [2 * n], initializer=v1.constant_initializer(1.0))
        self._candidate_input_kernel = self.add_weight(
            "candidate/input_projection/kernel", [input_depth, n], initializer=init
        )
        self._candidate_hidden_kernel = self.add_weight("candidate/hidden_projection/kernel", [n, n], initializer=init)
        self._candidate_input_bias = self.add_weight(
            "candidate/input_projection/bias", [n], initializer=v1.zeros_initializer()
        )
        self._candidate_hidden_bias = self.add_weight(
            "candidate/hidden_projection/bias", [n], initializer=v1.zeros_initializer()
        )
        self.built = True

    def call(self, inputs, state):
        gate_inputs = tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1), self._gate_kernel), self._gate_bias)
        r, u = tf.split(tf.sigmoid(gate_inputs), 2, axis=1)
        candidate = tf.nn.bias_add(tf.matmul(inputs, self._candidate_input_kernel), self._candidate_input_bias)
        candidate += r * tf.nn.bias_add(tf.matmul(state, self._candidate_hidden_kernel), self._candidate_hidden_bias)
        new_h = (1 - u) * tf.tanh(candidate) + u * state
        return new_h, new_h


_LAYER_HINT = (
    "tf.contrib.cudnn_rnn.%s keeps its weights in one opaque cuDNN parameter buffer that only TF 1.x's cuDNN "
    "kernels (on a GPU) lay out; tf1clip does not re-create it. Its checkpoints hold canonical per-cell weights: "
    "restore them into tf1clip.contrib.cudnn_rnn.%s cells, %s, under the layer's variable scope; or, for new "
    "training, use tf.keras.layers.%s (cuDNN kernels on a GPU). See tf1clip's docs/rnn.rst."
)
_HOW = {
    "CudnnLSTM": ("CudnnCompatibleLSTMCell", "LSTM"),
    "CudnnGRU": ("CudnnCompatibleGRUCell", "GRU"),
    "CudnnRNNTanh": ("(none: use tf.compat.v1.nn.rnn_cell.BasicRNNCell, activation tanh)", "SimpleRNN"),
    "CudnnRNNRelu": ("(none: use tf.compat.v1.nn.rnn_cell.BasicRNNCell, activation relu)", "SimpleRNN"),
}
_ARRANGEMENT = (
    "one per layer in a tf.compat.v1.nn.rnn_cell.MultiRNNCell run by tf.compat.v1.nn.dynamic_rnn(time_major=True) "
    "(bidirectional: tf1clip.contrib.rnn.stack_bidirectional_dynamic_rnn)"
)


class _CudnnLayer:
    def __init__(self, *args, **kwargs):
        name = type(self).__name__
        cell, keras = _HOW[name]
        raise NotImplementedError(_LAYER_HINT % (name, cell, _ARRANGEMENT, keras))


class CudnnLSTM(_CudnnLayer):
    """Not re-created: constructing it raises ``NotImplementedError`` naming ``CudnnCompatibleLSTMCell``."""


class CudnnGRU(_CudnnLayer):
    """Not re-created: constructing it raises ``NotImplementedError`` naming ``CudnnCompatibleGRUCell``."""


class CudnnRNNTanh(_CudnnLayer):
    """Not re-created: constructing it raises ``NotImplementedError``."""


class CudnnRNNRelu(_CudnnLayer):
    """Not re-created: constructing it raises ``NotImplementedError``."""
