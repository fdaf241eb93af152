"""``tf.contrib.seq2seq``'s attention: TF 1.15's ``contrib/seq2seq/python/ops/attention_wrapper.py``, re-created.

The attention mechanisms (``BahdanauAttention``, ``LuongAttention``, their monotonic variants), ``AttentionWrapper``
and ``AttentionWrapperState``, and ``hardmax``, ``safe_cumprod`` and ``monotonic_attention``, with TF 1.15's
semantics, defaults, errors, op order and variable names (so TF 1.15 checkpoints restore), on ``tf.compat.v1``
graphs and the cells of ``tf.compat.v1.nn.rnn_cell``. The layers are ``tf.compat.v1.layers.Dense``, as in TF
1.15: they need Keras 2 on TensorFlow 2.16+ (docs/seq2seq.rst). The private helpers TF 1.15 code subclassed or
imported (``_BaseAttentionMechanism``, ``_BaseMonotonicAttentionMechanism``, ``_bahdanau_score``,
``_luong_score``, ``_prepare_memory``, ``_maybe_mask_score``, ``_monotonic_probability_fn``,
``_compute_attention``, ``_zero_state_tensors``) keep their names and signatures. TF 1.15's Keras-style ``*V2``
mechanisms are not re-created.
"""

import collections
import functools
import math

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.rnn import _base
from tf1clip.contrib.seq2seq._shapes import zero_state_tensors

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1
_MODES = ("recursive", "parallel", "hard")
_MODE_ERROR = "mode must be 'recursive', 'parallel', or 'hard'."
_zero_state_tensors = zero_state_tensors  # TF 1.15's module name, which TF 1 code imported


def _assert_like_rnncell(cell_name, cell):
    """TF 1.15's ``rnn_cell_impl.assert_like_rnncell``: a ``TypeError`` listing what ``cell`` lacks."""
    conditions = [
        (hasattr(cell, "output_size"), "'output_size' property is missing"),
        (hasattr(cell, "state_size"), "'state_size' property is missing"),
        (
            hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state"),
            "either 'zero_state' or 'get_initial_state' method is required",
        ),
        (callable(cell), "is not callable"),
    ]
    errors = [error for ok, error in conditions if not ok]
    if errors:
        raise TypeError("The argument {!r} ({}) is not an RNNCell: {}.".format(cell_name, cell, ", ".join(errors)))


class AttentionMechanism(object):
    """The base of every attention mechanism ``AttentionWrapper`` accepts."""

    @property
    def alignments_size(self):
        raise NotImplementedError

    @property
    def state_size(self):
        raise NotImplementedError


def _check_layer(name, layer):
    if layer is not None and not isinstance(layer, v1.layers.Layer):
        raise TypeError("%s is not a Layer: %s" % (name, type(layer).__name__))


def _check_probability_fn(probability_fn):
    if not callable(probability_fn):
        raise TypeError("probability_fn must be callable, saw type: %s" % type(probability_fn).__name__)


class _BaseAttentionMechanism(AttentionMechanism):
    """Stores the query and memory layers and the (masked) memory, its keys and sizes."""

    def __init__(
        self,
        query_layer,
        memory,
        probability_fn,
        memory_sequence_length=None,
        memory_layer=None,
        check_inner_dims_defined=True,
        score_mask_value=None,
        custom_key_value_fn=None,
        name=None,
    ):
        _check_layer("query_layer", query_layer)
        _check_layer("memory_layer", memory_layer)
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype
        _check_probability_fn(probability_fn)
        if score_mask_value is None:
            score_mask_value = tf.as_dtype(self._memory_layer.dtype).as_numpy_dtype(-np.inf)
        self._probability_fn = lambda score, prev: probability_fn(
            _maybe_mask_score(score, memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value),
            prev,
        )
        with v1.name_scope(name, "BaseAttentionMechanismInit", tf.nest.flatten(memory)):
            self._values = _prepare_memory(
                memory, memory_sequence_length=memory_sequence_length, check_inner_dims_defined=check_inner_dims_defined
            )
            self._keys = self.memory_layer(self._values) if self.memory_layer else self._values
            if custom_key_value_fn is not None:
                self._keys, self._values = custom_key_value_fn(self._keys, self._values)
            self._batch_size = tf.compat.dimension_value(self._keys.shape[0]) or tf.shape(self._keys)[0]
            self._alignments_size = tf.compat.dimension_value(self._keys.shape[1]) or tf.shape(self._keys)[1]

    @property
    def memory_layer(self):
        return self._memory_layer

    @property
    def query_layer(self):
        return self._query_layer

    @property
    def values(self):
        return self._values

    @property
    def keys(self):
        return self._keys

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def alignments_size(self):
        return self._alignments_size

    @property
    def state_size(self):
        return self._alignments_size

    def initial_alignments(self, batch_size, dtype):
        """All-zero alignments ``[batch_size, alignments_size]``."""
        return zero_state_tensors(self._alignments_size, batch_size, dtype)

    def initial_state(self, batch_size, dtype):
        """The initial attention state: ``initial_alignments``."""
        return self.initial_alignments(batch_size, dtype)


