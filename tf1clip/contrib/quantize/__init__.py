"""``tf.contrib.quantize``: TF 1.15's graph rewrite for quantization-aware training, re-created
(``tf1clip.contrib.quantize.quantize_graph``; docs/quantize.rst).

``create_training_graph``, ``create_eval_graph``, ``experimental_create_training_graph`` and
``experimental_create_eval_graph`` insert TF 1.15's fake-quant ops, range variables and ``quant_delay`` gating,
with its names, after folding batch norms (fused, and slim's unfused ones) as TF 1.15 did.
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.quantize", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.quantize", globals())
