"""``tf.contrib.layers``' training-op builder ``optimize_loss``, ``adaptive_clipping_fn`` (TF 1.15's ``optimizers.py``).

Same variables (``OptimizeLoss/learning_rate``, ``AdaptiveMaxNorm/mean``, ``AdaptiveMaxNorm/sq_mean``), summary tags
and numbers as TensorFlow 1.15; the fixes to contrib's breakage are listed in each docstring and in README's
"Differences from tf.contrib".
"""

import numpy as np

from tf1clip.core import _pairs, _state, _validate, cappers, clipping
from tf1clip.compat._tf import tf
from tf1clip.contrib import _common
from tf1clip.contrib import framework
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


_v1 = tf.compat.v1
_V1Optimizer = _v1.train.Optimizer

OPTIMIZER_CLS_NAMES = {
    "Adagrad": _v1.train.AdagradOptimizer,
    "Adam": _v1.train.AdamOptimizer,
    "Ftrl": _v1.train.FtrlOptimizer,
    "Momentum": lambda learning_rate: _v1.train.MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": _v1.train.RMSPropOptimizer,
    "SGD": _v1.train.GradientDescentOptimizer,
}

OPTIMIZER_SUMMARIES = [
    "learning_rate",
    "loss",
    "gradients",
    "gradient_norm",
    "global_gradient_norm",
]

_DEFAULT_SUMMARIES = ["loss", "learning_rate", "global_gradient_norm"]