def _luong_score(query, keys, scale):
    """Luong's multiplicative score ``[batch_size, max_time]`` of ``query`` against ``keys``, times ``scale``."""
    depth = query.get_shape()[-1]
    key_units = keys.get_shape()[-1]
    if depth != key_units:
        raise ValueError(
            "Incompatible or unknown inner dimensions between query and keys.  "
            "Query (%s) has units: %s.  Keys (%s) have units: %s.  "
            "Perhaps you need to set num_units to the keys' dimension (%s)?"
            % (query, depth, keys, key_units, key_units)
        )
    query = tf.expand_dims(query, 1)
    score = tf.matmul(query, keys, transpose_b=True)
    score = tf.squeeze(score, [1])
    if scale is not None:
        score = scale * score
    return score


def _dense(num_units, name, dtype):
    return v1.layers.Dense(num_units, name=name, use_bias=False, dtype=dtype)


def _ignore_state(probability_fn):
    if probability_fn is None:
        probability_fn = tf.nn.softmax
    _check_probability_fn(probability_fn)
    return lambda score, _: probability_fn(score)


class LuongAttention(_BaseAttentionMechanism):
    """Luong's multiplicative attention; ``scale=True`` multiplies the score by a learned scalar ``attention_g``.

    Variables: ``memory_layer/kernel`` where constructed; ``luong_attention/attention_g`` (``scale``) in the
    wrapper's scope.
    """

    def __init__(
        self,
        num_units,
        memory,
        memory_sequence_length=None,
        scale=False,
        probability_fn=None,
        score_mask_value=None,
        dtype=None,
        custom_key_value_fn=None,
        name="LuongAttention",
    ):
        dtype = tf.float32 if dtype is None else dtype
        super().__init__(
            query_layer=None,
            memory_layer=_dense(num_units, "memory_layer", dtype),
            memory=memory,
            probability_fn=_ignore_state(probability_fn),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value,
            custom_key_value_fn=custom_key_value_fn,
            name=name,
        )
        self._num_units = num_units
        self._scale = scale
        self._name = name

    def __call__(self, query, state):
        """``(alignments, next_state)`` for ``query`` ``[batch_size, query_depth]``; ``next_state`` is alignments."""
        with v1.variable_scope(None, "luong_attention", [query]):
            attention_g = _luong_scale(self._scale, query.dtype)
            score = _luong_score(query, self._keys, attention_g)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _luong_scale(scale, dtype):
    if not scale:
        return None
    return v1.get_variable("attention_g", dtype=dtype, initializer=v1.ones_initializer(dtype=dtype), shape=())


def _bahdanau_score(processed_query, keys, attention_v, attention_g=None, attention_b=None):
    """Bahdanau's additive score ``[batch_size, max_time]``; weight-normalized with ``attention_g`` and ``_b``."""
    processed_query = tf.expand_dims(processed_query, 1)
    if attention_g is not None and attention_b is not None:
        normed_v = attention_g * attention_v * tf.math.rsqrt(tf.reduce_sum(tf.square(attention_v)))
        return tf.reduce_sum(normed_v * tf.tanh(keys + processed_query + attention_b), [2])
    return tf.reduce_sum(attention_v * tf.tanh(keys + processed_query), [2])


