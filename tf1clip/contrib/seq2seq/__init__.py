"""``tf.contrib.seq2seq``, re-created with TF 1.15's semantics, variable names and errors (docs/seq2seq.rst).

``attention_wrapper``: the attention mechanisms, ``AttentionWrapper`` and ``AttentionWrapperState``, ``hardmax``,
``safe_cumprod``, ``monotonic_attention``. They need Keras 2 (``tf.compat.v1.layers`` and
``tf.compat.v1.nn.rnn_cell``): names resolve on first use, so importing ``tf1clip.contrib`` works without it. The
names and where they come from are ``tf1clip.contrib._manifest``'s.
"""

from tf1clip.contrib import _manifest

__all__ = list(_manifest.names("tf1clip.contrib.seq2seq"))

__getattr__ = _manifest.module_getattr("tf1clip.contrib.seq2seq", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.seq2seq", globals())