def optimize_loss(
    loss,
    global_step,
    learning_rate,
    optimizer,
    gradient_noise_scale=None,
    gradient_multipliers=None,
    clip_gradients=None,
    learning_rate_decay_fn=None,
    update_ops=None,
    variables=None,
    name=None,
    summaries=None,
    colocate_gradients_with_ops=False,
    increment_global_step=True,
):
    """Builds a training op for ``loss``: ``tf.contrib.layers.optimize_loss`` of TF 1.15.

    Inside ``variable_scope(name, "OptimizeLoss")``: runs ``update_ops`` (the
    ``UPDATE_OPS`` collection by default) before the loss, makes the learning
    rate (a Python number becomes the variable ``OptimizeLoss/learning_rate``),
    applies ``learning_rate_decay_fn(lr, global_step)``, builds the optimizer,
    computes gradients and transforms them in contrib's order: noise ->
    multipliers -> pre-clip norm summary -> clipping -> summaries -> apply.

    Example (a tensor2tensor-era call)::

        train_op = tf1clip.contrib.layers.optimize_loss(
            loss, tf.compat.v1.train.get_or_create_global_step(),
            learning_rate=0.001, optimizer="Adam", clip_gradients=5.0,
            learning_rate_decay_fn=lambda lr, step: tf.compat.v1.train.exponential_decay(
                lr, step, 1000, 0.96),
            summaries=["loss", "learning_rate", "global_gradient_norm"])

    Summaries (tags carry the scope, e.g. ``OptimizeLoss/loss``): ``loss``;
    ``learning_rate`` **only when a decay function is given** (contrib's rule,
    kept; for a numeric learning rate its tag is ``OptimizeLoss/learning_rate_1``
    since the variable holds the name, as in TF 1.x); ``global_norm/gradient_norm``
    (before clipping) and, with clipping,
    ``global_norm/clipped_gradient_norm`` for ``"global_gradient_norm"`` or
    ``"gradient_norm"``; ``gradients/<var>`` histograms and
    ``gradient_norm/<var>`` scalars per variable (``<var>`` is ``var.name``
    with ``:`` -> ``_``, e.g. ``w_0``).

    Args:
      loss: scalar ``Tensor``.
      global_step: integer scalar variable, or ``None`` to use the graph's
        global step if there is one (incremented by the op unless
        ``increment_global_step=False``).
      learning_rate: a number >= 0 (int or float; becomes a variable), a 0-d
        ``Tensor`` or ``Variable`` (used as is), or ``None`` when the optimizer
        is an instance or a function of no arguments.
      optimizer: a name from ``OPTIMIZER_CLS_NAMES`` (``"Adam"``, ``"SGD"``,
        ...), a ``tf.compat.v1.train.Optimizer`` subclass (built with
        ``learning_rate=lr``) or instance (used as is), or a function
        ``lr -> Optimizer`` (``() -> Optimizer`` when ``learning_rate`` is
        ``None``).
      gradient_noise_scale: adds ``truncated_normal(shape) * scale`` to every
        gradient. As in contrib, the noise covers the whole dense gradient, so
        an ``IndexedSlices`` gradient becomes dense (every embedding row gets
        noise); the noise has the gradient's dtype.
      gradient_multipliers: dict from a variable (or ``var.ref()``) or its
        ``var.name`` (``"w:0"``) to a multiplier (number or tensor).
      clip_gradients: a number or 0-d tensor > 0 clips by the GLOBAL norm
        (``tf1clip.clip_by_global_norm``); a function ``pairs -> pairs`` (e.g.
        ``adaptive_clipping_fn()``) is applied as is; ``None`` does not clip.
      learning_rate_decay_fn: ``(lr, global_step) -> lr``; needs a global step.
        Ignored when ``learning_rate`` is ``None`` (as in contrib).
      update_ops: operations to run before computing the loss; default: the
        ``tf.compat.v1.GraphKeys.UPDATE_OPS`` collection.
      variables: variables to train; default: all trainable variables.
      name: variable scope name (default ``"OptimizeLoss"``).
      summaries: names from ``OPTIMIZER_SUMMARIES``; default ``["loss",
        "learning_rate", "global_gradient_norm"]``.
      colocate_gradients_with_ops: passed to ``compute_gradients``.
      increment_global_step: whether the op increments ``global_step``.

    Returns:
      A tensor equal to ``loss`` that runs the update when evaluated.

    Raises:
      ValueError: ``loss`` is ``None`` or not scalar; a negative learning rate;
        a learning rate of another kind; a string or class optimizer without a
        learning rate; an unknown optimizer name or kind; a function optimizer
        not returning an Optimizer; an unknown summary; a decay function
        without a global step; a ``clip_gradients`` of another kind or <= 0.
      TypeError: ``global_step`` is not an integer scalar variable or tensor,
        or is a plain tensor to be incremented; ``gradient_multipliers`` is
        not a dict; a ``clip_gradients`` function returned no pairs.
    """
    loss = _common.check_loss(loss, "loss")
    if global_step is None:
        global_step = framework.get_global_step()
    else:
        _common.check_global_step(global_step, increment_global_step)
    summaries = _check_summaries(summaries)
    _check_transforms(clip_gradients, gradient_noise_scale, gradient_multipliers)
    if update_ops is not None:
        update_ops = _common.check_ops(update_ops, "update_ops")
    if variables is not None:
        variables = _common.check_variables(variables, "variables")
    scope_values = [loss] if global_step is None else [loss, global_step]
    with _v1.variable_scope(name, "OptimizeLoss", scope_values):
        if update_ops is None:
            update_ops = _v1.get_collection(_v1.GraphKeys.UPDATE_OPS)
        update_ops = _common.unique(update_ops)
        if update_ops:
            loss = _common.with_dependencies(update_ops, loss)

        lr = _decayed_learning_rate(learning_rate, learning_rate_decay_fn, global_step, summaries)

        opt = _make_optimizer(optimizer, lr, learning_rate)
        if variables is None:
            variables = _v1.trainable_variables()
        gradients = opt.compute_gradients(loss, variables, colocate_gradients_with_ops=colocate_gradients_with_ops)
        gradients, state_updates = _transform_gradients(
            gradients, loss, gradient_noise_scale, gradient_multipliers, clip_gradients, summaries
        )
        grad_updates = opt.apply_gradients(
            gradients,
            global_step=global_step if increment_global_step else None,
            name="train",
        )
        grad_updates = cappers.attach_state_updates(grad_updates, updates=state_updates)
        return _common.with_dependencies([grad_updates], loss)


