"""TF 1.15's ``contrib/cudnn_rnn/python/layers/cudnn_rnn.py``: ``CudnnLSTM``, ``CudnnGRU``, ``CudnnRNNTanh``,
``CudnnRNNRelu``.

Same constructor, ``call`` (time-major ``[time, batch, depth]`` by default), variables and checkpoints as TF 1.15:
one trainable variable ``<layer>/opaque_kernel`` holding every weight in cuDNN's opaque layout (built from
``kernel_initializer`` per canonical matrix and ``bias_initializer`` per bias, as TF 1.15 did), and a saveable in
``SAVEABLE_OBJECTS`` that writes the canonical weights under the cuDNN-compatible cells' names. On a GPU it runs
TF's ``CudnnRNNV3`` kernel; elsewhere the same equations as TensorFlow ops (TF 1.15 had no CPU kernel).
"""

from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib.cudnn_rnn.python.ops import cudnn_rnn_ops as ops
from tf1clip.contrib.rnn import _base
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1
CUDNN_RNN_UNIDIRECTION = ops.CUDNN_RNN_UNIDIRECTION
CUDNN_RNN_BIDIRECTION = ops.CUDNN_RNN_BIDIRECTION
CUDNN_LSTM = ops.CUDNN_LSTM
CUDNN_GRU = ops.CUDNN_GRU
CUDNN_RNN_RELU = ops.CUDNN_RNN_RELU
CUDNN_RNN_TANH = ops.CUDNN_RNN_TANH
CUDNN_LSTM_PARAMS_PER_LAYER = ops.CUDNN_LSTM_PARAMS_PER_LAYER
CUDNN_GRU_PARAMS_PER_LAYER = ops.CUDNN_GRU_PARAMS_PER_LAYER
CUDNN_RNN_TANH_PARAMS_PER_LAYER = ops.CUDNN_RNN_TANH_PARAMS_PER_LAYER
CUDNN_RNN_RELU_PARAMS_PER_LAYER = ops.CUDNN_RNN_RELU_PARAMS_PER_LAYER
CUDNN_INPUT_LINEAR_MODE = ops.CUDNN_INPUT_LINEAR_MODE
CUDNN_INPUT_SKIP_MODE = ops.CUDNN_INPUT_SKIP_MODE
CUDNN_INPUT_AUTO_MODE = ops.CUDNN_INPUT_AUTO_MODE


class _StepCell:
    """One direction of one cuDNN layer as a cell-like object over fixed weight tensors (TF canonical form)."""

    def __init__(self, mode, num_units, weights, biases):
        self._mode, self._num_units = mode, num_units
        self._weights, self._biases = weights, biases

    @property
    def state_size(self):
        n = self._num_units
        return _base.LSTMStateTuple(n, n) if self._mode == CUDNN_LSTM else n

    @property
    def output_size(self):
        return self._num_units

    def zero_state(self, batch_size, dtype):
        """Zeros of ``state_size``."""
        return tf.nest.map_structure(lambda n: tf.zeros(tf.stack([batch_size, n]), dtype), self.state_size)

    def __call__(self, inputs, state, scope=None):
        if self._mode == CUDNN_LSTM:
            gates = tf.matmul(tf.concat([inputs, state.h], 1), self._weights[0]) + self._biases[0]
            i, j, f, o = tf.split(gates, 4, axis=1)
            c = tf.sigmoid(f) * state.c + tf.sigmoid(i) * tf.tanh(j)
            h = tf.sigmoid(o) * tf.tanh(c)
            return h, _base.LSTMStateTuple(c, h)
        if self._mode == CUDNN_GRU:
            gate_kernel, input_kernel, hidden_kernel = self._weights
            gate_bias, input_bias, hidden_bias = self._biases
            r, u = tf.split(tf.sigmoid(tf.matmul(tf.concat([inputs, state], 1), gate_kernel) + gate_bias), 2, 1)
            candidate = tf.matmul(inputs, input_kernel) + input_bias
            candidate += r * (tf.matmul(state, hidden_kernel) + hidden_bias)
            h = (1 - u) * tf.tanh(candidate) + u * state
            return h, h
        activation = tf.tanh if self._mode == CUDNN_RNN_TANH else tf.nn.relu
        h = activation(tf.matmul(tf.concat([inputs, state], 1), self._weights[0]) + self._biases[0])
        return h, h


