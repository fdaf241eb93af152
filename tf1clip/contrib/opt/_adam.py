"""``tf.contrib.opt``'s Adam family: LazyAdam, Nadam, AdaMax, AdamGS, LazyAdamGS.

Each keeps TF 1.15's constructor, defaults, slot names (``m``, ``v``), non-slot
variables (``beta1_power``, ``beta2_power``; AdaMax only ``beta1_power``; the GS
variants none) and numbers. Sparse gradients with repeated indices are summed
first (``tf.compat.v1.train.Optimizer`` does this before the sparse update).
"""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common

v1 = tf.compat.v1

__all__ = [
    "LazyAdamOptimizer",
    "NadamOptimizer",
    "AdaMaxOptimizer",
    "AdamGSOptimizer",
    "LazyAdamGSOptimizer",
]


class _AdamHypers:
    """Adam's hyperparameters as tensors of the variable's dtype, built once per ``apply_gradients``."""

    def _init_hypers(self, learning_rate, beta1, beta2, epsilon, use_locking):
        self._hyper_values = {"learning_rate": learning_rate, "beta1": beta1, "beta2": beta2, "epsilon": epsilon}
        self._hyper_tensors = {}
        self._locking = use_locking

    def _build_hypers(self):
        self._hyper_tensors = {k: _common.hyper(v, k) for k, v in self._hyper_values.items()}

    def _prepare(self):
        super()._prepare()
        self._build_hypers()

    def _var_hypers(self, var, beta_powers):
        """A ``_VarHypers`` for ``var``, with ``beta1_power`` (and ``beta2_power``) of ``beta_powers`` cast now."""
        return _VarHypers(self._hyper_tensors, var, beta_powers)

    def _dense_args(self, grad, var, beta_powers):
        """The arguments of an ``Apply*`` kernel updating ``var`` and its slots ``m``, ``v`` with ``grad``."""
        args = {
            "var": _common.var_input(var),
            "m": _common.var_input(self.get_slot(var, "m")),
            "v": _common.var_input(self.get_slot(var, "v")),
        }
        hypers = self._var_hypers(var, beta_powers)
        args.update(hypers)
        args.update((arg, hypers[arg]) for arg in ("lr", "beta1", "beta2", "epsilon"))
        args.update(grad=grad, use_locking=self._locking)
        return args


class _VarHypers(dict):
    """Adam's hyperparameters in one variable's dtype, by kernel argument name (``lr``, ``beta1``, ``beta2``,
    ``epsilon``, ``beta1_power``, ``beta2_power``); each is cast where it is first used, once."""

    _NAMES = {"lr": "learning_rate"}

    def __init__(self, hyper_tensors, var, beta_powers):
        super().__init__(zip(("beta1_power", "beta2_power"), (_common.cast(p, var) for p in beta_powers)))
        self._tensors = hyper_tensors
        self._var = var

    def __missing__(self, arg):
        value = self[arg] = _common.cast(self._tensors[self._NAMES.get(arg, arg)], self._var)
        return value


def _bias_corrected_lr(hypers):
    """Adam's ``lr * sqrt(1 - beta2_power) / (1 - beta1_power)`` from ``_var_hypers``."""
    return hypers["lr"] * tf.sqrt(1 - hypers["beta2_power"]) / (1 - hypers["beta1_power"])


def _lazy_adam_sparse(hypers, values, var, m, v, indices, use_locking):
    """LazyAdam's update of the rows ``indices`` (unique) of ``var``, ``m`` and ``v``; other rows untouched."""
    lr = _bias_corrected_lr(hypers)
    beta1, beta2, epsilon = hypers["beta1"], hypers["beta2"], hypers["epsilon"]
    m_slice = beta1 * tf.gather(m, indices) + (1 - beta1) * values
    v_slice = beta2 * tf.gather(v, indices) + (1 - beta2) * tf.square(values)
    m_update = _common.scatter_update(m, indices, m_slice, use_locking)
    v_update = _common.scatter_update(v, indices, v_slice, use_locking)
    var_update = _common.scatter_sub(var, indices, lr * m_slice / (tf.sqrt(v_slice) + epsilon), use_locking)
    return tf.group(var_update, m_update, v_update)


