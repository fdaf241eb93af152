"""Decoupled weight decay (Loshchilov & Hutter, 2019): AdamW, MomentumW and the extension.

Definition (deterministic, unlike TF 1.15's): for every variable in the decay list,
one step is::

    var_new = var_old - weight_decay * var_old - update(grad)

where ``var_old`` is the value the gradient was computed from and ``update`` is
the base optimizer's step (Adam, Momentum, ...). The decay runs after the
gradient exists and before the base update, and is computed from ``var_old``.
TF 1.15 built the decay with no dependency on the gradient, so on reference
variables it could run before the forward pass read the variable: the gradient
was then computed from the decayed weights, and TF 1.15's AdamW gave different
numbers from run to run.

For an ``IndexedSlices`` gradient only the rows present decay (as in TF 1.15).
``weight_decay`` may be a number, a tensor or a zero-argument callable (TF 1.15
accepted a callable but then failed: it multiplied the callable itself); it is
cast to each variable's dtype.
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)


class DecoupledWeightDecayExtension:
    """Mixin that adds decoupled weight decay to a ``tf.compat.v1.train.Optimizer`` subclass.

    ``tf.contrib.opt.DecoupledWeightDecayExtension``: put it first among the bases,
    e.g. ``class MyAdamW(DecoupledWeightDecayExtension, tf.compat.v1.train.AdamOptimizer)``,
    and pass ``weight_decay`` as the first constructor argument. ``minimize`` and
    ``apply_gradients`` take ``decay_var_list``: the variables to decay (``None`` or
    empty: all of them). ``minimize`` decays every variable whatever its ``decay_var_list``, as
    TF 1.15 did, unless called with ``decay_listed_only=True``. See the module docstring for the exact
    update.
    """

    def __init__(self, weight_decay, **kwargs):
        self._decay_var_list = None
        self._weight_decay = weight_decay
        self._weight_decay_tensor = None
        super().__init__(**kwargs)

    def minimize(
        self,
        loss,
        global_step=None,
        var_list=None,
        gate_gradients=v1.train.Optimizer.GATE_OP,
        aggregation_method=None,
        colocate_gradients_with_ops=False,
        name=None,
        grad_loss=None,
        decay_var_list=None,
        decay_listed_only=False,
    ):
        """``Optimizer.minimize`` with weight decay of every variable, as TF 1.15 (its ``apply_gradients``
        reset ``decay_var_list``); ``decay_listed_only=True``: only those in ``decay_var_list`` decay."""
        if decay_listed_only:
            self._set_decay_var_list(decay_var_list)
        return super().minimize(
            loss,
            global_step=global_step,
            var_list=var_list,
            gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops,
            name=name,
            grad_loss=grad_loss,
        )

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, decay_var_list=None, **kwargs):
        """``Optimizer.apply_gradients``, decaying the variables in ``decay_var_list`` (default: all)."""
        if decay_var_list is not None or self._decay_var_list is None:
            self._set_decay_var_list(decay_var_list)
        try:
            return super().apply_gradients(grads_and_vars, global_step=global_step, name=name, **kwargs)
        finally:
            self._decay_var_list = None

    def _set_decay_var_list(self, decay_var_list):
        self._decay_var_list = {v.ref() for v in decay_var_list} if decay_var_list else False

    def _prepare(self):
        self._weight_decay_tensor = _common.hyper(self._weight_decay, "weight_decay")
        super()._prepare()

    def _decays(self, var):
        return not self._decay_var_list or var.ref() in self._decay_var_list

    def _decay_dense(self, grad, var):
        if not self._decays(var):
            return tf.no_op()
        with tf.control_dependencies([grad]):
            decay = _common.cast(self._weight_decay_tensor, var) * tf.identity(var)
            return _common.assign_sub(var, decay, self._locking_flag())

    def _decay_sparse(self, values, var, indices):
        if not self._decays(var):
            return tf.no_op()
        with tf.control_dependencies([values]):
            decay = _common.cast(self._weight_decay_tensor, var) * tf.gather(var, indices)
            return _common.scatter_sub(var, indices, decay, self._locking_flag())

    def _locking_flag(self):
        return bool(getattr(self, "_locking", False))

    def _apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_dense(grad, var)]):
            return super()._apply_dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_dense(grad, var)]):
            return super()._resource_apply_dense(grad, var)

    def _apply_sparse(self, grad, var):
        with tf.control_dependencies([self._decay_sparse(grad.values, var, grad.indices)]):
            return super()._apply_sparse(grad, var)

    def _resource_apply_sparse(self, grad, var, indices):
        with tf.control_dependencies([self._decay_sparse(grad, var, indices)]):
            return super()._resource_apply_sparse(grad, var, indices)


def extend_with_decoupled_weight_decay(base_optimizer):
    """Returns a subclass of ``base_optimizer`` with decoupled weight decay.

    ``tf.contrib.opt.extend_with_decoupled_weight_decay``. The new class takes
    ``weight_decay`` first, then ``base_optimizer``'s arguments::

        MomentumW = extend_with_decoupled_weight_decay(tf.compat.v1.train.MomentumOptimizer)
        opt = MomentumW(weight_decay=1e-4, learning_rate=0.1, momentum=0.9)

    Raises:
      TypeError: ``base_optimizer`` is not a ``tf.compat.v1.train.Optimizer`` subclass.
    """
    if not (isinstance(base_optimizer, type) and issubclass(base_optimizer, v1.train.Optimizer)):
        raise TypeError(
            "`base_optimizer` must be a subclass of tf.compat.v1.train.Optimizer; received %r." % (base_optimizer,)
        )

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        """``base_optimizer`` with decoupled weight decay; the first argument is ``weight_decay``."""

        def __init__(self, weight_decay, *args, **kwargs):
            super().__init__(weight_decay, *args, **kwargs)

    return OptimizerWithDecoupledWeightDecay


class MomentumWOptimizer(DecoupledWeightDecayExtension, tf.compat.v1.train.MomentumOptimizer):
    """Momentum with decoupled weight decay.

    ``tf.contrib.opt.MomentumWOptimizer``: ``var -= weight_decay * var`` (from the
    value the gradient was computed at), then ``MomentumOptimizer``'s update. Slot
    ``momentum``; default name ``"MomentumW"``.
    """

    def __init__(self, weight_decay, learning_rate, momentum, use_locking=False, name="MomentumW", use_nesterov=False):
        self._locking = use_locking
        super().__init__(
            weight_decay,
            learning_rate=learning_rate,
            momentum=momentum,
            use_locking=use_locking,
            name=name,
            use_nesterov=use_nesterov,
        )


class AdamWOptimizer(DecoupledWeightDecayExtension, tf.compat.v1.train.AdamOptimizer):
    """Adam with decoupled weight decay (AdamW).

    ``tf.contrib.opt.AdamWOptimizer``: ``var -= weight_decay * var`` (from the
    value the gradient was computed at), then Adam's update. Slots ``m``, ``v``,
    non-slot ``beta1_power``, ``beta2_power``; default name ``"AdamW"``. Note that,
    as in TF 1.15, the decay is not multiplied by the learning rate.
    """

    def __init__(
        self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="AdamW"
    ):
        self._locking = use_locking
        super().__init__(
            weight_decay,
            learning_rate=learning_rate,
            beta1=beta1,
            beta2=beta2,
            epsilon=epsilon,
            use_locking=use_locking,
            name=name,
        )