def _bahdanau_variables(num_units, normalize, dtype):
    """``attention_v`` and, with ``normalize``, ``attention_g`` and ``attention_b`` in the current scope."""
    attention_v = v1.get_variable("attention_v", [num_units], dtype=dtype)
    if not normalize:
        return attention_v, None, None
    attention_g = v1.get_variable(
        "attention_g", dtype=dtype, initializer=v1.constant_initializer(math.sqrt(1.0 / num_units)), shape=()
    )
    attention_b = v1.get_variable("attention_b", [num_units], dtype=dtype, initializer=v1.zeros_initializer())
    return attention_v, attention_g, attention_b


class BahdanauAttention(_BaseAttentionMechanism):
    """Bahdanau's additive attention; ``normalize=True`` is its weight-normalized form.

    Variables: ``memory_layer/kernel`` where constructed; ``bahdanau_attention/query_layer/kernel``,
    ``bahdanau_attention/attention_v`` (and ``attention_g``, ``attention_b`` with ``normalize``) in the
    wrapper's scope.
    """

    def __init__(
        self,
        num_units,
        memory,
        memory_sequence_length=None,
        normalize=False,
        probability_fn=None,
        score_mask_value=None,
        dtype=None,
        custom_key_value_fn=None,
        name="BahdanauAttention",
    ):
        dtype = tf.float32 if dtype is None else dtype
        super().__init__(
            query_layer=_dense(num_units, "query_layer", dtype),
            memory_layer=_dense(num_units, "memory_layer", dtype),
            memory=memory,
            probability_fn=_ignore_state(probability_fn),
            custom_key_value_fn=custom_key_value_fn,
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value,
            name=name,
        )
        self._num_units = num_units
        self._normalize = normalize
        self._name = name

    def __call__(self, query, state):
        """``(alignments, next_state)`` for ``query`` ``[batch_size, query_depth]``; ``next_state`` is alignments."""
        with v1.variable_scope(None, "bahdanau_attention", [query]):
            processed_query = self.query_layer(query) if self.query_layer else query
            v, g, b = _bahdanau_variables(self._num_units, self._normalize, query.dtype)
            score = _bahdanau_score(processed_query, self._keys, v, attention_g=g, attention_b=b)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def safe_cumprod(x, *args, **kwargs):
    """``tf.math.cumprod`` computed as ``exp(cumsum(log(x)))`` (``x`` clipped to ``[tiny, 1]``) against underflow.

    ``*args`` and ``**kwargs`` are ``tf.cumsum``'s (``axis``, ``exclusive``, ``reverse``).
    """
    with v1.name_scope(None, "SafeCumprod", [x]):
        x = tf.convert_to_tensor(x, name="x")
        tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
        return tf.exp(tf.cumsum(tf.math.log(tf.clip_by_value(x, tiny, 1)), *args, **kwargs))


def _recursive_monotonic(p_choose_i, previous_attention):
    batch_size = tf.compat.dimension_value(p_choose_i.shape[0]) or tf.shape(p_choose_i)[0]
    shifted_1mp_choose_i = tf.concat([tf.ones((batch_size, 1)), 1 - p_choose_i[:, :-1]], 1)
    return p_choose_i * tf.transpose(
        v1.scan(
            lambda x, yz: tf.reshape(yz[0] * x + yz[1], (batch_size,)),
            [tf.transpose(shifted_1mp_choose_i), tf.transpose(previous_attention)],
            tf.zeros((batch_size,)),
        )
    )


def monotonic_attention(p_choose_i, previous_attention, mode):
    """The monotonic attention distribution ``[batch_size, input_length]`` from choosing probabilities.

    ``mode``: ``"recursive"`` (exact, a ``tf.scan``), ``"parallel"`` (closed form with cumulative sums and
    products) or ``"hard"`` (``p_choose_i`` all 0 or 1).
    """
    p_choose_i = tf.convert_to_tensor(p_choose_i, name="p_choose_i")
    previous_attention = tf.convert_to_tensor(previous_attention, name="previous_attention")
    if mode == "recursive":
        return _recursive_monotonic(p_choose_i, previous_attention)
    if mode == "parallel":
        cumprod_1mp_choose_i = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
        return (
            p_choose_i
            * cumprod_1mp_choose_i
            * tf.cumsum(previous_attention / tf.clip_by_value(cumprod_1mp_choose_i, 1e-10, 1.0), axis=1)
        )
    if mode == "hard":
        p_choose_i *= tf.cumsum(previous_attention, axis=1)
        return p_choose_i * tf.math.cumprod(1 - p_choose_i, axis=1, exclusive=True)
    raise ValueError(_MODE_ERROR)


