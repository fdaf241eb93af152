"""TF 1.15's rule for dimensions: a whole-number float is a size.

TF 1.15 made a dimension of a float that holds a whole number (``int(value)``, a ``ValueError`` "Ambiguous
dimension" otherwise). Under Python 3, ``num_units / 2`` is such a float (``8.0``), and TF 1 programs passed it
as a cell's ``num_units``, an ``attention_layer_size`` or a ``get_variable`` shape. TensorFlow 2 refuses every
float (``TypeError: Dimension value must be integer or None``). :func:`use_tf1_shapes` restores TF 1.15's rule;
it changes what TensorFlow 2 refused, nothing it accepted.
"""

from typing import Callable, List

import numpy as np

from tf1clip.compat import _tf

__all__ = ["use_tf1_shapes", "tf1_shapes_enabled"]

_restore: List[Callable[[], None]] = []


def _tf1_dimension_init(original):
    def __init__(self, value):
        if isinstance(value, (float, np.floating)):
            number = int(value)
            if number != value:
                raise ValueError("Ambiguous dimension: %s" % value)
            value = number
        original(self, value)

    return __init__


def use_tf1_shapes(enabled=True):
    """Makes TensorFlow take a whole-number float as a dimension (``8.0`` is ``8``), as TF 1.15 did.

    A float with a fractional part raises ``ValueError: Ambiguous dimension: 7.5``, TF 1.15's error. Process-wide
    and idempotent; ``use_tf1_shapes(False)`` restores TensorFlow 2's rule. tf1clip-upgrade adds the call to
    converted programs that pass a quotient (``/``) to a size argument (docs/upgrade.rst, "Whole-number floats
    as sizes").
    """
    if not isinstance(enabled, bool):
        raise TypeError("use_tf1_shapes: enabled must be True or False, got %r" % (enabled,))
    if enabled and not _restore:
        _restore.append(_tf.wrap_dimension_init(_tf1_dimension_init))
    elif not enabled and _restore:
        _restore.pop()()


def tf1_shapes_enabled():
    """Whether :func:`use_tf1_shapes` is in effect."""
    return bool(_restore)
