"""The shared part of ``tf.contrib.opt``'s Adam family: LazyAdam, Nadam, AdaMax, AdamGS, LazyAdamGS.

Each keeps TF 1.15's constructor, defaults, slot names (``m``, ``v``), non-slot
variables (``beta1_power``, ``beta2_power``; AdaMax only ``beta1_power``; the GS
variants none) and numbers. Sparse gradients with repeated indices are summed
first (``tf.compat.v1.train.Optimizer`` does this before the sparse update).
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common

v1 = tf.compat.v1


class AdamHypers:
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
        """A ``VarHypers`` for ``var``, with ``beta1_power`` (and ``beta2_power``) of ``beta_powers`` cast now."""
        return VarHypers(self._hyper_tensors, var, beta_powers)

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


class VarHypers(dict):
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


def bias_corrected_lr(hypers):
    """Adam's ``lr * sqrt(1 - beta2_power) / (1 - beta1_power)`` from ``_var_hypers``."""
    return hypers["lr"] * tf.sqrt(1 - hypers["beta2_power"]) / (1 - hypers["beta1_power"])


def lazy_adam_sparse(hypers, values, var, m, v, indices, use_locking):
    """LazyAdam's update of the rows ``indices`` (unique) of ``var``, ``m`` and ``v``; other rows untouched."""
    lr = bias_corrected_lr(hypers)
    beta1, beta2, epsilon = hypers["beta1"], hypers["beta2"], hypers["epsilon"]
    m_slice = beta1 * tf.gather(m, indices) + (1 - beta1) * values
    v_slice = beta2 * tf.gather(v, indices) + (1 - beta2) * tf.square(values)
    m_update = _common.scatter_update(m, indices, m_slice, use_locking)
    v_update = _common.scatter_update(v, indices, v_slice, use_locking)
    var_update = _common.scatter_sub(var, indices, lr * m_slice / (tf.sqrt(v_slice) + epsilon), use_locking)
    return tf.group(var_update, m_update, v_update)
