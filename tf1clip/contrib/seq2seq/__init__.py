"""``tf.contrib.seq2seq``: TF 1.15's public names, re-created in graph mode on ``tf.compat.v1`` cells.

Laid out by TF 1.15's modules (``tf.contrib.seq2seq.python.ops.<module>``), with TF 1.15's semantics, errors and
variable names (docs/seq2seq.rst lists the differences):

* ``decoder``: ``Decoder``, ``dynamic_decode``
* ``basic_decoder``: ``BasicDecoder``, ``BasicDecoderOutput``
* ``helper``: ``Helper``, ``CustomHelper``, ``TrainingHelper``, ``GreedyEmbeddingHelper``,
  ``SampleEmbeddingHelper``, ``ScheduledEmbeddingTrainingHelper``, ``ScheduledOutputTrainingHelper``,
  ``InferenceHelper``
* ``beam_search_decoder``: ``BeamSearchDecoder``, ``BeamSearchDecoderOutput``, ``BeamSearchDecoderState``,
  ``FinalBeamSearchDecoderOutput``, ``tile_batch`` (and ``gather_tree_from_array``)
* ``beam_search_ops``: ``gather_tree`` (TF 2 has no ``GatherTree`` op: built from TensorFlow ops)
* ``loss``: ``sequence_loss``
* ``attention_wrapper``: the attention mechanisms and ``AttentionWrapper``

Cells come from ``tf.compat.v1.nn.rnn_cell`` (Keras 2: on TensorFlow 2.16+ install tf-keras and set
``TF_USE_LEGACY_KERAS=1`` before TensorFlow is imported). Names resolve on first use.
"""

import importlib
from typing import Any, List

_OWN = {
    "Decoder": "decoder",
    "dynamic_decode": "decoder",
    "BasicDecoder": "basic_decoder",
    "BasicDecoderOutput": "basic_decoder",
    "Helper": "helper",
    "CustomHelper": "helper",
    "TrainingHelper": "helper",
    "GreedyEmbeddingHelper": "helper",
    "SampleEmbeddingHelper": "helper",
    "ScheduledEmbeddingTrainingHelper": "helper",
    "ScheduledOutputTrainingHelper": "helper",
    "InferenceHelper": "helper",
    "BeamSearchDecoder": "beam_search_decoder",
    "BeamSearchDecoderOutput": "beam_search_decoder",
    "BeamSearchDecoderState": "beam_search_decoder",
    "FinalBeamSearchDecoderOutput": "beam_search_decoder",
    "tile_batch": "beam_search_decoder",
    "gather_tree": "beam_search_ops",
    "sequence_loss": "loss",
    "AttentionMechanism": "attention_wrapper",
    "AttentionWrapper": "attention_wrapper",
    "AttentionWrapperState": "attention_wrapper",
    "BahdanauAttention": "attention_wrapper",
    "BahdanauMonotonicAttention": "attention_wrapper",
    "LuongAttention": "attention_wrapper",
    "LuongMonotonicAttention": "attention_wrapper",
    "hardmax": "attention_wrapper",
    "monotonic_attention": "attention_wrapper",
    "safe_cumprod": "attention_wrapper",
}

__all__ = sorted(_OWN)

_MODULES = frozenset(_OWN.values())


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return importlib.import_module("tf1clip.contrib.seq2seq." + name)
    if name not in _OWN:
        raise AttributeError("module 'tf1clip.contrib.seq2seq' has no attribute %r" % (name,))
    value = getattr(importlib.import_module("tf1clip.contrib.seq2seq." + _OWN[name]), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
