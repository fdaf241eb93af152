"""The cells of TF 1.15's ``contrib/rnn/python/ops/rnn_cell.py`` that ``tf.contrib.rnn`` exported, re-created
with TF 1.15's equations, defaults and variable names (docs/rnn.rst).
"""

import collections

from tf1clip.compat._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


class AttentionCellWrapper(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Attention over the last ``attn_length`` outputs (https://arxiv.org/abs/1601.06733), as TF 1.15.

    State: ``(cell_state, attns, attn_states)`` (concatenated when ``state_is_tuple=False``). Variables in the
    wrapper's scope: ``kernel``/``bias`` (input projection), ``attention/attn_w``, ``attention/attn_v``,
    ``attention/kernel``/``bias``, ``attn_output_projection/kernel``/``bias``.
    """

    def __init__(
        self, cell, attn_length, attn_size=None, attn_vec_size=None, input_size=None, state_is_tuple=True, reuse=None
    ):
        super().__init__(_reuse=reuse)
        _base.check_cell("cell", cell)
        if tf.nest.is_nested(cell.state_size) and not state_is_tuple:
            raise ValueError(
                "Cell returns tuple of states, but the flag state_is_tuple is not set. State size is: %s"
                % str(cell.state_size)
            )
        if attn_length <= 0:
            raise ValueError("attn_length should be greater than zero, got %s" % str(attn_length))
        if attn_size is None:
            attn_size = cell.output_size
        if attn_vec_size is None:
            attn_vec_size = attn_size
        self._state_is_tuple = state_is_tuple
        self._cell = cell
        self._attn_vec_size = attn_vec_size
        self._input_size = input_size
        self._attn_size = attn_size
        self._attn_length = attn_length
        self._linear1 = None
        self._linear2 = None
        self._linear3 = None

    @property
    def state_size(self):
        size = (self._cell.state_size, self._attn_size, self._attn_size * self._attn_length)
        return size if self._state_is_tuple else sum(size)

    @property
    def output_size(self):
        return self._attn_size

    def call(self, inputs, state):
        if self._state_is_tuple:
            state, attns, attn_states = state
        else:
            states = state
            cell_size = self._cell.state_size
            state = tf.slice(states, [0, 0], [-1, cell_size])
            attns = tf.slice(states, [0, cell_size], [-1, self._attn_size])
            attn_states = tf.slice(states, [0, cell_size + self._attn_size], [-1, self._attn_size * self._attn_length])
        attn_states = tf.reshape(attn_states, [-1, self._attn_length, self._attn_size])
        input_size = self._input_size
        if input_size is None:
            input_size = inputs.get_shape().as_list()[1]
        if self._linear1 is None:
            self._linear1 = _base.Linear([inputs, attns], input_size, True)
        inputs = self._linear1([inputs, attns])
        cell_output, new_state = self._cell(inputs, state)
        new_state_cat = tf.concat(tf.nest.flatten(new_state), 1) if self._state_is_tuple else new_state
        new_attns, new_attn_states = self._attention(new_state_cat, attn_states)
        with v1.variable_scope("attn_output_projection"):
            if self._linear2 is None:
                self._linear2 = _base.Linear([cell_output, new_attns], self._attn_size, True)
            output = self._linear2([cell_output, new_attns])
        new_attn_states = tf.concat([new_attn_states, tf.expand_dims(output, 1)], 1)
        new_attn_states = tf.reshape(new_attn_states, [-1, self._attn_length * self._attn_size])
        new_state = (new_state, new_attns, new_attn_states)
        if not self._state_is_tuple:
            new_state = tf.concat(list(new_state), 1)
        return output, new_state

    def _attention(self, query, attn_states):
        with v1.variable_scope("attention"):
            k = v1.get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size])
            v = v1.get_variable("attn_v", [self._attn_vec_size])
            hidden = tf.reshape(attn_states, [-1, self._attn_length, 1, self._attn_size])
            hidden_features = tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME")
            if self._linear3 is None:
                self._linear3 = _base.Linear(query, self._attn_vec_size, True)
            y = tf.reshape(self._linear3(query), [-1, 1, 1, self._attn_vec_size])
            s = tf.reduce_sum(v * tf.tanh(hidden_features + y), [2, 3])
            a = tf.nn.softmax(s)
            d = tf.reduce_sum(tf.reshape(a, [-1, self._attn_length, 1, 1]) * hidden, [1, 2])
            new_attns = tf.reshape(d, [-1, self._attn_size])
            new_attn_states = tf.slice(attn_states, [0, 1, 0], [-1, -1, -1])
            return new_attns, new_attn_states


class HighwayWrapper(_base.CellWrapper):
    """Highway connection from the cell's input to its output (https://arxiv.org/abs/1505.00387), as TF 1.15.

    ``output = input * carry + cell_output * transform`` with ``carry = sigmoid(input @ carry_w + carry_b)`` and
    ``transform = 1 - carry`` (coupled) or ``sigmoid(input @ transform_w + transform_b)``. As in TF 1.15 the
    variables (``carry_w``, ``carry_b``, ``transform_w``, ``transform_b``) sit in the CALLER's variable scope
    (e.g. ``rnn/carry_w`` under ``dynamic_rnn``), not in a scope of the wrapper's own.
    """

    def __init__(self, cell, couple_carry_transform_gates=True, carry_bias_init=1.0):
        super().__init__()
        _base.check_cell("cell", cell)
        self._cell = cell
        self._couple_carry_transform_gates = couple_carry_transform_gates
        self._carry_bias_init = carry_bias_init

    def _highway(self, inp, out):
        input_size = tf.compat.dimension_value(inp.get_shape().with_rank(2)[1])
        carry_weight = v1.get_variable("carry_w", [input_size, input_size])
        carry_bias = v1.get_variable(
            "carry_b", [input_size], initializer=v1.constant_initializer(self._carry_bias_init)
        )
        carry = tf.sigmoid(tf.compat.v1.nn.xw_plus_b(inp, carry_weight, carry_bias))
        if self._couple_carry_transform_gates:
            transform = 1 - carry
        else:
            transform_weight = v1.get_variable("transform_w", [input_size, input_size])
            transform_bias = v1.get_variable(
                "transform_b", [input_size], initializer=v1.constant_initializer(-self._carry_bias_init)
            )
            transform = tf.sigmoid(tf.compat.v1.nn.xw_plus_b(inp, transform_weight, transform_bias))
        return inp * carry + out * transform

    def __call__(self, inputs, state, scope=None):
        outputs, new_state = self._cell(inputs, state, scope=scope)
        tf.nest.assert_same_structure(inputs, outputs)

        def assert_shape_match(inp, out):
            inp.get_shape().assert_is_compatible_with(out.get_shape())

        tf.nest.map_structure(assert_shape_match, inputs, outputs)
        return tf.nest.map_structure(self._highway, inputs, outputs), new_state


class LayerNormBasicLSTMCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """LSTM with layer normalization (https://arxiv.org/abs/1607.06450) and recurrent dropout, as TF 1.15.

    Variables in the cell's scope (``layer_norm_basic_lstm_cell``): ``kernel`` (``[input + num_units,
    4 * num_units]``, gates ``i, j, f, o``; ``bias`` only when ``layer_norm=False``) and ``gamma``/``beta`` in
    ``input``, ``transform``, ``forget``, ``output`` and ``state``, starting at ``norm_gain``/``norm_shift``.
    The normalization is ``tf.contrib.layers.layer_norm``'s (epsilon 1e-12, 1e-3 in float16).
    """

    def __init__(
        self,
        num_units,
        forget_bias=1.0,
        input_size=None,
        activation=tf.tanh,
        layer_norm=True,
        norm_gain=1.0,
        norm_shift=0.0,
        dropout_keep_prob=1.0,
        dropout_prob_seed=None,
        reuse=None,
    ):
        super().__init__(_reuse=reuse)
        del input_size  # deprecated and unused in TF 1.15
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._activation = activation
        self._forget_bias = forget_bias
        self._keep_prob = dropout_keep_prob
        self._seed = dropout_prob_seed
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift

    @property
    def state_size(self):
        return _base.LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self):
        return self._num_units

    def _norm(self, inp, scope, dtype=tf.float32):
        shape = inp.get_shape()[-1:]
        with v1.variable_scope(scope):
            gamma = v1.get_variable(
                "gamma", shape=shape, initializer=v1.constant_initializer(self._norm_gain), dtype=dtype
            )
            beta = v1.get_variable(
                "beta", shape=shape, initializer=v1.constant_initializer(self._norm_shift), dtype=dtype
            )
            mean, variance = tf.nn.moments(inp, [1], keepdims=True)
            epsilon = 1e-3 if dtype == tf.float16 else 1e-12
            normalized = tf.nn.batch_normalization(inp, mean, variance, beta, gamma, epsilon)
        normalized.set_shape(inp.get_shape())
        return normalized

    def _linear(self, args):
        out_size = 4 * self._num_units
        proj_size = args.get_shape()[-1]
        weights = v1.get_variable("kernel", [proj_size, out_size], dtype=args.dtype)
        out = tf.matmul(args, weights)
        if not self._layer_norm:
            bias = v1.get_variable("bias", [out_size], dtype=args.dtype)
            out = tf.nn.bias_add(out, bias)
        return out

    def call(self, inputs, state):
        c, h = state
        args = tf.concat([inputs, h], 1)
        concat = self._linear(args)
        dtype = args.dtype
        i, j, f, o = tf.split(concat, 4, axis=1)
        if self._layer_norm:
            i = self._norm(i, "input", dtype=dtype)
            j = self._norm(j, "transform", dtype=dtype)
            f = self._norm(f, "forget", dtype=dtype)
            o = self._norm(o, "output", dtype=dtype)
        g = self._activation(j)
        if (not isinstance(self._keep_prob, float)) or self._keep_prob < 1:
            g = v1.nn.dropout(g, keep_prob=self._keep_prob, seed=self._seed)
        new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * g
        if self._layer_norm:
            new_c = self._norm(new_c, "state", dtype=dtype)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, _base.LSTMStateTuple(new_c, new_h)


class IntersectionRNNCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Intersection RNN (+RNN) cell (https://arxiv.org/abs/1611.09913), as TF 1.15.

    Input size must equal ``num_units`` unless ``num_in_proj`` is set (then ``in_projection/kernel``/``bias``
    project the input first). Variables: ``kernel``/``bias`` (``[num_units * 2, 4 * num_units]``, blocks
    ``gh, h, gy, y``) in the cell's scope.
    """

    def __init__(
        self, num_units, num_in_proj=None, initializer=None, forget_bias=1.0, y_activation=tf.nn.relu, reuse=None
    ):
        super().__init__(_reuse=reuse)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._num_input_proj = num_in_proj
        self._y_activation = y_activation
        self._linear1 = None
        self._linear2 = None

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def call(self, inputs, state):
        input_size = tf.compat.dimension_value(inputs.get_shape().with_rank(2)[1])
        if input_size is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            if input_size != self._num_units:
                if not self._num_input_proj:
                    raise ValueError(
                        "Must have input size == output size for Intersection RNN. To fix, num_in_proj should "
                        "be set to num_units at cell init."
                    )
                with v1.variable_scope("in_projection"):
                    if self._linear1 is None:
                        self._linear1 = _base.Linear(inputs, self._num_units, True)
                    inputs = self._linear1(inputs)
            n = self._num_units
            cell_inputs = tf.concat([inputs, state], 1)
            if self._linear2 is None:
                self._linear2 = _base.Linear(cell_inputs, 4 * n, True)
            rnn_matrix = self._linear2(cell_inputs)
            gh_act, h_act, gy_act, y_act = (rnn_matrix[:, k * n : (k + 1) * n] for k in range(4))
            h = tf.tanh(h_act)
            y = self._y_activation(y_act)
            gh = tf.sigmoid(gh_act + self._forget_bias)
            gy = tf.sigmoid(gy_act + self._forget_bias)
            new_state = gh * state + (1.0 - gh) * h
            new_y = gy * inputs + (1.0 - gy) * y
        return new_y, new_state


def _sharded_variables(name, shape, dtype, num_shards):
    """``name_0`` ... ``name_<num_shards - 1>``: ``shape`` split along its first axis, earlier shards larger."""
    if num_shards > shape[0]:
        raise ValueError("Too many shards: shape=%s, num_shards=%d" % (shape, num_shards))
    unit = shape[0] // num_shards
    remaining = shape[0] - unit * num_shards
    return [
        v1.get_variable(name + "_%d" % i, [unit + (1 if i < remaining else 0)] + list(shape[1:]), dtype=dtype)
        for i in range(num_shards)
    ]


def _concat_variable(name, shape, dtype, num_shards):
    """The shards of ``_sharded_variables`` as one tensor (``name/concat``, kept in ``CONCATENATED_VARIABLES``)."""
    shards = _sharded_variables(name, shape, dtype, num_shards)
    if len(shards) == 1:
        return shards[0]
    concat_name = name + "/concat"
    full_name = v1.get_variable_scope().name + "/" + concat_name + ":0"
    for value in v1.get_collection(v1.GraphKeys.CONCATENATED_VARIABLES):
        if value.name == full_name:
            return value
    concat = tf.concat(shards, 0, name=concat_name)
    v1.add_to_collection(v1.GraphKeys.CONCATENATED_VARIABLES, concat)
    return concat


def _layer_norm(gain, shift, inp, scope):
    """``tf.contrib.layers.layer_norm`` over the last axis of a 2-D ``inp`` with ``scope/gamma``, ``scope/beta``."""
    shape = inp.get_shape()[-1:]
    with v1.variable_scope(scope):
        gamma = v1.get_variable("gamma", shape=shape, initializer=v1.constant_initializer(gain))
        beta = v1.get_variable("beta", shape=shape, initializer=v1.constant_initializer(shift))
    with tf.name_scope(scope + "/LayerNorm"):
        mean, variance = tf.nn.moments(inp, [1], keepdims=True)
        epsilon = 1e-3 if inp.dtype == tf.float16 else 1e-12
        normalized = tf.nn.batch_normalization(inp, mean, variance, beta, gamma, epsilon)
    normalized.set_shape(inp.get_shape())
    return normalized


def _input_size(inputs):
    size = tf.compat.dimension_value(inputs.get_shape().with_rank(2)[1])
    if size is None:
        raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
    return size


def _warn_concatenated_state(cell):
    v1.logging.warn(
        "%s: Using a concatenated state is slower and will soon be deprecated.  Use state_is_tuple=True.", cell
    )


def _lstm_sizes(num_units, num_proj, state_is_tuple=True):
    """``(state_size, output_size)`` of an LSTM with an optional projection."""
    out = num_proj if num_proj else num_units
    if state_is_tuple:
        return _base.LSTMStateTuple(num_units, out), out
    return num_units + out, out


class CoupledInputForgetGateLSTMCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """LSTM whose input gate is ``1 - forget gate`` (https://arxiv.org/abs/1503.04069), as TF 1.15.

    Optional peepholes (``W_F_diag``, ``W_O_diag``), projection (``W_P_<shard>``, ``proj_clip``) and layer
    normalization (``transform``, ``forget``, ``output``, ``state``: ``gamma``/``beta``; the bias ``B`` is then
    created but unused). Variables: ``W_<shard>`` (``[input + output, 3 * num_units]``, gates ``j, f, o``), ``B``.
    As in TF 1.15, ``initializer`` is accepted and ignored.
    """

    def __init__(
        self,
        num_units,
        use_peepholes=False,
        initializer=None,
        num_proj=None,
        proj_clip=None,
        num_unit_shards=1,
        num_proj_shards=1,
        forget_bias=1.0,
        state_is_tuple=True,
        activation=tf.tanh,
        reuse=None,
        layer_norm=False,
        norm_gain=1.0,
        norm_shift=0.0,
    ):
        super().__init__(_reuse=reuse)
        _base.check_positive_int("num_units", num_units)
        if not state_is_tuple:
            _warn_concatenated_state(self)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._num_unit_shards = num_unit_shards
        self._num_proj_shards = num_proj_shards
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift
        self._state_size, self._output_size = _lstm_sizes(num_units, num_proj, state_is_tuple)

    @property
    def state_size(self):
        return self._state_size

    @property
    def output_size(self):
        return self._output_size

    def _norm(self, inp, scope):
        return _layer_norm(self._norm_gain, self._norm_shift, inp, scope) if self._layer_norm else inp

    def call(self, inputs, state):
        n = self._num_units
        num_proj = n if self._num_proj is None else self._num_proj
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = tf.slice(state, [0, 0], [-1, n])
            m_prev = tf.slice(state, [0, n], [-1, num_proj])
        dtype = inputs.dtype
        concat_w = _concat_variable("W", [_input_size(inputs) + num_proj, 3 * n], dtype, self._num_unit_shards)
        b = v1.get_variable("B", shape=[3 * n], initializer=v1.zeros_initializer(), dtype=dtype)
        lstm_matrix = tf.matmul(tf.concat([inputs, m_prev], 1), concat_w)
        if not self._layer_norm:
            lstm_matrix = tf.nn.bias_add(lstm_matrix, b)
        j, f, o = tf.split(value=lstm_matrix, num_or_size_splits=3, axis=1)
        j, f, o = self._norm(j, "transform"), self._norm(f, "forget"), self._norm(o, "output")
        if self._use_peepholes:
            w_f_diag = v1.get_variable("W_F_diag", shape=[n], dtype=dtype)
            w_o_diag = v1.get_variable("W_O_diag", shape=[n], dtype=dtype)
            f_act = tf.sigmoid(f + self._forget_bias + w_f_diag * c_prev)
        else:
            f_act = tf.sigmoid(f + self._forget_bias)
        c = self._norm(f_act * c_prev + (1 - f_act) * self._activation(j), "state")
        if self._use_peepholes:
            m = tf.sigmoid(o + w_o_diag * c) * self._activation(c)
        else:
            m = tf.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = tf.matmul(m, _concat_variable("W_P", [n, self._num_proj], dtype, self._num_proj_shards))
            if self._proj_clip is not None:
                m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = _base.LSTMStateTuple(c, m) if self._state_is_tuple else tf.concat([c, m], 1)
        return m, new_state


def _lstm_gates(i, j, f, c_prev, forget_bias, peep_i, peep_f):
    """``sigmoid(f + forget_bias + peep_f) * c_prev + sigmoid(i + peep_i) * tanh(j)`` (a None peep: left out)."""
    f_in = f + forget_bias if peep_f is None else f + forget_bias + peep_f
    i_in = i if peep_i is None else i + peep_i
    return tf.sigmoid(f_in) * c_prev + tf.sigmoid(i_in) * tf.tanh(j)


class TimeFreqLSTMCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Time-frequency LSTM (Sainath & Li, INTERSPEECH 2016), as TF 1.15.

    The input is cut into windows of ``feature_size`` every ``frequency_skip``; one LSTM runs over them, each
    window also seeing the previous window's output. The state concatenates ``[c, m]`` of every window; as in
    TF 1.15, ``state_size`` reports only ``2 * num_units`` (one window), and ``initializer`` is ignored.
    Variables: ``W_<shard>`` (``[feature_size + 2 * num_units, 4 * num_units]``, gates ``i, j, f, o``), ``B``,
    with peepholes ``W_F_diag``, ``W_I_diag``, ``W_O_diag``.
    """

    def __init__(
        self,
        num_units,
        use_peepholes=False,
        cell_clip=None,
        initializer=None,
        num_unit_shards=1,
        forget_bias=1.0,
        feature_size=None,
        frequency_skip=1,
        reuse=None,
    ):
        super().__init__(_reuse=reuse)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_unit_shards = num_unit_shards
        self._forget_bias = forget_bias
        self._feature_size = feature_size
        self._frequency_skip = frequency_skip

    @property
    def output_size(self):
        return self._num_units

    @property
    def state_size(self):
        return 2 * self._num_units

    def _variables(self, input_size, dtype):
        n = self._num_units
        w = _concat_variable("W", [input_size + 2 * n, 4 * n], dtype, self._num_unit_shards)
        b = v1.get_variable("B", shape=[4 * n], initializer=v1.zeros_initializer(), dtype=dtype)
        peep = None
        if self._use_peepholes:
            peep = [v1.get_variable(name, shape=[n], dtype=dtype) for name in ("W_F_diag", "W_I_diag", "W_O_diag")]
        return w, b, peep

    def call(self, inputs, state):
        n = self._num_units
        freq_inputs = self._make_tf_features(inputs)
        dtype = inputs.dtype
        w, b, peep = self._variables(freq_inputs[0].get_shape().as_list()[1], dtype)
        batch = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        m_prev_freq = tf.zeros([batch, n], dtype)
        states, outputs = [], []
        for fq, freq_input in enumerate(freq_inputs):
            c_prev = tf.slice(state, [0, 2 * fq * n], [-1, n])
            m_prev = tf.slice(state, [0, (2 * fq + 1) * n], [-1, n])
            lstm_matrix = tf.nn.bias_add(tf.matmul(tf.concat([freq_input, m_prev, m_prev_freq], 1), w), b)
            i, j, f, o = tf.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
            if peep:
                c = _lstm_gates(i, j, f, c_prev, self._forget_bias, peep[1] * c_prev, peep[0] * c_prev)
            else:
                c = _lstm_gates(i, j, f, c_prev, self._forget_bias, None, None)
            if self._cell_clip is not None:
                c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
            m = tf.sigmoid(o + peep[2] * c if peep else o) * tf.tanh(c)
            m_prev_freq = m
            states.extend([c, m])
            outputs.append(m)
        return tf.concat(outputs, 1), tf.concat(states, 1)

    def _make_tf_features(self, input_feat):
        input_size = tf.compat.dimension_value(input_feat.get_shape().with_rank(2)[-1])
        if input_size is None:
            raise ValueError("Cannot infer input_size from static shape inference.")
        num_feats = int((input_size - self._feature_size) / self._frequency_skip) + 1
        return [tf.slice(input_feat, [0, f * self._frequency_skip], [-1, self._feature_size]) for f in range(num_feats)]


def _state_tuple_type(type_name, prefixes, num_frequency_blocks):
    names = []
    for prefix in prefixes:
        for block, count in enumerate(num_frequency_blocks):
            for freq in range(count):
                names.extend(["%s_f%02d_b%02d_c" % (prefix, freq, block), "%s_f%02d_b%02d_m" % (prefix, freq, block)])
    return collections.namedtuple(type_name, names)


class GridLSTMCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Grid LSTM (https://arxiv.org/abs/1507.01526) over frequency blocks, as TF 1.15.

    For every block ``b`` and window a frequency LSTM and a time LSTM run (``share_time_frequency_weights``:
    the same weights). Variables per block: ``W_f_<b>_<shard>``, ``B_f_<b>``, ``W_t_<b>_<shard>``, ``B_t_<b>``
    (``[feature_size + 2 * num_units, gates * num_units]``, gates ``i, j, f, o``; ``i, j, o`` with
    ``couple_input_forget_gates``), and with peepholes ``W_{F,I,O}_diag_{freq,time}{f,t}_<b>``. The output
    concatenates ``[m_time, m_freq]`` of every window. As in TF 1.15, ``initializer`` is ignored, and a
    concatenated state (``state_is_tuple=False``) is read at the same offsets for every block.
    """

    def __init__(
        self,
        num_units,
        use_peepholes=False,
        share_time_frequency_weights=False,
        cell_clip=None,
        initializer=None,
        num_unit_shards=1,
        forget_bias=1.0,
        feature_size=None,
        frequency_skip=None,
        num_frequency_blocks=None,
        start_freqindex_list=None,
        end_freqindex_list=None,
        couple_input_forget_gates=False,
        state_is_tuple=True,
        reuse=None,
    ):
        super().__init__(_reuse=reuse)
        _base.check_positive_int("num_units", num_units)
        if not state_is_tuple:
            _warn_concatenated_state(self)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._share_time_frequency_weights = share_time_frequency_weights
        self._couple_input_forget_gates = couple_input_forget_gates
        self._state_is_tuple = state_is_tuple
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_unit_shards = num_unit_shards
        self._forget_bias = forget_bias
        self._feature_size = feature_size
        self._frequency_skip = frequency_skip
        self._start_freqindex_list = start_freqindex_list
        self._end_freqindex_list = end_freqindex_list
        self._num_frequency_blocks = num_frequency_blocks
        if num_frequency_blocks is None:
            raise ValueError("Must specify num_frequency_blocks")
        self._total_blocks = sum(int(count) for count in num_frequency_blocks)
        if state_is_tuple:
            self._state_tuple_type = _state_tuple_type("GridLSTMStateTuple", ["state"], num_frequency_blocks)
            self._state_size = self._state_tuple_type(*([num_units, num_units] * self._total_blocks))
        else:
            self._state_tuple_type = None
            self._state_size = num_units * self._total_blocks * 2
        self._output_size = num_units * self._total_blocks * 2

    @property
    def output_size(self):
        return self._output_size

    @property
    def state_size(self):
        return self._state_size

    @property
    def state_tuple_type(self):
        return self._state_tuple_type

    def call(self, inputs, state):
        batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        m_out, state_out = [], []
        for block, block_inputs in enumerate(self._make_tf_features(inputs)):
            m_block, state_block = self._compute(block_inputs, block, state, batch_size, "state", self._state_is_tuple)
            m_out.extend(m_block)
            state_out.extend(state_block)
        state_out = self._state_tuple_type(*state_out) if self._state_is_tuple else tf.concat(state_out, 1)
        return tf.concat(m_out, 1), state_out

    def _block_variables(self, block, input_size, dtype):
        """``{"freq": (W, B, peepholes), "time": (...)}`` of one block; peepholes ``(wif, wit, wff, wft, wof, wot)``."""
        n = self._num_units
        gates = 3 if self._couple_input_forget_gates else 4
        directions = ("freq",) if self._share_time_frequency_weights else ("freq", "time")
        weights = {}
        for direction in directions:
            tag = direction[0]
            shape = [input_size + 2 * n, gates * n]
            w = _concat_variable("W_%s_%d" % (tag, block), shape, dtype, self._num_unit_shards)
            b = v1.get_variable("B_%s_%d" % (tag, block), [gates * n], initializer=v1.zeros_initializer(), dtype=dtype)
            weights[direction] = [w, b, None]
        if self._use_peepholes:
            for direction in directions:
                diag = {}
                for gate in ("F", "I", "O") if not self._couple_input_forget_gates else ("I", "O"):
                    for source in ("f", "t"):
                        name = "W_%s_diag_%s%s_%d" % (gate, direction, source, block)
                        diag[gate + source] = v1.get_variable(name, shape=[n], dtype=dtype)
                weights[direction][2] = diag
        weights.setdefault("time", weights["freq"])
        return weights

    def _gates(self, cell_inputs, weights):
        gates = tf.nn.bias_add(tf.matmul(cell_inputs, weights[0]), weights[1])
        if self._couple_input_forget_gates:
            i, j, o = tf.split(value=gates, num_or_size_splits=3, axis=1)
            return i, j, None, o
        return tuple(tf.split(value=gates, num_or_size_splits=4, axis=1))

    def _cell(self, gates, c_prev, c_prev_freq, c_prev_time, diag):
        """One LSTM's new cell state from its gates and the previous frequency and time cell states."""
        i, j, f, _ = gates
        if diag:
            i_g = tf.sigmoid(i + diag["If"] * c_prev_freq + diag["It"] * c_prev_time)
        else:
            i_g = tf.sigmoid(i)
        if self._couple_input_forget_gates:
            f_g = 1.0 - i_g
        elif diag:
            f_g = tf.sigmoid(f + self._forget_bias + diag["Ff"] * c_prev_freq + diag["Ft"] * c_prev_time)
        else:
            f_g = tf.sigmoid(f + self._forget_bias)
        c = f_g * c_prev + i_g * tf.tanh(j)
        if self._cell_clip is not None:
            c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
        return c

    def _prev_time(self, state, prefix, freq_index, block, state_is_tuple):
        n = self._num_units
        if state_is_tuple:
            name = "%s_f%02d_b%02d" % (prefix, freq_index, block)
            return getattr(state, name + "_c"), getattr(state, name + "_m")
        c = tf.slice(state, [0, 2 * freq_index * n], [-1, n])
        return c, tf.slice(state, [0, (2 * freq_index + 1) * n], [-1, n])

    def _compute(self, freq_inputs, block, state, batch_size, state_prefix="state", state_is_tuple=True):
        """One block: ``(outputs, states)`` lists, ``[m_time, m_freq]`` and ``[c_time, m_time]`` per window."""
        dtype = freq_inputs[0].dtype
        weights = self._block_variables(block, freq_inputs[0].get_shape().as_list()[1], dtype)
        m_prev_freq = tf.zeros([batch_size, self._num_units], dtype)
        c_prev_freq = tf.zeros([batch_size, self._num_units], dtype)
        m_out, state_out = [], []
        for freq_index, freq_input in enumerate(freq_inputs):
            c_prev_time, m_prev_time = self._prev_time(state, state_prefix, freq_index, block, state_is_tuple)
            cell_inputs = tf.concat([freq_input, m_prev_time, m_prev_freq], 1)
            freq_gates = self._gates(cell_inputs, weights["freq"])
            time_gates = freq_gates if self._share_time_frequency_weights else self._gates(cell_inputs, weights["time"])
            fdiag, tdiag = weights["freq"][2], weights["time"][2]
            c_freq = self._cell(freq_gates, c_prev_freq, c_prev_freq, c_prev_time, fdiag)
            c_time = self._cell(time_gates, c_prev_time, c_prev_freq, c_prev_time, tdiag)
            if fdiag:
                m_freq = tf.sigmoid(freq_gates[3] + fdiag["Of"] * c_freq + fdiag["Ot"] * c_time) * tf.tanh(c_freq)
                m_time = tf.sigmoid(time_gates[3] + tdiag["Of"] * c_freq + tdiag["Ot"] * c_time) * tf.tanh(c_time)
            else:
                m_freq = tf.sigmoid(freq_gates[3]) * tf.tanh(c_freq)
                m_time = tf.sigmoid(time_gates[3]) * tf.tanh(c_time)
            m_prev_freq, c_prev_freq = m_freq, c_freq
            state_out.extend([c_time, m_time])
            m_out.extend([m_time, m_freq])
        return m_out, state_out

    def _padded(self, input_feat, slice_offset):
        if slice_offset > 0:
            return tf.pad(input_feat, tf.constant([0, 0, 0, slice_offset], shape=[2, 2], dtype=tf.int32)), slice_offset
        if slice_offset < 0:
            return tf.pad(input_feat, tf.constant([0, 0, -slice_offset, 0], shape=[2, 2], dtype=tf.int32)), 0
        return input_feat, 0

    def _make_tf_features(self, input_feat, slice_offset=0):
        """The windows of each frequency block: a list (per block) of lists of ``[batch, feature_size]`` slices."""
        input_size = tf.compat.dimension_value(input_feat.get_shape().with_rank(2)[-1])
        if input_size is None:
            raise ValueError("Cannot infer input_size from static shape inference.")
        inputs, slice_offset = self._padded(input_feat, slice_offset)
        if not self._start_freqindex_list:
            if len(self._num_frequency_blocks) != 1:
                raise ValueError(
                    "Length of num_frequency_blocks is not 1, but instead is %d" % len(self._num_frequency_blocks)
                )
            ranges = [(0, input_size)]
        else:
            if len(self._start_freqindex_list) != len(self._end_freqindex_list):
                raise ValueError(
                    "Length of start and end freqindex_list does not match %d %d"
                    % (len(self._start_freqindex_list), len(self._end_freqindex_list))
                )
            if len(self._num_frequency_blocks) != len(self._start_freqindex_list):
                raise ValueError(
                    "Length of num_frequency_blocks is not equal to start_freqindex_list %d %d"
                    % (len(self._num_frequency_blocks), len(self._start_freqindex_list))
                )
            ranges = list(zip(self._start_freqindex_list, self._end_freqindex_list))
        freq_inputs = []
        for b, (start, end) in enumerate(ranges):
            num_feats = int((end - start - self._feature_size) / self._frequency_skip) + 1
            if num_feats != self._num_frequency_blocks[b]:
                raise ValueError(
                    "Invalid num_frequency_blocks, requires %d but gets %d, please check the input size and filter "
                    "config are correct." % (self._num_frequency_blocks[b], num_feats)
                )
            offsets = [start + slice_offset + f * self._frequency_skip for f in range(num_feats)]
            freq_inputs.append([tf.slice(inputs, [0, offset], [-1, self._feature_size]) for offset in offsets])
        return freq_inputs


class BidirectionalGridLSTMCell(GridLSTMCell):
    """``GridLSTMCell`` run over the frequency windows forward (scope ``fwd``) and backward (scope ``bwd``).

    The backward pass may read the input shifted by ``backward_slice_offset`` (zero-padded). The state is a
    ``BidirectionalGridLSTMStateTuple`` (``fwd_state_f<i>_b<j>_{c,m}``, then ``bwd_...``); the output
    concatenates the forward then the backward outputs. As in TF 1.15.
    """

    def __init__(
        self,
        num_units,
        use_peepholes=False,
        share_time_frequency_weights=False,
        cell_clip=None,
        initializer=None,
        num_unit_shards=1,
        forget_bias=1.0,
        feature_size=None,
        frequency_skip=None,
        num_frequency_blocks=None,
        start_freqindex_list=None,
        end_freqindex_list=None,
        couple_input_forget_gates=False,
        backward_slice_offset=0,
        reuse=None,
    ):
        super().__init__(
            num_units,
            use_peepholes,
            share_time_frequency_weights,
            cell_clip,
            initializer,
            num_unit_shards,
            forget_bias,
            feature_size,
            frequency_skip,
            num_frequency_blocks,
            start_freqindex_list,
            end_freqindex_list,
            couple_input_forget_gates,
            True,
            reuse,
        )
        self._backward_slice_offset = int(backward_slice_offset)
        self._state_tuple_type = _state_tuple_type(
            "BidirectionalGridLSTMStateTuple", ["fwd_state", "bwd_state"], self._num_frequency_blocks
        )
        self._state_size = self._state_tuple_type(*([num_units, num_units] * self._total_blocks * 2))
        self._output_size = 2 * num_units * self._total_blocks * 2

    def call(self, inputs, state):
        batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        fwd_inputs = self._make_tf_features(inputs)
        if self._backward_slice_offset:
            bwd_inputs = self._make_tf_features(inputs, self._backward_slice_offset)
        else:
            bwd_inputs = fwd_inputs
        m_out, state_out = [], []
        for direction, blocks in (("fwd", fwd_inputs), ("bwd", bwd_inputs)):
            with v1.variable_scope(direction):
                for block, block_inputs in enumerate(blocks):
                    if direction == "bwd":
                        block_inputs = block_inputs[::-1]
                    m_block, state_block = self._compute(
                        block_inputs, block, state, batch_size, state_prefix=direction + "_state", state_is_tuple=True
                    )
                    m_out.extend(m_block)
                    state_out.extend(state_block)
        return tf.concat(m_out, 1), self._state_tuple_type(*state_out)


class NASCell(_base.LayerRNNCell):
    """The recurrent cell found by Neural Architecture Search (https://arxiv.org/abs/1611.01578), as TF 1.15.

    Variables (scope ``nas_cell``): ``recurrent_kernel`` (``[output, 8 * num_units]``), ``kernel``
    (``[input, 8 * num_units]``), ``bias`` with ``use_bias``, ``projection_weights`` with ``num_proj``.
    """

    _NAS_BASE = 8

    def __init__(self, num_units, num_proj=None, use_bias=False, reuse=None, **kwargs):
        super().__init__(_reuse=reuse, **kwargs)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._num_proj = num_proj
        self._use_bias = use_bias
        self._state_size, self._output_size = _lstm_sizes(num_units, num_proj)

    @property
    def state_size(self):
        return self._state_size

    @property
    def output_size(self):
        return self._output_size

    def build(self, inputs_shape):
        input_size = tf.compat.dimension_value(tf.TensorShape(inputs_shape).with_rank(2)[1])
        if input_size is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        width = self._NAS_BASE * self._num_units
        self.recurrent_kernel = self.add_weight("recurrent_kernel", [num_proj, width])
        self.kernel = self.add_weight("kernel", [input_size, width])
        if self._use_bias:
            self.bias = self.add_weight("bias", shape=[width], initializer=v1.zeros_initializer())
        if self._num_proj is not None:
            self.projection_weights = self.add_weight("projection_weights", [self._num_units, self._num_proj])
        self.built = True

    def call(self, inputs, state):
        sigmoid, tanh, relu = tf.sigmoid, tf.tanh, tf.nn.relu
        c_prev, m_prev = state
        m_matrix = tf.matmul(m_prev, self.recurrent_kernel)
        inputs_matrix = tf.matmul(inputs, self.kernel)
        if self._use_bias:
            m_matrix = tf.nn.bias_add(m_matrix, self.bias)
        m = tf.split(axis=1, num_or_size_splits=self._NAS_BASE, value=m_matrix)
        x = tf.split(axis=1, num_or_size_splits=self._NAS_BASE, value=inputs_matrix)
        layer1 = [
            sigmoid(x[0] + m[0]),
            relu(x[1] + m[1]),
            sigmoid(x[2] + m[2]),
            relu(x[3] * m[3]),
            tanh(x[4] + m[4]),
            sigmoid(x[5] + m[5]),
            tanh(x[6] + m[6]),
            sigmoid(x[7] + m[7]),
        ]
        l2_0 = tanh(layer1[0] * layer1[1])
        l2_1 = tanh(layer1[2] + layer1[3])
        l2_2 = tanh(layer1[4] * layer1[5])
        l2_3 = sigmoid(layer1[6] + layer1[7])
        l2_0 = tanh(l2_0 + c_prev)
        new_c = l2_0 * l2_1
        new_m = tanh(new_c * tanh(l2_2 + l2_3))
        if self._num_proj is not None:
            new_m = tf.matmul(new_m, self.projection_weights)
        return new_m, _base.LSTMStateTuple(new_c, new_m)


class UGRNNCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Update Gate RNN (https://arxiv.org/abs/1611.09913), as TF 1.15.

    ``[g, c] = [x, h] @ kernel + bias``; ``h' = sigmoid(g + forget_bias) * h + (1 - sigmoid(...)) * act(c)``.
    Variables: ``kernel`` (``[input + num_units, 2 * num_units]``), ``bias`` in the cell's scope.
    """

    def __init__(self, num_units, initializer=None, forget_bias=1.0, activation=tf.tanh, reuse=None):
        super().__init__(_reuse=reuse)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._activation = activation
        self._linear = None

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def call(self, inputs, state):
        _input_size(inputs)
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            cell_inputs = tf.concat([inputs, state], 1)
            if self._linear is None:
                self._linear = _base.Linear(cell_inputs, 2 * self._num_units, True)
            g_act, c_act = tf.split(axis=1, num_or_size_splits=2, value=self._linear(cell_inputs))
            c = self._activation(c_act)
            g = tf.sigmoid(g_act + self._forget_bias)
            new_state = g * state + (1.0 - g) * c
        return new_state, new_state


class CompiledWrapper(_base.CellWrapper):
    """Builds each step of ``cell`` in an XLA JIT scope (``tf.xla.experimental.jit_scope``), as TF 1.15.

    ``compile_stateful=False`` (the default) leaves stateful ops (initializers, random ops) out of the cluster.
    """

    def __init__(self, cell, compile_stateful=False):
        super().__init__()
        _base.check_cell("cell", cell)
        self._cell = cell
        self._compile_stateful = compile_stateful

    def __call__(self, inputs, state, scope=None):
        if self._compile_stateful:
            compile_ops = True
        else:
            from tf1clip.compat import _tf

            def compile_ops(node_def):
                return not _tf.op_is_stateful(node_def.op)

        with tf.xla.experimental.jit_scope(compile_ops=compile_ops):
            return self._cell(inputs, state, scope=scope)


def _random_exp_initializer(minval, maxval, seed=None, dtype=tf.float32):
    """``exp(uniform(log(minval), log(maxval)))``: PhasedLSTMCell's period initializer."""

    def _initializer(shape, dtype=dtype, partition_info=None):
        del partition_info
        return tf.exp(v1.random_uniform(shape, tf.math.log(minval), tf.math.log(maxval), dtype, seed=seed))

    return _initializer


class PhasedLSTMCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Phased LSTM (https://arxiv.org/abs/1610.09513), as TF 1.15; inputs are ``(time [batch, 1], x)``.

    Variables: ``mask_gates/{kernel,bias}`` (input and forget gates), ``new_input/{kernel,bias}``,
    ``output_gate/{kernel,bias}``, ``period`` (``exp(U(log(period_init_min), log(period_init_max)))``),
    ``phase`` (``U(0, period)``) and ``ratio_on`` (trainable with ``trainable_ratio_on``).
    """

    def __init__(
        self,
        num_units,
        use_peepholes=False,
        leak=0.001,
        ratio_on=0.1,
        trainable_ratio_on=True,
        period_init_min=1.0,
        period_init_max=1000.0,
        reuse=None,
    ):
        super().__init__(_reuse=reuse, autocast=False)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._leak = leak
        self._ratio_on = ratio_on
        self._trainable_ratio_on = trainable_ratio_on
        self._period_init_min = period_init_min
        self._period_init_max = period_init_max
        self._linears = {}

    @property
    def state_size(self):
        return _base.LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self):
        return self._num_units

    def _mod(self, x, y):
        """``x mod y`` whose gradient with respect to ``x`` is 1."""
        return tf.stop_gradient(tf.math.floormod(x, y) - x) + x

    def _get_cycle_ratio(self, time, phase, period):
        phase_casted = tf.cast(phase, dtype=time.dtype)
        period_casted = tf.cast(period, dtype=time.dtype)
        cycle_ratio = self._mod(time - phase_casted, period_casted) / period_casted
        return tf.cast(cycle_ratio, dtype=tf.float32)

    def _linear(self, scope, args, size):
        with v1.variable_scope(scope):
            if scope not in self._linears:
                self._linears[scope] = _base.Linear(args, size, True)
            return self._linears[scope](args)

    def call(self, inputs, state):
        c_prev, h_prev = state
        time, x = inputs
        in_mask_gates = [x, h_prev] + ([c_prev] if self._use_peepholes else [])
        mask_gates = tf.sigmoid(self._linear("mask_gates", in_mask_gates, 2 * self._num_units))
        input_gate, forget_gate = tf.split(axis=1, num_or_size_splits=2, value=mask_gates)
        new_input = tf.tanh(self._linear("new_input", [x, h_prev], self._num_units))
        new_c = c_prev * forget_gate + input_gate * new_input
        in_out_gate = [x, h_prev] + ([new_c] if self._use_peepholes else [])
        output_gate = tf.sigmoid(self._linear("output_gate", in_out_gate, self._num_units))
        new_h = tf.tanh(new_c) * output_gate
        period_init = _random_exp_initializer(self._period_init_min, self._period_init_max)
        period = v1.get_variable("period", [self._num_units], initializer=period_init)
        phase = v1.get_variable(
            "phase", [self._num_units], initializer=v1.random_uniform_initializer(0.0, period.initial_value)
        )
        ratio_on = v1.get_variable(
            "ratio_on",
            [self._num_units],
            initializer=v1.constant_initializer(self._ratio_on),
            trainable=self._trainable_ratio_on,
        )
        cycle_ratio = self._get_cycle_ratio(time, phase, period)
        k_up = 2 * cycle_ratio / ratio_on
        k_down = 2 - k_up
        k_closed = self._leak * cycle_ratio
        k = tf.where(cycle_ratio < ratio_on, k_down, k_closed)
        k = tf.where(cycle_ratio < 0.5 * ratio_on, k_up, k)
        new_c = k * new_c + (1 - k) * c_prev
        new_h = k * new_h + (1 - k) * h_prev
        return new_h, _base.LSTMStateTuple(new_c, new_h)


def _conv(args, filter_size, num_features, bias, bias_start=0.0):
    """``concat(args, -1)`` convolved (SAME, stride 1) with ``kernel``, plus ``biases``: 1, 2 or 3 spatial axes."""
    shapes = [a.get_shape().as_list() for a in args]
    rank = len(shapes[0])
    depth = 0
    for shape in shapes:
        if len(shape) not in (3, 4, 5):
            raise ValueError("Conv Linear expects 3D, 4D or 5D arguments: %s" % str(shapes))
        if len(shape) != rank:
            raise ValueError("Conv Linear expects all args to be of same Dimension: %s" % str(shapes))
        depth += shape[-1]
    dtype = args[0].dtype
    kernel = v1.get_variable("kernel", filter_size + [depth, num_features], dtype=dtype)
    value = args[0] if len(args) == 1 else tf.concat(axis=rank - 1, values=args)
    if rank == 3:
        res = v1.nn.conv1d(value, kernel, 1, padding="SAME")
    elif rank == 4:
        res = v1.nn.conv2d(value, kernel, [1] * 4, padding="SAME")
    else:
        res = v1.nn.conv3d(value, kernel, [1] * 5, padding="SAME")
    if not bias:
        return res
    bias_term = v1.get_variable(
        "biases", [num_features], dtype=dtype, initializer=v1.constant_initializer(bias_start, dtype=dtype)
    )
    return res + bias_term


class ConvLSTMCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Convolutional LSTM (https://arxiv.org/abs/1506.04214), as TF 1.15.

    ``input_shape`` excludes the batch axis (``conv_ndims`` spatial axes and channels). Variables (scope
    ``conv_lstm_cell``, or ``conv_<n>d_lstm_cell``): ``kernel`` (``kernel_shape + [in + out channels,
    4 * output_channels]``, gates ``i, j, f, o``) and ``biases``. ``initializers`` is unused, as in TF 1.15.
    """

    def __init__(
        self,
        conv_ndims,
        input_shape,
        output_channels,
        kernel_shape,
        use_bias=True,
        skip_connection=False,
        forget_bias=1.0,
        initializers=None,
        name="conv_lstm_cell",
    ):
        super().__init__(name=name)
        if conv_ndims != len(input_shape) - 1:
            raise ValueError("Invalid input_shape {} for conv_ndims={}.".format(input_shape, conv_ndims))
        self._conv_ndims = conv_ndims
        self._input_shape = input_shape
        self._output_channels = output_channels
        self._kernel_shape = list(kernel_shape)
        self._use_bias = use_bias
        self._forget_bias = forget_bias
        self._skip_connection = skip_connection
        self._total_output_channels = output_channels
        if skip_connection:
            self._total_output_channels += input_shape[-1]
        state_size = tf.TensorShape(list(input_shape[:-1]) + [output_channels])
        self._state_size = _base.LSTMStateTuple(state_size, state_size)
        self._output_size = tf.TensorShape(list(input_shape[:-1]) + [self._total_output_channels])

    @property
    def output_size(self):
        return self._output_size

    @property
    def state_size(self):
        return self._state_size

    def call(self, inputs, state, scope=None):
        cell, hidden = state
        new_hidden = _conv([inputs, hidden], self._kernel_shape, 4 * self._output_channels, self._use_bias)
        input_gate, new_input, forget_gate, output_gate = tf.split(
            value=new_hidden, num_or_size_splits=4, axis=self._conv_ndims + 1
        )
        new_cell = tf.sigmoid(forget_gate + self._forget_bias) * cell
        new_cell += tf.sigmoid(input_gate) * tf.tanh(new_input)
        output = tf.tanh(new_cell) * tf.sigmoid(output_gate)
        if self._skip_connection:
            output = tf.concat([output, inputs], axis=-1)
        return output, _base.LSTMStateTuple(new_cell, output)


class Conv1DLSTMCell(ConvLSTMCell):
    """``ConvLSTMCell`` with ``conv_ndims=1`` (scope ``conv_1d_lstm_cell``)."""

    def __init__(self, name="conv_1d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=1, name=name, **kwargs)


class Conv2DLSTMCell(ConvLSTMCell):
    """``ConvLSTMCell`` with ``conv_ndims=2`` (scope ``conv_2d_lstm_cell``)."""

    def __init__(self, name="conv_2d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=2, name=name, **kwargs)


class Conv3DLSTMCell(ConvLSTMCell):
    """``ConvLSTMCell`` with ``conv_ndims=3`` (scope ``conv_3d_lstm_cell``)."""

    def __init__(self, name="conv_3d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=3, name=name, **kwargs)


class GLSTMCell(_base.RNNCell):  # type: ignore[misc,valid-type]
    """Group LSTM (https://arxiv.org/abs/1703.10722), as TF 1.15: ``number_of_groups`` LSTMs on equal slices.

    Variables: ``group<k>/kernel`` (no bias; gates ``i, j, f, o`` of the group), ``bias_i``, ``bias_j``,
    ``bias_f``, ``bias_o`` (``[num_units]``) and, with ``num_proj``, ``projection/kernel``.
    """

    def __init__(
        self,
        num_units,
        initializer=None,
        num_proj=None,
        number_of_groups=1,
        forget_bias=1.0,
        activation=tf.tanh,
        reuse=None,
    ):
        super().__init__(_reuse=reuse)
        _base.check_positive_int("num_units", num_units)
        _base.check_positive_int("number_of_groups", number_of_groups)
        self._num_units = num_units
        self._initializer = initializer
        self._num_proj = num_proj
        self._forget_bias = forget_bias
        self._activation = activation
        self._number_of_groups = number_of_groups
        if num_units % number_of_groups != 0:
            raise ValueError("num_units must be divisible by number_of_groups")
        if num_proj and num_proj % number_of_groups != 0:
            raise ValueError("num_proj must be divisible by number_of_groups")
        self._group_shape = [int((num_proj or num_units) / number_of_groups), int(num_units / number_of_groups)]
        self._state_size, self._output_size = _lstm_sizes(num_units, num_proj)
        self._linear1 = [None] * number_of_groups
        self._linear2 = None

    @property
    def state_size(self):
        return self._state_size

    @property
    def output_size(self):
        return self._output_size

    def _get_input_for_group(self, inputs, group_id, group_size):
        return tf.slice(
            inputs,
            [0, group_id * group_size],
            [self._batch_size, group_size],
            name="GLSTM_group%d_input_generation" % group_id,
        )

    def _group_gates(self, inputs, m_prev, input_group_size):
        parts = [[], [], [], []]
        for group_id in range(self._number_of_groups):
            with v1.variable_scope("group%d" % group_id):
                x_g_id = tf.concat(
                    [
                        self._get_input_for_group(inputs, group_id, input_group_size),
                        self._get_input_for_group(m_prev, group_id, self._group_shape[0]),
                    ],
                    axis=1,
                )
                if self._linear1[group_id] is None:
                    self._linear1[group_id] = _base.Linear(x_g_id, 4 * self._group_shape[1], False)
                for part, gate in zip(parts, tf.split(self._linear1[group_id](x_g_id), 4, 1)):
                    part.append(gate)
        return parts

    def call(self, inputs, state):
        c_prev, m_prev = state
        self._batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
        input_size = tf.compat.dimension_value(inputs.shape[1])
        if input_size is None:
            raise ValueError("input size must be statically known")
        if input_size % self._number_of_groups != 0:
            raise ValueError(
                "input size (%d) must be divisible by number_of_groups (%d)" % (input_size, self._number_of_groups)
            )
        dtype = inputs.dtype
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            parts = self._group_gates(inputs, m_prev, int(input_size / self._number_of_groups))
            biases = [
                v1.get_variable(name, [self._num_units], dtype=dtype, initializer=v1.constant_initializer(0.0, dtype))
                for name in ("bias_i", "bias_j", "bias_f", "bias_o")
            ]
            i, j, f, o = (tf.nn.bias_add(tf.concat(part, axis=1), b) for part, b in zip(parts, biases))
        c = tf.sigmoid(f + self._forget_bias) * c_prev + tf.sigmoid(i) * tf.tanh(j)
        m = tf.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            with v1.variable_scope("projection"):
                if self._linear2 is None:
                    self._linear2 = _base.Linear(m, self._num_proj, False)
                m = self._linear2(m)
        return m, _base.LSTMStateTuple(c, m)


def _input_depth(inputs_shape):
    depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
    if depth is None:
        raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s" % inputs_shape)
    return depth


class SRUCell(_base.LayerRNNCell):
    """Simple Recurrent Unit (https://arxiv.org/abs/1709.02755), as TF 1.15.

    ``[x_bar, f, r, x_tx] = x @ kernel``; ``[f, r] = sigmoid([f, r] + bias)``; ``c = f * c_prev + (1 - f) * x_bar``;
    ``h = r * act(c) + (1 - r) * x_tx``. Variables: ``kernel`` (``[input, 4 * num_units]``), ``bias``
    (``[2 * num_units]``).
    """

    def __init__(self, num_units, activation=None, reuse=None, name=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, **kwargs)
        _base.check_positive_int("num_units", num_units)
        self._num_units = num_units
        self._activation = activation or tf.tanh
        self.input_spec = v1.layers.InputSpec(ndim=2)

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape)
        self._kernel = self.add_weight(_base.WEIGHTS_NAME, shape=[depth, 4 * self._num_units])
        self._bias = self.add_weight(_base.BIAS_NAME, shape=[2 * self._num_units], initializer=v1.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        u = tf.matmul(inputs, self._kernel)
        x_bar, f_intermediate, r_intermediate, x_tx = tf.split(value=u, num_or_size_splits=4, axis=1)
        f_r = tf.sigmoid(tf.nn.bias_add(tf.concat([f_intermediate, r_intermediate], 1), self._bias))
        f, r = tf.split(value=f_r, num_or_size_splits=2, axis=1)
        c = f * state + (1.0 - f) * x_bar
        h = r * self._activation(c) + (1.0 - r) * x_tx
        return h, c


class _IndCell(_base.LayerRNNCell):
    """What IndRNN, IndyGRU and IndyLSTM share: 2-D inputs, ``num_units``, activation, initializers."""

    def __init__(
        self,
        num_units,
        activation=None,
        reuse=None,
        kernel_initializer=None,
        bias_initializer=None,
        name=None,
        dtype=None,
    ):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        _base.check_positive_int("num_units", num_units)
        self.input_spec = v1.layers.InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or tf.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def _recurrent(self, name, width):
        """A ``[1, width]`` recurrent weight vector starting uniform on ``[-1, 1]``."""
        return self.add_weight(name, shape=[1, width], initializer=v1.random_uniform_initializer(-1, 1))

    def _bias(self, name, width, default):
        initializer = self._bias_initializer if self._bias_initializer is not None else default
        return self.add_weight(name, shape=[width], initializer=initializer)


class IndRNNCell(_IndCell):
    """Independently recurrent cell (https://arxiv.org/abs/1803.04831), as TF 1.15.

    ``h = act(x @ kernel_w + h_prev * kernel_u + bias)``. Variables: ``kernel_w`` (``[input, num_units]``),
    ``kernel_u`` (``[1, num_units]``, uniform on ``[-1, 1]``), ``bias``.
    """

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None):
        super().__init__(num_units, activation=activation, reuse=reuse, name=name, dtype=dtype)

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape)
        self._kernel_w = self.add_weight("%s_w" % _base.WEIGHTS_NAME, shape=[depth, self._num_units])
        self._kernel_u = self._recurrent("%s_u" % _base.WEIGHTS_NAME, self._num_units)
        self._bias_v = self._bias(_base.BIAS_NAME, self._num_units, v1.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        gate_inputs = tf.matmul(inputs, self._kernel_w) + (state * self._kernel_u)
        output = self._activation(tf.nn.bias_add(gate_inputs, self._bias_v))
        return output, output


class IndyGRUCell(_IndCell):
    """GRU whose recurrent matrices are diagonal (IndRNN-style), as TF 1.15.

    Variables: ``gates/kernel_w`` (``[input, 2 * num_units]``, gates ``r, u``), ``gates/kernel_u``,
    ``gates/bias`` (starts at 1), ``candidate/kernel``, ``candidate/kernel_u``, ``candidate/bias`` (starts at 0).
    """

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape)
        n = self._num_units
        w, b = _base.WEIGHTS_NAME, _base.BIAS_NAME
        self._gate_kernel_w = self.add_weight(
            "gates/%s_w" % w, shape=[depth, 2 * n], initializer=self._kernel_initializer
        )
        self._gate_kernel_u = self._recurrent("gates/%s_u" % w, 2 * n)
        self._gate_bias = self._bias("gates/%s" % b, 2 * n, v1.constant_initializer(1.0))
        self._candidate_kernel_w = self.add_weight(
            "candidate/%s" % w, shape=[depth, n], initializer=self._kernel_initializer
        )
        self._candidate_kernel_u = self._recurrent("candidate/%s_u" % w, n)
        self._candidate_bias = self._bias("candidate/%s" % b, n, v1.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        gate_inputs = tf.matmul(inputs, self._gate_kernel_w) + (tf.tile(state, [1, 2]) * self._gate_kernel_u)
        value = tf.sigmoid(tf.nn.bias_add(gate_inputs, self._gate_bias))
        r, u = tf.split(value=value, num_or_size_splits=2, axis=1)
        candidate = tf.matmul(inputs, self._candidate_kernel_w) + (r * state * self._candidate_kernel_u)
        c = self._activation(tf.nn.bias_add(candidate, self._candidate_bias))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class IndyLSTMCell(_IndCell):
    """LSTM whose recurrent matrices are diagonal (https://arxiv.org/abs/1903.08023), as TF 1.15.

    Variables: ``kernel_w`` (``[input, 4 * num_units]``, gates ``i, j, f, o``), ``kernel_u`` (``[1, 4 * num_units]``),
    ``bias``; ``forget_bias`` is added to the forget gate.
    """

    def __init__(
        self,
        num_units,
        forget_bias=1.0,
        activation=None,
        reuse=None,
        kernel_initializer=None,
        bias_initializer=None,
        name=None,
        dtype=None,
    ):
        super().__init__(num_units, activation, reuse, kernel_initializer, bias_initializer, name, dtype)
        self._forget_bias = forget_bias

    @property
    def state_size(self):
        return _base.LSTMStateTuple(self._num_units, self._num_units)

    def build(self, inputs_shape):
        depth = _input_depth(inputs_shape)
        n = self._num_units
        self._kernel_w = self.add_weight(
            "%s_w" % _base.WEIGHTS_NAME, shape=[depth, 4 * n], initializer=self._kernel_initializer
        )
        self._kernel_u = self._recurrent("%s_u" % _base.WEIGHTS_NAME, 4 * n)
        self._bias_v = self._bias(_base.BIAS_NAME, 4 * n, v1.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        c, h = state
        gate_inputs = tf.matmul(inputs, self._kernel_w)
        gate_inputs += tf.tile(h, [1, 4]) * self._kernel_u
        gate_inputs = tf.nn.bias_add(gate_inputs, self._bias_v)
        i, j, f, o = tf.split(value=gate_inputs, num_or_size_splits=4, axis=1)
        forget_bias = tf.constant(self._forget_bias, dtype=f.dtype)
        new_c = tf.add(
            tf.multiply(c, tf.sigmoid(tf.add(f, forget_bias))), tf.multiply(tf.sigmoid(i), self._activation(j))
        )
        new_h = tf.multiply(self._activation(new_c), tf.sigmoid(o))
        return new_h, _base.LSTMStateTuple(new_c, new_h)