def _monotonic_probability_fn(score, previous_alignments, sigmoid_noise, mode, seed=None):
    """Monotonic alignments from scores: optional pre-sigmoid noise, a (hard) sigmoid, ``monotonic_attention``."""
    if sigmoid_noise > 0:
        noise = tf.random.normal(tf.shape(score), dtype=score.dtype, seed=seed)
        score += sigmoid_noise * noise
    if mode == "hard":
        p_choose_i = tf.cast(score > 0, score.dtype)
    else:
        p_choose_i = tf.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)


class _BaseMonotonicAttentionMechanism(_BaseAttentionMechanism):
    """A mechanism whose initial alignments are ``[1, 0, ..., 0]`` (what monotonic attention needs)."""

    def initial_alignments(self, batch_size, dtype):
        """One-hot alignments on the first memory step, ``[batch_size, alignments_size]``."""
        return tf.one_hot(tf.zeros((batch_size,), dtype=tf.int32), self._alignments_size, dtype=dtype)


def _monotonic_fn(mode, sigmoid_noise, sigmoid_noise_seed):
    if mode not in _MODES:
        raise ValueError(_MODE_ERROR)
    return functools.partial(_monotonic_probability_fn, sigmoid_noise=sigmoid_noise, mode=mode, seed=sigmoid_noise_seed)


def _add_score_bias(score, score_bias_init, dtype):
    return score + v1.get_variable("attention_score_bias", dtype=dtype, initializer=score_bias_init)


class BahdanauMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Monotonic attention with Bahdanau's score plus a learned scalar ``attention_score_bias``.

    Variables: those of ``BahdanauAttention`` under ``bahdanau_monotonic_attention``, and
    ``bahdanau_monotonic_attention/attention_score_bias`` (initial value ``score_bias_init``).
    """

    def __init__(
        self,
        num_units,
        memory,
        memory_sequence_length=None,
        normalize=False,
        score_mask_value=None,
        sigmoid_noise=0.0,
        sigmoid_noise_seed=None,
        score_bias_init=0.0,
        mode="parallel",
        dtype=None,
        name="BahdanauMonotonicAttention",
    ):
        dtype = tf.float32 if dtype is None else dtype
        super().__init__(
            query_layer=_dense(num_units, "query_layer", dtype),
            memory_layer=_dense(num_units, "memory_layer", dtype),
            memory=memory,
            probability_fn=_monotonic_fn(mode, sigmoid_noise, sigmoid_noise_seed),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value,
            name=name,
        )
        self._num_units = num_units
        self._normalize = normalize
        self._name = name
        self._score_bias_init = score_bias_init

    def __call__(self, query, state):
        """``(alignments, next_state)`` for ``query``; ``state`` is the previous alignments."""
        with v1.variable_scope(None, "bahdanau_monotonic_attention", [query]):
            processed_query = self.query_layer(query) if self.query_layer else query
            v, g, b = _bahdanau_variables(self._num_units, self._normalize, query.dtype)
            score = _bahdanau_score(processed_query, self._keys, v, attention_g=g, attention_b=b)
            score = _add_score_bias(score, self._score_bias_init, processed_query.dtype)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class LuongMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Monotonic attention with Luong's score plus a learned scalar ``attention_score_bias``.

    Variables: ``memory_layer/kernel``; ``luong_monotonic_attention/attention_g`` (``scale``) and
    ``luong_monotonic_attention/attention_score_bias`` (initial value ``score_bias_init``).
    """

    def __init__(
        self,
        num_units,
        memory,
        memory_sequence_length=None,
        scale=False,
        score_mask_value=None,
        sigmoid_noise=0.0,
        sigmoid_noise_seed=None,
        score_bias_init=0.0,
        mode="parallel",
        dtype=None,
        name="LuongMonotonicAttention",
    ):
        dtype = tf.float32 if dtype is None else dtype
        super().__init__(
            query_layer=None,
            memory_layer=_dense(num_units, "memory_layer", dtype),
            memory=memory,
            probability_fn=_monotonic_fn(mode, sigmoid_noise, sigmoid_noise_seed),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value,
            name=name,
        )
        self._num_units = num_units
        self._scale = scale
        self._score_bias_init = score_bias_init
        self._name = name

    def __call__(self, query, state):
        """``(alignments, next_state)`` for ``query``; ``state`` is the previous alignments."""
        with v1.variable_scope(None, "luong_monotonic_attention", [query]):
            attention_g = _luong_scale(self._scale, query.dtype)
            score = _luong_score(query, self._keys, attention_g)
            score = _add_score_bias(score, self._score_bias_init, query.dtype)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _assert_shape_op(expected_shape, tensor):
    with v1.name_scope("assert_shape", values=[tensor]) as scope:
        actual_shape = tf.shape(tensor, name="actual")
        with v1.name_scope("is_shape", values=[tensor]) as is_shape_scope:
            is_rank = tf.equal(tf.size(expected_shape), tf.rank(tensor))
            same = tf.reduce_all(tf.logical_or(tf.equal(expected_shape, -1), tf.equal(expected_shape, actual_shape)))
            is_shape = tf.logical_and(is_rank, same, name=is_shape_scope)
        message = "Wrong shape for %s [expected] [actual]." % tensor.name
        return tf.debugging.Assert(is_shape, [message, expected_shape, actual_shape], name=scope)


