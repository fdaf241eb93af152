"""TF 1.15 fidelity switches, and the one list of every process-wide change tf1clip makes (docs/layout.rst).

``CHANGES`` holds one record per change (``_registry.Change``): the switches tf1clip-upgrade adds
(``use_tf1_random_seeds``, ``use_tf1_shapes``), the op-count corrections of ``use_tf1_random_seeds``
(``_corrections``), the patches of ``tf1clip.compat``'s patch sets and the install-hint hook. Each installs,
undoes and says whether it is installed; each names what it touches and the TF 1.15 case or test that proves
it; a switch also holds what makes tf1clip-upgrade add it (``conversion``).

Importing this package does not import TensorFlow; the switches import it on first use.
"""

import importlib

from tf1clip.fidelity._registry import CHANGES, SWITCHES, Change, Conversion, FrameRead, change

# public name -> the submodule defining it: each switch's call and query.
_EXPORTS = dict((name, record.how.module) for record in SWITCHES for name in (record.how.call, record.how.query))

__all__ = ["CHANGES", "SWITCHES", "Change", "Conversion", "FrameRead", "change", *_EXPORTS]


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'tf1clip.fidelity' has no attribute %r" % name)
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
