"""``tf.contrib.opt.LazyAdamGSOptimizer`` (TF 1.15's ``lazy_adam_gs_optimizer.py``; shared parts in ``_adam``)."""

from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _adam
from tf1clip.contrib.opt.adam_gs_optimizer import AdamGSOptimizer
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class LazyAdamGSOptimizer(AdamGSOptimizer):
    """``AdamGSOptimizer`` with LazyAdam's sparse update (only the rows present change).

    ``tf.contrib.opt.LazyAdamGSOptimizer``; see ``LazyAdamOptimizer`` for the sparse
    rule and ``AdamGSOptimizer`` for ``global_step``.
    """

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, self._get_beta_accumulators())
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return _adam.lazy_adam_sparse(hypers, values, var, m, v, indices, self._locking)