def _transform_gradients(gradients, loss, gradient_noise_scale, gradient_multipliers, clip_gradients, summaries):
    """``optimize_loss``'s noise -> multipliers -> norm summary -> clipping -> summaries.

    Returns ``(gradients, state_updates)``.
    """
    if gradient_noise_scale is not None:
        gradients = _add_scaled_noise_to_gradients(gradients, gradient_noise_scale)
    if gradient_multipliers is not None:
        gradients = _multiply_gradients(gradients, gradient_multipliers)

    norm_summaries = "global_gradient_norm" in summaries or "gradient_norm" in summaries
    norm = None
    if norm_summaries:
        norm = clipping.global_norm(gradients)
        _v1.summary.scalar("global_norm/gradient_norm", norm)

    state_updates = []
    if _state.is_capper(clip_gradients):
        gradients, state_updates = _common.call_transform(clip_gradients, gradients, "clip_gradients")
    elif clip_gradients is not None:
        gradients = clipping.clip_by_global_norm(gradients, clip_gradients, use_norm=norm)[0]

    if "loss" in summaries:
        _v1.summary.scalar("loss", loss)
    _summarize_gradients(gradients, summaries)
    if clip_gradients is not None and norm_summaries:
        _v1.summary.scalar("global_norm/clipped_gradient_norm", clipping.global_norm(gradients))
    return gradients, state_updates


def _check_transforms(clip_gradients, gradient_noise_scale, gradient_multipliers):
    _check_clip_gradients(clip_gradients)
    if gradient_noise_scale is not None:
        noise = _validate.static_scalar(gradient_noise_scale, "gradient_noise_scale")
        if noise is not None:
            _validate.check_range(noise, "gradient_noise_scale", low=0.0, finite=True)
    if gradient_multipliers is not None and not isinstance(gradient_multipliers, dict):
        raise TypeError(
            "`gradient_multipliers` must be a dict from variables or their names "
            "('w:0') to multipliers; received %s." % _validate.describe(gradient_multipliers)
        )


def _summarize_gradients(gradients, summaries):
    """``gradients/<var>`` histograms and ``gradient_norm/<var>`` scalars (``<var>``: ``var.name``, ``:`` -> ``_``)."""
    for grad, var in gradients:
        if grad is None:
            continue
        var_name = _validate.var_name(var).replace(":", "_")
        if "gradients" in summaries:
            _v1.summary.histogram("gradients/%s" % var_name, _pairs.values(grad))
        if "gradient_norm" in summaries:
            _v1.summary.scalar("gradient_norm/%s" % var_name, clipping.global_norm([(grad, var)]))


def _check_summaries(summaries):
    if summaries is None:
        return list(_DEFAULT_SUMMARIES)
    if isinstance(summaries, str):
        raise ValueError(
            "`summaries` must be a list of names from [%s]; received the string %r."
            % (", ".join(OPTIMIZER_SUMMARIES), summaries)
        )
    summaries = _validate.iterable(summaries, "summaries", "names from OPTIMIZER_SUMMARIES")
    for summ in summaries:
        if summ not in OPTIMIZER_SUMMARIES:
            raise ValueError(
                "Summaries should be one of [%s], you provided %s." % (", ".join(OPTIMIZER_SUMMARIES), summ)
            )
    return summaries


def _check_clip_gradients(clip_gradients):
    if clip_gradients is None or _state.is_capper(clip_gradients):
        return
    if not _common.is_number_like(clip_gradients):
        raise ValueError(
            "Unknown type %s for clip_gradients: use a number or 0-d tensor > 0 "
            "(global-norm clipping) or a function of (gradient, variable) pairs." % type(clip_gradients)
        )
    _validate.check_clip_norm(clip_gradients, "clip_gradients")


def _decayed_learning_rate(learning_rate, learning_rate_decay_fn, global_step, summaries):
    """The learning rate after ``learning_rate_decay_fn`` (summarised only then, contrib's rule)."""
    lr = _make_learning_rate(learning_rate)
    if lr is not None and learning_rate_decay_fn is not None:
        if global_step is None:
            raise ValueError("global_step is required for learning_rate_decay_fn.")
        lr = learning_rate_decay_fn(lr, global_step)
        if "learning_rate" in summaries:
            _v1.summary.scalar("learning_rate", lr)
    return lr


