"""``tf.contrib.crf``: TF 1.15's linear-chain CRF, re-created (``tf1clip.contrib.crf.crf``; docs/rnn.rst).

``crf_log_likelihood``, ``crf_log_norm``, ``crf_sequence_score``, ``crf_multitag_sequence_score``,
``crf_unary_score``, ``crf_binary_score``, ``crf_decode``, ``viterbi_decode`` (NumPy) and the cells
``CrfForwardRnnCell``, ``CrfDecodeForwardRnnCell``, ``CrfDecodeBackwardRnnCell``, with TF 1.15's numbers and its
``transitions`` variable. Needs no Keras; ``tf1clip.contrib.crf.crf`` is imported on first use of a name.
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.crf", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.crf", globals())
