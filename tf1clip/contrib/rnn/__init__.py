"""``tf.contrib.rnn``: the cells and functions TF 2 dropped, re-created; the rest is ``tf.compat.v1.nn``'s.

Re-created with TF 1.15's equations, defaults and variable names (TF 1.15 checkpoints restore; docs/rnn.rst):

* ``core_rnn_cell``: ``EmbeddingWrapper``, ``InputProjectionWrapper``, ``OutputProjectionWrapper``
* ``rnn_cell``: ``AttentionCellWrapper``, ``HighwayWrapper``, ``IntersectionRNNCell``, ``LayerNormBasicLSTMCell``,
  ``NASCell``, ``CoupledInputForgetGateLSTMCell``, ``UGRNNCell``, ``GLSTMCell``, ``SRUCell``, ``IndRNNCell``,
  ``IndyGRUCell``, ``IndyLSTMCell``, ``PhasedLSTMCell``, ``TimeFreqLSTMCell``, ``GridLSTMCell``,
  ``BidirectionalGridLSTMCell``, ``ConvLSTMCell``, ``Conv1DLSTMCell``, ``Conv2DLSTMCell``, ``Conv3DLSTMCell``,
  ``CompiledWrapper``
* ``lstm_ops``: ``LSTMBlockCell``, ``LSTMBlockWrapper``, ``LSTMBlockFusedCell``; ``gru_ops``: ``GRUBlockCell``,
  ``GRUBlockCellV2``
* ``fused_rnn_cell``: ``FusedRNNCell``, ``FusedRNNCellAdaptor``, ``TimeReversedFusedRNN``
* ``rnn``: ``stack_bidirectional_rnn``, ``stack_bidirectional_dynamic_rnn``, ``best_effort_input_batch_size``,
  ``transpose_batch_time``
* ``LayerRNNCell`` (an ``RNNCell`` whose variables come from ``build``)

Also here, as in contrib: ``tf.compat.v1.nn.rnn_cell``'s ``RNNCell``, ``BasicRNNCell``, ``BasicLSTMCell``,
``GRUCell``, ``LSTMCell``, ``LSTMStateTuple``, ``DropoutWrapper``, ``MultiRNNCell``, ``DeviceWrapper``,
``ResidualWrapper`` and ``tf.compat.v1.nn``'s ``static_rnn``, ``static_bidirectional_rnn``,
``static_state_saving_rnn``.

They need Keras 2: on TensorFlow 2.16+ install tf-keras (``python3 -m tf1clip.install_extras legacy-keras``)
and set ``TF_USE_LEGACY_KERAS=1`` before TensorFlow is imported. Names resolve on first use, so importing
``tf1clip.contrib`` works without it.
"""

import importlib
from typing import Any, List

_OWN = {
    "EmbeddingWrapper": "core_rnn_cell",
    "InputProjectionWrapper": "core_rnn_cell",
    "OutputProjectionWrapper": "core_rnn_cell",
    "AttentionCellWrapper": "rnn_cell",
    "HighwayWrapper": "rnn_cell",
    "IntersectionRNNCell": "rnn_cell",
    "LayerNormBasicLSTMCell": "rnn_cell",
    "BidirectionalGridLSTMCell": "rnn_cell",
    "CompiledWrapper": "rnn_cell",
    "Conv1DLSTMCell": "rnn_cell",
    "Conv2DLSTMCell": "rnn_cell",
    "Conv3DLSTMCell": "rnn_cell",
    "ConvLSTMCell": "rnn_cell",
    "CoupledInputForgetGateLSTMCell": "rnn_cell",
    "GLSTMCell": "rnn_cell",
    "GridLSTMCell": "rnn_cell",
    "IndRNNCell": "rnn_cell",
    "IndyGRUCell": "rnn_cell",
    "IndyLSTMCell": "rnn_cell",
    "NASCell": "rnn_cell",
    "PhasedLSTMCell": "rnn_cell",
    "SRUCell": "rnn_cell",
    "TimeFreqLSTMCell": "rnn_cell",
    "UGRNNCell": "rnn_cell",
    "LSTMBlockCell": "lstm_ops",
    "LSTMBlockFusedCell": "lstm_ops",
    "LSTMBlockWrapper": "lstm_ops",
    "FusedRNNCell": "fused_rnn_cell",
    "FusedRNNCellAdaptor": "fused_rnn_cell",
    "TimeReversedFusedRNN": "fused_rnn_cell",
    "best_effort_input_batch_size": "rnn",
    "transpose_batch_time": "rnn",
    "GRUBlockCell": "gru_ops",
    "GRUBlockCellV2": "gru_ops",
    "stack_bidirectional_dynamic_rnn": "rnn",
    "stack_bidirectional_rnn": "rnn",
    "static_bidirectional_rnn": "rnn",
    "static_rnn": "rnn",
    "static_state_saving_rnn": "rnn",
    "LayerRNNCell": "_base",
}

CORE_CELLS = (
    "BasicLSTMCell",
    "BasicRNNCell",
    "DeviceWrapper",
    "DropoutWrapper",
    "GRUCell",
    "LSTMCell",
    "LSTMStateTuple",
    "MultiRNNCell",
    "RNNCell",
    "ResidualWrapper",
)

__all__ = sorted(list(_OWN) + list(CORE_CELLS))


def __getattr__(name: str) -> Any:
    if name in _OWN:
        value = getattr(importlib.import_module("tf1clip.contrib.rnn." + _OWN[name]), name)
    elif name in CORE_CELLS:
        from tf1clip.contrib.rnn import _base

        value = getattr(_base.rnn_cell(), name)
    else:
        raise AttributeError("module 'tf1clip.contrib.rnn' has no attribute %r" % (name,))
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
