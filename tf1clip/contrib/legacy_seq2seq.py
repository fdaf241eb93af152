"""``tf.contrib.legacy_seq2seq``: TF 1.15's static-unrolled sequence-to-sequence models, re-created.

The functions of TF 1.15's ``contrib/legacy_seq2seq/python/ops/seq2seq.py`` with its semantics, defaults, errors
and variable names (so TF 1.15 checkpoints restore), on ``tf.compat.v1`` graphs and the cells of
``tf.compat.v1.nn.rnn_cell`` / ``tf1clip.contrib.rnn``. Inputs and outputs are Python lists with one
``[batch, ...]`` tensor per time step. Needs Keras 2 on TensorFlow 2.16+ (docs/rnn.rst).

Models: ``basic_rnn_seq2seq``, ``tied_rnn_seq2seq``, ``embedding_rnn_seq2seq``, ``embedding_tied_rnn_seq2seq``,
``embedding_attention_seq2seq``, ``one2many_rnn_seq2seq``; decoders: ``rnn_decoder``, ``attention_decoder``,
``embedding_rnn_decoder``, ``embedding_attention_decoder``; losses: ``sequence_loss``,
``sequence_loss_by_example``; ``model_with_buckets``.
"""

import copy

from tf1clip.compat._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib.rnn.core_rnn_cell import EmbeddingWrapper
from tf1clip.contrib.rnn.core_rnn_cell import OutputProjectionWrapper
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1
Linear = _base.Linear


def _extract_argmax_and_embed(embedding, output_projection=None, update_embedding=True):
    """A loop function that feeds back the embedding of the previous step's argmax symbol."""

    def loop_function(prev, _):
        if output_projection is not None:
            prev = v1.nn.xw_plus_b(prev, output_projection[0], output_projection[1])
        prev_symbol = tf.argmax(prev, 1)
        emb_prev = tf.nn.embedding_lookup(embedding, prev_symbol)
        if not update_embedding:
            emb_prev = tf.stop_gradient(emb_prev)
        return emb_prev

    return loop_function


def _check_output_projection(output_projection, num_symbols, dtype):
    """TF 1.15's checks of ``output_projection`` ``(W, b)``: ``W`` is ``[?, num_symbols]``, ``b`` ``[num_symbols]``."""
    proj_weights = tf.convert_to_tensor(output_projection[0], dtype=dtype)
    proj_weights.get_shape().assert_is_compatible_with([None, num_symbols])
    proj_biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
    proj_biases.get_shape().assert_is_compatible_with([num_symbols])


def _embedding_encoder(cell, encoder_inputs, num_encoder_symbols, embedding_size, dtype):
    """``static_rnn`` of ``cell`` in an ``EmbeddingWrapper`` over integer ``encoder_inputs``: ``(outputs, state)``."""
    encoder_cell = EmbeddingWrapper(cell, embedding_classes=num_encoder_symbols, embedding_size=embedding_size)
    return v1.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype)


def _decode_feeding_previous(decode, feed_previous, n_outputs, state_structure):
    """``decode(feed_previous)`` for a bool; for a bool tensor, ``decode(f, False)`` for both ``f`` under ``tf.cond``.

    Returns ``(outputs, state)``, the state packed like ``state_structure``.
    """
    if isinstance(feed_previous, bool):
        return decode(feed_previous)
    outputs, state_list = _cond_decoder(feed_previous, lambda f: decode(f, False), n_outputs)
    return outputs, _pack_state(state_structure, state_list)


def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
    """Runs ``cell`` over ``decoder_inputs`` from ``initial_state``; returns ``(outputs, state)``.

    With ``loop_function(prev_output, i)``, steps after the first read its result instead of their input
    (the first input is used as is). Variables in ``scope`` (default ``rnn_decoder``).
    """
    with v1.variable_scope(scope or "rnn_decoder"):
        state = initial_state
        outputs = []
        prev = None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                v1.get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, dtype=tf.float32, scope=None):
    """Encodes with a copy of ``cell`` (``static_rnn``), decodes with ``cell`` from the encoder's final state."""
    with v1.variable_scope(scope or "basic_rnn_seq2seq"):
        enc_cell = copy.deepcopy(cell)
        _, enc_state = v1.nn.static_rnn(enc_cell, encoder_inputs, dtype=dtype)
        return rnn_decoder(decoder_inputs, enc_state, cell)


