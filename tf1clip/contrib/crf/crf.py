"""``tf.contrib.crf``: TF 1.15's linear-chain CRF (``contrib/crf/python/ops/crf.py``), re-created.

Same equations, op order, shapes (including the ``max_seq_len == 1`` shortcuts) and the variable TF 1.15 made:
``crf_log_likelihood`` without ``transition_params`` creates ``transitions`` (``[num_tags, num_tags]``, the
variable scope's default initializer) in the caller's variable scope. Built on ``tf.compat.v1.nn.dynamic_rnn``;
needs no Keras. The three ``Crf*RnnCell`` classes are plain cell-like objects, not ``RNNCell`` subclasses.
"""

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def _smart_cond(pred, true_fn, false_fn):
    """``true_fn()`` or ``false_fn()`` when ``pred`` is constant (one branch in the graph), else ``tf.cond``."""
    value = tf.get_static_value(pred)
    if value is not None:
        return true_fn() if value else false_fn()
    return v1.cond(pred, true_fn=true_fn, false_fn=false_fn)


def _is_single_step(inputs):
    """TF 1.15's test ``max_seq_len == 1``: the static length if known and non-zero, else the dynamic one."""
    return tf.equal(tf.compat.dimension_value(inputs.shape[1]) or tf.shape(inputs)[1], 1)


def _mask_empty(values, sequence_lengths):
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(values), values)


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
    """Unnormalized score of each tag sequence: ``[batch_size]``.

    ``inputs`` ``[batch_size, max_seq_len, num_tags]`` unary potentials, ``tag_indices``
    ``[batch_size, max_seq_len]``, ``sequence_lengths`` ``[batch_size]``, ``transition_params``
    ``[num_tags, num_tags]``. With ``max_seq_len == 1`` it is the unary potential of the tag (0 where the
    length is <= 0).
    """

    def single():
        batch_size = tf.shape(inputs, out_type=tag_indices.dtype)[0]
        example_inds = tf.reshape(tf.range(batch_size, dtype=tag_indices.dtype), [-1, 1])
        scores = tf.gather_nd(tf.squeeze(inputs, [1]), tf.concat([example_inds, tag_indices], axis=1))
        return _mask_empty(scores, sequence_lengths)

    def multi():
        unary = crf_unary_score(tag_indices, sequence_lengths, inputs)
        binary = crf_binary_score(tag_indices, sequence_lengths, transition_params)
        return unary + binary

    return _smart_cond(_is_single_step(inputs), single, multi)


def crf_multitag_sequence_score(inputs, tag_bitmap, sequence_lengths, transition_params):
    """Log-sum-exp of the scores of every tag sequence allowed by the boolean ``tag_bitmap``: ``[batch_size]``.

    ``tag_bitmap`` is ``[batch_size, max_seq_len, num_tags]``; one-hot rows give ``crf_sequence_score``.
    With ``max_seq_len == 1`` the length is not looked at (as in TF 1.15).
    """

    def filtered():
        return tf.where(tag_bitmap, inputs, tf.fill(tf.shape(inputs), float("-inf")))

    def single():
        return tf.reduce_logsumexp(filtered(), axis=[1, 2], keepdims=False)

    def multi():
        return crf_log_norm(inputs=filtered(), sequence_lengths=sequence_lengths, transition_params=transition_params)

    return _smart_cond(_is_single_step(inputs), single, multi)


def crf_log_norm(inputs, sequence_lengths, transition_params):
    """Log partition function of the CRF, by the forward algorithm: ``[batch_size]`` (0 where length <= 0)."""
    first_input = tf.squeeze(tf.slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])

    def single():
        return _mask_empty(tf.reduce_logsumexp(first_input, [1]), sequence_lengths)

    def multi():
        rest_of_input = tf.slice(inputs, [0, 1, 0], [-1, -1, -1])
        forward_cell = CrfForwardRnnCell(transition_params)
        lengths_less_one = tf.maximum(tf.constant(0, dtype=sequence_lengths.dtype), sequence_lengths - 1)
        _, alphas = v1.nn.dynamic_rnn(
            cell=forward_cell,
            inputs=rest_of_input,
            sequence_length=lengths_less_one,
            initial_state=first_input,
            dtype=tf.float32,
        )
        return _mask_empty(tf.reduce_logsumexp(alphas, [1]), sequence_lengths)

    return _smart_cond(_is_single_step(inputs), single, multi)


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
    """``(log_likelihood [batch_size], transition_params)``: sequence score minus log norm.

    Without ``transition_params`` it creates ``tf.compat.v1.get_variable("transitions", [num_tags, num_tags])``
    in the current variable scope (TF 1.15's name) and returns it.
    """
    num_tags = tf.compat.dimension_value(inputs.shape[2])
    if transition_params is None:
        transition_params = v1.get_variable("transitions", [num_tags, num_tags])
    sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
    return sequence_scores - log_norm, transition_params


