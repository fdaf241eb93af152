"""``tf.contrib.learn.ops`` (TF 1.15): ``embeddings_ops``, ``losses_ops`` and ``seq2seq_ops``' functions."""

from tf1clip.contrib import _manifest
from tf1clip.contrib.learn.ops.embeddings_ops import categorical_variable  # noqa: F401
from tf1clip.contrib.learn.ops.embeddings_ops import embedding_lookup  # noqa: F401
from tf1clip.contrib.learn.ops.losses_ops import mean_squared_error_regressor  # noqa: F401
from tf1clip.contrib.learn.ops.losses_ops import softmax_classifier  # noqa: F401
from tf1clip.contrib.learn.ops.seq2seq_ops import rnn_decoder  # noqa: F401
from tf1clip.contrib.learn.ops.seq2seq_ops import rnn_seq2seq  # noqa: F401
from tf1clip.contrib.learn.ops.seq2seq_ops import seq2seq_inputs  # noqa: F401
from tf1clip.contrib.learn.ops.seq2seq_ops import sequence_classifier  # noqa: F401

__all__ = _manifest.names_of(__name__)