def tied_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, loop_function=None, dtype=tf.float32, scope=None):
    """Like ``basic_rnn_seq2seq`` with one set of weights for encoder and decoder."""
    with v1.variable_scope("combined_tied_rnn_seq2seq"):
        scope = scope or "tied_rnn_seq2seq"
        _, enc_state = v1.nn.static_rnn(cell, encoder_inputs, dtype=dtype, scope=scope)
        v1.get_variable_scope().reuse_variables()
        return rnn_decoder(decoder_inputs, enc_state, cell, loop_function=loop_function, scope=scope)


def embedding_rnn_decoder(
    decoder_inputs,
    initial_state,
    cell,
    num_symbols,
    embedding_size,
    output_projection=None,
    feed_previous=False,
    update_embedding_for_previous=True,
    scope=None,
):
    """``rnn_decoder`` over embedded integer inputs (``embedding``: ``[num_symbols, embedding_size]``).

    ``feed_previous=True`` feeds back the embedding of each step's argmax (through ``output_projection``
    ``(W, b)`` if given).
    """
    with v1.variable_scope(scope or "embedding_rnn_decoder") as scope:
        if output_projection is not None:
            _check_output_projection(output_projection, num_symbols, scope.dtype)
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (
            _extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
            if feed_previous
            else None
        )
        emb_inp = (tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs)
        return rnn_decoder(emb_inp, initial_state, cell, loop_function=loop_function)


def _cond_decoder(feed_previous, decoder_fn, n_outputs):
    """TF 1.15's ``tf.cond`` over ``feed_previous`` (a bool tensor): both decoders built, variables shared.

    Returns ``(outputs, flat_state_list)``.
    """

    def decoder(feed_previous_bool):
        reuse = None if feed_previous_bool else True
        with v1.variable_scope(v1.get_variable_scope(), reuse=reuse):
            outputs, state = decoder_fn(feed_previous_bool)
            state_list = [state]
            if tf.nest.is_nested(state):
                state_list = tf.nest.flatten(state)
            return outputs + state_list

    outputs_and_state = tf.cond(feed_previous, lambda: decoder(True), lambda: decoder(False))
    return outputs_and_state[:n_outputs], outputs_and_state[n_outputs:]


def _pack_state(structure, state_list):
    if tf.nest.is_nested(structure):
        return tf.nest.pack_sequence_as(structure=structure, flat_sequence=state_list)
    return state_list[0]


def embedding_rnn_seq2seq(
    encoder_inputs,
    decoder_inputs,
    cell,
    num_encoder_symbols,
    num_decoder_symbols,
    embedding_size,
    output_projection=None,
    feed_previous=False,
    dtype=None,
    scope=None,
):
    """Embedding encoder (a copy of ``cell`` in an ``EmbeddingWrapper``) and ``embedding_rnn_decoder``.

    Without ``output_projection`` the decoder cell is wrapped in an ``OutputProjectionWrapper`` to
    ``num_decoder_symbols``. ``feed_previous`` may be a bool tensor (both decoders are built under ``tf.cond``).
    """
    with v1.variable_scope(scope or "embedding_rnn_seq2seq") as scope:
        if dtype is not None:
            scope.set_dtype(dtype)
        else:
            dtype = scope.dtype
        _, encoder_state = _embedding_encoder(
            copy.deepcopy(cell), encoder_inputs, num_encoder_symbols, embedding_size, dtype
        )
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)

        def decode(feed, update_embedding_for_previous=True):
            return embedding_rnn_decoder(
                decoder_inputs,
                encoder_state,
                cell,
                num_decoder_symbols,
                embedding_size,
                output_projection=output_projection,
                feed_previous=feed,
                update_embedding_for_previous=update_embedding_for_previous,
            )

        return _decode_feeding_previous(decode, feed_previous, len(decoder_inputs), encoder_state)