def crf_unary_score(tag_indices, sequence_lengths, inputs):
    """Sum over the first ``sequence_lengths`` steps of ``inputs[b, t, tag_indices[b, t]]``: ``[batch_size]``."""
    batch_size = tf.shape(inputs)[0]
    max_seq_len = tf.shape(inputs)[1]
    num_tags = tf.shape(inputs)[2]
    flattened_inputs = tf.reshape(inputs, [-1])
    offsets = tf.expand_dims(tf.range(batch_size) * max_seq_len * num_tags, 1)
    offsets += tf.expand_dims(tf.range(max_seq_len) * num_tags, 0)
    if tag_indices.dtype == tf.int64:
        offsets = tf.cast(offsets, tf.int64)
    flattened_tag_indices = tf.reshape(offsets + tag_indices, [-1])
    unary_scores = tf.reshape(tf.gather(flattened_inputs, flattened_tag_indices), [batch_size, max_seq_len])
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    return tf.reduce_sum(unary_scores * masks, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
    """Sum of ``transition_params[tag[t-1], tag[t]]`` over ``1 <= t < sequence_lengths``: ``[batch_size]``."""
    num_tags = tf.compat.dimension_value(transition_params.get_shape()[0])
    num_transitions = tf.shape(tag_indices)[1] - 1
    start_tag_indices = tf.slice(tag_indices, [0, 0], [-1, num_transitions])
    end_tag_indices = tf.slice(tag_indices, [0, 1], [-1, num_transitions])
    flattened_transition_indices = start_tag_indices * num_tags + end_tag_indices
    flattened_transition_params = tf.reshape(transition_params, [-1])
    binary_scores = tf.gather(flattened_transition_params, flattened_transition_indices)
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    truncated_masks = tf.slice(masks, [0, 1], [-1, -1])
    return tf.reduce_sum(binary_scores * truncated_masks, 1)


class _CrfCell:
    """What ``tf.compat.v1.nn.dynamic_rnn`` needs of a cell besides ``__call__``: sizes and a zero state."""

    _num_tags = None

    @property
    def state_size(self):
        return self._num_tags

    @property
    def output_size(self):
        return self._num_tags

    def zero_state(self, batch_size, dtype):
        """``tf.zeros([batch_size, state_size], dtype)``, as ``RNNCell.zero_state``."""
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            return tf.zeros(tf.stack([batch_size, self.state_size]), dtype=dtype)


class CrfForwardRnnCell(_CrfCell):
    """One step of the forward algorithm: ``alpha' = inputs + logsumexp_i(alpha[:, i, None] + transitions)``."""

    def __init__(self, transition_params):
        self._transition_params = tf.expand_dims(transition_params, 0)
        self._num_tags = tf.compat.dimension_value(transition_params.shape[0])

    def __call__(self, inputs, state, scope=None):
        """``(new_alphas, new_alphas)``, both ``[batch_size, num_tags]``; ``scope`` is unused."""
        transition_scores = tf.expand_dims(state, 2) + self._transition_params
        new_alphas = inputs + tf.reduce_logsumexp(transition_scores, [1])
        return new_alphas, new_alphas


def viterbi_decode(score, transition_params):
    """Best tag sequence outside TensorFlow (NumPy): ``(list of seq_len tag indices, its score)``.

    ``score`` is ``[seq_len, num_tags]``, ``transition_params`` ``[num_tags, num_tags]``.
    """
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        candidates = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(candidates, 0)
        backpointers[t] = np.argmax(candidates, 0)
    path = [np.argmax(trellis[-1])]
    for pointers in backpointers[:0:-1]:
        path.append(pointers[path[-1]])
    path.reverse()
    return path, np.max(trellis[-1])


class CrfDecodeForwardRnnCell(_CrfCell):
    """One Viterbi step: outputs int32 backpointers ``[batch_size, num_tags]``, state the new best scores."""

    def __init__(self, transition_params):
        self._transition_params = tf.expand_dims(transition_params, 0)
        self._num_tags = tf.compat.dimension_value(transition_params.shape[0])

    def __call__(self, inputs, state, scope=None):
        """``(backpointers, new_state)``; ``scope`` is unused."""
        transition_scores = tf.expand_dims(state, 2) + self._transition_params
        new_state = inputs + tf.reduce_max(transition_scores, [1])
        backpointers = tf.cast(tf.argmax(transition_scores, 1), dtype=tf.int32)
        return backpointers, new_state


class CrfDecodeBackwardRnnCell(_CrfCell):
    """One back-tracking step: the state ``[batch_size, 1]`` is a tag, the input that step's backpointers."""

    def __init__(self, num_tags):
        self._num_tags = num_tags

    @property
    def state_size(self):
        return 1

    @property
    def output_size(self):
        return 1

    def __call__(self, inputs, state, scope=None):
        """``(new_tags, new_tags)``, both ``[batch_size, 1]``; ``scope`` is unused."""
        state = tf.squeeze(state, axis=[1])
        b_indices = tf.range(tf.shape(inputs)[0])
        indices = tf.stack([b_indices, state], axis=1)
        new_tags = tf.expand_dims(tf.gather_nd(inputs, indices), axis=-1)
        return new_tags, new_tags


def crf_decode(potentials, transition_params, sequence_length):
    """Viterbi decoding in the graph: ``(decode_tags int32 [batch_size, max_seq_len], best_score [batch_size])``.

    Past each sequence's length the tags are 0; a length of 0 still gives the argmax tag at step 0 (TF 1.15's).
    """

    def single():
        squeezed = tf.squeeze(potentials, [1])
        decode_tags = tf.expand_dims(tf.argmax(squeezed, axis=1), 1)
        return tf.cast(decode_tags, dtype=tf.int32), tf.reduce_max(squeezed, axis=1)

    def multi():
        return _viterbi_in_graph(potentials, transition_params, sequence_length)

    return _smart_cond(_is_single_step(potentials), single, multi)


def _viterbi_in_graph(potentials, transition_params, sequence_length):
    num_tags = tf.compat.dimension_value(potentials.shape[2])
    forward_cell = CrfDecodeForwardRnnCell(transition_params)
    initial_state = tf.squeeze(tf.slice(potentials, [0, 0, 0], [-1, 1, -1]), axis=[1])
    inputs = tf.slice(potentials, [0, 1, 0], [-1, -1, -1])
    length_less_one = tf.maximum(tf.constant(0, dtype=sequence_length.dtype), sequence_length - 1)
    backpointers, last_score = v1.nn.dynamic_rnn(
        forward_cell,
        inputs=inputs,
        sequence_length=length_less_one,
        initial_state=initial_state,
        time_major=False,
        dtype=tf.int32,
    )
    backpointers = tf.reverse_sequence(backpointers, length_less_one, seq_axis=1, batch_axis=0)
    backward_cell = CrfDecodeBackwardRnnCell(num_tags)
    last_tag = tf.expand_dims(tf.cast(tf.argmax(last_score, axis=1), dtype=tf.int32), axis=-1)
    decode_tags, _ = v1.nn.dynamic_rnn(
        backward_cell,
        inputs=backpointers,
        sequence_length=length_less_one,
        initial_state=last_tag,
        time_major=False,
        dtype=tf.int32,
    )
    decode_tags = tf.concat([last_tag, tf.squeeze(decode_tags, axis=[2])], axis=1)
    decode_tags = tf.reverse_sequence(decode_tags, sequence_length, seq_axis=1, batch_axis=0)
    return decode_tags, tf.reduce_max(last_score, axis=1)