def _with_same_shape(old, new):
    """``new``, checked to have ``old``'s shape (statically, or by an assert op) and given it (contrib's)."""
    with v1.name_scope("%s/" % new.op.name, values=[old, new]):
        old_shape = old.get_shape()
        if old_shape.is_fully_defined():
            expected = np.asarray(old_shape.as_list(), dtype=np.int32)
        else:
            expected = tf.shape(old, name="expected_shape")
        actual = new.get_shape()
        if not actual.is_fully_defined() or isinstance(expected, tf.Tensor):
            with v1.name_scope("%s/" % new.op.name, values=[new]):
                if not isinstance(expected, tf.Tensor) and len(expected) < 1:
                    return tf.reshape(new, [])
                with tf.control_dependencies([_assert_shape_op(expected, new)]):
                    result = tf.identity(new)
                if not isinstance(expected, tf.Tensor):
                    result.set_shape(expected)
                return result
        if not actual.is_compatible_with(expected):
            if len(expected) < 1 and actual.is_compatible_with([1]):
                with v1.name_scope("%s/" % new.op.name, values=[new]):
                    return tf.reshape(new, [])
            raise ValueError("Invalid shape for tensor %s, expected %s, got %s." % (new.name, expected, actual))
        return new


class AttentionWrapperState(
    collections.namedtuple(
        "AttentionWrapperState",
        ("cell_state", "attention", "time", "alignments", "alignment_history", "attention_state"),
    )
):
    """The state of an ``AttentionWrapper``.

    ``cell_state`` (the wrapped cell's), ``attention`` (emitted at the previous step), ``time`` (int32 scalar),
    ``alignments``, ``alignment_history`` (``TensorArray``\\ s when enabled, else ``()``) and ``attention_state``,
    the last three one per mechanism (a tuple when the wrapper got a list of mechanisms).
    """

    def clone(self, **kwargs):
        """This state with the fields in ``kwargs`` replaced; a new tensor must have the old one's shape."""

        def with_same_shape(old, new):
            if isinstance(old, tf.Tensor) and isinstance(new, tf.Tensor):
                if not tf.executing_eagerly():
                    return _with_same_shape(old, new)
                if old.shape.as_list() != new.shape.as_list():
                    raise ValueError(
                        "The shape of the AttentionWrapperState is expected to be same as the one to clone. "
                        "self.shape: %s, input.shape: %s" % (old.shape, new.shape)
                    )
            return new

        return tf.nest.map_structure(with_same_shape, self, super()._replace(**kwargs))


