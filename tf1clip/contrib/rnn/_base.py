"""What the re-created ``tf.contrib.rnn`` cells stand on: ``tf.compat.v1.nn.rnn_cell``, contrib's ``_Linear``.

``tf.compat.v1.nn.rnn_cell`` is Keras 2's: on TensorFlow 2.16+ it needs the ``tf-keras`` package and
``TF_USE_LEGACY_KERAS=1`` in the environment before its first use (TensorFlow 2.15 has Keras 2 built in).
"""

import numbers
from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_HINT = (
    "tf1clip.contrib.rnn, legacy_seq2seq and cudnn_rnn build on tf.compat.v1.nn.rnn_cell, which needs Keras 2 "
    "on TensorFlow 2.16+: install tf-keras (python3 -m tf1clip.install_extras legacy-keras) and set "
    'os.environ["TF_USE_LEGACY_KERAS"] = "1" before TensorFlow is imported (tf1clip-upgrade adds that line)'
)

WEIGHTS_NAME = "kernel"
BIAS_NAME = "bias"


def rnn_cell() -> Any:
    """``tf.compat.v1.nn.rnn_cell``, or an ``ImportError`` that says how to get it."""
    module = tf.compat.v1.nn.rnn_cell
    try:
        _ = module.RNNCell
    except (AttributeError, ImportError) as err:
        raise ImportError("%s (TensorFlow %s: %s)" % (_HINT, tf.__version__, err)) from err
    return module


RNNCell = rnn_cell().RNNCell
LSTMStateTuple = rnn_cell().LSTMStateTuple
BasicLSTMCell = rnn_cell().BasicLSTMCell
BasicRNNCell = rnn_cell().BasicRNNCell
DeviceWrapper = rnn_cell().DeviceWrapper
DropoutWrapper = rnn_cell().DropoutWrapper
GRUCell = rnn_cell().GRUCell
LSTMCell = rnn_cell().LSTMCell
MultiRNNCell = rnn_cell().MultiRNNCell
ResidualWrapper = rnn_cell().ResidualWrapper


class LayerRNNCell(RNNCell):  # type: ignore[misc,valid-type]
    """``tf.contrib.rnn.LayerRNNCell``: an ``RNNCell`` whose variables come from ``build`` only.

    Calling it bypasses ``RNNCell``'s variable capturing, exactly as TensorFlow 1.15's ``LayerRNNCell``.
    """

    def __call__(self, inputs, state, scope=None, *args, **kwargs):
        return super(RNNCell, self).__call__(inputs, state, *args, scope=scope, **kwargs)


class CellWrapper(RNNCell):  # type: ignore[misc,valid-type]
    """A cell around ``self._cell``: its state size, output size and zero state (under ``<Class>ZeroState``)."""

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    def zero_state(self, batch_size, dtype):
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)


def check_cell(name: str, cell: Any) -> None:
    """``TypeError`` unless ``cell`` looks like an RNN cell (TF 1.15's ``assert_like_rnncell``)."""
    missing = [attr for attr in ("output_size", "state_size") if not hasattr(cell, attr)]
    if not (hasattr(cell, "get_initial_state") or hasattr(cell, "zero_state")):
        missing.append("get_initial_state or zero_state")
    if not callable(cell):
        missing.append("__call__")
    if missing:
        raise TypeError("%s: expected an RNN cell, got %r (it lacks %s)" % (name, cell, ", ".join(missing)))


def check_positive_int(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError("%s: expected a positive integer, got %r" % (name, value))


class Linear:
    """TF 1.15's ``core_rnn_cell._Linear``: ``concat(args, 1) @ kernel + bias`` in the current variable scope.

    Creates ``kernel`` (``[sum of args' widths, output_size]``) and, with ``build_bias``, ``bias`` (zeros by
    default, never partitioned).
    """

    def __init__(self, args, output_size, build_bias, bias_initializer=None, kernel_initializer=None):
        self._build_bias = build_bias
        if args is None or (tf.nest.is_nested(args) and not args):
            raise ValueError("`args` must be specified")
        self._is_sequence = tf.nest.is_nested(args)
        if not self._is_sequence:
            args = [args]
        total_arg_size = 0
        shapes = [a.get_shape() for a in args]
        for shape in shapes:
            if shape.ndims != 2:
                raise ValueError("linear is expecting 2D arguments: %s" % shapes)
            if tf.compat.dimension_value(shape[1]) is None:
                raise ValueError("linear expects shape[1] to be provided for shape %s, but saw %s" % (shape, shape[1]))
            total_arg_size += tf.compat.dimension_value(shape[1])
        dtype = args[0].dtype
        v1 = tf.compat.v1
        scope = v1.get_variable_scope()
        with v1.variable_scope(scope) as outer_scope:
            self._weights = v1.get_variable(
                WEIGHTS_NAME, [total_arg_size, output_size], dtype=dtype, initializer=kernel_initializer
            )
            if build_bias:
                with v1.variable_scope(outer_scope) as inner_scope:
                    inner_scope.set_partitioner(None)
                    if bias_initializer is None:
                        bias_initializer = v1.constant_initializer(0.0, dtype=dtype)
                    self._biases = v1.get_variable(BIAS_NAME, [output_size], dtype=dtype, initializer=bias_initializer)

    def __call__(self, args):
        if not self._is_sequence:
            args = [args]
        if len(args) == 1:
            res = tf.matmul(args[0], self._weights)
        else:
            res = tf.matmul(tf.concat(args, 1), self._weights)
        if self._build_bias:
            res = tf.nn.bias_add(res, self._biases)
        return res
