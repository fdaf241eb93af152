"""``tf.contrib.seq2seq``'s decoding helpers (TF 1.15's ``helper.py``): what a ``BasicDecoder`` feeds next.

The sampling helpers draw with ``tf.compat.v1.random_uniform`` and ``tf.compat.v1.multinomial`` under the op
seeds given, in TF 1.15's op order, so with explicit seeds they draw TF 1.15's numbers.
"""

import abc

from tf1clip.compat._tf import tf
from tf1clip.contrib.seq2seq.decoder import transpose_batch_time
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def _call_sampler(sample_n_fn, sample_shape, name=None):
    """``sample_n_fn(prod(sample_shape))`` reshaped to ``sample_shape + batch_event_shape``."""
    with v1.name_scope(name, "call_sampler", values=[sample_shape]):
        sample_shape = tf.convert_to_tensor(sample_shape, dtype=tf.int32, name="sample_shape")
        pad = tf.cast(tf.equal(tf.rank(sample_shape), 0), tf.int32)
        sample_shape = tf.reshape(sample_shape, tf.pad(tf.shape(sample_shape), paddings=[[pad, 0]], constant_values=1))
        samples = sample_n_fn(tf.reduce_prod(sample_shape))
        final_shape = tf.concat([sample_shape, tf.shape(samples)[1:]], 0)
        return tf.reshape(samples, final_shape)


def bernoulli_sample(probs=None, logits=None, dtype=tf.int32, sample_shape=(), seed=None):
    """Bernoulli draws (``uniform < probs``) of shape ``sample_shape + probs.shape``."""
    probs = tf.sigmoid(logits, name="probs") if probs is None else tf.convert_to_tensor(probs, name="probs")
    batch_shape = tf.shape(probs)

    def sample_n(n):
        uniform = v1.random_uniform(tf.concat([[n], batch_shape], 0), seed=seed, dtype=probs.dtype)
        return tf.cast(tf.less(uniform, probs), dtype)

    return _call_sampler(sample_n, sample_shape)


def categorical_sample(logits, dtype=tf.int32, sample_shape=(), seed=None):
    """Categorical draws (``multinomial``) of shape ``sample_shape + logits.shape[:-1]``."""
    logits = tf.convert_to_tensor(logits, name="logits")
    event_size = tf.shape(logits)[-1]
    batch_shape = tf.shape(logits)[:-1]

    def sample_n(n):
        logits_2d = logits if logits.shape.ndims == 2 else tf.reshape(logits, [-1, event_size])
        sample_dtype = tf.int64 if logits.dtype.size > 4 else tf.int32
        draws = v1.multinomial(logits_2d, n, seed=seed, output_dtype=sample_dtype)
        draws = tf.reshape(tf.transpose(draws), tf.concat([[n], batch_shape], 0))
        return tf.cast(draws, dtype)

    return _call_sampler(sample_n, sample_shape)


def _unstack_ta(inp):
    return tf.TensorArray(dtype=inp.dtype, size=tf.shape(inp)[0], element_shape=inp.get_shape()[1:]).unstack(inp)


def _embedding_fn(embedding):
    if callable(embedding):
        return embedding
    return lambda ids: v1.nn.embedding_lookup(embedding, ids)


class Helper(abc.ABC):
    """``tf.contrib.seq2seq.Helper``: the sampling interface a ``BasicDecoder`` uses."""

    @property
    @abc.abstractmethod
    def batch_size(self):
        raise NotImplementedError("batch_size has not been implemented")

    @property
    @abc.abstractmethod
    def sample_ids_shape(self):
        raise NotImplementedError("sample_ids_shape has not been implemented")

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self):
        raise NotImplementedError("sample_ids_dtype has not been implemented")

    @abc.abstractmethod
    def initialize(self, name=None):
        """``(initial_finished, initial_inputs)``."""

    @abc.abstractmethod
    def sample(self, time, outputs, state, name=None):
        """The sample ids of this step."""

    @abc.abstractmethod
    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        """``(finished, next_inputs, next_state)``."""


