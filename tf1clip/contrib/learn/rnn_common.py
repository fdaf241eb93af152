"""``tf.contrib.learn``'s ``rnn_common`` (TF 1.15): helpers of its RNN Estimators, as TF 1.15 computed them.

``select_last_activations``, ``mask_activations_and_labels``, ``RNNKeys`` and ``PredictionType`` need TensorFlow
only. ``construct_rnn_cell`` and ``apply_dropout`` build ``tf.compat.v1.nn.rnn_cell`` cells, which need Keras 2
(``TF_USE_LEGACY_KERAS=1`` and tf-keras on TensorFlow 2.16+). ``get_eval_metric_ops`` and
``multi_value_predictions`` (which need contrib.learn's target columns and streaming metrics) are not re-created.
"""

from typing import Any, Dict, List, Optional, Sequence

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_CELL_TYPE_NAMES = ("basic_rnn", "lstm", "gru")


class RNNKeys:
    """Keys of the RNN Estimators' features and predictions."""

    FINAL_STATE_KEY = "final_state"
    LABELS_KEY = "__labels__"
    SEQUENCE_LENGTH_KEY = "sequence_length"
    STATE_PREFIX = "rnn_cell_state"


class PredictionType:
    """Whether a model predicts one value per sequence or one per step."""

    SINGLE_VALUE = 1
    MULTIPLE_VALUE = 2


def _rnn_cell() -> Any:
    from tf1clip.contrib.rnn import _base  # noqa: PLC0415

    return _base.rnn_cell()


def _single_cell(cell_type: Any, num_units: int) -> Any:
    rnn_cell = _rnn_cell()
    types: Dict[str, Any] = {"basic_rnn": rnn_cell.BasicRNNCell, "lstm": rnn_cell.LSTMCell, "gru": rnn_cell.GRUCell}
    cls = types.get(cell_type, cell_type) if isinstance(cell_type, str) else cell_type
    if not cls or not isinstance(cls, type) or not issubclass(cls, rnn_cell.RNNCell):
        raise ValueError("cell_type: the supported cell types are %s; got %r" % (list(_CELL_TYPE_NAMES), cls))
    return cls(num_units=num_units)


def construct_rnn_cell(
    num_units: Any, cell_type: Any = "basic_rnn", dropout_keep_probabilities: Optional[Sequence[Any]] = None
) -> Any:
    """One ``RNNCell`` per entry of ``num_units`` (an int or a list/tuple of ints), dropout applied, stacked.

    ``cell_type`` is ``"basic_rnn"``, ``"lstm"``, ``"gru"`` or an ``RNNCell`` subclass. A non-empty
    ``dropout_keep_probabilities`` (one more than the cells) goes to :func:`apply_dropout`. Returns the single
    cell, or a ``MultiRNNCell`` of them.
    """
    if not isinstance(num_units, (list, tuple)):
        num_units = (num_units,)
    cells = [_single_cell(cell_type, n) for n in num_units]
    if dropout_keep_probabilities:
        cells = apply_dropout(cells, dropout_keep_probabilities)
    if len(cells) == 1:
        return cells[0]
    return _rnn_cell().MultiRNNCell(cells)


def apply_dropout(
    cells: Sequence[Any], dropout_keep_probabilities: Sequence[Any], random_seed: Optional[int] = None
) -> List[Any]:
    """``cells`` wrapped in ``DropoutWrapper``s; ``dropout_keep_probabilities`` has one entry more than ``cells``.

    Cell ``i`` gets input keep probability ``dropout_keep_probabilities[i]``; the last cell also gets output keep
    probability ``dropout_keep_probabilities[-1]``. As in TF 1.15, ``random_seed`` seeds every wrapper but the
    last one's.
    """
    if len(dropout_keep_probabilities) != len(cells) + 1:
        raise ValueError(
            "dropout_keep_probabilities: the number of dropout probabilities must be one greater than the number "
            "of cells. Got %d cells and %d dropout probabilities." % (len(cells), len(dropout_keep_probabilities))
        )
    wrapper = _rnn_cell().DropoutWrapper
    wrapped = [
        wrapper(cell, prob, 1.0, seed=random_seed) for cell, prob in zip(cells[:-1], dropout_keep_probabilities[:-2])
    ]
    wrapped.append(wrapper(cells[-1], dropout_keep_probabilities[-2], dropout_keep_probabilities[-1]))
    return wrapped


def select_last_activations(activations: Any, sequence_lengths: Any) -> Any:
    """``output[i] = activations[i, sequence_lengths[i] - 1]`` (``activations[i, -1]`` if ``sequence_lengths`` is None).

    ``activations`` has shape ``[batch_size, padded_length, k]``; the result ``[batch_size, k]``.
    """
    with tf.compat.v1.name_scope(None, "select_last_activations", [activations, sequence_lengths]):
        activations = tf.convert_to_tensor(activations)
        shape = tf.shape(activations)
        batch_size, padded_length, num_label_columns = shape[0], shape[1], shape[2]
        if sequence_lengths is None:
            sequence_lengths = padded_length
        reshaped = tf.reshape(activations, [-1, num_label_columns])
        indices = tf.range(batch_size) * padded_length + sequence_lengths - 1
        last = tf.gather(reshaped, indices)
        last.set_shape([activations.shape[0], activations.shape[2]])
        return last


def mask_activations_and_labels(activations: Any, labels: Any, sequence_lengths: Any) -> Any:
    """``(activations, labels)`` with the steps at or past ``sequence_lengths`` removed, batches concatenated.

    ``activations`` is ``[batch_size, padded_length, k]``, ``labels`` ``[batch_size, padded_length]``; results are
    ``[sum(sequence_lengths), k]`` and ``[sum(sequence_lengths)]`` (every step kept if ``sequence_lengths`` is
    None).
    """
    with tf.compat.v1.name_scope(None, "mask_activations_and_labels", [activations, labels, sequence_lengths]):
        labels_shape = tf.shape(labels)
        batch_size, padded_length = labels_shape[0], labels_shape[1]
        if sequence_lengths is None:
            flattened = padded_length * batch_size
            return tf.reshape(activations, [flattened, -1]), tf.reshape(labels, [flattened])
        mask = tf.sequence_mask(sequence_lengths, padded_length)
        return tf.boolean_mask(activations, mask), tf.boolean_mask(labels, mask)