def _reverse(x, lengths):
    if lengths is None:
        return tf.reverse(x, [0])
    return tf.reverse_sequence(x, lengths, seq_axis=0, batch_axis=1)


class _CudnnRNN(v1.layers.Layer):  # type: ignore[misc,name-defined]
    """The cuDNN layer base (TF 1.15's ``_CudnnRNN``): a ``tf.compat.v1.layers.Layer``."""

    _rnn_mode: Any = None
    _num_params_per_layer: Any = None
    _saveable_cls: Any = None
    _converter_cls: Any = None

    def __init__(
        self,
        num_layers,
        num_units,
        input_mode=CUDNN_INPUT_LINEAR_MODE,
        direction=CUDNN_RNN_UNIDIRECTION,
        dropout=0.0,
        seed=None,
        dtype=tf.float32,
        kernel_initializer=None,
        bias_initializer=None,
        name=None,
    ):
        super().__init__(dtype=dtype, name=name)
        ops.check_direction(direction)
        ops.check_input_mode(input_mode)
        if dtype not in [tf.float16, tf.float32, tf.float64]:
            raise ValueError("Only support float16, float32, float64, provided %s" % dtype)
        _base.check_positive_int("num_layers", num_layers)
        _base.check_positive_int("num_units", num_units)
        self._plain_dtype = tf.as_dtype(dtype)
        self._num_layers, self._num_units = num_layers, num_units
        self._input_mode, self._direction = input_mode, direction
        self._dropout, self._seed = dropout, seed
        self._kernel_initializer, self._bias_initializer = kernel_initializer, bias_initializer
        self._input_size = None
        self._saveable = None
        self._converter = None

    num_layers = property(lambda self: self._num_layers)
    num_units = property(lambda self: self._num_units)
    input_mode = property(lambda self: self._input_mode)
    rnn_mode = property(lambda self: self._rnn_mode)
    direction = property(lambda self: self._direction)
    saveable = property(lambda self: self._saveable)

    @property
    def num_dirs(self):
        return 1 if self._direction == CUDNN_RNN_UNIDIRECTION else 2

    @property
    def input_size(self):
        if not self._input_size:
            raise ValueError("'input_size' is unknown since layer has not been built.")
        return self._input_size

    @property
    def canonical_weight_shapes(self):
        """Shapes of cuDNN's canonical weights (``[num_units, width]``), layer by layer."""
        if not self._input_size:
            raise RuntimeError("%s.canonical_weight_shapes invoked before input shape is known" % type(self).__name__)
        return self._converter.cu_weight_shapes()

    @property
    def canonical_bias_shapes(self):
        """Shapes of cuDNN's canonical biases."""
        return [[self._num_units]] * (self._num_params_per_layer * self.num_dirs * self._num_layers)

    def state_shape(self, batch_size):
        """``[num_layers * num_dirs, batch_size, num_units]`` per state tensor."""
        shape = [self._num_layers * self.num_dirs, batch_size, self._num_units]
        return (shape, shape) if self._rnn_mode == CUDNN_LSTM else (shape,)

    def build(self, input_shape):
        """Creates ``opaque_kernel`` (and the saveable) for inputs of ``input_shape`` (3-D, depth known)."""
        if self.built:
            return
        input_shape = tf.TensorShape(input_shape)
        if input_shape.ndims != 3:
            raise ValueError("Expecting input_shape with 3 dims, got %d" % input_shape.ndims)
        if tf.compat.dimension_value(input_shape[-1]) is None:
            raise ValueError("The last dimension of the inputs to `CudnnRNN` should be defined. Found `None`.")
        self._input_size = tf.compat.dimension_value(input_shape[-1])
        self._check_cpu_input_mode()
        self._converter = self._converter_cls(
            self._num_layers, self._num_units, self._input_size, input_mode=self._input_mode, direction=self._direction
        )
        if self._kernel_initializer is None:
            self._kernel_initializer = v1.glorot_uniform_initializer(seed=self._seed, dtype=self._plain_dtype)
        if self._bias_initializer is None:
            self._bias_initializer = v1.constant_initializer(0.0, dtype=self._plain_dtype)
        weights = [self._kernel_initializer(s, dtype=self._plain_dtype) for s in self.canonical_weight_shapes]
        biases = [self._bias_initializer(s, dtype=self._plain_dtype) for s in self.canonical_bias_shapes]
        opaque = self._converter.cu_canonical_to_opaque(weights, biases)
        self.kernel = v1.get_variable(
            "opaque_kernel", dtype=self._plain_dtype, initializer=opaque, validate_shape=False
        )
        self._trainable_weights.append(self.kernel)
        if v1.get_variable_scope().reuse is not True:
            self._create_saveable()
        self.built = True

    def _check_cpu_input_mode(self):
        skip = self._input_mode == CUDNN_INPUT_SKIP_MODE or (
            self._input_mode == CUDNN_INPUT_AUTO_MODE and self._input_size == self._num_units
        )
        if skip and not ops.gpu_available():
            raise NotImplementedError(
                "input_mode=%r: tf1clip's CudnnRNN layers run skip_input only on a GPU (TF's cuDNN kernels); "
                "use input_mode='linear_input'" % (self._input_mode,)
            )

    def _create_saveable(self):
        if self._saveable is not None:
            raise RuntimeError("Cudnn saveable already created.")
        self._saveable = self._saveable_cls(
            opaque_params=self.kernel,
            num_layers=self._num_layers,
            num_units=self._num_units,
            input_size=self._input_size,
            input_mode=self._input_mode,
            direction=self._direction,
            scope=v1.get_variable_scope(),
            name="%s_saveable" % self.kernel.name.split(":")[0],
        )
        v1.add_to_collection(v1.GraphKeys.SAVEABLE_OBJECTS, self._saveable)

    def call(self, inputs, initial_state=None, sequence_lengths=None, time_major=True, training=True):
        """``(outputs, output_states)``: outputs ``[time, batch, num_dirs * num_units]`` (time-major), states a
        tuple (``(h, c)`` for LSTM, ``(h,)`` otherwise) of ``[num_layers * num_dirs, batch, num_units]``."""
        if initial_state is not None and not isinstance(initial_state, tuple):
            raise TypeError("Invalid initial_state type: %s, expecting tuple." % (initial_state,))
        inputs = tf.convert_to_tensor(inputs, dtype=self.dtype)
        batch_size = tf.shape(inputs)[1 if time_major else 0]
        if initial_state is None:
            initial_state = tuple(tf.zeros(s, dtype=self.dtype) for s in self.state_shape(batch_size))
        states = [tf.convert_to_tensor(s, dtype=self.dtype) for s in initial_state]
        if ops.gpu_available():
            outputs, states = self._forward_gpu(inputs, states, sequence_lengths, time_major, training)
        else:
            if not time_major:
                inputs = tf.transpose(inputs, [1, 0, 2])
            outputs, states = self._forward_ops(inputs, states, sequence_lengths, training)
            if not time_major:
                outputs = tf.transpose(outputs, [1, 0, 2])
        return outputs, tuple(states)

    def _forward_gpu(self, inputs, states, sequence_lengths, time_major, training):
        h = states[0]
        c = states[1] if self._rnn_mode == CUDNN_LSTM else tf.constant([], dtype=self.dtype)
        if sequence_lengths is None:
            steps = tf.shape(inputs)[0 if time_major else 1]
            sequence_lengths = tf.fill([tf.shape(inputs)[1 if time_major else 0]], steps)
        seed, seed2 = v1.get_seed(self._seed)
        outputs, output_h, output_c, _, _ = tf.raw_ops.CudnnRNNV3(
            input=inputs,
            input_h=h,
            input_c=c,
            params=self.kernel,
            sequence_lengths=tf.cast(sequence_lengths, tf.int32),
            rnn_mode=self._rnn_mode,
            input_mode=self._input_mode,
            direction=self._direction,
            dropout=self._dropout,
            seed=seed or 0,
            seed2=seed2 or 0,
            is_training=training,
            time_major=time_major,
        )
        return outputs, ([output_h, output_c] if self._rnn_mode == CUDNN_LSTM else [output_h])

    def _forward_ops(self, inputs, states, lengths, training):
        weights, biases = self._converter.opaque_to_tf_canonical(self.kernel)
        per_w, per_b = (
            len(weights) // (self._num_layers * self.num_dirs),
            len(biases) // (self._num_layers * self.num_dirs),
        )
        finals = [[] for _ in states]
        for layer in range(self._num_layers):
            if layer > 0 and training and self._dropout > 0:
                inputs = tf.nn.dropout(inputs, rate=self._dropout, seed=self._seed)
            outputs = []
            for direction in range(self.num_dirs):
                index = layer * self.num_dirs + direction
                cell = _StepCell(
                    self._rnn_mode,
                    self._num_units,
                    weights[index * per_w : (index + 1) * per_w],
                    biases[index * per_b : (index + 1) * per_b],
                )
                out, final = self._run_direction(cell, inputs, [s[index] for s in states], lengths, direction)
                outputs.append(out)
                for slot, value in enumerate(final):
                    finals[slot].append(value)
            inputs = tf.concat(outputs, axis=2) if len(outputs) > 1 else outputs[0]
        return inputs, [tf.stack(f) for f in finals]

    def _run_direction(self, cell, inputs, state, lengths, direction):
        if self._rnn_mode == CUDNN_LSTM:
            initial = _base.LSTMStateTuple(state[1], state[0])
        else:
            initial = state[0]
        x = _reverse(inputs, lengths) if direction else inputs
        out, final = v1.nn.dynamic_rnn(
            cell, x, sequence_length=lengths, initial_state=initial, time_major=True, scope="dir%d" % direction
        )
        if direction:
            out = _reverse(out, lengths)
        return out, ([final.h, final.c] if self._rnn_mode == CUDNN_LSTM else [final])


class CudnnLSTM(_CudnnRNN):
    """cuDNN's LSTM (gates ``i, f, c, o``, two bias vectors); states ``(h, c)``."""

    _rnn_mode = CUDNN_LSTM
    _num_params_per_layer = CUDNN_LSTM_PARAMS_PER_LAYER
    _saveable_cls = ops.CudnnLSTMSaveable
    _converter_cls = ops.CudnnParamsFormatConverterLSTM


class CudnnGRU(_CudnnRNN):
    """cuDNN's GRU (``h' = (1 - u) * c + u * h``, the reset gate on the recurrent projection); states ``(h,)``."""

    _rnn_mode = CUDNN_GRU
    _num_params_per_layer = CUDNN_GRU_PARAMS_PER_LAYER
    _saveable_cls = ops.CudnnGRUSaveable
    _converter_cls = ops.CudnnParamsFormatConverterGRU


class CudnnRNNTanh(_CudnnRNN):
    """cuDNN's plain RNN with tanh; states ``(h,)``."""

    _rnn_mode = CUDNN_RNN_TANH
    _num_params_per_layer = CUDNN_RNN_TANH_PARAMS_PER_LAYER
    _saveable_cls = ops.CudnnRNNTanhSaveable
    _converter_cls = ops.CudnnParamsFormatConverterTanh


class CudnnRNNRelu(_CudnnRNN):
    """cuDNN's plain RNN with relu; states ``(h,)``."""

    _rnn_mode = CUDNN_RNN_RELU
    _num_params_per_layer = CUDNN_RNN_RELU_PARAMS_PER_LAYER
    _saveable_cls = ops.CudnnRNNReluSaveable
    _converter_cls = ops.CudnnParamsFormatConverterRelu