class LazyAdamOptimizer(_AdamHypers, tf.compat.v1.train.AdamOptimizer):
    """Adam that, for sparse gradients, updates only the rows that appear.

    ``tf.contrib.opt.LazyAdamOptimizer``. Dense gradients get Adam's update. For an
    ``IndexedSlices`` gradient only the rows present (repeated indices summed) of
    the variable and of its ``m`` and ``v`` slots change::

        lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
        m[i] = beta1 * m[i] + (1 - beta1) * g[i]
        v[i] = beta2 * v[i] + (1 - beta2) * g[i]**2
        var[i] -= lr_t * m[i] / (sqrt(v[i]) + epsilon)

    The cost of a step grows with the number of rows present, not with the
    variable's size. Same constructor as ``tf.compat.v1.train.AdamOptimizer``.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, _tf.adam_beta_powers(self))
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return _lazy_adam_sparse(hypers, values, var, m, v, indices, self._locking)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)


class NadamOptimizer(_AdamHypers, tf.compat.v1.train.AdamOptimizer):
    """Adam with Nesterov momentum (Dozat, 2015).

    ``tf.contrib.opt.NadamOptimizer``: Adam's ``ApplyAdam`` kernel with
    ``use_nesterov=True`` for dense gradients, i.e.
    ``var -= lr_t * ((1 - beta1) * g + beta1 * m_t) / (sqrt(v_t) + epsilon)``.
    For sparse gradients, as in TF 1.15, ``m`` and ``v`` decay everywhere and the
    new gradient is added on its rows; only those rows of the variable move.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)

    def _dense(self, grad, var, kernel):
        return kernel(use_nesterov=True, **self._dense_args(grad, var, _tf.adam_beta_powers(self)))

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyAdam))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdam)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, _tf.adam_beta_powers(self))
        beta1, beta2 = hypers["beta1"], hypers["beta2"]
        lr = _bias_corrected_lr(hypers)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_scaled = values * (1 - beta1)
        with tf.control_dependencies([_common.assign(m, m * beta1, self._locking)]):
            m_t = _common.scatter_add(m, indices, m_scaled, self._locking, read=True)
            m_bar = m_scaled + beta1 * tf.gather(m_t, indices)
        with tf.control_dependencies([_common.assign(v, v * beta2, self._locking)]):
            v_t = _common.scatter_add(v, indices, values * values * (1 - beta2), self._locking, read=True)
        v_sqrt = tf.sqrt(tf.gather(v_t, indices))
        var_update = _common.scatter_add(var, indices, -lr * m_bar / (v_sqrt + hypers["epsilon"]), self._locking)
        return tf.group(var_update, m_bar, v_t)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)