def _prepare_memory(memory, memory_sequence_length=None, memory_mask=None, check_inner_dims_defined=True):
    """``memory`` as tensors, checked, and zeroed past ``memory_sequence_length`` (or where ``memory_mask`` is
    False)."""
    memory = tf.nest.map_structure(lambda m: tf.convert_to_tensor(m, name="memory"), memory)
    if memory_sequence_length is not None and memory_mask is not None:
        raise ValueError("memory_sequence_length and memory_mask can't be provided at same time.")
    if memory_sequence_length is not None:
        memory_sequence_length = tf.convert_to_tensor(memory_sequence_length, name="memory_sequence_length")
    if check_inner_dims_defined:
        for m in tf.nest.flatten(memory):
            if not m.get_shape()[2:].is_fully_defined():
                raise ValueError(
                    "Expected memory %s to have fully defined inner dims, but saw shape: %s" % (m.name, m.get_shape())
                )
    if memory_sequence_length is None and memory_mask is None:
        return memory
    first = tf.nest.flatten(memory)[0]
    if memory_sequence_length is not None:
        seq_len_mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(first)[1], dtype=first.dtype)
    else:
        seq_len_mask = tf.cast(memory_mask, dtype=first.dtype)

    def mask(m):
        rank = m.get_shape().ndims
        rank = rank if rank is not None else tf.rank(m)
        extra_ones = tf.ones(rank - 2, dtype=tf.int32)
        return m * tf.reshape(seq_len_mask, tf.concat((tf.shape(seq_len_mask), extra_ones), 0))

    return tf.nest.map_structure(mask, memory)


def _assert_positive(x, message):
    """TF 1.15's ``assert_positive(x, message=message)`` (TF 2's appends ``".  "`` to the message)."""
    with v1.name_scope(None, "assert_positive", [x]):
        x = tf.convert_to_tensor(x, name="x")
        data = [message, "Condition x > 0 did not hold element-wise:", "x (%s) = " % x.name, x]
        return v1.assert_less(tf.convert_to_tensor(0, dtype=x.dtype), x, data=data)


def _maybe_mask_score(score, memory_sequence_length=None, memory_mask=None, score_mask_value=None):
    """``score`` with ``score_mask_value`` past each ``memory_sequence_length`` (or where ``memory_mask`` is
    False)."""
    if memory_sequence_length is None and memory_mask is None:
        return score
    if memory_sequence_length is not None and memory_mask is not None:
        raise ValueError("memory_sequence_length and memory_mask can't be provided at same time.")
    if memory_sequence_length is not None:
        message = "All values in memory_sequence_length must be greater than zero."
        with tf.control_dependencies([_assert_positive(memory_sequence_length, message)]):
            memory_mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(score)[1])
    score_mask_values = score_mask_value * tf.ones_like(score)
    return v1.where(memory_mask, score, score_mask_values)


def hardmax(logits, name=None):
    """One-hot vectors (``logits``' dtype) at the maximum of ``logits`` along the last axis."""
    with v1.name_scope(name, "Hardmax", [logits]):
        logits = tf.convert_to_tensor(logits, name="logits")
        depth = tf.compat.dimension_value(logits.get_shape()[-1])
        if depth is None:
            depth = tf.shape(logits)[-1]
        return tf.one_hot(tf.argmax(logits, -1), depth, dtype=logits.dtype)


def _compute_attention(attention_mechanism, cell_output, attention_state, attention_layer):
    """``(attention, alignments, next_attention_state)`` of one mechanism for the cell output."""
    alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
    expanded_alignments = tf.expand_dims(alignments, 1)
    context_ = tf.matmul(expanded_alignments, attention_mechanism.values)
    context_ = tf.squeeze(context_, [1])
    if attention_layer is not None:
        attention = attention_layer(tf.concat([cell_output, context_], 1))
    else:
        attention = context_
    return attention, alignments, next_attention_state


def _as_sequence(value):
    return value if isinstance(value, (list, tuple)) else (value,)


_TILE_HINT = (
    "Non-matching batch sizes between the memory (encoder output) and %s.  Are you using the BeamSearchDecoder?  %s"
)


