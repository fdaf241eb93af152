"""``tf.contrib.seq2seq.BeamSearchDecoder``, its state and outputs, ``tile_batch`` and ``gather_tree_from_array``
(TF 1.15's ``beam_search_decoder.py``)."""

import collections

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib.seq2seq import decoder
from tf1clip.contrib.seq2seq.basic_decoder import check_cell, check_output_layer, rnn_output_size
from tf1clip.contrib.seq2seq.beam_search_ops import gather_tree
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


class BeamSearchDecoderState(
    collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs")
    )
):
    pass


class BeamSearchDecoderOutput(
    collections.namedtuple("BeamSearchDecoderOutput", ("scores", "predicted_ids", "parent_ids"))
):
    pass


class FinalBeamSearchDecoderOutput(
    collections.namedtuple("FinalBeamDecoderOutput", ["predicted_ids", "beam_search_decoder_output"])
):
    """``predicted_ids``: ``[batch, time, beam]`` (time-major if asked) int32, the traced-back beams;
    ``beam_search_decoder_output``: the ``BeamSearchDecoderOutput`` of every step."""


def _tile_batch(t, multiplier):
    t = tf.convert_to_tensor(t, name="t")
    shape_t = tf.shape(t)
    if t.shape.ndims is None or t.shape.ndims < 1:
        raise ValueError("t must have statically known rank")
    tiling = [1] * (t.shape.ndims + 1)
    tiling[1] = multiplier
    static_batch = t.shape.dims[0].value
    tiled_static_batch_size = static_batch * multiplier if static_batch is not None else None
    tiled = tf.tile(tf.expand_dims(t, 1), tiling)
    tiled = tf.reshape(tiled, tf.concat(([shape_t[0] * multiplier], shape_t[1:]), 0))
    tiled.set_shape(tf.TensorShape([tiled_static_batch_size]).concatenate(t.shape[1:]))
    return tiled


def tile_batch(t, multiplier, name=None):
    """Repeats each batch entry of every tensor in ``t`` ``multiplier`` times, adjacent: ``[a, b]`` -> ``[a, a,
    b, b]`` (shape ``[batch * multiplier, ...]``), as a ``BeamSearchDecoder`` wants memories and states.

    Raises:
      ValueError: a tensor of unknown rank or rank 0 ("t must have statically known rank").
    """
    flat_t = tf.nest.flatten(t)
    with v1.name_scope(name, "tile_batch", flat_t + [multiplier]):
        return tf.nest.map_structure(lambda t_: _tile_batch(t_, multiplier), t)


def _dim(shape, i, tensor):
    return shape.dims[i].value or tf.shape(tensor)[i]


def gather_tree_from_array(t, parent_ids, sequence_length):
    """Reorders ``t`` (``[max_time, batch * beam, ...]`` or ``[max_time, batch, beam, ...]``) along the beams
    ``gather_tree`` traces through ``parent_ids`` (``[max_time, batch, beam]``), within ``sequence_length``
    (``[batch, beam]``); steps beyond a beam's length keep that beam's own entries."""
    max_time = _dim(parent_ids.shape, 0, parent_ids)
    batch_size = _dim(parent_ids.shape, 1, parent_ids)
    beam_width = _dim(parent_ids.shape, 2, parent_ids)
    beam_ids = tf.tile(tf.expand_dims(tf.expand_dims(tf.range(beam_width), 0), 0), [max_time, batch_size, 1])
    max_sequence_lengths = tf.cast(tf.reduce_max(sequence_length, axis=1), tf.int32)
    sorted_beam_ids = gather_tree(
        step_ids=beam_ids, parent_ids=parent_ids, max_sequence_lengths=max_sequence_lengths, end_token=beam_width + 1
    )
    in_bound_steps = tf.transpose(tf.sequence_mask(sequence_length, maxlen=max_time), perm=[2, 0, 1])
    sorted_beam_ids = v1.where(in_bound_steps, x=sorted_beam_ids, y=beam_ids)
    time_ind = tf.tile(tf.reshape(tf.range(max_time), [-1, 1, 1]), [1, batch_size, beam_width])
    batch_ind = tf.tile(tf.reshape(tf.range(batch_size), [-1, 1, 1]), [1, max_time, beam_width])
    batch_ind = tf.transpose(batch_ind, perm=[1, 0, 2])
    indices = tf.stack([time_ind, batch_ind, sorted_beam_ids], -1)
    final_shape = tf.shape(t)
    gather_from = tf.reshape(t, [max_time, batch_size, beam_width, -1])
    ordered = tf.gather_nd(gather_from, indices)
    return tf.reshape(ordered, final_shape)