def _make_learning_rate(learning_rate):
    """Returns the learning-rate tensor or variable, or None."""
    if learning_rate is None:
        return None
    if isinstance(learning_rate, (tf.Tensor, tf.Variable)):
        if not (learning_rate.dtype.is_floating or learning_rate.dtype.is_integer):
            raise TypeError(
                "`learning_rate` must be a real number or tensor; received a %s tensor." % learning_rate.dtype.name
            )
        if learning_rate.shape.rank == 0:
            static = tf.get_static_value(learning_rate) if isinstance(learning_rate, tf.Tensor) else None
            if static is not None:
                _validate.check_range(float(static), "learning_rate", low=0.0, finite=True)
            return learning_rate
    elif _common.is_number_like(learning_rate) and np.ndim(learning_rate) == 0:
        value = _validate.static_scalar(learning_rate, "learning_rate")
        if not value >= 0 or value == np.inf:
            raise ValueError("Invalid learning_rate %r: it must be >= 0 and finite." % (learning_rate,))
        return _v1.get_variable(
            "learning_rate",
            [],
            trainable=False,
            initializer=_v1.constant_initializer(value),
        )
    raise ValueError(
        "Learning rate should be 0d Tensor or float. Got %s of type %s" % (learning_rate, type(learning_rate))
    )


def _make_optimizer(optimizer, lr, learning_rate):
    if isinstance(optimizer, str):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is string (%s)." % optimizer)
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError(
                "Optimizer name should be one of [%s], you provided %s." % (", ".join(OPTIMIZER_CLS_NAMES), optimizer)
            )
        return OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
    if isinstance(optimizer, type) and issubclass(optimizer, _V1Optimizer):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is class (%s)." % optimizer)
        return optimizer(learning_rate=lr)
    if isinstance(optimizer, _V1Optimizer):
        return optimizer
    if callable(optimizer):
        opt = optimizer(lr) if learning_rate is not None else optimizer()
        if not isinstance(opt, _V1Optimizer):
            raise ValueError("Unrecognized optimizer: function should return subclass of Optimizer. Got %s." % (opt,))
        return opt
    raise ValueError(
        "Unrecognized optimizer: should be string, subclass of Optimizer, "
        "instance of subclass of Optimizer or function with one argument. Got %s.%s"
        % (
            optimizer,
            " Keras optimizers are not tf.compat.v1.train optimizers; use e.g. tf.compat.v1.train.AdamOptimizer."
            if hasattr(optimizer, "build")
            else "",
        )
    )


def _add_scaled_noise_to_gradients(grads_and_vars, gradient_noise_scale):
    """Adds ``truncated_normal * scale`` to each gradient; ``IndexedSlices`` become dense."""

    def add_noise(grad, _):
        if isinstance(grad, tf.IndexedSlices):
            shape = grad.dense_shape
        elif grad.shape.is_fully_defined():
            shape = grad.shape
        else:
            shape = tf.shape(grad)
        dtype = grad.dtype.base_dtype
        noise = tf.random.truncated_normal(shape, dtype=dtype)
        noise = noise * tf.cast(gradient_noise_scale, dtype)
        return tf.convert_to_tensor(grad) + noise

    return _pairs.map_gradients(grads_and_vars, add_noise)


def _multiply_gradients(grads_and_vars, gradient_multipliers):
    """Multiplies gradients keyed by variable or ``var.name``; ``None`` gradients skipped."""
    multipliers = _common.find_multipliers(gradient_multipliers, grads_and_vars, lambda v: v.name, "names ('w:0')")
    return [
        (grad if grad is None or m is None else _common.multiply(grad, m), var)
        for (grad, var), m in zip(grads_and_vars, multipliers)
    ]