class AttentionWrapper(_base.RNNCell):
    """Wraps an ``RNNCell`` with one or more attention mechanisms (TF 1.15's ``tf.contrib.seq2seq``).

    Each step feeds ``cell_input_fn(inputs, previous attention)`` to ``cell``, scores the cell output with every
    mechanism, and makes the attention from the contexts (through ``attention_layer/kernel`` per mechanism when
    ``attention_layer_size`` is given); it outputs the attention (``output_attention``) or the cell output.
    Variables live under the wrapper's scope (``attention_wrapper``).
    """

    def __init__(
        self,
        cell,
        attention_mechanism,
        attention_layer_size=None,
        alignment_history=False,
        cell_input_fn=None,
        output_attention=True,
        initial_cell_state=None,
        name=None,
        attention_layer=None,
        attention_fn=None,
        dtype=None,
    ):
        super().__init__(name=name, dtype=dtype)
        _assert_like_rnncell("cell", cell)
        attention_mechanisms = self._check_mechanisms(attention_mechanism)
        if cell_input_fn is None:
            cell_input_fn = lambda inputs, attention: tf.concat([inputs, attention], -1)
        elif not callable(cell_input_fn):
            raise TypeError("cell_input_fn must be callable, saw type: %s" % type(cell_input_fn).__name__)
        self._set_attention_layers(cell, attention_mechanisms, attention_layer_size, attention_layer)
        self._attention_fn = _compute_attention if attention_fn is None else attention_fn
        self._cell = cell
        self._attention_mechanisms = attention_mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        with v1.name_scope(name, "AttentionWrapperInit"):
            if initial_cell_state is None:
                self._initial_cell_state = None
            else:
                final_state_tensor = tf.nest.flatten(initial_cell_state)[-1]
                state_batch_size = (
                    tf.compat.dimension_value(final_state_tensor.shape[0]) or tf.shape(final_state_tensor)[0]
                )
                error_message = "When constructing AttentionWrapper %s: " % self._base_name + _TILE_HINT % (
                    "initial_cell_state",
                    "You may need to tile your initial state via the tf.contrib.seq2seq.tile_batch function with "
                    "argument multiple=beam_width.",
                )
                with tf.control_dependencies(self._batch_size_checks(state_batch_size, error_message)):
                    self._initial_cell_state = tf.nest.map_structure(
                        lambda s: tf.identity(s, name="check_initial_cell_state"), initial_cell_state
                    )

    def _check_mechanisms(self, attention_mechanism):
        if isinstance(attention_mechanism, (list, tuple)):
            self._is_multi = True
            for mechanism in attention_mechanism:
                if not isinstance(mechanism, AttentionMechanism):
                    raise TypeError(
                        "attention_mechanism must contain only instances of AttentionMechanism, saw type: %s"
                        % type(mechanism).__name__
                    )
            return attention_mechanism
        self._is_multi = False
        if not isinstance(attention_mechanism, AttentionMechanism):
            raise TypeError(
                "attention_mechanism must be an AttentionMechanism or list of multiple AttentionMechanism "
                "instances, saw type: %s" % type(attention_mechanism).__name__
            )
        return (attention_mechanism,)

    def _set_attention_layers(self, cell, mechanisms, attention_layer_size, attention_layer):
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be set")
        if attention_layer_size is not None:
            sizes = tuple(_as_sequence(attention_layer_size))
            if len(sizes) != len(mechanisms):
                raise ValueError(
                    "If provided, attention_layer_size must contain exactly one integer per attention_mechanism, "
                    "saw: %d vs %d" % (len(sizes), len(mechanisms))
                )
            self._attention_layers = tuple(
                _dense(size, "attention_layer", mechanisms[i].dtype) for i, size in enumerate(sizes)
            )
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            self._attention_layers = tuple(_as_sequence(attention_layer))
            if len(self._attention_layers) != len(mechanisms):
                raise ValueError(
                    "If provided, attention_layer must contain exactly one layer per attention_mechanism, "
                    "saw: %d vs %d" % (len(self._attention_layers), len(mechanisms))
                )
            self._attention_layer_size = sum(
                tf.compat.dimension_value(
                    layer.compute_output_shape(
                        [None, cell.output_size + tf.compat.dimension_value(mechanism.values.shape[-1])]
                    )[-1]
                )
                for layer, mechanism in zip(self._attention_layers, mechanisms)
            )
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(tf.compat.dimension_value(m.values.shape[-1]) for m in mechanisms)

    def _batch_size_checks(self, batch_size, error_message):
        return [
            v1.assert_equal(batch_size, mechanism.batch_size, message=error_message)
            for mechanism in self._attention_mechanisms
        ]

    def _item_or_tuple(self, seq):
        """``seq`` as a tuple when the wrapper got a list of mechanisms, else its one item."""
        t = tuple(seq)
        return t if self._is_multi else t[0]

    @property
    def output_size(self):
        return self._attention_layer_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self):
        """An ``AttentionWrapperState`` of the sizes (``alignment_history``: ``()`` when disabled)."""
        return AttentionWrapperState(
            cell_state=self._cell.state_size,
            time=tf.TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(a.alignments_size for a in self._attention_mechanisms),
            attention_state=self._item_or_tuple(a.state_size for a in self._attention_mechanisms),
            alignment_history=self._item_or_tuple(
                a.alignments_size if self._alignment_history else () for a in self._attention_mechanisms
            ),
        )

    def zero_state(self, batch_size, dtype):
        """The initial ``AttentionWrapperState``: ``initial_cell_state`` or the cell's zero state, zeros, and
        empty ``TensorArray``\\ s for the alignment history; checks ``batch_size`` against the memory's."""
        with v1.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            elif hasattr(self._cell, "get_initial_state"):
                cell_state = self._cell.get_initial_state(batch_size=batch_size, dtype=dtype)
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            error_message = "When calling zero_state of AttentionWrapper %s: " % self._base_name + _TILE_HINT % (
                "the requested batch size",
                "If so, make sure your encoder output has been tiled to beam_width via tf.contrib.seq2seq.tile_batch, "
                "and the batch_size= argument passed to zero_state is batch_size * beam_width.",
            )
            with tf.control_dependencies(self._batch_size_checks(batch_size, error_message)):
                cell_state = tf.nest.map_structure(lambda s: tf.identity(s, name="checked_cell_state"), cell_state)
            initial_alignments = [m.initial_alignments(batch_size, dtype) for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state,
                time=tf.zeros([], dtype=tf.int32),
                attention=zero_state_tensors(self._attention_layer_size, batch_size, dtype),
                alignments=self._item_or_tuple(initial_alignments),
                attention_state=self._item_or_tuple(
                    m.initial_state(batch_size, dtype) for m in self._attention_mechanisms
                ),
                alignment_history=self._item_or_tuple(
                    tf.TensorArray(dtype, size=0, dynamic_size=True, element_shape=alignment.shape)
                    if self._alignment_history
                    else ()
                    for alignment in initial_alignments
                ),
            )

    def call(self, inputs, state):
        """One step: ``(attention or cell output, next AttentionWrapperState)``."""
        if not isinstance(state, AttentionWrapperState):
            raise TypeError(
                "Expected state to be instance of AttentionWrapperState. Received type %s instead." % type(state)
            )
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)
        cell_batch_size = tf.compat.dimension_value(cell_output.shape[0]) or tf.shape(cell_output)[0]
        error_message = "When applying AttentionWrapper %s: " % self.name + _TILE_HINT % (
            "the query (decoder output)",
            "You may need to tile your memory input via the tf.contrib.seq2seq.tile_batch function with argument "
            "multiple=beam_width.",
        )
        with tf.control_dependencies(self._batch_size_checks(cell_batch_size, error_message)):
            cell_output = tf.identity(cell_output, name="checked_cell_output")
        if self._is_multi:
            previous_attention_state = state.attention_state
            previous_alignment_history = state.alignment_history
        else:
            previous_attention_state = [state.attention_state]
            previous_alignment_history = [state.alignment_history]
        all_alignments, all_attentions, all_attention_states, maybe_all_histories = [], [], [], []
        for i, attention_mechanism in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                attention_mechanism,
                cell_output,
                previous_attention_state[i],
                self._attention_layers[i] if self._attention_layers else None,
            )
            history = previous_alignment_history[i].write(state.time, alignments) if self._alignment_history else ()
            all_attention_states.append(next_attention_state)
            all_alignments.append(alignments)
            all_attentions.append(attention)
            maybe_all_histories.append(history)
        attention = tf.concat(all_attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1,
            cell_state=next_cell_state,
            attention=attention,
            attention_state=self._item_or_tuple(all_attention_states),
            alignments=self._item_or_tuple(all_alignments),
            alignment_history=self._item_or_tuple(maybe_all_histories),
        )
        return (attention if self._output_attention else cell_output), next_state
