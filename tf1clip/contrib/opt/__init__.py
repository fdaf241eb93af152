"""``tf.contrib.opt``: its gradient clipping function and its optimizers (docs/contrib_opt.rst)."""

from typing import Any, Iterable, List, Tuple

from tf1clip import _validate
from tf1clip import clipping

from tf1clip.contrib.opt import sign_decay
from tf1clip.contrib.opt._adam import AdaMaxOptimizer
from tf1clip.contrib.opt._adam import AdamGSOptimizer
from tf1clip.contrib.opt._adam import LazyAdamGSOptimizer
from tf1clip.contrib.opt._adam import LazyAdamOptimizer
from tf1clip.contrib.opt._adam import NadamOptimizer
from tf1clip.contrib.opt._agn import AGNCustomGetter
from tf1clip.contrib.opt._agn import AGNOptimizer
from tf1clip.contrib.opt._distributed import ElasticAverageCustomGetter
from tf1clip.contrib.opt._distributed import ElasticAverageOptimizer
from tf1clip.contrib.opt._distributed import GLOBAL_VARIABLE_NAME
from tf1clip.contrib.opt._distributed import LOCAL_VARIABLE_NAME
from tf1clip.contrib.opt._distributed import ModelAverageCustomGetter
from tf1clip.contrib.opt._distributed import ModelAverageOptimizer
from tf1clip.contrib.opt._external_optimizer import ExternalOptimizerInterface
from tf1clip.contrib.opt._external_optimizer import ScipyOptimizerInterface
from tf1clip.contrib.opt._ggt import GGTOptimizer
from tf1clip.contrib.opt._lars import LARSOptimizer
from tf1clip.contrib.opt._lars import RegAdagradOptimizer
from tf1clip.contrib.opt._moving_average import MovingAverageOptimizer
from tf1clip.contrib.opt._shampoo import ShampooOptimizer
from tf1clip.contrib.opt._sign import AddSignOptimizer
from tf1clip.contrib.opt._sign import PowerSignOptimizer
from tf1clip.contrib.opt._weight_decay import AdamWOptimizer
from tf1clip.contrib.opt._weight_decay import DecoupledWeightDecayExtension
from tf1clip.contrib.opt._weight_decay import MomentumWOptimizer
from tf1clip.contrib.opt._weight_decay import extend_with_decoupled_weight_decay
from tf1clip.contrib.opt._wrappers import DropStaleGradientOptimizer
from tf1clip.contrib.opt._wrappers import MultitaskOptimizerWrapper
from tf1clip.contrib.opt._wrappers import VariableClippingOptimizer
from tf1clip.contrib.opt.sign_decay import get_cosine_decay_fn
from tf1clip.contrib.opt.sign_decay import get_linear_decay_fn
from tf1clip.contrib.opt.sign_decay import get_restart_decay_fn

__all__ = [
    "clip_gradients_by_global_norm",
    "AdaMaxOptimizer",
    "AdamGSOptimizer",
    "AdamWOptimizer",
    "AddSignOptimizer",
    "AGNCustomGetter",
    "AGNOptimizer",
    "DecoupledWeightDecayExtension",
    "DropStaleGradientOptimizer",
    "ElasticAverageCustomGetter",
    "ElasticAverageOptimizer",
    "extend_with_decoupled_weight_decay",
    "ExternalOptimizerInterface",
    "get_cosine_decay_fn",
    "get_linear_decay_fn",
    "get_restart_decay_fn",
    "GGTOptimizer",
    "GLOBAL_VARIABLE_NAME",
    "LARSOptimizer",
    "LazyAdamGSOptimizer",
    "LazyAdamOptimizer",
    "LOCAL_VARIABLE_NAME",
    "ModelAverageCustomGetter",
    "ModelAverageOptimizer",
    "MomentumWOptimizer",
    "MovingAverageOptimizer",
    "MultitaskOptimizerWrapper",
    "NadamOptimizer",
    "PowerSignOptimizer",
    "RegAdagradOptimizer",
    "ScipyOptimizerInterface",
    "ShampooOptimizer",
    "sign_decay",
    "VariableClippingOptimizer",
]


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
