"""tf1clip: TF1-style gradient clipping for TensorFlow 2.x ``tf.compat.v1`` code.

The compute -> cap -> apply pipeline over ``(gradient, variable)`` pairs, the
optimizer decorators that replace ``tf.contrib``'s, and ``tf1clip.contrib``
drop-ins for the removed contrib APIs.

``import tf1clip`` does not import TensorFlow: each public name is imported on
first use (PEP 562), and that first use raises a clear ImportError when
TensorFlow is missing or too old. Submodules (``tf1clip.core.clipping``,
``tf1clip.contrib``, ...) import TensorFlow when imported.
"""

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# public name -> the submodule defining it
_EXPORTS = {
    "MIN_TF_VERSION": "compat._tf",
    "AGC": "core.adaptive",
    "AutoClip": "core.adaptive",
    "NormRecorder": "core.adaptive",
    "ZClip": "core.adaptive",
    "STATE_UPDATES": "core.cappers",
    "attach_state_updates": "core.cappers",
    "chain": "core.cappers",
    "run_capper": "core.cappers",
    "clip_by_average_norm_fn": "core.cappers",
    "clip_by_global_norm_fn": "core.cappers",
    "clip_by_norm_fn": "core.cappers",
    "clip_by_value_fn": "core.cappers",
    "clip_by_average_norm": "core.clipping",
    "clip_by_global_norm": "core.clipping",
    "clip_by_norm": "core.clipping",
    "clip_by_value": "core.clipping",
    "global_norm": "core.clipping",
    "sum_duplicate_indices": "core.clipping",
    "GradientNorms": "core.optimizer",
    "TransformGradientsOptimizer": "core.optimizer",
    "clip_gradients_by_norm": "core.optimizer",
    "transform_gradients": "core.optimizer",
}
# The TF 1.15 fidelity switches, which tf1clip-upgrade writes as ``tf1clip.<call>()``: one record each in
# tf1clip.fidelity.SWITCHES (``use_tf1_random_seeds``, ``use_tf1_shapes``; no TensorFlow import).
_SWITCHES = {s.how.call: s.how.module[len("tf1clip.") :] for s in importlib.import_module("tf1clip.fidelity").SWITCHES}
_EXPORTS.update(_SWITCHES)

__all__ = [
    "__version__",
    "MIN_TF_VERSION",
    "global_norm",
    "clip_by_value",
    "clip_by_norm",
    "clip_by_average_norm",
    "clip_by_global_norm",
    "clip_by_value_fn",
    "clip_by_norm_fn",
    "clip_by_average_norm_fn",
    "clip_by_global_norm_fn",
    "chain",
    "run_capper",
    "sum_duplicate_indices",
    "AutoClip",
    "AGC",
    "ZClip",
    "NormRecorder",
    "attach_state_updates",
    "STATE_UPDATES",
    "transform_gradients",
    "clip_gradients_by_norm",
    "TransformGradientsOptimizer",
    "GradientNorms",
    *_SWITCHES,
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from tf1clip.compat._tf import MIN_TF_VERSION  # noqa: F401
    from tf1clip.core.adaptive import AGC, AutoClip, NormRecorder, ZClip  # noqa: F401
    from tf1clip.core.cappers import (  # noqa: F401
        STATE_UPDATES,
        attach_state_updates,
        chain,
        clip_by_average_norm_fn,
        clip_by_global_norm_fn,
        clip_by_norm_fn,
        clip_by_value_fn,
        run_capper,
    )
    from tf1clip.core.clipping import (  # noqa: F401
        clip_by_average_norm,
        clip_by_global_norm,
        clip_by_norm,
        clip_by_value,
        global_norm,
        sum_duplicate_indices,
    )
    from tf1clip.core.optimizer import (  # noqa: F401
        GradientNorms,
        TransformGradientsOptimizer,
        clip_gradients_by_norm,
        transform_gradients,
    )
    from tf1clip.fidelity.seeds import use_tf1_random_seeds  # noqa: F401
    from tf1clip.fidelity.shapes import use_tf1_shapes  # noqa: F401


_SUBMODULES = ("contrib", "core", "estimator", "fidelity", "seeds", "shapes", "upgrade")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module("tf1clip." + name)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'tf1clip' has no attribute %r" % name)
    value = getattr(importlib.import_module("tf1clip." + module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
