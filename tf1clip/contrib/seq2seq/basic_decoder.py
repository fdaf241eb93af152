"""``tf.contrib.seq2seq.BasicDecoder`` and ``BasicDecoderOutput`` (TF 1.15's ``basic_decoder.py``)."""

import collections

from tf1clip.compat._tf import tf
from tf1clip.contrib.seq2seq import decoder
from tf1clip.contrib.seq2seq import helper as helper_py
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput", ("rnn_output", "sample_id"))):
    pass


def check_cell(cell_name, cell):
    """TF 1.15's ``assert_like_rnncell``: a ``TypeError`` unless ``cell`` looks like an ``RNNCell``."""
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


def check_output_layer(output_layer):
    """A ``TypeError`` unless ``output_layer`` is None or a Keras/``tf.compat.v1.layers`` layer."""
    if output_layer is None:
        return
    if not (callable(output_layer) and hasattr(output_layer, "compute_output_shape")):
        raise TypeError("output_layer must be a Layer, received: %s" % type(output_layer))


def rnn_output_size(cell, output_layer):
    """The per-example output size of ``cell`` followed by ``output_layer`` (if any)."""
    size = cell.output_size
    if output_layer is None:
        return size
    with_batch = tf.nest.map_structure(lambda s: tf.TensorShape([None]).concatenate(s), size)
    layer_shape = output_layer.compute_output_shape(with_batch)
    return tf.nest.map_structure(lambda s: tf.TensorShape(s)[1:], layer_shape)


class BasicDecoder(decoder.Decoder):
    """``tf.contrib.seq2seq.BasicDecoder``: ``cell``, then ``output_layer``, then ``helper`` picks the next input.

    Args:
      cell: an ``RNNCell``. helper: a ``Helper``. initial_state: the cell's initial state (structure).
      output_layer: optional layer (e.g. ``tf.compat.v1.layers.Dense``) applied to the cell outputs.

    Raises:
      TypeError: ``cell`` is not a cell, ``helper`` not a ``Helper``, ``output_layer`` not a layer.
    """

    def __init__(self, cell, helper, initial_state, output_layer=None):
        check_cell("cell", cell)
        if not isinstance(helper, helper_py.Helper):
            raise TypeError("helper must be a Helper, received: %s" % type(helper))
        check_output_layer(output_layer)
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self):
        return self._helper.batch_size

    def _rnn_output_size(self):
        return rnn_output_size(self._cell, self._output_layer)

    @property
    def output_size(self):
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(), sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self):
        dtype = tf.nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(
            tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()), self._helper.sample_ids_dtype
        )

    def initialize(self, name=None):
        """``(finished, first_inputs, initial_state)``."""
        return self._helper.initialize() + (self._initial_state,)

    def step(self, time, inputs, state, name=None):
        """``(BasicDecoderOutput(rnn_output, sample_id), next_state, next_inputs, finished)``."""
        with v1.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids
            )
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished
