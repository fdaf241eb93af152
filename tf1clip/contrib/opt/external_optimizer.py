"""``tf.contrib.opt``'s interface to external optimizers: ``ScipyOptimizerInterface`` (needs SciPy).

SciPy is an optional dependency (``pip install 'tf1clip[scipy]'``); it is
imported when ``ScipyOptimizerInterface.minimize`` first runs.
"""

import numpy as np

from tf1clip.compat import _tf
from tf1clip.core import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_SCIPY_HINT = (
    "ScipyOptimizerInterface needs SciPy, which is not installed: python3 -m pip install scipy "
    "(or, in a tf1clip checkout: python3 -m pip install '.[scipy]')."
)


def _shape(tensor):
    return tuple(tensor.get_shape().as_list())


def _gradients(tensor, var_list):
    grads = tf.compat.v1.gradients(tensor, var_list)
    return [tf.zeros_like(v) if g is None else tf.convert_to_tensor(g) for v, g in zip(var_list, grads)]


def _pack(tensors):
    """The tensors flattened and concatenated into one vector (``None`` for none)."""
    if not tensors:
        return None
    if len(tensors) == 1:
        return tf.reshape(tensors[0], [-1])
    return tf.concat([tf.reshape(t, [-1]) for t in tensors], 0)


_FLOAT64_METHODS = ("slsqp", "tnc")


def _float64(func):
    """``func`` returning float64."""
    return lambda x: np.asarray(func(x), np.float64)


def _key(var):
    return var.ref() if hasattr(var, "ref") else var


