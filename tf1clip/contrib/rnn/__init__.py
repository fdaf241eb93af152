"""``tf.contrib.rnn``: every name TF 1.15 exported; those TF 2 dropped are re-created, the rest are
``tf.compat.v1.nn``'s.

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

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.rnn", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.rnn", globals())
