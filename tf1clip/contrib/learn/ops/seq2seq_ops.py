"""``tf.contrib.learn.ops``' sequence helpers (TF 1.15's ``ops/seq2seq_ops.py``): ``sequence_classifier``,
``seq2seq_inputs``, ``rnn_decoder`` and ``rnn_seq2seq`` (cells of ``tf.compat.v1.nn.rnn_cell``, Keras 2)."""

from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


def sequence_classifier(decoding: Any, labels: Any, sampling_decoding: Any = None, name: Any = None) -> Any:
    """``(predictions [batch, steps, classes], loss)``: the softmax of each step's logits (of
    ``sampling_decoding`` when given) and the sum over steps of the softmax cross entropy with ``labels[i]``."""
    with _v1.name_scope(name, "sequence_classifier", [decoding, labels]):
        predictions, xent_list = [], []
        for i, pred in enumerate(decoding):
            xent_list.append(
                _v1.nn.softmax_cross_entropy_with_logits(
                    labels=labels[i], logits=pred, name="sequence_loss/xent_raw{0}".format(i)
                )
            )
            predictions.append(tf.nn.softmax(sampling_decoding[i] if sampling_decoding else pred))
        xent = tf.add_n(xent_list, name="sequence_loss/xent")
        loss = tf.reduce_sum(xent, name="sequence_loss")
        return tf.stack(predictions, axis=1), loss


def seq2seq_inputs(x: Any, y: Any, input_length: int, output_length: int, sentinel: Any = None, name: Any = None):
    """``(encoder inputs, decoder inputs, decoder targets)`` as lists of steps: the decoder's inputs start with
    ``sentinel`` (zeros by default), its targets end with it."""
    with _v1.name_scope(name, "seq2seq_inputs", [x, y]):
        in_x = tf.unstack(x, axis=1)
        y = tf.unstack(y, axis=1)
        if not sentinel:
            sentinel = tf.zeros(tf.stack([tf.shape(x)[0], y[0].get_shape()[1]]))
            sentinel.set_shape(y[0].get_shape())
        return in_x, [sentinel] + y, y + [sentinel]


def rnn_decoder(decoder_inputs: Any, initial_state: Any, cell: Any, scope: Any = None) -> Any:
    """``(outputs, states, sampling_outputs, sampling_states)``: ``cell`` run on ``decoder_inputs`` (training) and
    on its own previous outputs (sampling), sharing variables under ``scope`` (``dnn_decoder``)."""
    with _v1.variable_scope(scope or "dnn_decoder"):
        states, sampling_states = [initial_state], [initial_state]
        outputs, sampling_outputs = [], []
        with _v1.name_scope("training", values=[decoder_inputs, initial_state]):
            for i, inp in enumerate(decoder_inputs):
                if i > 0:
                    _v1.get_variable_scope().reuse_variables()
                output, new_state = cell(inp, states[-1])
                outputs.append(output)
                states.append(new_state)
        with _v1.name_scope("sampling", values=[initial_state]):
            for i, _ in enumerate(decoder_inputs):
                if i == 0:
                    sampling_outputs.append(outputs[i])
                    sampling_states.append(states[i])
                else:
                    output, state = cell(sampling_outputs[-1], sampling_states[-1])
                    sampling_outputs.append(output)
                    sampling_states.append(state)
    return outputs, states, sampling_outputs, sampling_states


def rnn_seq2seq(encoder_inputs, decoder_inputs, encoder_cell, decoder_cell=None, dtype=tf.float32, scope=None):
    """``rnn_decoder`` started from the last state of ``static_rnn(encoder_cell, encoder_inputs)``, under
    ``scope`` (``rnn_seq2seq``)."""
    with _v1.variable_scope(scope or "rnn_seq2seq"):
        _, last_enc_state = _v1.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype)
        return rnn_decoder(decoder_inputs, last_enc_state, decoder_cell or encoder_cell)
