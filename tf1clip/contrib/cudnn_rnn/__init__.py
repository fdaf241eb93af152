"""``tf.contrib.cudnn_rnn``: the cuDNN layers, their saveables and the cuDNN-compatible cells (docs/rnn.rst).

* ``python.layers.cudnn_rnn``: ``CudnnLSTM``, ``CudnnGRU``, ``CudnnRNNTanh``, ``CudnnRNNRelu``. TF 1.15's
  variables (``<layer>/opaque_kernel``, one opaque buffer) and checkpoints (the buffer, and its canonical
  weights under the compatible cells' names); on a GPU they run TF's CudnnRNN kernels, elsewhere the same
  function as TensorFlow ops.
* ``python.ops.cudnn_rnn_ops``: ``CudnnCompatibleLSTMCell``, ``CudnnCompatibleGRUCell``, the saveables
  (``CudnnLSTMSaveable`` ...) and the canonical <-> opaque converters (``CudnnParamsFormatConverterLSTM`` ...);
  the ``CUDNN_*`` constants (TF 1.15 had them in both modules only) are here too, for code that imported
  a module path (``tf1clip-upgrade`` routes every path to this package).

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
_CONSTANTS = (
    "CUDNN_GRU",
    "CUDNN_GRU_PARAMS_PER_LAYER",
    "CUDNN_INPUT_AUTO_MODE",
    "CUDNN_INPUT_LINEAR_MODE",
    "CUDNN_INPUT_SKIP_MODE",
    "CUDNN_LSTM",
    "CUDNN_LSTM_PARAMS_PER_LAYER",
    "CUDNN_RNN_BIDIRECTION",
    "CUDNN_RNN_RELU",
    "CUDNN_RNN_RELU_PARAMS_PER_LAYER",
    "CUDNN_RNN_TANH",
    "CUDNN_RNN_TANH_PARAMS_PER_LAYER",
    "CUDNN_RNN_UNIDIRECTION",
)
__all__ = [
    "CUDNN_GRU",
    "CUDNN_GRU_PARAMS_PER_LAYER",
    "CUDNN_INPUT_AUTO_MODE",
    "CUDNN_INPUT_LINEAR_MODE",
    "CUDNN_INPUT_SKIP_MODE",
    "CUDNN_LSTM",
    "CUDNN_LSTM_PARAMS_PER_LAYER",
    "CUDNN_RNN_BIDIRECTION",
    "CUDNN_RNN_RELU",
    "CUDNN_RNN_RELU_PARAMS_PER_LAYER",
    "CUDNN_RNN_TANH",
    "CUDNN_RNN_TANH_PARAMS_PER_LAYER",
    "CUDNN_RNN_UNIDIRECTION",
    "CudnnCompatibleGRUCell",
    "CudnnCompatibleLSTMCell",
    "CudnnGRU",
    "CudnnGRUSaveable",
    "CudnnLSTM",
    "CudnnLSTMSaveable",
    "CudnnParamsFormatConverterGRU",
    "CudnnParamsFormatConverterLSTM",
    "CudnnParamsFormatConverterRelu",
    "CudnnParamsFormatConverterTanh",
    "CudnnRNNRelu",
    "CudnnRNNReluSaveable",
    "CudnnRNNTanh",
    "CudnnRNNTanhSaveable",
]


def __getattr__(name: str) -> Any:
    if name in _LAYERS:
        module = "tf1clip.contrib.cudnn_rnn.python.layers.cudnn_rnn"
    elif name in _OPS or name in _CONSTANTS:
        module = "tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops"
    else:
        raise AttributeError("module 'tf1clip.contrib.cudnn_rnn' has no attribute %r" % (name,))
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
