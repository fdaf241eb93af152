"""``tf.contrib.cudnn_rnn``: the cuDNN layers, their saveables and the cuDNN-compatible cells (docs/rnn.rst).

* ``python.layers.cudnn_rnn``: ``CudnnLSTM``, ``CudnnGRU``, ``CudnnRNNTanh``, ``CudnnRNNRelu``. TF 1.15's
  variables (``<layer>/opaque_kernel``, one opaque buffer) and checkpoints (the buffer, and its canonical
  weights under the compatible cells' names); on a GPU they run TF's CudnnRNN kernels, elsewhere the same
  function as TensorFlow ops.
* ``python.ops.cudnn_rnn_ops``: ``CudnnCompatibleLSTMCell``, ``CudnnCompatibleGRUCell``, the saveables
  (``CudnnLSTMSaveable`` ...) and the canonical <-> opaque converters (``CudnnParamsFormatConverterLSTM`` ...);
  the ``CUDNN_*`` constants are in both modules, as in TF 1.15.

They need Keras 2 (``tf.compat.v1.nn.rnn_cell``, ``tf.compat.v1.layers``): on TensorFlow 2.16+ install tf-keras
and set ``TF_USE_LEGACY_KERAS=1`` before TensorFlow is imported. Names resolve on first use.
"""

import importlib
from typing import Any, List

_LAYERS = ("CudnnGRU", "CudnnLSTM", "CudnnRNNRelu", "CudnnRNNTanh")
_OPS = (
    "CudnnCompatibleGRUCell",
    "CudnnCompatibleLSTMCell",
    "CudnnGRUSaveable",
    "CudnnLSTMSaveable",
    "CudnnParamsFormatConverterGRU",
    "CudnnParamsFormatConverterLSTM",
    "CudnnParamsFormatConverterRelu",
    "CudnnParamsFormatConverterTanh",
    "CudnnRNNReluSaveable",
    "CudnnRNNTanhSaveable",
)
__all__ = sorted(_LAYERS + _OPS)


def __getattr__(name: str) -> Any:
    if name in _LAYERS:
        module = "tf1clip.contrib.cudnn_rnn.python.layers.cudnn_rnn"
    elif name in _OPS:
        module = "tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops"
    else:
        raise AttributeError("module 'tf1clip.contrib.cudnn_rnn' has no attribute %r" % (name,))
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