def embedding_tied_rnn_seq2seq(
    encoder_inputs,
    decoder_inputs,
    cell,
    num_symbols,
    embedding_size,
    num_decoder_symbols=None,
    output_projection=None,
    feed_previous=False,
    dtype=None,
    scope=None,
):
    """``tied_rnn_seq2seq`` with one ``embedding`` for encoder and decoder symbols."""
    with v1.variable_scope(scope or "embedding_tied_rnn_seq2seq", dtype=dtype) as scope:
        dtype = scope.dtype
        if output_projection is not None:
            _check_output_projection(output_projection, num_symbols, dtype)
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size], dtype=dtype)
        emb_encoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in encoder_inputs]
        emb_decoder_inputs = [tf.nn.embedding_lookup(embedding, x) for x in decoder_inputs]
        output_symbols = num_symbols if num_decoder_symbols is None else num_decoder_symbols
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, output_symbols)

        def decode(feed, update_embedding):
            loop_function = _extract_argmax_and_embed(embedding, output_projection, update_embedding) if feed else None
            return tied_rnn_seq2seq(
                emb_encoder_inputs, emb_decoder_inputs, cell, loop_function=loop_function, dtype=dtype
            )

        if isinstance(feed_previous, bool):
            return decode(feed_previous, True)
        batch_size = tf.compat.dimension_value(encoder_inputs[0].get_shape()[0])
        for inp in encoder_inputs[1:]:  # raises ValueError on incompatible batch sizes, as TF 1.15
            tf.TensorShape([batch_size]).merge_with(inp.get_shape()[:1])
        if batch_size is None:
            batch_size = tf.shape(encoder_inputs[0])[0]
        zero_state = cell.zero_state(batch_size, dtype)
        outputs, state_list = _cond_decoder(feed_previous, lambda f: decode(f, False), len(decoder_inputs))
        return outputs, _pack_state(zero_state, state_list)


def attention_decoder(
    decoder_inputs,
    initial_state,
    attention_states,
    cell,
    output_size=None,
    num_heads=1,
    loop_function=None,
    dtype=None,
    scope=None,
    initial_state_attention=False,
):
    """RNN decoder with attention over ``attention_states`` (``[batch, attn_length, attn_size]``), as TF 1.15.

    Each step reads ``Linear([input] + attns)``, runs ``cell``, computes ``num_heads`` attention reads from
    the new state and outputs ``Linear([cell_output] + attns)`` (size ``output_size``, default the cell's).
    Variables in ``scope`` (default ``attention_decoder``): ``AttnW_<h>``, ``AttnV_<h>``,
    ``Attention_<h>/kernel``/``bias``, ``kernel``/``bias`` (input), ``AttnOutputProjection/kernel``/``bias``
    and the cell's. Returns ``(outputs, state)``.

    Raises:
      ValueError: no ``decoder_inputs``, ``num_heads`` < 1, or ``attention_states``' depth unknown.
    """
    if not decoder_inputs:
        raise ValueError("Must provide at least 1 input to attention decoder.")
    if num_heads < 1:
        raise ValueError("With less than 1 heads, use a non-attention decoder.")
    if tf.compat.dimension_value(attention_states.get_shape()[2]) is None:
        raise ValueError("Shape[2] of attention_states must be known: %s" % attention_states.get_shape())
    if output_size is None:
        output_size = cell.output_size

    with v1.variable_scope(scope or "attention_decoder", dtype=dtype) as scope:
        dtype = scope.dtype
        batch_size = tf.shape(decoder_inputs[0])[0]
        heads = _attention_heads(attention_states, num_heads, dtype)
        attn_size = heads[4]
        state = initial_state
        outputs = []
        prev = None
        batch_attn_size = tf.stack([batch_size, attn_size])
        attns = [tf.zeros(batch_attn_size, dtype=dtype) for _ in range(num_heads)]
        for a in attns:
            a.set_shape([None, attn_size])
        if initial_state_attention:
            attns = _attention_reads(initial_state, heads, dtype)
        for i, inp in enumerate(decoder_inputs):
            if i > 0:
                v1.get_variable_scope().reuse_variables()
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            input_size = tf.compat.dimension_value(inp.get_shape().with_rank(2)[1])
            if input_size is None:
                raise ValueError("Could not infer input size from input: %s" % inp.name)
            inputs = [tf.cast(e, dtype) for e in [inp] + attns]
            x = Linear(inputs, input_size, True)(inputs)
            cell_output, state = cell(x, state)
            if i == 0 and initial_state_attention:
                with v1.variable_scope(v1.get_variable_scope(), reuse=True):
                    attns = _attention_reads(state, heads, dtype)
            else:
                attns = _attention_reads(state, heads, dtype)
            with v1.variable_scope("AttnOutputProjection"):
                inputs = [tf.cast(cell_output, dtype)] + attns
                output = Linear(inputs, output_size, True)(inputs)
            if loop_function is not None:
                prev = output
            outputs.append(output)
    return outputs, state