def _check_ndims(t):
    if t.shape.ndims is None:
        raise ValueError("Expected tensor (%s) to have known rank, but ndims == None." % t)


def _check_static_batch_beam_maybe(shape, batch_size, beam_width):
    """False (with a warning) when ``shape`` cannot be split into ``[batch_size, beam_width, ...]``."""
    reshaped_shape = tf.TensorShape([batch_size, beam_width, None])
    if (
        batch_size is not None
        and shape.dims[0].value is not None
        and (
            shape[0] != batch_size * beam_width
            or (
                shape.ndims >= 2
                and shape.dims[1].value is not None
                and (shape[0] != batch_size or shape[1] != beam_width)
            )
        )
    ):
        v1.logging.warning(
            "TensorArray reordering expects elements to be reshapable to %s which is incompatible with the current "
            "shape %s. Consider setting reorder_tensor_arrays to False to disable TensorArray reordering during the "
            "beam search.",
            reshaped_shape,
            shape,
        )
        return False
    return True


def _check_batch_beam(t, batch_size, beam_width):
    """An ``Assert`` that the stacked array ``t`` splits into ``[batch_size, beam_width, ...]`` at run time."""
    error_message = (
        "TensorArray reordering expects elements to be reshapable to [batch_size, beam_size, -1] which is "
        "incompatible with the dynamic shape of %s elements. Consider setting reorder_tensor_arrays to False to "
        "disable TensorArray reordering during the beam search." % (t if tf.executing_eagerly() else t.name)
    )
    shape = tf.shape(t)
    if t.shape.ndims == 2:
        condition = tf.equal(shape[1], batch_size * beam_width)
    else:
        condition = tf.logical_or(
            tf.equal(shape[1], batch_size * beam_width),
            tf.logical_and(tf.equal(shape[1], batch_size), tf.equal(shape[2], beam_width)),
        )
    return tf.debugging.Assert(condition, [error_message])


def _as_shape(s):
    if tf.is_tensor(s):
        return tf.TensorShape(tf.get_static_value(s))
    return tf.TensorShape(s)


