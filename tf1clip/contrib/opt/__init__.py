"""``tf.contrib.opt``'s gradient clipping function."""

from typing import Any, Iterable, List, Tuple

from tf1clip import _validate
from tf1clip import clipping

# opt2 names
from tf1clip.contrib.opt._distributed import GLOBAL_VARIABLE_NAME as GLOBAL_VARIABLE_NAME
from tf1clip.contrib.opt._distributed import LOCAL_VARIABLE_NAME as LOCAL_VARIABLE_NAME
from tf1clip.contrib.opt._distributed import ElasticAverageCustomGetter as ElasticAverageCustomGetter
from tf1clip.contrib.opt._distributed import ElasticAverageOptimizer as ElasticAverageOptimizer
from tf1clip.contrib.opt._distributed import ModelAverageCustomGetter as ModelAverageCustomGetter
from tf1clip.contrib.opt._distributed import ModelAverageOptimizer as ModelAverageOptimizer
from tf1clip.contrib.opt._external_optimizer import ExternalOptimizerInterface as ExternalOptimizerInterface
from tf1clip.contrib.opt._external_optimizer import ScipyOptimizerInterface as ScipyOptimizerInterface
from tf1clip.contrib.opt._moving_average import MovingAverageOptimizer as MovingAverageOptimizer
from tf1clip.contrib.opt._wrappers import DropStaleGradientOptimizer as DropStaleGradientOptimizer
from tf1clip.contrib.opt._wrappers import MultitaskOptimizerWrapper as MultitaskOptimizerWrapper
from tf1clip.contrib.opt._wrappers import VariableClippingOptimizer as VariableClippingOptimizer

_OPT2_NAMES = [
    "DropStaleGradientOptimizer",
    "ElasticAverageCustomGetter",
    "ElasticAverageOptimizer",
    "ExternalOptimizerInterface",
    "GLOBAL_VARIABLE_NAME",
    "LOCAL_VARIABLE_NAME",
    "ModelAverageCustomGetter",
    "ModelAverageOptimizer",
    "MovingAverageOptimizer",
    "MultitaskOptimizerWrapper",
    "ScipyOptimizerInterface",
    "VariableClippingOptimizer",
]
# end opt2 names

__all__ = ["clip_gradients_by_global_norm"] + _OPT2_NAMES


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