def _attention_heads(attention_states, num_heads, dtype):
    """``attention_decoder``'s per-head variables and features of ``attention_states``.

    Returns ``(hidden, hidden_features, v, attn_length, attn_size)``.
    """
    attn_length = tf.compat.dimension_value(attention_states.get_shape()[1])
    if attn_length is None:
        attn_length = tf.shape(attention_states)[1]
    attn_size = tf.compat.dimension_value(attention_states.get_shape()[2])
    hidden = tf.reshape(attention_states, [-1, attn_length, 1, attn_size])
    hidden_features = []
    v = []
    attention_vec_size = attn_size
    for a in range(num_heads):
        k = v1.get_variable("AttnW_%d" % a, [1, 1, attn_size, attention_vec_size], dtype=dtype)
        hidden_features.append(tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME"))
        v.append(v1.get_variable("AttnV_%d" % a, [attention_vec_size], dtype=dtype))
    return hidden, hidden_features, v, attn_length, attn_size


def _attention_reads(query, heads, dtype):
    """One attention read per head (``Attention_<h>`` scopes) for ``query``; ``heads`` from ``_attention_heads``."""
    hidden, hidden_features, v, attn_length, attn_size = heads
    attention_vec_size = attn_size
    ds = []
    if tf.nest.is_nested(query):
        query_list = tf.nest.flatten(query)
        for q in query_list:
            ndims = q.get_shape().ndims
            if ndims and ndims != 2:
                raise ValueError("attention query parts must be 2-D, got %s" % q.get_shape())
        query = tf.concat(query_list, 1)
    for a in range(len(hidden_features)):
        with v1.variable_scope("Attention_%d" % a):
            y = Linear(query, attention_vec_size, True)(query)
            y = tf.cast(tf.reshape(y, [-1, 1, 1, attention_vec_size]), dtype)
            s = tf.reduce_sum(v[a] * tf.tanh(hidden_features[a] + y), [2, 3])
            weights = tf.cast(tf.nn.softmax(tf.cast(s, dtype=tf.float32)), dtype)
            d = tf.reduce_sum(tf.reshape(weights, [-1, attn_length, 1, 1]) * hidden, [1, 2])
            ds.append(tf.reshape(d, [-1, attn_size]))
    return ds


def embedding_attention_decoder(
    decoder_inputs,
    initial_state,
    attention_states,
    cell,
    num_symbols,
    embedding_size,
    num_heads=1,
    output_size=None,
    output_projection=None,
    feed_previous=False,
    update_embedding_for_previous=True,
    dtype=None,
    scope=None,
    initial_state_attention=False,
):
    """``attention_decoder`` over embedded integer inputs (``embedding``: ``[num_symbols, embedding_size]``)."""
    if output_size is None:
        output_size = cell.output_size
    if output_projection is not None:
        proj_biases = tf.convert_to_tensor(output_projection[1], dtype=dtype)
        proj_biases.get_shape().assert_is_compatible_with([num_symbols])
    with v1.variable_scope(scope or "embedding_attention_decoder", dtype=dtype):
        embedding = v1.get_variable("embedding", [num_symbols, embedding_size])
        loop_function = (
            _extract_argmax_and_embed(embedding, output_projection, update_embedding_for_previous)
            if feed_previous
            else None
        )
        emb_inp = [tf.nn.embedding_lookup(embedding, i) for i in decoder_inputs]
        return attention_decoder(
            emb_inp,
            initial_state,
            attention_states,
            cell,
            output_size=output_size,
            num_heads=num_heads,
            loop_function=loop_function,
            initial_state_attention=initial_state_attention,
        )


def embedding_attention_seq2seq(
    encoder_inputs,
    decoder_inputs,
    cell,
    num_encoder_symbols,
    num_decoder_symbols,
    embedding_size,
    num_heads=1,
    output_projection=None,
    feed_previous=False,
    dtype=None,
    scope=None,
    initial_state_attention=False,
):
    """Embedding encoder and ``embedding_attention_decoder`` attending over the encoder's outputs.

    The model of the 2016 TensorFlow translate tutorial. Without ``output_projection`` the decoder cell gets an
    ``OutputProjectionWrapper`` to ``num_decoder_symbols``. ``feed_previous`` may be a bool tensor.
    """
    with v1.variable_scope(scope or "embedding_attention_seq2seq", dtype=dtype) as scope:
        dtype = scope.dtype
        encoder_outputs, encoder_state = _embedding_encoder(
            copy.deepcopy(cell), encoder_inputs, num_encoder_symbols, embedding_size, dtype
        )
        top_states = [tf.reshape(e, [-1, 1, cell.output_size]) for e in encoder_outputs]
        attention_states = tf.concat(top_states, 1)
        output_size = None
        if output_projection is None:
            cell = OutputProjectionWrapper(cell, num_decoder_symbols)
            output_size = num_decoder_symbols

        def decode(feed, update_embedding_for_previous=True):
            return embedding_attention_decoder(
                decoder_inputs,
                encoder_state,
                attention_states,
                cell,
                num_decoder_symbols,
                embedding_size,
                num_heads=num_heads,
                output_size=output_size,
                output_projection=output_projection,
                feed_previous=feed,
                update_embedding_for_previous=update_embedding_for_previous,
                initial_state_attention=initial_state_attention,
            )

        return _decode_feeding_previous(decode, feed_previous, len(decoder_inputs), encoder_state)


def one2many_rnn_seq2seq(
    encoder_inputs,
    decoder_inputs_dict,
    enc_cell,
    dec_cells_dict,
    num_encoder_symbols,
    num_decoder_symbols_dict,
    embedding_size,
    feed_previous=False,
    dtype=None,
    scope=None,
):
    """One embedding encoder, one ``embedding_rnn_decoder`` per key of ``decoder_inputs_dict``.

    Returns ``(outputs_dict, state_dict)``. Raises ``TypeError`` for a non-cell and ``ValueError`` when the
    keys of ``dec_cells_dict`` and ``decoder_inputs_dict`` differ.
    """
    outputs_dict = {}
    state_dict = {}
    rnn_cell_class = _base.RNNCell
    if not isinstance(enc_cell, rnn_cell_class):
        raise TypeError("enc_cell is not an RNNCell: %s" % type(enc_cell))
    if set(dec_cells_dict) != set(decoder_inputs_dict):
        raise ValueError("keys of dec_cells_dict != keys of decodre_inputs_dict")
    for dec_cell in dec_cells_dict.values():
        if not isinstance(dec_cell, rnn_cell_class):
            raise TypeError("dec_cell is not an RNNCell: %s" % type(dec_cell))
    with v1.variable_scope(scope or "one2many_rnn_seq2seq", dtype=dtype) as scope:
        dtype = scope.dtype
        _, encoder_state = _embedding_encoder(enc_cell, encoder_inputs, num_encoder_symbols, embedding_size, dtype)
        for name, decoder_inputs in decoder_inputs_dict.items():
            num_decoder_symbols = num_decoder_symbols_dict[name]
            with v1.variable_scope("one2many_decoder_" + str(name)):
                dec_cell = OutputProjectionWrapper(dec_cells_dict[name], num_decoder_symbols)

                def decode(feed, inputs=decoder_inputs, cell=dec_cell, symbols=num_decoder_symbols):
                    return embedding_rnn_decoder(
                        inputs, encoder_state, cell, symbols, embedding_size, feed_previous=feed
                    )

                if isinstance(feed_previous, bool):
                    outputs, state = decode(feed_previous)
                else:
                    outputs, state_list = _cond_decoder(feed_previous, decode, len(decoder_inputs))
                    state = _pack_state(encoder_state, state_list)
            outputs_dict[name] = outputs
            state_dict[name] = state
    return outputs_dict, state_dict


def sequence_loss_by_example(
    logits, targets, weights, average_across_timesteps=True, softmax_loss_function=None, name=None
):
    """Weighted cross-entropy per example: ``sum_t w_t * xent_t`` (divided by ``sum_t w_t + 1e-12``).

    ``logits``: list of ``[batch, num_decoder_symbols]``; ``targets``: list of int ``[batch]``; ``weights``: list of
    float ``[batch]``, all of one length (``ValueError`` otherwise). ``softmax_loss_function(labels=, logits=)``
    replaces the sparse softmax cross-entropy. Returns a ``[batch]`` tensor.
    """
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError(
            "Lengths of logits, weights, and targets must be the same %d, %d, %d."
            % (len(logits), len(weights), len(targets))
        )
    with tf.name_scope(name or "sequence_loss_by_example"):
        log_perp_list = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                target = tf.reshape(target, [-1])
                crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            log_perp_list.append(crossent * weight)
        log_perps = tf.add_n(log_perp_list)
        if average_across_timesteps:
            total_size = tf.add_n(weights)
            total_size += 1e-12
            log_perps /= total_size
    return log_perps


def sequence_loss(
    logits,
    targets,
    weights,
    average_across_timesteps=True,
    average_across_batch=True,
    softmax_loss_function=None,
    name=None,
):
    """``sum(sequence_loss_by_example(...))``, divided by the batch size when ``average_across_batch``."""
    with tf.name_scope(name or "sequence_loss"):
        cost = tf.reduce_sum(
            sequence_loss_by_example(
                logits,
                targets,
                weights,
                average_across_timesteps=average_across_timesteps,
                softmax_loss_function=softmax_loss_function,
            )
        )
        if average_across_batch:
            batch_size = tf.shape(targets[0])[0]
            return cost / tf.cast(batch_size, cost.dtype)
        return cost


def model_with_buckets(
    encoder_inputs,
    decoder_inputs,
    targets,
    weights,
    buckets,
    seq2seq,
    softmax_loss_function=None,
    per_example_loss=False,
    name=None,
):
    """Builds ``seq2seq(encoder_inputs[:enc_len], decoder_inputs[:dec_len])`` per bucket with shared variables.

    ``buckets``: list of ``(encoder_length, decoder_length)``, the longest last. Returns ``(outputs, losses)``:
    per bucket, the decoder outputs and ``sequence_loss`` (``sequence_loss_by_example`` when
    ``per_example_loss``). ``ValueError`` when the inputs are shorter than the last bucket.
    """
    if len(encoder_inputs) < buckets[-1][0]:
        raise ValueError(
            "Length of encoder_inputs (%d) must be at least that of last bucket (%d)."
            % (len(encoder_inputs), buckets[-1][0])
        )
    if len(targets) < buckets[-1][1]:
        raise ValueError(
            "Length of targets (%d) must be at least that of last bucket (%d)." % (len(targets), buckets[-1][1])
        )
    if len(weights) < buckets[-1][1]:
        raise ValueError(
            "Length of weights (%d) must be at least that of last bucket (%d)." % (len(weights), buckets[-1][1])
        )
    losses = []
    outputs = []
    with tf.name_scope(name or "model_with_buckets"):
        for j, bucket in enumerate(buckets):
            with v1.variable_scope(v1.get_variable_scope(), reuse=True if j > 0 else None):
                bucket_outputs, _ = seq2seq(encoder_inputs[: bucket[0]], decoder_inputs[: bucket[1]])
                outputs.append(bucket_outputs)
                loss_fn = sequence_loss_by_example if per_example_loss else sequence_loss
                losses.append(
                    loss_fn(
                        outputs[-1],
                        targets[: bucket[1]],
                        weights[: bucket[1]],
                        softmax_loss_function=softmax_loss_function,
                    )
                )
    return outputs, losses
