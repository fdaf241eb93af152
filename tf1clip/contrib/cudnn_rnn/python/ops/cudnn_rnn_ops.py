"""TF 1.15's ``contrib/cudnn_rnn/python/ops/cudnn_rnn_ops.py``: cuDNN-compatible cells, the canonical <-> opaque
parameter conversion and the saveables that write a cuDNN layer's weights in canonical form.

``CudnnCompatibleLSTMCell`` and ``CudnnCompatibleGRUCell`` compute what cuDNN's LSTM and GRU compute, with the
variable names under which a ``CudnnLSTM``/``CudnnGRU`` model's ``tf.train.Saver`` wrote its canonical weights.

The opaque buffer, off a GPU, has cuDNN's packed layout (no padding): every weight matrix, then every bias,
each group ordered by layer, then direction (forward first), then input-side before recurrent, then gate
(LSTM ``i, f, c, o``; GRU ``r, u, h``), each matrix ``[num_units, input_width]`` row-major. On a GPU, TF's
``CudnnRNNCanonicalToParamsV2``/``CudnnRNNParamsToCanonicalV2`` kernels convert, as in TF 1.15.
"""

from typing import Any

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib.rnn.lstm_ops import LSTMBlockCell
from tf1clip.contrib import _manifest

__all__ = [*_manifest.names_of(__name__), "CudnnOpaqueParamsSaveable"]

CUDNN_RNN_UNIDIRECTION = "unidirectional"
CUDNN_RNN_BIDIRECTION = "bidirectional"
CUDNN_LSTM = "lstm"
CUDNN_GRU = "gru"
CUDNN_RNN_RELU = "rnn_relu"
CUDNN_RNN_TANH = "rnn_tanh"
CUDNN_LSTM_PARAMS_PER_LAYER = 8
CUDNN_GRU_PARAMS_PER_LAYER = 6
CUDNN_RNN_TANH_PARAMS_PER_LAYER = 2
CUDNN_RNN_RELU_PARAMS_PER_LAYER = 2
CUDNN_INPUT_LINEAR_MODE = "linear_input"
CUDNN_INPUT_SKIP_MODE = "skip_input"
CUDNN_INPUT_AUTO_MODE = "auto_select"

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


def check_direction(direction):
    """Raises TF 1.15's ``ValueError`` unless ``direction`` is ``unidirectional`` or ``bidirectional``."""
    if direction not in (CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION):
        raise ValueError(
            "Invalid direction: %s, expecting %s or %s" % (direction, CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION)
        )


def check_input_mode(input_mode):
    """Raises TF 1.15's ``ValueError`` for an ``input_mode`` other than linear_input, skip_input, auto_select."""
    if input_mode not in (CUDNN_INPUT_LINEAR_MODE, CUDNN_INPUT_SKIP_MODE, CUDNN_INPUT_AUTO_MODE):
        raise ValueError(
            "Invalid input_mode: %s, expect one of (%s, %s, %s)"
            % (input_mode, CUDNN_INPUT_LINEAR_MODE, CUDNN_INPUT_SKIP_MODE, CUDNN_INPUT_AUTO_MODE)
        )


def gpu_available():
    """Whether TensorFlow sees a GPU: the cuDNN layers then use TF's CudnnRNN kernels."""
    return bool(tf.config.list_physical_devices("GPU"))


