"""``tf.contrib.seq2seq``, re-created with TF 1.15's semantics and variable names (docs/seq2seq.rst).

Names resolve on first use (they need Keras 2), so importing ``tf1clip.contrib`` works without it.
"""

import importlib
from typing import Any, List

_OWN = {
    name: "attention_wrapper"
    for name in (
        "AttentionMechanism",
        "AttentionWrapper",
        "AttentionWrapperState",
        "BahdanauAttention",
        "BahdanauMonotonicAttention",
        "LuongAttention",
        "LuongMonotonicAttention",
        "hardmax",
        "monotonic_attention",
        "safe_cumprod",
    )
}

__all__ = sorted(_OWN)


def __getattr__(name: str) -> Any:
    if name not in _OWN:
        raise AttributeError("module 'tf1clip.contrib.seq2seq' has no attribute %r" % (name,))
    value = getattr(importlib.import_module("tf1clip.contrib.seq2seq." + _OWN[name]), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