class ExternalOptimizerInterface:
    """Base class for interfaces with external optimization algorithms.

    ``tf.contrib.opt.ExternalOptimizerInterface``: subclass it and implement
    ``_minimize``. ``minimize(session)`` hands the algorithm the variables
    packed into one float vector, functions that evaluate the loss and its
    gradient (and the constraints) at such a vector, and writes the result
    back into the variables.

    Difference from TF 1.15 (fix): resource variables work. Contrib evaluated
    the loss at a point by feeding the variables, which for a resource
    variable feeds a fresh read that the loss does not use, so the algorithm
    saw a constant loss; tf1clip assigns the point to resource variables
    before each evaluation (reference variables are still fed, as in TF 1.15).

    Args:
      loss: a scalar ``Tensor`` to minimize.
      var_list: the variables to optimize (default: the trainable variables).
      equalities: scalar ``Tensor`` constraints held equal to zero.
      inequalities: scalar ``Tensor`` constraints held >= 0.
      var_to_bounds: dict from variable to ``(low, high)``; each broadcast to
        the variable's shape with ``np.broadcast_to``; ``None`` or +-inf for none.
      **optimizer_kwargs: algorithm-specific keyword arguments.

    Raises:
      TypeError: ``var_to_bounds`` is not a dict.
    """

    def __init__(self, loss, var_list=None, equalities=None, inequalities=None, var_to_bounds=None, **optimizer_kwargs):
        self._loss = loss
        self._equalities = list(equalities or [])
        self._inequalities = list(inequalities or [])
        self._vars = tf.compat.v1.trainable_variables() if var_list is None else list(var_list)

        packed_bounds = None
        if var_to_bounds is not None:
            if not isinstance(var_to_bounds, dict):
                raise TypeError(
                    "`var_to_bounds` must be a dict from variable to (low, high); received %s."
                    % _validate.describe(var_to_bounds)
                )
            bounds_by_key = {_key(v): b for v, b in var_to_bounds.items()}
            low, high = [], []
            for var in self._vars:
                lo, hi = bounds_by_key.get(_key(var), (-np.inf, np.inf))
                low.extend(np.broadcast_to(-np.inf if lo is None else lo, _shape(var)).flat)
                high.extend(np.broadcast_to(np.inf if hi is None else hi, _shape(var)).flat)
            packed_bounds = list(zip(low, high))
        self._packed_bounds = packed_bounds

        self._update_placeholders = [tf.compat.v1.placeholder(v.dtype.base_dtype) for v in self._vars]
        self._var_updates = [v.assign(tf.reshape(p, _shape(v))) for v, p in zip(self._vars, self._update_placeholders)]
        self._fed = [_tf.is_ref_dtype(v.dtype) for v in self._vars]

        self.optimizer_kwargs = optimizer_kwargs
        self._packed_var = _pack([tf.convert_to_tensor(v) for v in self._vars])
        self._packed_loss_grad = _pack(_gradients(loss, self._vars))
        self._packed_equality_grads = [_pack(_gradients(e, self._vars)) for e in self._equalities]
        self._packed_inequality_grads = [_pack(_gradients(i, self._vars)) for i in self._inequalities]

        ends = np.cumsum([0] + [int(np.prod(_shape(v))) for v in self._vars])
        self._packing_slices = [slice(int(a), int(b)) for a, b in zip(ends[:-1], ends[1:])]

    def minimize(
        self, session=None, feed_dict=None, fetches=None, step_callback=None, loss_callback=None, **run_kwargs
    ):
        """Minimizes the loss with the external algorithm, then writes the result into the variables.

        Unlike ``Optimizer.minimize`` this runs the optimization (many
        ``session.run`` calls) instead of returning an op.

        Args:
          session: a ``tf.compat.v1.Session`` (default: the default session).
          feed_dict: fed to every ``session.run``.
          fetches: tensors fetched with each loss evaluation and passed to
            ``loss_callback`` as positional arguments.
          step_callback: called after each step with the packed variable vector.
          loss_callback: called after each loss evaluation with the fetches.
          **run_kwargs: passed to the final ``session.run`` that assigns the result.
        """
        session = session or tf.compat.v1.get_default_session()
        feed_dict = feed_dict or {}
        fetches = fetches or []
        loss_callback = loss_callback or (lambda *fetches: None)
        step_callback = step_callback or (lambda xk: None)

        def funcs(tensors, callback=None):
            return [self._make_eval_func(t, session, feed_dict, fetches, callback) for t in tensors]

        loss_grad_func = self._make_eval_func(
            [self._loss, self._packed_loss_grad], session, feed_dict, fetches, loss_callback
        )
        initial = session.run(self._packed_var)
        packed = self._minimize(
            initial_val=initial,
            loss_grad_func=loss_grad_func,
            equality_funcs=funcs(self._equalities),
            equality_grad_funcs=funcs(self._packed_equality_grads),
            inequality_funcs=funcs(self._inequalities),
            inequality_grad_funcs=funcs(self._packed_inequality_grads),
            packed_bounds=self._packed_bounds,
            step_callback=step_callback,
            optimizer_kwargs=self.optimizer_kwargs,
        )
        values = [packed[s] for s in self._packing_slices]
        session.run(self._var_updates, feed_dict=dict(zip(self._update_placeholders, values)), **run_kwargs)

    def _minimize(
        self,
        initial_val,
        loss_grad_func,
        equality_funcs,
        equality_grad_funcs,
        inequality_funcs,
        inequality_grad_funcs,
        packed_bounds,
        step_callback,
        optimizer_kwargs,
    ):
        """The algorithm: returns the optimal packed vector (see TF 1.15's contract)."""
        raise NotImplementedError(
            "To use ExternalOptimizerInterface, subclass from it and implement the _minimize() method."
        )

    @classmethod
    def _pack(cls, tensors):
        return _pack(tensors)

    def _make_eval_func(self, tensors, session, feed_dict, fetches, callback=None):
        """A function of a packed vector that evaluates ``tensors`` (a tensor or a list) there."""
        if not isinstance(tensors, list):
            tensors = [tensors]
        count = len(tensors)

        def eval_func(x):
            values = [x[s].reshape(_shape(v)) for v, s in zip(self._vars, self._packing_slices)]
            feed = {v: val for v, val, fed in zip(self._vars, values, self._fed) if fed}
            assigned = [
                (u, p, val)
                for u, p, val, fed in zip(self._var_updates, self._update_placeholders, values, self._fed)
                if not fed
            ]
            if assigned:
                session.run([u for u, _, _ in assigned], feed_dict={p: val for _, p, val in assigned})
            feed.update(feed_dict)
            out = session.run(tensors + fetches, feed_dict=feed)
            if callable(callback):
                callback(*out[count:])
            return out[:count]

        return eval_func