class CustomHelper(Helper):
    """A ``Helper`` from three functions: ``initialize_fn() -> (finished, next_inputs)``,
    ``sample_fn(time, outputs, state) -> sample_ids`` and
    ``next_inputs_fn(time, outputs, state, sample_ids) -> (finished, next_inputs, next_state)``."""

    def __init__(self, initialize_fn, sample_fn, next_inputs_fn, sample_ids_shape=None, sample_ids_dtype=None):
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = None
        self._sample_ids_shape = tf.TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = sample_ids_dtype or tf.int32

    @property
    def batch_size(self):
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_ids_dtype

    def initialize(self, name=None):
        with v1.name_scope(name, "%sInitialize" % type(self).__name__):
            finished, next_inputs = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = tf.size(finished)
        return finished, next_inputs

    def sample(self, time, outputs, state, name=None):
        with v1.name_scope(name, "%sSample" % type(self).__name__, (time, outputs, state)):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with v1.name_scope(name, "%sNextInputs" % type(self).__name__, (time, outputs, state)):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state, sample_ids=sample_ids)


class TrainingHelper(Helper):
    """Teacher forcing: step ``t`` reads ``inputs[:, t]`` (``inputs[t]`` if ``time_major``) until
    ``sequence_length``; sample ids are the argmax of the outputs.

    Raises:
      ValueError: ``sequence_length`` is not a vector.
    """

    def __init__(self, inputs, sequence_length, time_major=False, name=None):
        with v1.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
            inputs = tf.convert_to_tensor(inputs, name="inputs")
            self._inputs = inputs
            if not time_major:
                inputs = tf.nest.map_structure(transpose_batch_time, inputs)
            self._input_tas = tf.nest.map_structure(_unstack_ta, inputs)
            self._sequence_length = tf.convert_to_tensor(sequence_length, name="sequence_length")
            if self._sequence_length.get_shape().ndims != 1:
                raise ValueError(
                    "Expected sequence_length to be a vector, but received shape: %s"
                    % self._sequence_length.get_shape()
                )
            self._zero_inputs = tf.nest.map_structure(lambda inp: tf.zeros_like(inp[0, :]), inputs)
            self._batch_size = tf.size(sequence_length)

    @property
    def inputs(self):
        return self._inputs

    @property
    def sequence_length(self):
        return self._sequence_length

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return tf.TensorShape([])

    @property
    def sample_ids_dtype(self):
        return tf.int32

    def _read_or_zeros(self, all_finished, time):
        return tf.cond(
            all_finished,
            lambda: self._zero_inputs,
            lambda: tf.nest.map_structure(lambda inp: inp.read(time), self._input_tas),
        )

    def initialize(self, name=None):
        with v1.name_scope(name, "TrainingHelperInitialize"):
            finished = tf.equal(0, self._sequence_length)
            return finished, self._read_or_zeros(tf.reduce_all(finished), 0)

    def sample(self, time, outputs, name=None, **unused_kwargs):
        with v1.name_scope(name, "TrainingHelperSample", [time, outputs]):
            return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
        with v1.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
            next_time = time + 1
            finished = next_time >= self._sequence_length
            return finished, self._read_or_zeros(tf.reduce_all(finished), next_time), state


def _check_sampling_probability(sampling_probability):
    probability = tf.convert_to_tensor(sampling_probability, name="sampling_probability")
    if probability.get_shape().ndims not in (0, 1):
        raise ValueError(
            "sampling_probability must be either a scalar or a vector. saw shape: %s" % probability.get_shape()
        )
    return probability


