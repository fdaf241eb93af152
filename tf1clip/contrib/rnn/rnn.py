"""``tf.contrib.rnn.stack_bidirectional_rnn`` and ``stack_bidirectional_dynamic_rnn`` (TF 1.15's, on TF 2's
``tf.compat.v1.nn.static_bidirectional_rnn`` and ``bidirectional_dynamic_rnn``), and the contrib aliases of
``tf.compat.v1.nn.static_rnn``, ``static_bidirectional_rnn`` and ``static_state_saving_rnn``; and
``best_effort_input_batch_size`` and ``transpose_batch_time``, which ``tf.contrib.rnn`` exported from TF 1.15's
``tensorflow/python/ops/rnn.py``.

Variables: ``stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/<cell scope>/...`` (or ``scope`` in
place of ``stack_bidirectional_rnn``).
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1
static_rnn = v1.nn.static_rnn
static_bidirectional_rnn = v1.nn.static_bidirectional_rnn
static_state_saving_rnn = v1.nn.static_state_saving_rnn


def best_effort_input_batch_size(flat_input):
    """The batch size (axis 1) of time-major tensors: the first one known statically, else ``tf.shape(...)[1]``.

    Raises:
      ValueError: for an input of known rank below 2.
    """
    for input_ in flat_input:
        shape = input_.shape
        if shape.rank is None:
            continue
        if shape.rank < 2:
            raise ValueError("Expected input tensor %s to have rank at least 2" % input_)
        batch_size = tf.compat.dimension_value(shape[1])
        if batch_size is not None:
            return batch_size
    return tf.shape(flat_input[0])[1]


def transpose_batch_time(x):
    """``x`` with its first two axes swapped (unchanged below rank 2), keeping what is known of its shape."""
    x_static_shape = x.get_shape()
    if x_static_shape.rank is not None and x_static_shape.rank < 2:
        return x
    x_t = tf.transpose(x, tf.concat(([1, 0], tf.range(2, tf.rank(x))), axis=0))
    x_t.set_shape(tf.TensorShape([x_static_shape[1], x_static_shape[0]]).concatenate(x_static_shape[2:]))
    return x_t


def _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    for name, states in (("initial_states_fw", initial_states_fw), ("initial_states_bw", initial_states_bw)):
        if states is not None and (not isinstance(states, list) or len(states) != len(cells_fw)):
            raise ValueError("%s must be a list of state tensors (one per layer)." % name)


def stack_bidirectional_rnn(
    cells_fw,
    cells_bw,
    inputs,
    initial_states_fw=None,
    initial_states_bw=None,
    dtype=None,
    sequence_length=None,
    scope=None,
):
    """Stacked bidirectional static RNN (https://arxiv.org/abs/1303.5778): each layer reads the previous
    layer's concatenated forward and backward outputs.

    Args and errors as TF 1.15's ``tf.contrib.rnn.stack_bidirectional_rnn``: ``inputs`` is a length-T list of
    ``[batch, depth]`` tensors; ``cells_fw``/``cells_bw`` are lists of cells of equal length.

    Returns:
      ``(outputs, states_fw, states_bw)``: the last layer's T outputs and tuples of each layer's final states.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw = []
    states_bw = []
    prev_layer = inputs
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with v1.variable_scope("cell_%d" % i) as cell_scope:
                prev_layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw,
                    cell_bw,
                    prev_layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length,
                    dtype=dtype,
                    scope=cell_scope,
                )
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(
    cells_fw,
    cells_bw,
    inputs,
    initial_states_fw=None,
    initial_states_bw=None,
    dtype=None,
    sequence_length=None,
    parallel_iterations=None,
    time_major=False,
    scope=None,
    swap_memory=False,
):
    """Stacked bidirectional dynamic RNN: each layer reads the previous layer's outputs concatenated on axis 2.

    Args and errors as TF 1.15's ``tf.contrib.rnn.stack_bidirectional_dynamic_rnn`` (``inputs``:
    ``[batch, time, depth]``, or ``[time, batch, depth]`` with ``time_major=True``).

    Returns:
      ``(outputs, states_fw, states_bw)``: the last layer's outputs (depth ``fw + bw``) and tuples of each
      layer's final states.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw = []
    states_bw = []
    prev_layer = inputs
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with v1.variable_scope("cell_%d" % i):
                outputs, (state_fw, state_bw) = v1.nn.bidirectional_dynamic_rnn(
                    cell_fw,
                    cell_bw,
                    prev_layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length,
                    parallel_iterations=parallel_iterations,
                    dtype=dtype,
                    swap_memory=swap_memory,
                    time_major=time_major,
                )
                prev_layer = tf.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)
