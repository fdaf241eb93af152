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


_MINIMIZE_ARGS = {"gate_gradients", "aggregation_method", "colocate_gradients_with_ops", "name", "grad_loss"}


def _is_all_zeros(tensor):
    return tf.equal(tf.math.count_nonzero(tensor), 0)


def _skip_if_all_zeros(update_fn, values):
    """Runs ``update_fn()`` unless ``values`` is all zeros; returns an op."""

    def update():
        with tf.control_dependencies([update_fn()]):
            return tf.no_op()

    return tf.compat.v1.cond(_is_all_zeros(values), tf.no_op, update)


class MultitaskOptimizerWrapper(_delegate.DelegatingOptimizer):
    """Optimizer wrapper making all-zero gradients harmless.

    ``tf.contrib.opt.MultitaskOptimizerWrapper``: an all-zero gradient tensor
    (a loss component absent from the batch) updates neither its variable nor
    the optimizer's slots for it, so running averages are not pulled towards
    zero. Everything else is the wrapped optimizer's: ``apply_gradients`` still
    runs its ``_finish`` (e.g. Adam's ``beta1_power``) and increments
    ``global_step``; names, slots and checkpoints are those of ``opt``.

    Differences from TF 1.15 (fixes):

    * an ``IndexedSlices`` gradient is tested on its values and stays sparse;
      contrib counted the non-zeros of the densified gradient on reference
      variables (a vocabulary-sized tensor per step) and failed with
      ``ValueError: Tensor conversion requested for IndexedSlices without
      dense_shape`` when the gradient had no ``dense_shape``;
    * ``opt`` is not modified: contrib replaced four methods on the instance
      it was given, so ``opt`` itself skipped all-zero gradients forever after;
      here only the wrapper's ``apply_gradients`` / ``minimize`` do;
    * the wrapper is a ``tf.compat.v1.train.Optimizer`` (contrib's was a plain
      object forwarding every attribute), so ``optimize_loss`` and the tf1clip
      wrappers accept it. Public attributes of ``opt`` are still forwarded.

    Use ``tf1clip.contrib.opt.clip_gradients_by_global_norm`` to clip its
    gradients by their global norm.

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance that computes and
        applies the gradients.

    Raises:
      TypeError: ``opt`` is not a ``tf.compat.v1.train.Optimizer`` instance.
    """

    _HOOKS = ("_apply_dense", "_resource_apply_dense", "_apply_sparse", "_resource_apply_sparse")

    def __init__(self, opt):
        _common.check_optimizer(opt)
        super().__init__(use_locking=False, name=opt.get_name())
        self._optimizer = opt

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
        originals = {name: _tf.optimizer_update_method(opt, name) for name in self._HOOKS}

        def dense(name):
            return lambda grad, var, *a, **k: _skip_if_all_zeros(lambda: originals[name](grad, var, *a, **k), grad)

        def apply_sparse(grad, var, *a, **k):
            return _skip_if_all_zeros(lambda: originals["_apply_sparse"](grad, var, *a, **k), grad.values)

        def resource_apply_sparse(grad, handle, indices, *a, **k):
            return _skip_if_all_zeros(lambda: originals["_resource_apply_sparse"](grad, handle, indices, *a, **k), grad)

        patched = {
            "_apply_dense": dense("_apply_dense"),
            "_resource_apply_dense": dense("_resource_apply_dense"),
            "_apply_sparse": apply_sparse,
            "_resource_apply_sparse": resource_apply_sparse,
        }
        shadowed = {name: opt.__dict__[name] for name in self._HOOKS if name in opt.__dict__}
        for name, fn in patched.items():
            setattr(opt, name, fn)
        try:
            yield
        finally:
            for name in self._HOOKS:
                if name in shadowed:
                    setattr(opt, name, shadowed[name])
                else:
                    delattr(opt, name)
