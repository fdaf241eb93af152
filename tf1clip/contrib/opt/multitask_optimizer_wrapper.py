"""``tf.contrib.opt.MultitaskOptimizerWrapper`` (TF 1.15's ``multitask_optimizer_wrapper.py``).

It wraps a ``tf.compat.v1.train.Optimizer`` with TF 1.15's constructor, op and variable names, and forwards
slots and checkpoint dependencies to it, so checkpoints move freely between wrapped and unwrapped code.
"""

import contextlib

from tf1clip.core import _delegate
from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


_UPDATE_METHODS = ("_apply_dense", "_resource_apply_dense", "_apply_sparse", "_resource_apply_sparse")
_MINIMIZE_ARGS = {"gate_gradients", "aggregation_method", "colocate_gradients_with_ops", "name", "grad_loss"}


def _is_all_zeros(tensor):
    return tf.equal(tf.math.count_nonzero(tensor), 0)


def _skip_if_all_zeros(update_fn, values, var):
    """Runs ``update_fn()`` unless ``values`` is all zeros; returns an op (a v1 ``cond`` for a reference ``var``)."""

    def update():
        with tf.control_dependencies([update_fn()]):
            return tf.no_op()

    with _common.control_flow_for([var]):
        return tf.compat.v1.cond(_is_all_zeros(values), tf.no_op, update)


class MultitaskOptimizerWrapper(_delegate.DelegatingOptimizer):
    """Optimizer wrapper making all-zero gradients harmless.

    ``tf.contrib.opt.MultitaskOptimizerWrapper``: an all-zero gradient tensor
    (a loss component absent from the batch) updates neither its variable nor
    the optimizer's slots for it, so running averages are not pulled towards
    zero. Everything else is the wrapped optimizer's: ``apply_gradients`` still
    runs its ``_finish`` (e.g. Adam's ``beta1_power``) and increments
    ``global_step``; names, slots and checkpoints are those of ``opt``.

    As in TF 1.15, ``opt`` itself is modified: its four per-variable update
    methods are replaced on the instance for good, so ``opt`` used directly
    also skips all-zero gradients. ``leave_optimizer_unmodified=True`` skips
    them only in the wrapper's ``apply_gradients`` / ``minimize``.

    Differences from TF 1.15 (fixes of what crashed):

    * an ``IndexedSlices`` gradient is tested on its values and stays sparse;
      contrib counted the non-zeros of the densified gradient on reference
      variables (a vocabulary-sized tensor per step) and failed with
      ``ValueError: Tensor conversion requested for IndexedSlices without
      dense_shape`` when the gradient had no ``dense_shape``;
    * the wrapper is a ``tf.compat.v1.train.Optimizer`` (contrib's was a plain
      object forwarding every attribute), so ``optimize_loss`` and the tf1clip
      wrappers accept it. Public attributes of ``opt`` are still forwarded.

    Use ``tf1clip.contrib.opt.clip_gradients_by_global_norm`` to clip its
    gradients by their global norm.

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance that computes and
        applies the gradients.
      leave_optimizer_unmodified: do not replace ``opt``'s update methods
        (default False: replace them, as TF 1.15).

    Raises:
      TypeError: ``opt`` is not a ``tf.compat.v1.train.Optimizer`` instance.
    """

    _HOOKS = _UPDATE_METHODS

    def __init__(self, opt, leave_optimizer_unmodified=False):
        _common.check_optimizer(opt)
        super().__init__(use_locking=False, name=opt.get_name())
        self._optimizer = opt
        self._leave_optimizer_unmodified = bool(leave_optimizer_unmodified)
        if not self._leave_optimizer_unmodified:
            for name, fn in _skipping_hooks(opt).items():
                setattr(opt, name, fn)

    def minimize(self, loss, global_step=None, var_list=None, **kwargs):
        """``Optimizer.minimize``; with keywords of ``opt``'s own ``minimize`` (AdamW's ``decay_var_list``),
        ``opt.minimize`` skipping each all-zero gradient, as TF 1.15's wrapper forwarded it."""
        if not set(kwargs) - _MINIMIZE_ARGS:
            return super().minimize(loss, global_step=global_step, var_list=var_list, **kwargs)
        variables = var_list if var_list is not None else tf.compat.v1.trainable_variables()
        with self._filtering(), _common.control_flow_for(variables):
            return self._optimizer.minimize(loss, global_step=global_step, var_list=var_list, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, **kwargs):
        """``opt.apply_gradients``, skipping the update of each all-zero gradient."""
        grads_and_vars = list(grads_and_vars)
        with self._filtering(), _common.control_flow_for(v for _, v in grads_and_vars):
            return self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name, **kwargs)

    @contextlib.contextmanager
    def _filtering(self):
        opt = self._optimizer
        if not self._leave_optimizer_unmodified:
            yield  # patched for good in __init__
            return
        shadowed = {name: opt.__dict__[name] for name in self._HOOKS if name in opt.__dict__}
        for name, fn in _skipping_hooks(opt).items():
            setattr(opt, name, fn)
        try:
            yield
        finally:
            for name in self._HOOKS:
                if name in shadowed:
                    setattr(opt, name, shadowed[name])
                else:
                    delattr(opt, name)


def _skipping_hooks(opt):
    """``opt``'s four per-variable update methods, each skipping an all-zero gradient."""
    originals = {name: _tf.optimizer_update_method(opt, name) for name in _UPDATE_METHODS}

    def dense(name):
        return lambda grad, var, *a, **k: _skip_if_all_zeros(lambda: originals[name](grad, var, *a, **k), grad, var)

    def apply_sparse(grad, var, *a, **k):
        return _skip_if_all_zeros(lambda: originals["_apply_sparse"](grad, var, *a, **k), grad.values, var)

    def resource_apply_sparse(grad, handle, indices, *a, **k):
        def update():
            return originals["_resource_apply_sparse"](grad, handle, indices, *a, **k)

        return _skip_if_all_zeros(update, grad, handle)

    return {
        "_apply_dense": dense("_apply_dense"),
        "_resource_apply_dense": dense("_resource_apply_dense"),
        "_apply_sparse": apply_sparse,
        "_resource_apply_sparse": resource_apply_sparse,
    }
