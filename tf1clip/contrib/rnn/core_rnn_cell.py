"""``tf.contrib.rnn``'s ``EmbeddingWrapper``, ``InputProjectionWrapper`` and ``OutputProjectionWrapper``.

TF 1.15's ``contrib/rnn/python/ops/core_rnn_cell.py`` re-created on ``tf.compat.v1.nn.rnn_cell``, with its
variable names (``embedding``; ``kernel`` and ``bias`` in the wrapper's scope).
"""

import math

from tf1clip.compat._tf import tf
from tf1clip.contrib.rnn import _base
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


class EmbeddingWrapper(_base.CellWrapper):
    """Embeds integer inputs (``embedding``: ``[embedding_classes, embedding_size]``) before the wrapped cell.

    The default initializer is the variable scope's, else uniform on ``[-sqrt(3), sqrt(3)]`` (variance 1).
    The lookup runs on ``/cpu:0``, as in TF 1.15.
    """

    def __init__(self, cell, embedding_classes, embedding_size, initializer=None, reuse=None):
        super().__init__(_reuse=reuse)
        _base.check_cell("cell", cell)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError(
                "Both embedding_classes and embedding_size must be > 0: %d, %d." % (embedding_classes, embedding_size)
            )
        self._cell = cell
        self._embedding_classes = embedding_classes
        self._embedding_size = embedding_size
        self._initializer = initializer

    def call(self, inputs, state):
        with tf.device("/cpu:0"):
            if self._initializer:
                initializer = self._initializer
            elif v1.get_variable_scope().initializer:
                initializer = v1.get_variable_scope().initializer
            else:
                sqrt3 = math.sqrt(3)
                initializer = v1.random_uniform_initializer(-sqrt3, sqrt3)
            data_type = state[0].dtype if isinstance(state, tuple) else state.dtype
            embedding = v1.get_variable(
                "embedding", [self._embedding_classes, self._embedding_size], initializer=initializer, dtype=data_type
            )
            embedded = tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1]))
            return self._cell(embedded, state)


class InputProjectionWrapper(_base.CellWrapper):
    """Projects the inputs to ``num_proj`` (``kernel``, ``bias``; optional ``activation``) before the cell."""

    def __init__(self, cell, num_proj, activation=None, input_size=None, reuse=None):
        super().__init__(_reuse=reuse)
        del input_size  # deprecated and unused in TF 1.15
        _base.check_cell("cell", cell)
        self._cell = cell
        self._num_proj = num_proj
        self._activation = activation
        self._linear = None

    def call(self, inputs, state):
        if self._linear is None:
            self._linear = _base.Linear(inputs, self._num_proj, True)
        projected = self._linear(inputs)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class OutputProjectionWrapper(_base.CellWrapper):
    """Projects the cell's output to ``output_size`` (``kernel``, ``bias``; optional ``activation``)."""

    def __init__(self, cell, output_size, activation=None, reuse=None):
        super().__init__(_reuse=reuse)
        _base.check_cell("cell", cell)
        if output_size < 1:
            raise ValueError("Parameter output_size must be > 0: %d." % output_size)
        self._cell = cell
        self._output_size = output_size
        self._activation = activation
        self._linear = None

    @property
    def output_size(self):
        return self._output_size

    def call(self, inputs, state):
        output, res_state = self._cell(inputs, state)
        if self._linear is None:
            self._linear = _base.Linear(output, self._output_size, True)
        projected = self._linear(output)
        if self._activation:
            projected = self._activation(projected)
        return projected, res_state
