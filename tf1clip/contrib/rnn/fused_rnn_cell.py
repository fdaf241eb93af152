"""``tf.contrib.rnn.FusedRNNCell``, ``FusedRNNCellAdaptor`` and ``TimeReversedFusedRNN`` (TF 1.15's
``fused_rnn_cell.py``): cells that run over a whole time-major sequence in one call.
"""

import abc

from tf1clip.compat._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


class FusedRNNCell(metaclass=abc.ABCMeta):
    """A whole RNN over time: ``outputs, state = cell(inputs, initial_state, dtype, sequence_length, scope)``.

    ``inputs``: ``[time, batch, depth]`` or a list of ``[batch, depth]`` tensors (the outputs match).
    """

    @abc.abstractmethod
    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        """``(outputs, final_state)`` of the RNN over ``inputs``."""


class FusedRNNCellAdaptor(FusedRNNCell):
    """An ``RNNCell`` as a ``FusedRNNCell``: ``tf.compat.v1.nn.dynamic_rnn`` (time-major) or ``static_rnn``."""

    def __init__(self, cell, use_dynamic_rnn=False):
        _base.check_cell("cell", cell)
        self._cell = cell
        self._use_dynamic_rnn = use_dynamic_rnn

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        is_list = isinstance(inputs, list)
        if self._use_dynamic_rnn:
            if is_list:
                inputs = tf.stack(inputs)
            outputs, state = v1.nn.dynamic_rnn(
                self._cell,
                inputs,
                sequence_length=sequence_length,
                initial_state=initial_state,
                dtype=dtype,
                time_major=True,
                scope=scope,
            )
            if is_list:
                outputs = tf.unstack(outputs)
        else:
            if not is_list:
                inputs = tf.unstack(inputs)
            outputs, state = v1.nn.static_rnn(
                self._cell,
                inputs,
                initial_state=initial_state,
                dtype=dtype,
                sequence_length=sequence_length,
                scope=scope,
            )
            if not is_list:
                outputs = tf.stack(outputs)
        return outputs, state


class TimeReversedFusedRNN(FusedRNNCell):
    """Runs a ``FusedRNNCell`` backwards in time: inputs reversed (within ``sequence_length``), outputs back."""

    def __init__(self, cell):
        self._cell = cell

    def _reverse(self, t, lengths):
        if isinstance(t, list):
            return list(reversed(t))
        if lengths is None:
            return tf.reverse(t, [0])
        return tf.reverse_sequence(t, lengths, seq_axis=0, batch_axis=1)

    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        inputs = self._reverse(inputs, sequence_length)
        outputs, state = self._cell(
            inputs, initial_state=initial_state, dtype=dtype, sequence_length=sequence_length, scope=scope
        )
        return self._reverse(outputs, sequence_length), state
