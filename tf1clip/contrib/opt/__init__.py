"""``tf.contrib.opt``: its gradient clipping function and its optimizers (docs/contrib_opt.rst).

The optimizers are imported from their modules on first use (``tf1clip.contrib._manifest``).
"""

from typing import Any, Iterable, List, Tuple

from tf1clip.core import _validate
from tf1clip.core import clipping
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)
__getattr__ = _manifest.module_getattr("tf1clip.contrib.opt", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.opt", globals())


def clip_gradients_by_global_norm(
    gradients_variables: Iterable[Tuple[Any, Any]], clip_norm: Any = 20.0
) -> Tuple[List[Tuple[Any, Any]], Any]:
    """Clips ``(gradient, variable)`` pairs by their global norm; returns ``(pairs, norm)``.

    ``tf.contrib.opt.clip_gradients_by_global_norm`` (from the multitask
    optimizer module). Contrib replaced all-zero gradients by a scalar zero
    before taking the norm "to avoid underestimating it"; zeros add nothing to
    a sum of squares, so its norm equals the plain global norm, which is what
    this computes (``tf1clip.clip_by_global_norm``). Unlike contrib, an
    ``IndexedSlices`` gradient works (contrib's ``tf.cond`` failed on it) and
    stays sparse; ``None`` gradients pass through.

    Args:
      gradients_variables: list of ``(gradient, variable)`` pairs.
      clip_norm: the limit on the global norm, > 0: a number or a 0-d tensor.

    Returns:
      ``(clipped_pairs, norm)``: the new pairs (same variables, same order) and
      the global norm before clipping.
    """
    pairs = _validate.check_pairs(gradients_variables, arg="gradients_variables")
    return clipping.clip_by_global_norm(pairs, clip_norm)
