"""Adaptive cappers (AutoClip, AGC, ZClip) and a norm recorder, for Session graphs.

The stateful ones (``AutoClip``, ``ZClip``, ``NormRecorder``) keep their state in
non-trainable variables (saved by ``tf.compat.v1.train.Saver`` and, since they are
``tf.Module`` objects, by ``tf.train.Checkpoint``). Their state is updated exactly once
per applied step, after the apply, and never from a non-finite norm: see
``tf1clip.attach_state_updates`` (the tf1clip decorators call it for you). Under a
distribution strategy they see the aggregated gradients (the decorators clip after
the cross-replica sum), so every replica updates the same state.
"""

import math
import re

import numpy as np

from tf1clip import cappers as _cappers
from tf1clip import clipping
from tf1clip._tf import tf

__all__ = ["AutoClip", "AGC", "ZClip", "NormRecorder"]


def _check_number(value, arg, low=None, high=None, low_open=False, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise TypeError("`%s` must be a number; received %s." % (arg, clipping._describe(value)))
    value = float(value)
    too_low = low is not None and (value <= low if low_open else value < low)
    if math.isnan(value) or too_low or (high is not None and value > high):
        bounds = "%s %s" % (">" if low_open else ">=", low) if low is not None else ""
        if high is not None:
            bounds = (bounds + " and " if bounds else "") + "<= %s" % high
        raise ValueError("`%s` must be %s; received %r." % (arg, bounds, value))
    return value


def _check_int(value, arg, low):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError("`%s` must be an int; received %s." % (arg, clipping._describe(value)))
    if value < low:
        raise ValueError("`%s` must be >= %d; received %d." % (arg, low, value))
    return int(value)


class _StatefulCapper(tf.Module):
    """Base of stateful cappers: lazily created state, bound to one graph."""

    def __init__(self, name):
        if not isinstance(name, str) or not re.match(r"^[A-Za-z][\w.-]*$", name):
            raise ValueError("`name` must be a valid op name such as 'AutoClip'; received %r." % (name,))
        super(_StatefulCapper, self).__init__(name=name)
        self._graph = None

    def _variable(self, attr, initial_value, dtype):
        # The v1 constructor: under a strategy in a Session graph only the
        # distributed variable joins GLOBAL_VARIABLES (tf.Variable also adds
        # each replica's component, which the Saver would then save twice).
        var = tf.compat.v1.Variable(
            initial_value,
            dtype=dtype,
            trainable=False,
            name=attr,
            use_resource=True,
            aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA,
        )
        setattr(self, attr, var)
        return var

    def _ensure_state(self):
        graph = _cappers._graph_key()
        if self._graph is None:
            self._graph = graph
            with tf.init_scope(), self.name_scope:
                self._build_state()
        elif self._graph is not graph:
            raise ValueError(
                "%s was first used in another graph; a stateful capper keeps its state "
                "in one graph. Create a new one for this graph." % self.name
            )

    def _build_state(self):
        raise NotImplementedError

    def transform_with_state(self, grads_and_vars):
        """Returns ``(pairs, update)``: the capped pairs and a zero-arg builder of the
        state update, to be built after (control-dependent on) the apply, and only
        when the step is applied (see ``tf1clip.run_capper``)."""
        pairs = clipping._check_pairs(grads_and_vars)
        self._ensure_state()
        with self.name_scope:
            return self._transform(pairs)

    def __call__(self, grads_and_vars):
        """Caps ``grads_and_vars``; the state update is deferred (``defer_state_update``).

        Raises:
          RuntimeError: in a Session graph, this capper's previous update is
            still pending: nobody attached it (``tf1clip.attach_state_updates``),
            so its state would never have advanced.
        """
        self._check_attached()
        pairs, update = self.transform_with_state(grads_and_vars)
        self._pending = update if _cappers._building_session_graph() else None
        _cappers.defer_state_update(update)
        return pairs

    def _check_attached(self):
        pending = getattr(self, "_pending", None)
        if pending is None or not _cappers._building_session_graph():
            return
        graph = tf.compat.v1.get_default_graph()
        if any(b is pending for b in graph.get_collection(_cappers.STATE_UPDATES)):
            raise RuntimeError(
                "%s: the state update of its previous call was never attached to a train op, "
                "so its state would not advance. Build the train op with "
                "tf1clip.attach_state_updates(optimizer.apply_gradients(...)), "
                "use a tf1clip optimizer decorator, or tf1clip.run_capper." % self.name
            )


class AutoClip(_StatefulCapper):
    """AutoClip: clip to the p-th percentile of the history of global norms.

    Seetharaman et al., "AutoClip: Adaptive Gradient Clipping for Source Separation
    Networks", MLSP 2020. Each step the current global norm ``n`` joins the history
    (a ring buffer of the last ``history_size`` finite norms), the threshold ``T`` is
    the ``percentile``-th percentile of the history with ``n`` included (linear
    interpolation, as ``np.percentile``), and every gradient is scaled by
    ``min(T / n, 1)``. A non-finite ``n`` is kept out of the history (the gradients
    become NaN, TensorFlow's rule, so a skip policy or loss scaler sees it).

    Args:
      percentile: p in [0, 100]; the paper uses 10 (clip the 90% largest norms).
      history_size: how many past norms to keep (``int`` >= 1).
      name: scope of the variables ``<name>/history`` (float32 [history_size]) and
        ``<name>/count`` (int64, finite norms seen so far).

    Attributes after a call: ``norm`` and ``threshold`` (0-d tensors of that step).
    """

    def __init__(self, percentile=10.0, history_size=1000, name="AutoClip"):
        super(AutoClip, self).__init__(name)
        self.percentile = _check_number(percentile, "percentile", 0.0, 100.0)
        self.history_size = _check_int(history_size, "history_size", 1)
        self.norm = self.threshold = None

    def _build_state(self):
        self._variable("history", tf.zeros([self.history_size]), tf.float32)
        self._variable("count", tf.constant(0, tf.int64), tf.int64)

    def _transform(self, pairs):
        norm = tf.cast(clipping.global_norm(pairs), tf.float32)
        finite = tf.math.is_finite(norm)
        history, count = self.history.read_value(), self.count.read_value()
        size = self.history_size
        slot = tf.math.floormod(count, size)
        with_current = tf.tensor_scatter_nd_update(
            history, tf.reshape(slot, [1, 1]), tf.reshape(tf.where(finite, norm, 0.0), [1])
        )
        filled = tf.minimum(count + 1, size)
        threshold = _percentile(with_current, filled, self.percentile)
        scale = tf.where(norm <= threshold, tf.constant(1.0), threshold / norm) + (norm - norm)
        self.norm, self.threshold = norm, threshold

        def update():
            return tf.group(
                self.history.assign(tf.where(finite, with_current, history)),
                self.count.assign(count + tf.cast(finite, tf.int64)),
            )

        return clipping._scale_pairs(pairs, scale), update


def _percentile(buffer, filled, q):
    """np.percentile(buffer[:filled], q) with linear interpolation, ``filled`` >= 1."""
    size = buffer.shape[0]
    valid = tf.range(size, dtype=filled.dtype) < filled
    ordered = tf.sort(tf.where(valid, buffer, tf.fill([size], np.float32(np.inf))))
    position = (q / 100.0) * tf.cast(filled - 1, tf.float32)
    low = tf.floor(position)
    high = tf.math.ceil(position)
    low_value = tf.gather(ordered, tf.cast(low, tf.int32))
    high_value = tf.gather(ordered, tf.cast(high, tf.int32))
    return low_value + (high_value - low_value) * (position - low)


class ZClip(_StatefulCapper):
    """ZClip: z-score spike clipping with EMA statistics of the global norm.

    Kumar et al., "ZClip: Adaptive Spike Mitigation for LLM Pre-Training", 2025; the
    rule of its reference implementation. During the first ``warmup_steps`` finite
    steps the norms are collected and only ``max_grad_norm`` applies; then the mean
    ``mu`` and population variance ``var`` of those norms start the statistics. After
    warm-up, with ``sigma = sqrt(var)`` and ``z = (n - mu) / (sigma + eps)``:

    * ``mode="zscore"``: a spike is ``z > z_thresh``; its threshold is
      ``(mu + z_thresh * sigma / (z / z_thresh)) * clip_factor``
      (``clip_option="adaptive_scaling"``) or ``mu`` (``clip_option="mean"``);
    * ``mode="percentile"``: a spike is ``n > mu + z_thresh * sigma``, clipped to it.

    The gradients are scaled by ``T / (n + 1e-6)`` when ``n`` exceeds
    ``T = min(threshold or n, max_grad_norm)``. The statistics are then updated with
    ``g = threshold`` on a spike, else ``n``: ``mu <- alpha mu + (1 - alpha) g``, then
    ``var <- alpha var + (1 - alpha) (g - mu)^2`` with the new ``mu``; with
    ``skip_update_on_spike`` a spike leaves them unchanged. A non-finite norm changes
    no state (and the gradients become NaN).

    Variables under ``<name>/``: ``mean``, ``var`` (float32), ``count`` (int64,
    finite steps seen) and ``warmup`` (float32 [warmup_steps], the warm-up norms).
    Attributes after a call: ``norm``, ``threshold`` (inf when not clipping), ``z``.
    """

    def __init__(
        self,
        alpha=0.97,
        z_thresh=2.5,
        max_grad_norm=1.0,
        eps=1e-6,
        warmup_steps=25,
        mode="zscore",
        clip_option="adaptive_scaling",
        clip_factor=1.0,
        skip_update_on_spike=False,
        name="ZClip",
    ):
        super(ZClip, self).__init__(name)
        self.alpha = _check_number(alpha, "alpha", 0.0, 1.0)
        self.z_thresh = _check_number(z_thresh, "z_thresh", 0.0, low_open=True)
        self.max_grad_norm = _check_number(max_grad_norm, "max_grad_norm", 0.0, low_open=True, allow_none=True)
        self.eps = _check_number(eps, "eps", 0.0)
        self.warmup_steps = _check_int(warmup_steps, "warmup_steps", 1)
        self.clip_factor = _check_number(clip_factor, "clip_factor", 0.0, low_open=True)
        if mode not in ("zscore", "percentile"):
            raise ValueError("`mode` must be 'zscore' or 'percentile'; received %r." % (mode,))
        if clip_option not in ("adaptive_scaling", "mean"):
            raise ValueError("`clip_option` must be 'adaptive_scaling' or 'mean'; received %r." % (clip_option,))
        self.mode, self.clip_option = mode, clip_option
        self.skip_update_on_spike = bool(skip_update_on_spike)
        self.norm = self.threshold = self.z = None

    def _build_state(self):
        self._variable("mean", tf.constant(0.0), tf.float32)
        self._variable("var", tf.constant(0.0), tf.float32)
        self._variable("count", tf.constant(0, tf.int64), tf.int64)
        self._variable("warmup", tf.zeros([self.warmup_steps]), tf.float32)

    def _transform(self, pairs):
        norm = tf.cast(clipping.global_norm(pairs), tf.float32)
        finite = tf.math.is_finite(norm)
        mean, var = self.mean.read_value(), self.var.read_value()
        count, warmup = self.count.read_value(), self.warmup.read_value()
        warming = count < self.warmup_steps
        sigma = tf.sqrt(var)
        z = (norm - mean) / (sigma + self.eps)
        if self.mode == "percentile":
            threshold = mean + self.z_thresh * sigma
            spike = norm > threshold
        else:
            spike = z > self.z_thresh
            if self.clip_option == "mean":
                threshold = mean
            else:
                threshold = (mean + self.z_thresh * sigma / (z / self.z_thresh)) * self.clip_factor
        spike = tf.logical_and(spike, tf.logical_not(warming))
        threshold = tf.where(spike, threshold, tf.constant(np.inf, tf.float32))
        effective = tf.minimum(threshold, norm)
        if self.max_grad_norm is not None:
            effective = tf.minimum(effective, self.max_grad_norm)
        scale = tf.where(norm > effective, effective / (norm + 1e-6), 1.0) + (norm - norm)
        self.norm, self.threshold, self.z = norm, threshold, z

        def update():
            slot = tf.minimum(count, self.warmup_steps - 1)
            warm = tf.tensor_scatter_nd_update(warmup, tf.reshape(slot, [1, 1]), tf.reshape(norm, [1]))
            warm = tf.where(tf.logical_and(finite, warming), warm, warmup)
            starts = tf.logical_and(finite, tf.equal(count + 1, self.warmup_steps))
            start_mean = tf.reduce_mean(warm)
            start_var = tf.reduce_mean(tf.square(warm - start_mean))
            observed = tf.where(spike, threshold, norm)
            ema_mean = self.alpha * mean + (1.0 - self.alpha) * observed
            ema_var = self.alpha * var + (1.0 - self.alpha) * tf.square(observed - ema_mean)
            moves = tf.logical_and(finite, tf.logical_not(warming))
            if self.skip_update_on_spike:
                moves = tf.logical_and(moves, tf.logical_not(spike))
            return tf.group(
                self.warmup.assign(warm),
                self.mean.assign(tf.where(starts, start_mean, tf.where(moves, ema_mean, mean))),
                self.var.assign(tf.where(starts, start_var, tf.where(moves, ema_var, var))),
                self.count.assign(count + tf.cast(finite, tf.int64)),
            )

        return clipping._scale_pairs(pairs, scale), update


class AGC(object):
    """Adaptive Gradient Clipping, unit-wise (Brock et al., "High-Performance Large-Scale
    Image Recognition Without Normalization", ICML 2021).

    For each unit ``i`` of a variable ``W`` with gradient ``G``: when
    ``||G_i|| / max(||W_i||, eps) > clip_factor``, ``G_i`` becomes
    ``G_i * clip_factor * max(||W_i||, eps) / max(||G_i||, 1e-6)``. Units follow
    TensorFlow kernel layouts: rank 0 and 1 — the whole tensor; rank 2 (Dense
    ``[in, out]``) — each output column (norm over axis 0); rank 4 (Conv2D ``HWIO``) —
    each output channel (axes 0, 1, 2). Other ranks need ``unit_axes``. An
    ``IndexedSlices`` gradient (an embedding) is clipped per row against the matching
    rows of the variable. Stateless.

    Args:
      clip_factor: lambda > 0 (0.01 is the usual default).
      eps: floor of the weight norm (1e-3 in the paper).
      exclude: variable names (``var.op.name``) or regular expressions matched with
        ``re.search`` whose gradients pass unchanged — e.g. the final classifier layer.
      unit_axes: dict ``{var.op.name: axes}`` giving the axes a unit's norm is taken
        over, for other layouts or ranks.
    """

    def __init__(self, clip_factor=0.01, eps=1e-3, exclude=(), unit_axes=None):
        self.clip_factor = _check_number(clip_factor, "clip_factor", 0.0, low_open=True)
        self.eps = _check_number(eps, "eps", 0.0)
        if isinstance(exclude, str) or not all(isinstance(p, str) for p in exclude):
            raise TypeError("`exclude` must be a list of names or patterns; received %s." % clipping._describe(exclude))
        self.exclude = [re.compile(p) for p in exclude]
        if unit_axes is not None and not isinstance(unit_axes, dict):
            raise TypeError(
                "`unit_axes` must be a dict {variable name: axes}; received %s." % clipping._describe(unit_axes)
            )
        self.unit_axes = dict(unit_axes or {})

    def _axes(self, var, rank):
        name = clipping._var_name(var).split(":")[0]
        if name in self.unit_axes:
            return tuple(self.unit_axes[name])
        if rank <= 1:
            return None
        if rank == 2:
            return (0,)
        if rank == 4:
            return (0, 1, 2)
        raise ValueError(
            "AGC: cannot tell the units of %s (rank %d); give its norm axes with "
            "unit_axes={%r: axes}, e.g. (0, 1) for a Conv1D kernel [width, in, out]."
            % (name, rank, name)
        )

    def _excluded(self, var):
        name = clipping._var_name(var).split(":")[0]
        return any(p.search(name) for p in self.exclude)

    def __call__(self, grads_and_vars):
        pairs = clipping._check_pairs(grads_and_vars)
        out = []
        with tf.name_scope("AGC"):
            for grad, var in pairs:
                if grad is not None and not self._excluded(var):
                    grad = self._clip(grad, var)
                out.append((grad, var))
        return out

    def _clip(self, grad, var):
        weights = tf.convert_to_tensor(var)
        if isinstance(grad, tf.IndexedSlices):
            rows = tf.gather(weights, grad.indices)
            axes = tuple(range(1, grad.values.shape.rank))
            values = self._clip_units(grad.values, rows, axes or None)
            return tf.IndexedSlices(values, grad.indices, grad.dense_shape)
        return self._clip_units(grad, weights, self._axes(var, grad.shape.rank))

    def _clip_units(self, grad, weights, axes):
        acc = tf.float64 if grad.dtype == tf.float64 else tf.float32
        g = tf.cast(grad, acc)
        w = tf.cast(weights, acc)
        g_norm = tf.sqrt(tf.reduce_sum(tf.square(g), axis=axes, keepdims=True))
        w_norm = tf.maximum(tf.sqrt(tf.reduce_sum(tf.square(w), axis=axes, keepdims=True)), self.eps)
        max_norm = self.clip_factor * w_norm
        scale = tf.where(g_norm > max_norm, max_norm / tf.maximum(g_norm, 1e-6), tf.ones_like(g_norm))
        return grad * tf.cast(scale, grad.dtype)


def _norm_of_norms(norms):
    """sqrt(sum n_i^2) in the widest dtype among ``norms``: the global norm from per-tensor ones."""
    if not norms:
        return tf.constant(0.0, tf.float32)
    dtype = tf.float64 if any(n.dtype == tf.float64 for n in norms) else tf.float32
    return tf.sqrt(tf.math.add_n([tf.square(tf.cast(n, dtype)) for n in norms]))


class NormRecorder(_StatefulCapper):
    """Records gradient norms around a capper, as tensors and TensorBoard summaries.

    ``NormRecorder(capper)`` is a capper: it applies ``capper`` (or nothing) and exposes,
    for the step: ``pre_clip_norm`` and ``post_clip_norm`` (global norms before and after),
    ``variable_norms`` (``{var.op.name: norm}`` of the pre-clip gradients), and
    ``clip_fraction`` (fraction of applied steps so far, this one excluded, where the
    capper reduced the norm by more than 1e-6 relative). With ``summaries=True`` it
    writes ``tf.compat.v1.summary`` scalars ``<name>/pre_clip_norm``,
    ``<name>/post_clip_norm``, ``<name>/clip_fraction`` and a histogram
    ``<name>/variable_norms``; with ``per_variable_summaries=True`` also one scalar
    ``<name>/norm/<var>`` per variable. Counters live in ``<name>/steps`` and
    ``<name>/clipped_steps`` (int64), updated once per applied step.
    """

    def __init__(self, capper=None, summaries=True, per_variable_summaries=False, name="gradient_norms"):
        super(NormRecorder, self).__init__(name)
        if capper is not None:
            _cappers._check_capper(capper, "capper")
        self.capper = capper
        self.summaries = bool(summaries)
        self.per_variable_summaries = bool(per_variable_summaries)
        self.pre_clip_norm = self.post_clip_norm = self.clip_fraction = None
        self.variable_norms = {}

    def _build_state(self):
        self._variable("steps", tf.constant(0, tf.int64), tf.int64)
        self._variable("clipped_steps", tf.constant(0, tf.int64), tf.int64)

    def _transform(self, pairs):
        self.variable_norms = {
            clipping._var_name(v).split(":")[0]: clipping.global_norm([(g, v)]) for g, v in pairs if g is not None
        }
        pre = _norm_of_norms(list(self.variable_norms.values()))
        out, inner_updates = _cappers.run_capper(self.capper, pairs) if self.capper is not None else (pairs, [])
        post = clipping.global_norm(out)
        clipped = post < tf.cast(pre, post.dtype) * (1.0 - 1e-6)
        steps, clipped_steps = self.steps.read_value(), self.clipped_steps.read_value()
        fraction = tf.math.divide_no_nan(tf.cast(clipped_steps, tf.float32), tf.cast(steps, tf.float32))
        self.pre_clip_norm, self.post_clip_norm, self.clip_fraction = pre, post, fraction
        if self.summaries:
            tf.compat.v1.summary.scalar("pre_clip_norm", pre)
            tf.compat.v1.summary.scalar("post_clip_norm", post)
            tf.compat.v1.summary.scalar("clip_fraction", fraction)
            if self.variable_norms:
                tf.compat.v1.summary.histogram(
                    "variable_norms", tf.stack([tf.cast(n, tf.float32) for n in self.variable_norms.values()])
                )
            if self.per_variable_summaries:
                for var_name, norm in self.variable_norms.items():
                    tf.compat.v1.summary.scalar("norm/" + var_name, norm)

        def update():
            own = [self.steps.assign(steps + 1), self.clipped_steps.assign(clipped_steps + tf.cast(clipped, tf.int64))]
            return tf.group(*own, *[u for u in (build() for build in inner_updates) if u is not None])

        return out, update
