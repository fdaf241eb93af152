"""``tf.contrib.rnn``'s ``AttentionCellWrapper``, ``HighwayWrapper``, ``LayerNormBasicLSTMCell`` and
``IntersectionRNNCell``, re-created from TF 1.15's ``contrib/rnn/python/ops/rnn_cell.py`` with its variable names.
"""

from tf1clip._tf import tf
from tf1clip.contrib.rnn import _base

__all__ = ["AttentionCellWrapper", "HighwayWrapper", "IntersectionRNNCell", "LayerNormBasicLSTMCell"]

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
