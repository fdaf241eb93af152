"""``tf.contrib.opt``: its gradient clipping function and its optimizers (docs/contrib_opt.rst)."""

from typing import Any, Iterable, List, Tuple

from tf1clip import _validate
from tf1clip import clipping

# opt1 names
from tf1clip.contrib.opt import sign_decay
from tf1clip.contrib.opt._adam import AdaMaxOptimizer
from tf1clip.contrib.opt._adam import AdamGSOptimizer
from tf1clip.contrib.opt._adam import LazyAdamGSOptimizer
from tf1clip.contrib.opt._adam import LazyAdamOptimizer
from tf1clip.contrib.opt._adam import NadamOptimizer
from tf1clip.contrib.opt._agn import AGNCustomGetter
from tf1clip.contrib.opt._agn import AGNOptimizer
from tf1clip.contrib.opt._ggt import GGTOptimizer
from tf1clip.contrib.opt._lars import LARSOptimizer
from tf1clip.contrib.opt._lars import RegAdagradOptimizer
from tf1clip.contrib.opt._shampoo import ShampooOptimizer
from tf1clip.contrib.opt._sign import AddSignOptimizer
from tf1clip.contrib.opt._sign import PowerSignOptimizer
from tf1clip.contrib.opt._weight_decay import AdamWOptimizer
from tf1clip.contrib.opt._weight_decay import DecoupledWeightDecayExtension
from tf1clip.contrib.opt._weight_decay import MomentumWOptimizer
from tf1clip.contrib.opt._weight_decay import extend_with_decoupled_weight_decay
from tf1clip.contrib.opt.sign_decay import get_cosine_decay_fn
from tf1clip.contrib.opt.sign_decay import get_linear_decay_fn
from tf1clip.contrib.opt.sign_decay import get_restart_decay_fn

# end opt1 names

__all__ = ["clip_gradients_by_global_norm"]

# opt1 names
__all__ += [
    "AGNCustomGetter",
    "AGNOptimizer",
    "AdaMaxOptimizer",
    "AdamGSOptimizer",
    "AdamWOptimizer",
    "AddSignOptimizer",
    "DecoupledWeightDecayExtension",
    "GGTOptimizer",
    "LARSOptimizer",
    "LazyAdamGSOptimizer",
    "LazyAdamOptimizer",
    "MomentumWOptimizer",
    "NadamOptimizer",
    "PowerSignOptimizer",
    "RegAdagradOptimizer",
    "ShampooOptimizer",
    "extend_with_decoupled_weight_decay",
    "get_cosine_decay_fn",
    "get_linear_decay_fn",
    "get_restart_decay_fn",
    "sign_decay",
]
# end opt1 names


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
