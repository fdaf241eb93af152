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

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.cudnn_rnn", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.cudnn_rnn", globals())
