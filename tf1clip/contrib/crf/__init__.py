"""``tf.contrib.crf``: TF 1.15's linear-chain CRF, re-created (``tf1clip.contrib.crf.crf``; docs/rnn.rst).

``crf_log_likelihood``, ``crf_log_norm``, ``crf_sequence_score``, ``crf_multitag_sequence_score``,
``crf_unary_score``, ``crf_binary_score``, ``crf_decode``, ``viterbi_decode`` (NumPy) and the cells
``CrfForwardRnnCell``, ``CrfDecodeForwardRnnCell``, ``CrfDecodeBackwardRnnCell``, with TF 1.15's numbers and its
``transitions`` variable. Needs no Keras; ``tf1clip.contrib.crf.crf`` is imported on first use of a name.
"""

import importlib
from typing import Any, List

_NAMES = (
    "CrfDecodeBackwardRnnCell",
    "CrfDecodeForwardRnnCell",
    "CrfForwardRnnCell",
    "crf_binary_score",
    "crf_decode",
    "crf_log_likelihood",
    "crf_log_norm",
    "crf_multitag_sequence_score",
    "crf_sequence_score",
    "crf_unary_score",
    "viterbi_decode",
)
__all__ = list(_NAMES)


def __getattr__(name: str) -> Any:
    if name not in _NAMES:
        raise AttributeError("module 'tf1clip.contrib.crf' has no attribute %r" % (name,))
    value = getattr(importlib.import_module("tf1clip.contrib.crf.crf"), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