def adaptive_clipping_fn(
    std_factor=2.0,
    decay=0.95,
    static_max_norm=None,
    global_step=None,
    report_summary=False,
    epsilon=1e-8,
    name=None,
):
    """Returns a ``pairs -> pairs`` function clipping by an adaptive global-norm threshold.

    contrib's adaptive clipping (Chorowski et al., 2014, arXiv:1412.1602,
    section 3.2.1), kept exactly. Each call of the returned function, inside
    ``variable_scope(name, "AdaptiveMaxNorm")``, creates two non-trainable
    variables ``mean`` and ``sq_mean`` (zero-initialised) and builds:

    * ``n = global_norm(grads)``, ``l = log(n + epsilon)``;
    * ``decay = min(decay, t / (t + 1))`` with ``t = global_step`` when a step
      is given (faster adaptation at the start);
    * ``mean <- EMA(l)``, ``sq_mean <- EMA(l**2)`` (no zero-debiasing), updated
      **every time the clipped gradients are evaluated**;
    * ``max_norm = exp(mean + std_factor * sqrt(max(epsilon, sq_mean - mean**2)))``;
    * ``factor = 1`` if ``n < max_norm`` else ``exp(mean) / n``: a spike is
      scaled down to the running mean norm ``exp(mean)``, **not** to
      ``max_norm`` (contrib's behaviour, kept);
    * with ``static_max_norm``: ``factor = min(static_max_norm / n, factor)``.

    Every gradient is multiplied by ``factor``; ``IndexedSlices`` stay sparse,
    ``None`` passes through. A non-finite norm poisons ``mean``/``sq_mean``, as
    in contrib. Inside ``optimize_loss`` the variables are
    ``OptimizeLoss/AdaptiveMaxNorm/mean`` and ``.../sq_mean``.

    Args:
      std_factor: how many standard deviations of the log-norm above its mean
        a norm must be to be clipped.
      decay: moving-average decay, in [0, 1].
      static_max_norm: optional hard limit on the global norm, > 0.
      global_step: optional step tensor, for the faster start above.
      report_summary: add the scalar summary
        ``global_norm/adaptive_max_gradient_norm``.
      epsilon: small positive constant for the log and the variance.
      name: variable scope name (default ``"AdaptiveMaxNorm"``).

    Returns:
      A function from a list of ``(gradient, variable)`` pairs to a new list.
    """
    decay_value = _validate.static_scalar(decay, "decay")
    if decay_value is not None and not 0 <= decay_value <= 1:
        raise ValueError("`decay` must be in [0, 1]; received %r." % (decay,))
    epsilon_value = _validate.static_scalar(epsilon, "epsilon")
    if epsilon_value is not None and not epsilon_value > 0:
        raise ValueError("`epsilon` must be > 0; received %r." % (epsilon,))
    _validate.static_scalar(std_factor, "std_factor")
    static_limit = None
    if static_max_norm is not None:
        static_limit, _ = _validate.check_clip_norm(static_max_norm, "static_max_norm")

    def gradient_clipping(grads_and_vars):
        pairs = _validate.check_pairs(grads_and_vars)
        norm = clipping.global_norm(pairs)
        max_norm, log_mean = _adaptive_max_norm(norm, std_factor, decay, global_step, epsilon, name)
        if report_summary:
            _v1.summary.scalar("global_norm/adaptive_max_gradient_norm", max_norm)
        factor = tf.where(norm < max_norm, tf.ones_like(norm), tf.exp(log_mean) / norm)
        if static_max_norm is not None:
            limit = _validate.scalar_tensor(static_max_norm, static_limit, norm.dtype, "static_max_norm")
            factor = tf.minimum(limit / norm, factor)
        return _pairs.scale_pairs(pairs, factor)

    return gradient_clipping


def _adaptive_max_norm(norm, std_factor, decay, global_step, epsilon, name):
    """Updates the log-norm moving averages; returns ``(max_norm, mean)``."""
    with _v1.variable_scope(name, "AdaptiveMaxNorm", [norm]):
        log_norm = tf.math.log(norm + epsilon)
        if global_step is not None:
            n = tf.cast(global_step, norm.dtype)
            decay = tf.minimum(tf.cast(decay, norm.dtype), n / (n + 1.0))
        mean = _moving_average("mean", log_norm, decay)
        sq_mean = _moving_average("sq_mean", tf.square(log_norm), decay)
        variance = sq_mean - tf.square(mean)
        std = tf.sqrt(tf.maximum(tf.cast(epsilon, variance.dtype), variance))
        return tf.exp(mean + std_factor * std), mean


def _moving_average(name, value, decay):
    """``var -= (var - value) * (1 - decay)`` on a new zero variable; returns the new value."""
    var = _v1.get_variable(
        name,
        shape=value.shape,
        dtype=value.dtype,
        initializer=_v1.zeros_initializer(),
        trainable=False,
    )
    with tf.name_scope("AssignMovingAvg"):
        complement = tf.convert_to_tensor(1.0 - decay)
        if complement.dtype != var.dtype.base_dtype:
            complement = tf.cast(complement, var.dtype.base_dtype)
        return var.assign_sub((var - value) * complement)