def _scatter_two(where_a, updates_a, where_b, updates_b, like):
    shape = tf.shape(like)
    return tf.scatter_nd(indices=where_a, updates=updates_a, shape=shape) + tf.scatter_nd(
        indices=where_b, updates=updates_b, shape=shape
    )


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """Scheduled sampling (https://arxiv.org/abs/1506.03099): with probability ``sampling_probability`` an
    example's next input is the embedding of an id sampled from the outputs (``seed``); which examples are
    sampled is drawn with ``scheduling_seed``. Sample ids are -1 where not sampled.
    """

    def __init__(
        self,
        inputs,
        sequence_length,
        embedding,
        sampling_probability,
        time_major=False,
        seed=None,
        scheduling_seed=None,
        name=None,
    ):
        with v1.name_scope(name, "ScheduledEmbeddingSamplingWrapper", [embedding, sampling_probability]):
            self._embedding_fn = _embedding_fn(embedding)
            self._sampling_probability = _check_sampling_probability(sampling_probability)
            self._seed = seed
            self._scheduling_seed = scheduling_seed
            super().__init__(inputs=inputs, sequence_length=sequence_length, time_major=time_major, name=name)

    def initialize(self, name=None):
        return super().initialize(name=name)

    def sample(self, time, outputs, state, name=None):
        with v1.name_scope(name, "ScheduledEmbeddingTrainingHelperSample", [time, outputs, state]):
            select_sample = bernoulli_sample(
                probs=self._sampling_probability,
                dtype=tf.bool,
                sample_shape=self.batch_size,
                seed=self._scheduling_seed,
            )
            return v1.where(
                select_sample, categorical_sample(logits=outputs, seed=self._seed), tf.fill([self.batch_size], -1)
            )

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with v1.name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs", [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name
            )

            def maybe_sample():
                where_sampling = tf.cast(v1.where(sample_ids > -1), tf.int32)
                where_not_sampling = tf.cast(v1.where(sample_ids <= -1), tf.int32)
                sampled_next_inputs = self._embedding_fn(tf.gather_nd(sample_ids, where_sampling))
                inputs_not_sampling = tf.gather_nd(base_next_inputs, where_not_sampling)
                return _scatter_two(
                    where_sampling, sampled_next_inputs, where_not_sampling, inputs_not_sampling, base_next_inputs
                )

            next_inputs = tf.cond(tf.reduce_all(finished), lambda: base_next_inputs, maybe_sample)
            return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
    """Scheduled sampling on outputs: with probability ``sampling_probability`` (drawn with ``seed``) an
    example's next input is its output (through ``next_inputs_fn`` if given, concatenated with
    ``auxiliary_inputs`` at the next step if given) instead of the ground truth.
    """

    def __init__(
        self,
        inputs,
        sequence_length,
        sampling_probability,
        time_major=False,
        seed=None,
        next_inputs_fn=None,
        auxiliary_inputs=None,
        name=None,
    ):
        with v1.name_scope(name, "ScheduledOutputTrainingHelper", [inputs, auxiliary_inputs, sampling_probability]):
            self._sampling_probability = _check_sampling_probability(sampling_probability)
            if auxiliary_inputs is None:
                maybe_concatenated_inputs = inputs
            else:
                inputs = tf.convert_to_tensor(inputs, name="inputs")
                auxiliary_inputs = tf.convert_to_tensor(auxiliary_inputs, name="auxiliary_inputs")
                maybe_concatenated_inputs = tf.nest.map_structure(
                    lambda x, y: tf.concat((x, y), -1), inputs, auxiliary_inputs
                )
                if not time_major:
                    auxiliary_inputs = tf.nest.map_structure(transpose_batch_time, auxiliary_inputs)
            self._auxiliary_input_tas = (
                None if auxiliary_inputs is None else tf.nest.map_structure(_unstack_ta, auxiliary_inputs)
            )
            self._seed = seed
            self._next_inputs_fn = next_inputs_fn
            super().__init__(
                inputs=maybe_concatenated_inputs, sequence_length=sequence_length, time_major=time_major, name=name
            )

    def initialize(self, name=None):
        return super().initialize(name=name)

    def sample(self, time, outputs, state, name=None):
        with v1.name_scope(name, "ScheduledOutputTrainingHelperSample", [time, outputs, state]):
            return bernoulli_sample(probs=self._sampling_probability, sample_shape=self.batch_size, seed=self._seed)

    def _with_auxiliary(self, time, outputs, indices=None):
        if self._auxiliary_input_tas is None:
            return outputs
        auxiliary = tf.nest.map_structure(lambda ta: ta.read(time + 1), self._auxiliary_input_tas)
        if indices is not None:
            auxiliary = tf.gather_nd(auxiliary, indices)
        return tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1), outputs, auxiliary)

    def _maybe_sample(self, time, outputs, sample_ids, base_next_inputs):
        if self._next_inputs_fn is None:
            return v1.where(sample_ids, self._with_auxiliary(time, outputs), base_next_inputs)
        where_sampling = tf.cast(v1.where(sample_ids), tf.int32)
        where_not_sampling = tf.cast(v1.where(tf.logical_not(sample_ids)), tf.int32)
        outputs_sampling = tf.gather_nd(outputs, where_sampling)
        inputs_not_sampling = tf.gather_nd(base_next_inputs, where_not_sampling)
        sampled = self._with_auxiliary(time, self._next_inputs_fn(outputs_sampling), where_sampling)
        return _scatter_two(where_sampling, sampled, where_not_sampling, inputs_not_sampling, base_next_inputs)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with v1.name_scope(name, "ScheduledOutputTrainingHelperNextInputs", [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids, name=name
            )
            sample_ids = tf.cast(sample_ids, tf.bool)
            no_samples = tf.logical_not(tf.reduce_any(sample_ids))
            next_inputs = tf.cond(
                tf.logical_or(tf.reduce_all(finished), no_samples),
                lambda: base_next_inputs,
                lambda: self._maybe_sample(time, outputs, sample_ids, base_next_inputs),
            )
            return finished, next_inputs, state


class GreedyEmbeddingHelper(Helper):
    """Greedy decoding: the next input is the embedding of the argmax of the outputs; an example finishes
    when it emits ``end_token``.

    Args:
      embedding: an embedding matrix (looked up with ``tf.nn.embedding_lookup``) or a callable of ids.
      start_tokens: int32 vector ``[batch_size]``. end_token: int32 scalar.

    Raises:
      ValueError: ``start_tokens`` is not a vector or ``end_token`` not a scalar.
    """

    def __init__(self, embedding, start_tokens, end_token):
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = tf.size(start_tokens)
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return tf.TensorShape([])

    @property
    def sample_ids_dtype(self):
        return tf.int32

    def initialize(self, name=None):
        return tf.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time, outputs, state, name=None):
        del time, state
        if not tf.is_tensor(outputs) or isinstance(outputs, (tf.SparseTensor, tf.RaggedTensor)):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        return tf.argmax(outputs, axis=-1, output_type=tf.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        del time, outputs
        finished = tf.equal(sample_ids, self._end_token)
        next_inputs = tf.cond(
            tf.reduce_all(finished), lambda: self._start_inputs, lambda: self._embedding_fn(sample_ids)
        )
        return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """Like ``GreedyEmbeddingHelper``, but samples ids from ``softmax(outputs / softmax_temperature)``
    (``tf.compat.v1.multinomial`` with op seed ``seed``)."""

    def __init__(self, embedding, start_tokens, end_token, softmax_temperature=None, seed=None):
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time, outputs, state, name=None):
        del time, state
        if not tf.is_tensor(outputs) or isinstance(outputs, (tf.SparseTensor, tf.RaggedTensor)):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        logits = outputs if self._softmax_temperature is None else outputs / self._softmax_temperature
        return categorical_sample(logits=logits, seed=self._seed)


class InferenceHelper(Helper):
    """Feeds ``next_inputs_fn(sample_ids)`` (or the sample ids themselves) back; ``sample_fn(outputs)`` samples,
    ``end_fn(sample_ids)`` says which examples finished. ``start_inputs`` are the first inputs."""

    def __init__(self, sample_fn, sample_shape, sample_dtype, start_inputs, end_fn, next_inputs_fn=None):
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_shape = tf.TensorShape(sample_shape)
        self._sample_dtype = sample_dtype
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = tf.shape(start_inputs)[0]
        self._start_inputs = tf.convert_to_tensor(start_inputs, name="start_inputs")

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_dtype

    def initialize(self, name=None):
        return tf.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time, outputs, state, name=None):
        del time, state
        return self._sample_fn(outputs)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        del time, outputs
        next_inputs = sample_ids if self._next_inputs_fn is None else self._next_inputs_fn(sample_ids)
        return self._end_fn(sample_ids), next_inputs, state