class ScipyOptimizerInterface(ExternalOptimizerInterface):
    """Lets ``scipy.optimize.minimize`` operate a ``tf.compat.v1.Session``.

    ``tf.contrib.opt.ScipyOptimizerInterface``: ``method`` defaults to
    ``'L-BFGS-B'``; ``jac``, ``callback``, ``constraints`` and ``bounds`` are
    set from the constructor's arguments and cannot be passed as
    ``optimizer_kwargs``; every other keyword (``method``, ``options``, ``tol``)
    goes to ``scipy.optimize.minimize``. Needs SciPy (``tf1clip[scipy]``),
    imported by ``minimize``. For ``SLSQP`` and ``TNC`` the starting point and
    constraint values are given to SciPy as float64 (SciPy >= 1.15 refuses
    float32 there); otherwise in the variables' dtype, as TF 1.15 did.

    Example::

        vector = tf.compat.v1.Variable([7.0, 7.0], name="vector")
        loss = tf.reduce_sum(tf.square(vector))
        optimizer = ScipyOptimizerInterface(loss, var_to_bounds={vector: (1.0, np.inf)})
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            optimizer.minimize(session)  # vector is now [1, 1]
    """

    _DEFAULT_METHOD = "L-BFGS-B"

    def _minimize(
        self,
        initial_val,
        loss_grad_func,
        equality_funcs,
        equality_grad_funcs,
        inequality_funcs,
        inequality_grad_funcs,
        packed_bounds,
        step_callback,
        optimizer_kwargs,
    ):
        try:
            import scipy.optimize
        except ImportError as err:
            raise ImportError(_SCIPY_HINT) from err

        def loss_grad_func_wrapper(x):
            loss, gradient = loss_grad_func(x)
            return loss, gradient.astype("float64")

        optimizer_kwargs = dict(optimizer_kwargs)
        method = optimizer_kwargs.pop("method", self._DEFAULT_METHOD)
        # SciPy >= 1.15's SLSQP and TNC refuse float32; elsewhere SciPy gets what TF 1.15 gave it.
        as_float64 = str(method).lower() in _FLOAT64_METHODS
        cast = _float64 if as_float64 else (lambda func: func)
        constraints = []
        for kind, funcs, grads in (
            ("eq", equality_funcs, equality_grad_funcs),
            ("ineq", inequality_funcs, inequality_grad_funcs),
        ):
            constraints += [{"type": kind, "fun": cast(f), "jac": cast(g)} for f, g in zip(funcs, grads)]
        minimize_kwargs = {
            "jac": True,
            "callback": step_callback,
            "method": method,
            "constraints": constraints,
            "bounds": packed_bounds,
        }
        for kwarg in minimize_kwargs:
            if kwarg in optimizer_kwargs:
                if kwarg == "bounds":
                    raise ValueError("Bounds must be set using the var_to_bounds argument")
                raise ValueError(
                    "Optimizer keyword arg '%s' is set automatically and cannot be injected manually" % kwarg
                )
        minimize_kwargs.update(optimizer_kwargs)
        if as_float64:
            initial_val = np.asarray(initial_val, np.float64)
        result = scipy.optimize.minimize(loss_grad_func_wrapper, initial_val, **minimize_kwargs)
        _log_result(result)
        return result["x"]


def _log_result(result):
    """Logs SciPy's ``OptimizeResult`` as TF 1.15 did: message, objective value, iterations and evaluations."""
    lines = ["Optimization terminated with:", "  Message: %s", "  Objective function value: %f"]
    args = [result.message, result.fun]
    if hasattr(result, "nit"):
        lines.append("  Number of iterations: %d")
        args.append(result.nit)
    if hasattr(result, "nfev"):
        lines.append("  Number of functions evaluations: %d")
        args.append(result.nfev)
    tf.compat.v1.logging.info("\n".join(lines), *args)