class CudnnParamsFormatConverter:
    """Converts between the opaque buffer, cuDNN's canonical tensors and the compatible cells' weights.

    cuDNN canonical: per layer and direction, ``num_params_per_layer`` matrices ``[num_units, width]`` (the
    input-side ones first) and as many bias vectors ``[num_units]``. TF canonical: the compatible cells'
    variables, layer by layer, forward before backward, weights before biases.
    """

    _rnn_mode: Any = None
    _num_params_per_layer: Any = None

    def __init__(self, num_layers, num_units, input_size, input_mode=CUDNN_INPUT_LINEAR_MODE, direction=None):
        self._num_layers = num_layers
        self._num_units = num_units
        self._input_size = input_size
        self._input_mode = input_mode
        self._direction = direction or CUDNN_RNN_UNIDIRECTION
        self._num_dirs = 1 if self._direction == CUDNN_RNN_UNIDIRECTION else 2

    def _input_width(self, layer):
        return self._input_size if layer == 0 else self._num_units * self._num_dirs

    def cu_weight_shapes(self):
        """Shapes of cuDNN's canonical weights, in opaque order."""
        gates = self._num_params_per_layer // 2
        shapes = []
        for layer in range(self._num_layers):
            width = self._input_width(layer)
            per_dir = [[self._num_units, width]] * gates + [[self._num_units, self._num_units]] * gates
            shapes += per_dir * self._num_dirs
        return shapes

    def cu_bias_shapes(self):
        """Shapes of cuDNN's canonical biases, in opaque order."""
        return [[self._num_units]] * (self._num_params_per_layer * self._num_layers * self._num_dirs)

    def opaque_size(self):
        """Number of elements of the (unpadded) opaque buffer."""
        return sum(a * b for a, b in self.cu_weight_shapes()) + sum(s[0] for s in self.cu_bias_shapes())

    def _gpu_args(self):
        return dict(
            num_layers=self._num_layers,
            num_units=self._num_units,
            input_size=self._input_size,
            rnn_mode=self._rnn_mode,
            input_mode=self._input_mode,
            direction=self._direction,
        )

    def cu_canonical_to_opaque(self, cu_weights, cu_biases):
        """The opaque buffer (1-D) from cuDNN canonical weights and biases."""
        if gpu_available():
            with tf.device("/gpu:0"):
                return tf.raw_ops.CudnnRNNCanonicalToParamsV2(
                    weights=[tf.reshape(w, [-1]) for w in cu_weights], biases=cu_biases, **self._gpu_args()
                )
        return tf.concat([tf.reshape(t, [-1]) for t in list(cu_weights) + list(cu_biases)], axis=0)

    def opaque_to_cu_canonical(self, opaque):
        """``(weights, biases)``: cuDNN canonical tensors cut from the opaque buffer."""
        weight_shapes, bias_shapes = self.cu_weight_shapes(), self.cu_bias_shapes()
        if gpu_available():
            with tf.device("/gpu:0"):
                weights, biases = tf.raw_ops.CudnnRNNParamsToCanonicalV2(
                    params=opaque,
                    num_params_weights=len(weight_shapes),
                    num_params_biases=len(bias_shapes),
                    **self._gpu_args(),
                )
            return [tf.reshape(w, s) for w, s in zip(weights, weight_shapes)], list(biases)
        sizes = [a * b for a, b in weight_shapes] + [s[0] for s in bias_shapes]
        pieces = tf.split(tf.reshape(opaque, [-1]), sizes)
        weights = [tf.reshape(p, s) for p, s in zip(pieces, weight_shapes)]
        return weights, pieces[len(weight_shapes) :]

    def _per_direction(self, items, count):
        """``items`` (cuDNN order) cut into one list per layer and direction."""
        return [items[i : i + count] for i in range(0, len(items), count)]

    def opaque_to_tf_canonical(self, opaque):
        """``(weights, biases)`` of the compatible cells, layer by layer, forward before backward."""
        cu_weights, cu_biases = self.opaque_to_cu_canonical(opaque)
        n = self._num_params_per_layer
        weights, biases = [], []
        for w, b in zip(self._per_direction(cu_weights, n), self._per_direction(cu_biases, n)):
            weights += self._cudnn_to_tf_weights(*w)
            biases += self._cudnn_to_tf_biases(*b)
        return weights, biases

    def tf_canonical_to_opaque(self, tf_canonicals):
        """The opaque buffer from the compatible cells' weights then biases (the saveable's order)."""
        weights, biases = tf_canonicals[: len(tf_canonicals) // 2], tf_canonicals[len(tf_canonicals) // 2 :]
        per_weights = len(weights) // (self._num_layers * self._num_dirs)
        per_biases = len(biases) // (self._num_layers * self._num_dirs)
        cu_weights, cu_biases = [], []
        for index, (w, b) in enumerate(
            zip(self._per_direction(weights, per_weights), self._per_direction(biases, per_biases))
        ):
            cu_weights += self._tf_to_cudnn_weights(index // self._num_dirs, *w)
            cu_biases += self._tf_to_cudnn_biases(*b)
        return self.cu_canonical_to_opaque(cu_weights, cu_biases)

    def _split_input_hidden(self, layer, matrix):
        return tf.split(matrix, [self._input_width(layer), self._num_units], axis=1)


class CudnnParamsFormatConverterLSTM(CudnnParamsFormatConverter):
    """LSTM: cuDNN gates ``i, f, c, o`` <-> the compatible cell's ``i, c, f, o``; one bias = the sum of two."""

    _rnn_mode = CUDNN_LSTM
    _num_params_per_layer = CUDNN_LSTM_PARAMS_PER_LAYER

    def _cudnn_to_tf_weights(self, *cu):
        joined = [tf.concat([cu[g], cu[g + 4]], axis=1) for g in range(4)]
        i, f, c, o = joined
        return [tf.transpose(tf.concat([i, c, f, o], axis=0))]

    def _tf_to_cudnn_weights(self, layer, kernel):
        i, c, f, o = tf.split(tf.transpose(kernel), 4, axis=0)
        pairs = [self._split_input_hidden(layer, m) for m in (i, f, c, o)]
        return [p[0] for p in pairs] + [p[1] for p in pairs]

    def _cudnn_to_tf_biases(self, *cu):
        i, f, c, o = [cu[g] + cu[g + 4] for g in range(4)]
        return [tf.concat([i, c, f, o], axis=0)]

    def _tf_to_cudnn_biases(self, bias):
        i, c, f, o = tf.split(bias, 4, axis=0)
        halves = [g * 0.5 for g in (i, f, c, o)]
        return halves + halves


class CudnnParamsFormatConverterGRU(CudnnParamsFormatConverter):
    """GRU: gates ``r, u`` joined into ``gates/kernel``; the candidate's input and hidden projections apart."""

    _rnn_mode = CUDNN_GRU
    _num_params_per_layer = CUDNN_GRU_PARAMS_PER_LAYER

    def _cudnn_to_tf_weights(self, w_r, w_u, w_h, r_r, r_u, r_h):
        gates = tf.concat([tf.concat([w_r, r_r], axis=1), tf.concat([w_u, r_u], axis=1)], axis=0)
        return [tf.transpose(gates), tf.transpose(w_h), tf.transpose(r_h)]

    def _tf_to_cudnn_weights(self, layer, gates, input_kernel, hidden_kernel):
        g_r, g_u = tf.split(tf.transpose(gates), 2, axis=0)
        w_r, r_r = self._split_input_hidden(layer, g_r)
        w_u, r_u = self._split_input_hidden(layer, g_u)
        return [w_r, w_u, tf.transpose(input_kernel), r_r, r_u, tf.transpose(hidden_kernel)]

    def _cudnn_to_tf_biases(self, b_wr, b_wu, b_wh, b_rr, b_ru, b_rh):
        return [tf.concat([b_wr, b_wu], axis=0) + tf.concat([b_rr, b_ru], axis=0), b_wh, b_rh]

    def _tf_to_cudnn_biases(self, gates_bias, input_bias, hidden_bias):
        b_r, b_u = tf.split(gates_bias * 0.5, 2, axis=0)
        return [b_r, b_u, input_bias, b_r, b_u, hidden_bias]


class _CudnnParamsFormatConverterBasic(CudnnParamsFormatConverter):
    _num_params_per_layer = CUDNN_RNN_TANH_PARAMS_PER_LAYER

    def _cudnn_to_tf_weights(self, w_i, w_h):
        return [tf.transpose(tf.concat([w_i, w_h], axis=1))]

    def _tf_to_cudnn_weights(self, layer, kernel):
        return self._split_input_hidden(layer, tf.transpose(kernel))

    def _cudnn_to_tf_biases(self, b_i, b_h):
        return [b_i + b_h]

    def _tf_to_cudnn_biases(self, bias):
        return [bias * 0.5, bias * 0.5]


class CudnnParamsFormatConverterTanh(_CudnnParamsFormatConverterBasic):
    """RNN-tanh: ``basic_rnn_cell/kernel`` ``[input + num_units, num_units]`` and one summed bias."""

    _rnn_mode = CUDNN_RNN_TANH


class CudnnParamsFormatConverterRelu(_CudnnParamsFormatConverterBasic):
    """RNN-relu: as RNN-tanh."""

    _rnn_mode = CUDNN_RNN_RELU
    _num_params_per_layer = CUDNN_RNN_RELU_PARAMS_PER_LAYER


_SaveableObject, _SaveSpec = _tf.saveable_classes()


class CudnnOpaqueParamsSaveable(_SaveableObject):  # type: ignore[valid-type,misc]
    """Saves an opaque cuDNN buffer as the compatible cells' canonical weights; restores them into it.

    Checkpoint names: ``<scope>/rnn/multi_rnn_cell/cell_<i>/<cell>/...`` (unidirectional) or
    ``<scope>/stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/<cell>/...``, weights before biases.
    """

    _format_converter_cls: Any = None
    _rnn_cell_name: Any = None

    def __init__(
        self,
        opaque_params,
        num_layers,
        num_units,
        input_size,
        input_mode=CUDNN_INPUT_LINEAR_MODE,
        direction=CUDNN_RNN_UNIDIRECTION,
        scope=None,
        name="cudnn_rnn_saveable",
    ):
        self._variables = opaque_params
        self._num_layers = num_layers
        self._direction = direction
        if isinstance(scope, v1.VariableScope):
            scope = scope.name
        self._scope = scope or None
        self.format_converter = self._format_converter_cls(
            num_layers, num_units, input_size, input_mode=input_mode, direction=direction
        )
        weights, biases = self.format_converter.opaque_to_tf_canonical(opaque_params)
        weight_names, bias_names = self._tf_canonical_names()
        names = weight_names + bias_names
        if self._scope:
            names = ["%s/%s" % (self._scope, n) for n in names]
        specs = [_SaveSpec(t, "", n) for t, n in zip(weights + biases, names)]
        super().__init__(tf.identity(opaque_params), specs, name)

    def restore(self, restored_tensors, restored_shapes):
        """Assigns the opaque buffer built from the restored canonical tensors."""
        opaque = self.format_converter.tf_canonical_to_opaque(list(restored_tensors))
        return v1.assign(self._variables, opaque, validate_shape=False)

    def _prefix(self, layer, direction):
        if self._direction == CUDNN_RNN_UNIDIRECTION:
            return "rnn/multi_rnn_cell/cell_%d/%s" % (layer, self._rnn_cell_name)
        return "stack_bidirectional_rnn/cell_%d/bidirectional_rnn/%s/%s" % (layer, direction, self._rnn_cell_name)

    def _tf_canonical_names(self):
        weights, biases = [], []
        directions = ["fw"] if self._direction == CUDNN_RNN_UNIDIRECTION else ["fw", "bw"]
        for layer in range(self._num_layers):
            for direction in directions:
                prefix = self._prefix(layer, direction)
                weights += [prefix + "/" + n for n in self._weight_suffixes]
                biases += [prefix + "/" + n for n in self._bias_suffixes]
        return weights, biases


class CudnnLSTMSaveable(CudnnOpaqueParamsSaveable):
    """``.../cudnn_compatible_lstm_cell/kernel`` and ``bias``."""

    _format_converter_cls: Any = CudnnParamsFormatConverterLSTM
    _rnn_cell_name = "cudnn_compatible_lstm_cell"
    _weight_suffixes = ("kernel",)
    _bias_suffixes = ("bias",)


class CudnnGRUSaveable(CudnnOpaqueParamsSaveable):
    """``.../cudnn_compatible_gru_cell/{gates,candidate/input_projection,candidate/hidden_projection}/...``."""

    _format_converter_cls = CudnnParamsFormatConverterGRU
    _rnn_cell_name = "cudnn_compatible_gru_cell"
    _weight_suffixes = ("gates/kernel", "candidate/input_projection/kernel", "candidate/hidden_projection/kernel")
    _bias_suffixes = ("gates/bias", "candidate/input_projection/bias", "candidate/hidden_projection/bias")


class CudnnRNNTanhSaveable(CudnnLSTMSaveable):
    """``.../basic_rnn_cell/kernel`` and ``bias`` (a ``BasicRNNCell`` with tanh restores them)."""

    _format_converter_cls = CudnnParamsFormatConverterTanh
    _rnn_cell_name = "basic_rnn_cell"


class CudnnRNNReluSaveable(CudnnLSTMSaveable):
    """``.../basic_rnn_cell/kernel`` and ``bias`` (a ``BasicRNNCell`` with relu restores them)."""

    _format_converter_cls = CudnnParamsFormatConverterRelu
    _rnn_cell_name = "basic_rnn_cell"
