"""``tf.contrib.seq2seq``, re-created with TF 1.15's semantics, variable names and errors (docs/seq2seq.rst).

Laid out by TF 1.15's modules (``tf.contrib.seq2seq.python.ops.<module>``):

* ``attention_wrapper``: the attention mechanisms, ``AttentionWrapper`` and ``AttentionWrapperState``, ``hardmax``,
  ``safe_cumprod``, ``monotonic_attention``
* ``decoder``: ``Decoder``, ``dynamic_decode``; ``basic_decoder``: ``BasicDecoder``, ``BasicDecoderOutput``
* ``helper``: ``Helper``, ``CustomHelper``, ``TrainingHelper``, ``GreedyEmbeddingHelper``, ``SampleEmbeddingHelper``,
  ``ScheduledEmbeddingTrainingHelper``, ``ScheduledOutputTrainingHelper``, ``InferenceHelper``
* ``beam_search_decoder``: ``BeamSearchDecoder``, its state and outputs, ``tile_batch``
* ``beam_search_ops``: ``gather_tree`` (built from TensorFlow ops); ``loss``: ``sequence_loss``

They need Keras 2 (``tf.compat.v1.layers`` and ``tf.compat.v1.nn.rnn_cell``): names resolve on first use, so
importing ``tf1clip.contrib`` works without it. The names and where they come from are
``tf1clip.contrib._manifest``'s.
"""

import importlib
from typing import Any

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_SUBMODULES = frozenset(t.rsplit(".", 1)[1] for t in _manifest.targets() if t.startswith(__name__ + "."))
_names_getattr = _manifest.module_getattr("tf1clip.contrib.seq2seq", globals())


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(__name__ + "." + name)
    return _names_getattr(name)


__dir__ = _manifest.module_dir("tf1clip.contrib.seq2seq", globals())