class BeamSearchDecoder(decoder.Decoder):
    """``tf.contrib.seq2seq.BeamSearchDecoder``: beam search over ``cell`` (+ ``output_layer``) logits.

    Args:
      cell: an ``RNNCell`` whose state is tiled to ``batch_size * beam_width`` (``tile_batch``).
      embedding: matrix or callable of ids, for the next inputs. start_tokens: int32 ``[batch_size]``.
      end_token: int32 scalar. initial_state: the cell's initial state, batch ``batch_size * beam_width``.
      beam_width: Python int. output_layer: optional layer on the cell outputs (the logits).
      length_penalty_weight: GNMT's ``((5 + length) / 6) ** weight`` divisor of the scores (0: none).
      coverage_penalty_weight: GNMT's coverage penalty on the attention of ``AttentionWrapper`` states; as in
        TF 1.15 it is applied to beams that had already finished (0: none).
      reorder_tensor_arrays: reorder the ``TensorArray``s of the final cell state (e.g. alignment history) along
        the traced beams.

    ``dynamic_decode`` returns ``FinalBeamSearchDecoderOutput`` and a ``BeamSearchDecoderState``.

    Raises:
      TypeError: ``cell`` or ``output_layer`` of the wrong kind. ValueError: ``start_tokens`` not a vector,
      ``end_token`` not a scalar, a state that does not split into ``[batch_size, beam_width, ...]``.
    """

    def __init__(
        self,
        cell,
        embedding,
        start_tokens,
        end_token,
        initial_state,
        beam_width,
        output_layer=None,
        length_penalty_weight=0.0,
        coverage_penalty_weight=0.0,
        reorder_tensor_arrays=True,
    ):
        check_cell("cell", cell)
        check_output_layer(output_layer)
        self._cell = cell
        self._output_layer = output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        if callable(embedding):
            self._embedding_fn = embedding
        else:
            self._embedding_fn = lambda ids: v1.nn.embedding_lookup(embedding, ids)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = tf.size(start_tokens)
        self._initial_cell_state = tf.nest.map_structure(
            self._maybe_split_batch_beams, initial_state, self._cell.state_size
        )
        self._start_tokens = tf.tile(tf.expand_dims(self._start_tokens, 1), [1, self._beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = self._first_beam(False, True, tf.bool)

    def _first_beam(self, on_value, off_value, dtype):
        """``[batch_size, beam_width]``: ``on_value`` in beam 0, ``off_value`` elsewhere."""
        return tf.one_hot(
            tf.zeros([self._batch_size], dtype=tf.int32),
            depth=self._beam_width,
            on_value=on_value,
            off_value=off_value,
            dtype=dtype,
        )

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def tracks_own_finished(self):
        """True: beams are reordered every step, so the decoder keeps its own ``finished``."""
        return True

    def _rnn_output_size(self):
        return rnn_output_size(self._cell, self._output_layer)

    @property
    def output_size(self):
        beams = tf.TensorShape([self._beam_width])
        return BeamSearchDecoderOutput(scores=beams, predicted_ids=beams, parent_ids=beams)

    @property
    def output_dtype(self):
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(
            scores=tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=tf.int32,
            parent_ids=tf.int32,
        )

    def initialize(self, name=None):
        """``(finished, start_inputs, BeamSearchDecoderState)``; only beam 0 starts alive (log prob 0, others -inf)."""
        dtype = tf.nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = self._first_beam(
            tf.convert_to_tensor(0.0, dtype=dtype), tf.convert_to_tensor(-np.inf, dtype=dtype), dtype
        )
        init_attention_probs = get_attention_probs(self._initial_cell_state, self._coverage_penalty_weight)
        if init_attention_probs is None:
            init_attention_probs = ()
        initial_state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state,
            log_probs=log_probs,
            finished=self._finished,
            lengths=tf.zeros([self._batch_size, self._beam_width], dtype=tf.int64),
            accumulated_attention_probs=init_attention_probs,
        )
        return self._finished, self._start_inputs, initial_state

    def finalize(self, outputs, final_state, sequence_lengths):
        """``(FinalBeamSearchDecoderOutput, final_state)``: ``gather_tree`` traces the beams back."""
        del sequence_lengths
        max_sequence_lengths = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
        predicted_ids = gather_tree(
            outputs.predicted_ids,
            outputs.parent_ids,
            max_sequence_lengths=max_sequence_lengths,
            end_token=self._end_token,
        )
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(
                cell_state=tf.nest.map_structure(
                    lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids, final_state.lengths),
                    final_state.cell_state,
                )
            )
        outputs = FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs, predicted_ids=predicted_ids)
        return outputs, final_state

    def _merge_batch_beams(self, t, s=None):
        """``[batch, beam, ...s]`` -> ``[batch * beam, ...s]``."""
        s = _as_shape(s)
        static_batch_size = tf.get_static_value(self._batch_size)
        batch_beam = None if static_batch_size is None else static_batch_size * self._beam_width
        reshaped = tf.reshape(t, tf.concat(([self._batch_size * self._beam_width], tf.shape(t)[2:]), 0))
        reshaped.set_shape(tf.TensorShape([batch_beam]).concatenate(s))
        return reshaped

    def _split_batch_beams(self, t, s=None):
        """``[batch * beam, ...s]`` -> ``[batch, beam, ...s]``."""
        s = _as_shape(s)
        reshaped = tf.reshape(t, tf.concat(([self._batch_size, self._beam_width], tf.shape(t)[1:]), 0))
        expected = tf.TensorShape([tf.get_static_value(self._batch_size), self._beam_width]).concatenate(s)
        if not reshaped.shape.is_compatible_with(expected):
            raise ValueError(
                "Unexpected behavior when reshaping between beam width and batch size.  The reshaped tensor has "
                "shape: %s.  We expected it to have shape (batch_size, beam_width, depth) == %s.  Perhaps you "
                "forgot to create a zero_state with batch_size=encoder_batch_size * beam_width?"
                % (reshaped.shape, expected)
            )
        reshaped.set_shape(expected)
        return reshaped

    def _maybe_split_batch_beams(self, t, s):
        if isinstance(t, tf.TensorArray):
            return t
        _check_ndims(t)
        return self._split_batch_beams(t, s) if t.shape.ndims >= 1 else t

    def _maybe_merge_batch_beams(self, t, s):
        if isinstance(t, tf.TensorArray):
            return t
        _check_ndims(t)
        return self._merge_batch_beams(t, s) if t.shape.ndims >= 2 else t

    def _maybe_sort_array_beams(self, t, parent_ids, sequence_length):
        """A ``TensorArray`` of the cell state, stacked and reordered along the traced beams (else as is)."""
        if not isinstance(t, tf.TensorArray):
            return t
        if t.element_shape.ndims is None or t.element_shape.ndims < 1:
            v1.logging.warning(
                "The TensorArray %s in the cell state is not amenable to sorting based on the beam search result. "
                "For a TensorArray to be sorted, its elements shape must be defined and have at least a rank of 1, "
                "but saw shape: %s",
                t.handle.name,
                t.element_shape,
            )
            return t
        if not _check_static_batch_beam_maybe(t.element_shape, tf.get_static_value(self._batch_size), self._beam_width):
            return t
        t = t.stack()
        with tf.control_dependencies([_check_batch_beam(t, self._batch_size, self._beam_width)]):
            return gather_tree_from_array(t, parent_ids, sequence_length)

    def step(self, time, inputs, state, name=None):
        """One beam-search step: ``(BeamSearchDecoderOutput, BeamSearchDecoderState, next_inputs, finished)``."""
        with v1.name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
            inputs = tf.nest.map_structure(lambda inp: self._merge_batch_beams(inp, s=inp.shape[2:]), inputs)
            cell_state = tf.nest.map_structure(self._maybe_merge_batch_beams, state.cell_state, self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = tf.nest.map_structure(lambda out: self._split_batch_beams(out, out.shape[1:]), cell_outputs)
            next_cell_state = tf.nest.map_structure(
                self._maybe_split_batch_beams, next_cell_state, self._cell.state_size
            )
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            beam_search_output, beam_search_state = _beam_search_step(
                time=time,
                logits=cell_outputs,
                next_cell_state=next_cell_state,
                beam_state=state,
                batch_size=self._batch_size,
                beam_width=self._beam_width,
                end_token=self._end_token,
                length_penalty_weight=self._length_penalty_weight,
                coverage_penalty_weight=self._coverage_penalty_weight,
            )
            finished = beam_search_state.finished
            sample_ids = beam_search_output.predicted_ids
            next_inputs = tf.cond(
                tf.reduce_all(finished), lambda: self._start_inputs, lambda: self._embedding_fn(sample_ids)
            )
        return beam_search_output, beam_search_state, next_inputs, finished


def _candidate_lengths(beam_state, batch_size, beam_width, end_token, vocab_size):
    """``[batch, beam, vocab]`` int64: each beam's length after appending each word (EOS adds nothing)."""
    lengths_to_add = tf.one_hot(
        indices=tf.fill([batch_size, beam_width], end_token),
        depth=vocab_size,
        on_value=tf.constant(0, tf.int64),
        off_value=tf.constant(1, tf.int64),
        dtype=tf.int64,
    )
    add_mask = tf.cast(tf.logical_not(beam_state.finished), tf.int64)
    lengths_to_add *= tf.expand_dims(add_mask, 2)
    return lengths_to_add + tf.expand_dims(beam_state.lengths, 2)


def _accumulated_attention(next_cell_state, beam_state, coverage_penalty_weight):
    attention_probs = get_attention_probs(next_cell_state, coverage_penalty_weight)
    if attention_probs is None:
        return None
    attention_probs *= tf.expand_dims(tf.cast(tf.logical_not(beam_state.finished), tf.float32), 2)
    return beam_state.accumulated_attention_probs + attention_probs


def _top_beams(scores, batch_size, beam_width):
    """``(scores, flat indices)`` of the ``beam_width`` best continuations of each batch entry."""
    static_batch_size = tf.get_static_value(batch_size)
    scores_flat = tf.reshape(scores, [batch_size, -1])
    next_beam_size = tf.convert_to_tensor(beam_width, dtype=tf.int32, name="beam_width")
    next_beam_scores, word_indices = tf.nn.top_k(scores_flat, k=next_beam_size)
    next_beam_scores.set_shape([static_batch_size, beam_width])
    word_indices.set_shape([static_batch_size, beam_width])
    return next_beam_scores, word_indices


def _beam_search_step(
    time,
    logits,
    next_cell_state,
    beam_state,
    batch_size,
    beam_width,
    end_token,
    length_penalty_weight,
    coverage_penalty_weight,
):
    """The new beams: top ``beam_width`` of every beam's continuations by (penalized) total log probability."""
    previously_finished = beam_state.finished
    step_log_probs = _mask_probs(tf.nn.log_softmax(logits), end_token, previously_finished)
    total_probs = tf.expand_dims(beam_state.log_probs, 2) + step_log_probs
    vocab_size = logits.shape.dims[-1].value or tf.shape(logits)[-1]
    new_prediction_lengths = _candidate_lengths(beam_state, batch_size, beam_width, end_token, vocab_size)
    accumulated_attention_probs = _accumulated_attention(next_cell_state, beam_state, coverage_penalty_weight)
    scores = _get_scores(
        log_probs=total_probs,
        sequence_lengths=new_prediction_lengths,
        length_penalty_weight=length_penalty_weight,
        coverage_penalty_weight=coverage_penalty_weight,
        finished=previously_finished,
        accumulated_attention_probs=accumulated_attention_probs,
    )
    next_beam_scores, word_indices = _top_beams(scores, batch_size, beam_width)

    def gather(gather_from, range_size, gather_shape, name=None):
        return _tensor_gather_helper(next_beam_ids, gather_from, batch_size, range_size, gather_shape, name=name)

    next_beam_probs = _tensor_gather_helper(
        word_indices, total_probs, batch_size, beam_width * vocab_size, [-1], name="next_beam_probs"
    )
    next_word_ids = tf.cast(tf.math.floormod(word_indices, vocab_size, name="next_beam_word_ids"), tf.int32)
    next_beam_ids = tf.cast(word_indices / vocab_size, tf.int32, name="next_beam_parent_ids")
    previously_finished = gather(previously_finished, beam_width, [-1])
    next_finished = tf.logical_or(previously_finished, tf.equal(next_word_ids, end_token), name="next_beam_finished")
    next_prediction_len = gather(beam_state.lengths, beam_width, [-1])
    next_prediction_len += tf.cast(tf.logical_not(previously_finished), tf.int64)
    next_accumulated_attention_probs = ()
    if accumulated_attention_probs is not None:
        next_accumulated_attention_probs = gather(
            accumulated_attention_probs, beam_width, [batch_size * beam_width, -1], "next_accumulated_attention_probs"
        )
    next_cell_state = tf.nest.map_structure(
        lambda gather_from: _maybe_tensor_gather_helper(
            next_beam_ids, gather_from, batch_size, beam_width, [batch_size * beam_width, -1]
        ),
        next_cell_state,
    )
    next_state = BeamSearchDecoderState(
        cell_state=next_cell_state,
        log_probs=next_beam_probs,
        lengths=next_prediction_len,
        finished=next_finished,
        accumulated_attention_probs=next_accumulated_attention_probs,
    )
    output = BeamSearchDecoderOutput(scores=next_beam_scores, predicted_ids=next_word_ids, parent_ids=next_beam_ids)
    return output, next_state


def _is_attention_state(state):
    try:
        from tf1clip.contrib.seq2seq.attention_wrapper import AttentionWrapperState
    except ImportError:
        return type(state).__name__ == "AttentionWrapperState" and hasattr(state, "alignments")
    return isinstance(state, AttentionWrapperState)


def _mean_over_last(tensors):
    return tf.reduce_mean(tf.concat([tf.expand_dims(p, -1) for p in tensors], -1), -1)


def get_attention_probs(next_cell_state, coverage_penalty_weight):
    """The attention probabilities of the ``AttentionWrapperState``s in ``next_cell_state`` (their mean when
    several), or None when ``coverage_penalty_weight`` is 0.

    Raises:
      ValueError: a non-zero ``coverage_penalty_weight`` without an attention state.
    """
    if coverage_penalty_weight == 0.0:
        return None
    probs_per_attn_layer = []
    if _is_attention_state(next_cell_state):
        probs_per_attn_layer = [attention_probs_from_attn_state(next_cell_state)]
    elif isinstance(next_cell_state, tuple):
        probs_per_attn_layer = [attention_probs_from_attn_state(s) for s in next_cell_state if _is_attention_state(s)]
    if not probs_per_attn_layer:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    if len(probs_per_attn_layer) == 1:
        return probs_per_attn_layer[0]
    return _mean_over_last(probs_per_attn_layer)


def attention_probs_from_attn_state(attention_state):
    """An attention state's alignments (their mean over the mechanisms when several)."""
    attention_probs = attention_state.alignments
    if isinstance(attention_probs, tuple):
        attention_probs = _mean_over_last(attention_probs)
    return attention_probs


def _get_scores(
    log_probs, sequence_lengths, length_penalty_weight, coverage_penalty_weight, finished, accumulated_attention_probs
):
    """``log_probs`` / length penalty (+ coverage penalty, on finished beams as in TF 1.15)."""
    length_penalty_ = tf.cast(_length_penalty(sequence_lengths, length_penalty_weight), dtype=log_probs.dtype)
    scores = log_probs / length_penalty_
    coverage_penalty_weight = tf.convert_to_tensor(coverage_penalty_weight, name="coverage_penalty_weight")
    if coverage_penalty_weight.shape.ndims != 0:
        raise ValueError(
            "coverage_penalty_weight should be a scalar, but saw shape: %s" % coverage_penalty_weight.shape
        )
    if tf.get_static_value(coverage_penalty_weight) == 0.0:
        return scores
    if accumulated_attention_probs is None:
        raise ValueError("accumulated_attention_probs can be None only if coverage penalty is disabled.")
    accumulated_attention_probs = v1.where(
        tf.equal(accumulated_attention_probs, 0.0),
        tf.ones_like(accumulated_attention_probs),
        accumulated_attention_probs,
    )
    coverage_penalty = tf.reduce_sum(tf.math.log(tf.minimum(accumulated_attention_probs, 1.0)), 2)
    coverage_penalty *= tf.cast(finished, tf.float32)
    weighted_coverage_penalty = coverage_penalty * coverage_penalty_weight
    return scores + tf.expand_dims(weighted_coverage_penalty, 2)


def _length_penalty(sequence_lengths, penalty_factor):
    """GNMT's ``((5 + length) / 6) ** penalty_factor`` (https://arxiv.org/abs/1609.08144); 1.0 when it is 0."""
    penalty_factor = tf.convert_to_tensor(penalty_factor, name="penalty_factor")
    penalty_factor.set_shape(())
    static_penalty = tf.get_static_value(penalty_factor)
    if static_penalty is not None and static_penalty == 0:
        return 1.0
    return tf.math.truediv(
        (5.0 + tf.cast(sequence_lengths, tf.float32)) ** penalty_factor, (5.0 + 1.0) ** penalty_factor
    )


def _mask_probs(probs, eos_token, finished):
    """``probs`` with each finished beam's row replaced by 0 at ``eos_token`` and the dtype's minimum elsewhere."""
    vocab_size = tf.shape(probs)[2]
    finished_row = tf.one_hot(
        eos_token,
        vocab_size,
        dtype=probs.dtype,
        on_value=tf.convert_to_tensor(0.0, dtype=probs.dtype),
        off_value=probs.dtype.min,
    )
    finished_probs = tf.tile(tf.reshape(finished_row, [1, 1, -1]), tf.concat([tf.shape(finished), [1]], 0))
    finished_mask = tf.tile(tf.expand_dims(finished, 2), [1, 1, vocab_size])
    return v1.where(finished_mask, finished_probs, probs)


def _maybe_tensor_gather_helper(gather_indices, gather_from, batch_size, range_size, gather_shape):
    if isinstance(gather_from, tf.TensorArray):
        return gather_from
    _check_ndims(gather_from)
    if gather_from.shape.ndims >= len(gather_shape):
        return _tensor_gather_helper(gather_indices, gather_from, batch_size, range_size, gather_shape)
    return gather_from


def _tensor_gather_helper(gather_indices, gather_from, batch_size, range_size, gather_shape, name=None):
    """``gather_from`` reshaped to ``gather_shape``, gathered at each batch entry's ``gather_indices``."""
    with v1.name_scope(name, "tensor_gather_helper"):
        range_ = tf.expand_dims(tf.range(batch_size) * range_size, 1)
        gather_indices = tf.reshape(gather_indices + range_, [-1])
        output = tf.gather(tf.reshape(gather_from, gather_shape), gather_indices)
        final_shape = tf.shape(gather_from)[: 1 + len(gather_shape)]
        static_batch_size = tf.get_static_value(batch_size)
        final_static_shape = tf.TensorShape([static_batch_size]).concatenate(
            gather_from.shape[1 : 1 + len(gather_shape)]
        )
        output = tf.reshape(output, final_shape, name="output")
        output.set_shape(final_static_shape)
        return output