class AdaMaxOptimizer(_AdamHypers, tf.compat.v1.train.AdamOptimizer):
    """AdaMax, Adam's infinity-norm variant (Kingma & Ba, 2015, section 7.1).

    ``tf.contrib.opt.AdaMaxOptimizer``::

        m = beta1 * m + (1 - beta1) * g
        v = max(beta2 * v, |g|)
        var -= lr / (1 - beta1_power) * m / (v + epsilon)

    One non-slot variable, ``beta1_power``. Sparse gradients update only their rows
    (``m``, ``v`` and the variable), as in TF 1.15.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="AdaMax"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)

    def _get_beta_accumulators(self):
        graph = None if tf.executing_eagerly() else v1.get_default_graph()
        return _tf.get_non_slot_variable(self, "beta1_power", graph=graph)

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        _tf.create_non_slot_variable(self, self._hyper_values["beta1"], "beta1_power", first_var)
        for v in var_list:
            _tf.zeros_slot(self, v, "m", self.get_name())
            _tf.zeros_slot(self, v, "v", self.get_name())

    def _dense(self, grad, var, kernel):
        return kernel(**self._dense_args(grad, var, [self._get_beta_accumulators()]))

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyAdaMax))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdaMax)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, [self._get_beta_accumulators()])
        beta1, beta2 = hypers["beta1"], hypers["beta2"]
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_slice = tf.gather(m, indices) * beta1 + values * (1 - beta1)
        v_slice = tf.maximum(tf.gather(v, indices) * beta2, tf.abs(values))
        m_t = _common.scatter_update(m, indices, m_slice, self._locking)
        v_t = _common.scatter_update(v, indices, v_slice, self._locking)
        step = -hypers["lr"] / (1 - hypers["beta1_power"]) * (m_slice / (v_slice + hypers["epsilon"]))
        return tf.group(_common.scatter_add(var, indices, step, self._locking), m_t, v_t)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)

    def _finish(self, update_ops, name_scope):
        with tf.control_dependencies(update_ops):
            beta1_power = self._get_beta_accumulators()
            with tf.compat.v1.colocate_with(beta1_power):
                update_beta1 = _common.assign(beta1_power, beta1_power * self._hyper_tensors["beta1"], self._locking)
        return tf.group(*update_ops + [update_beta1], name=name_scope)


class AdamGSOptimizer(_AdamHypers, tf.compat.v1.train.Optimizer):
    """Adam whose bias correction comes from ``global_step`` instead of ``beta*_power`` variables.

    ``tf.contrib.opt.AdamGSOptimizer``: ``beta1_power = beta1 ** (global_step + 1)``
    (and ``beta2`` alike), read when the step runs, so the step count comes from the
    global step (e.g. shared by several workers); no non-slot variables. Slots
    ``m`` and ``v``; default name ``"Adam"``, as in TF 1.15. A sparse gradient decays
    ``m`` and ``v`` everywhere and updates the whole variable, as Adam does.

    Args:
      global_step: a tensor or variable (int or float) or a number; the step count
        before this update.
    """

    def __init__(
        self, global_step=0, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"
    ):
        super().__init__(use_locking, name)
        self._init_hypers(learning_rate, beta1, beta2, epsilon, use_locking)
        self._global_step = global_step
        self._global_step_on_worker = None

    def _get_beta_accumulators(self):
        return (
            tf.pow(self._hyper_tensors["beta1"], self._global_step_on_worker),
            tf.pow(self._hyper_tensors["beta2"], self._global_step_on_worker),
        )

    def _create_slots(self, var_list):
        for v in var_list:
            _tf.zeros_slot(self, v, "m", self.get_name())
            _tf.zeros_slot(self, v, "v", self.get_name())

    def _prepare(self):
        self._build_hypers()
        self._global_step_on_worker = tf.cast(tf.identity(self._global_step) + 1, tf.float32)

    def _dense(self, grad, var, kernel):
        return kernel(**self._dense_args(grad, var, self._get_beta_accumulators()))

    def _apply_dense(self, grad, var):
        return _common.as_op(self._dense(grad, var, tf.raw_ops.ApplyAdam))

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdam)

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, self._get_beta_accumulators())
        beta1, beta2 = hypers["beta1"], hypers["beta2"]
        lr = _bias_corrected_lr(hypers)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        with tf.control_dependencies([_common.assign(m, m * beta1, self._locking)]):
            m_t = _common.scatter_add(m, indices, values * (1 - beta1), self._locking, read=True)
        with tf.control_dependencies([_common.assign(v, v * beta2, self._locking)]):
            v_t = _common.scatter_add(v, indices, values * values * (1 - beta2), self._locking, read=True)
        var_update = _common.assign_sub(var, lr * m_t / (tf.sqrt(v_t) + hypers["epsilon"]), self._locking)
        return tf.group(var_update, m_t, v_t)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, var, grad.indices)

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices)


class LazyAdamGSOptimizer(AdamGSOptimizer):
    """``AdamGSOptimizer`` with LazyAdam's sparse update (only the rows present change).

    ``tf.contrib.opt.LazyAdamGSOptimizer``; see ``LazyAdamOptimizer`` for the sparse
    rule and ``AdamGSOptimizer`` for ``global_step``.
    """

    def _sparse(self, values, var, indices):
        hypers = self._var_hypers(var, self._get_beta_accumulators())
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        return _lazy_adam_sparse(hypers, values, var, m, v, indices, self._locking)
