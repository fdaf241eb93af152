"""Adaptive cappers (AutoClip, AGC, ZClip) and a norm recorder, for Session graphs.

The stateful ones (``AutoClip``, ``ZClip``, ``NormRecorder``) keep their state in
non-trainable variables (saved by ``tf.compat.v1.train.Saver`` and, since they are
``tf.Module`` objects, by ``tf.train.Checkpoint``). Their state is updated exactly once
per applied step, after the apply, and never from a non-finite norm: see
``tf1clip.attach_state_updates`` (the tf1clip decorators call it for you). Under a
distribution strategy they see the aggregated gradients (the decorators clip after
the cross-replica sum), so every replica updates the same state.
"""

import re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from tf1clip.core import _graphs, _norms, _pairs, _state, _validate, clipping
from tf1clip.compat._tf import tf

__all__ = ["AutoClip", "AGC", "ZClip", "NormRecorder"]


_check_number = _validate.check_number
_check_int = _validate.check_int


class _StatefulCapper(tf.Module):
    """Base of stateful cappers: lazily created state, bound to one graph."""

    def __init__(self, name):
        if not isinstance(name, str) or not re.match(r"^[A-Za-z][\w.-]*$", name):
            raise ValueError("`name` must be a valid op name such as 'AutoClip'; received %r." % (name,))
        super(_StatefulCapper, self).__init__(name=name)
        self._graph = None
        self._transforms = _state.OneTransformPerStep()

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
        graph = _graphs.graph_key()
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
        when the step is applied (see ``tf1clip.run_capper``).

        Raises:
          RuntimeError: in a Session graph, this capper already capped the
            gradients of a train op (in this replica): one capper serves one
            optimizer or train op (see ``tf1clip.attach_state_updates``).
        """
        pairs = _validate.check_pairs(grads_and_vars)
        self._state_dtype = _norms.acc_dtype(_pairs.present(pairs))  # used only by the first call
        self._ensure_state()
        self._transforms.claim(self.name, type(self).__name__)
        with self.name_scope:
            return self._transform(pairs)

    def __call__(self, grads_and_vars):
        """Caps ``grads_and_vars``; in a Session graph the state update is left pending.

        ``tf1clip.attach_state_updates(train_op)`` attaches it to the train op
        that applies these gradients (``defer_state_update``).
        """
        return _state.call_deferring(self, grads_and_vars)


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
      name: scope of the variables ``<name>/history`` ([history_size], float32, or
        float64 when the first call has a float64 gradient) and ``<name>/count``
        (int64, finite norms seen so far).

    Attributes after a call: ``norm`` and ``threshold`` (0-d tensors of that step).
    """

    def __init__(self, percentile=10.0, history_size=1000, name="AutoClip"):
        super(AutoClip, self).__init__(name)
        self.percentile = _check_number(percentile, "percentile", 0.0, 100.0)
        self.history_size = _check_int(history_size, "history_size", 1)
        self.norm = self.threshold = None

    def _build_state(self):
        self._variable("history", tf.zeros([self.history_size], self._state_dtype), self._state_dtype)
        self._variable("count", tf.constant(0, tf.int64), tf.int64)

    def _transform(self, pairs):
        norm = clipping.global_norm(pairs)
        dtype = _norms.widest([norm, self.history])
        norm = _norms.cast(norm, dtype)
        finite = tf.math.is_finite(norm)
        history, count = _norms.cast(self.history.read_value(), dtype), self.count.read_value()
        size = self.history_size
        slot = tf.math.floormod(count, size)
        with_current = tf.tensor_scatter_nd_update(
            history, tf.reshape(slot, [1, 1]), tf.reshape(tf.where(finite, norm, tf.zeros_like(norm)), [1])
        )
        filled = tf.minimum(count + 1, size)
        threshold = _percentile(with_current, filled, self.percentile)
        scale = _norms.nan_if_nonfinite(tf.where(norm <= threshold, tf.ones_like(norm), threshold / norm), norm)
        self.norm, self.threshold = norm, threshold

        def update():
            return tf.group(
                self.history.assign(
                    _norms.cast(tf.where(finite, with_current, history), self.history.dtype.base_dtype)
                ),
                self.count.assign(count + tf.cast(finite, tf.int64)),
            )

        return _pairs.scale_pairs(pairs, scale), update


def _percentile(buffer, filled, q):
    """np.percentile(buffer[:filled], q) with linear interpolation, ``filled`` >= 1."""
    size = buffer.shape[0]
    valid = tf.range(size, dtype=filled.dtype) < filled
    ordered = tf.sort(tf.where(valid, buffer, tf.fill([size], tf.constant(np.inf, buffer.dtype))))
    position = (q / 100.0) * tf.cast(filled - 1, buffer.dtype)
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

    Variables under ``<name>/``: ``mean``, ``var``, ``count`` (int64, finite steps
    seen) and ``warmup`` ([warmup_steps], the warm-up norms); all but ``count`` are
    float32, or float64 when the first call has a float64 gradient.
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
        self._variable("mean", tf.constant(0.0, self._state_dtype), self._state_dtype)
        self._variable("var", tf.constant(0.0, self._state_dtype), self._state_dtype)
        self._variable("count", tf.constant(0, tf.int64), tf.int64)
        self._variable("warmup", tf.zeros([self.warmup_steps], self._state_dtype), self._state_dtype)

    def _transform(self, pairs):
        norm = clipping.global_norm(pairs)
        dtype = _norms.widest([norm, self.mean])
        norm = _norms.cast(norm, dtype)
        finite = tf.math.is_finite(norm)
        mean, var = _norms.cast(self.mean.read_value(), dtype), _norms.cast(self.var.read_value(), dtype)
        count, warmup = self.count.read_value(), _norms.cast(self.warmup.read_value(), dtype)
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
        threshold = tf.where(spike, threshold, tf.constant(np.inf, dtype))
        effective = tf.minimum(threshold, norm)
        if self.max_grad_norm is not None:
            effective = tf.minimum(effective, self.max_grad_norm)
        scale = _norms.nan_if_nonfinite(tf.where(norm > effective, effective / (norm + 1e-6), tf.ones_like(norm)), norm)
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
            state = self.mean.dtype.base_dtype
            return tf.group(
                self.warmup.assign(_norms.cast(warm, state)),
                self.mean.assign(_norms.cast(tf.where(starts, start_mean, tf.where(moves, ema_mean, mean)), state)),
                self.var.assign(_norms.cast(tf.where(starts, start_var, tf.where(moves, ema_var, var)), state)),
                self.count.assign(count + tf.cast(finite, tf.int64)),
            )

        return _pairs.scale_pairs(pairs, scale), update


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
    rows of the variable. Norms are taken in float32 (float64 for float64 gradients).
    Stateless.

    The partitions of a ``PartitionedVariable`` are one variable: names, ranks and
    units are those of the whole variable, and a unit split across partitions gets
    the norm of all its pieces (all its partitions must then be in the list). A
    sparse gradient of a variable partitioned along another axis than its rows is
    refused with a ``ValueError``.

    Args:
      clip_factor: lambda > 0 (0.01 is the usual default).
      eps: floor of the weight norm (1e-3 in the paper).
      exclude: variable names (``var.op.name``; the ``PartitionedVariable``'s name for a
        partition) or regular expressions matched with ``re.search`` whose gradients
        pass unchanged — e.g. the final classifier layer.
      unit_axes: dict ``{var.op.name: axes}`` giving the axes a unit's norm is taken
        over, for other layouts or ranks.
    """

    def __init__(
        self,
        clip_factor: float = 0.01,
        eps: float = 1e-3,
        exclude: Iterable[str] = (),
        unit_axes: Optional[Dict[str, Sequence[int]]] = None,
    ) -> None:
        self.clip_factor = _validate.check_number(clip_factor, "clip_factor", 0.0, low_open=True, finite=True)
        self.eps = _validate.check_number(eps, "eps", 0.0, finite=True)
        self.exclude = _validate.check_patterns(exclude, "exclude")
        if unit_axes is not None and not isinstance(unit_axes, dict):
            raise TypeError(
                "`unit_axes` must be a dict {variable name: axes}; received %s." % _validate.describe(unit_axes)
            )
        self.unit_axes = dict(unit_axes or {})

    def _axes(self, name, rank):
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
            "unit_axes={%r: axes}, e.g. (0, 1) for a Conv1D kernel [width, in, out]." % (name, rank, name)
        )

    def __call__(self, grads_and_vars: Iterable[Tuple[Any, Any]]) -> List[Tuple[Any, Any]]:
        pairs = _validate.check_pairs(grads_and_vars)
        out = list(pairs)
        groups, full = _pairs.units([v for _, v in pairs])
        with tf.name_scope("AGC"):
            for group in groups:
                var = pairs[group[0]][1]
                name = full[group[0]][0] if _pairs.slice_info(var) is not None else _validate.op_name(var)
                if any(p.search(name) for p in self.exclude):
                    continue
                for i in group:
                    _check_weights(pairs[i], i)
                for i, grad in self._clip_unit_group([pairs[i] for i in group], name):
                    out[group[i]] = (grad, pairs[group[i]][1])
        return out

    def _clip_unit_group(self, members, name):
        """Yields ``(position, clipped gradient)`` for the present gradients of one variable."""
        present = [k for k, (g, _) in enumerate(members) if g is not None]
        if not present:
            return
        info = _pairs.slice_info(members[0][1])
        part_axis = _pairs.partition_axis([v for _, v in members]) if info is not None else None
        rank = len(info[1]) if info is not None else None
        for k in present:
            grad, var = members[k]
            axes = self._unit_axes(grad, name, rank)
            spans = part_axis is not None and (axes is None or part_axis in axes)
            if not spans:
                with _pairs.colocate(grad):
                    yield k, self._clip(grad, var, axes)
            elif isinstance(grad, tf.IndexedSlices):
                raise ValueError(
                    "AGC: %s is partitioned along axis %d and has a sparse gradient; its rows "
                    "span partitions. Partition it along axis 0 or exclude it." % (name, part_axis)
                )
        if part_axis is None:
            return
        dense = [k for k in present if not isinstance(members[k][0], tf.IndexedSlices)]
        axes = self._unit_axes(members[dense[0]][0], name, rank) if dense else None
        if not dense or (axes is not None and part_axis not in axes):
            return
        covered = sum(v.shape[part_axis] for _, v in members)
        if covered != info[1][part_axis]:
            raise ValueError(
                "AGC: the units of %s span its partitions, and only some of them have a "
                "(gradient, variable) pair (%d of %d along axis %d); pass all of its "
                "partitions or exclude it." % (name, covered, info[1][part_axis], part_axis)
            )
        acc = _norms.acc_dtype([members[k][0] for k in dense])
        g_sq = tf.math.add_n([_unit_sq(members[k][0], axes, acc) for k in dense])
        w_sq = tf.math.add_n([_unit_sq(tf.convert_to_tensor(v), axes, acc) for _, v in members])
        scale = self._scale(g_sq, w_sq)
        for k in dense:
            with _pairs.colocate(members[k][0]):
                yield k, _pairs.scale_values(members[k][0], scale)

    def _unit_axes(self, grad, name, rank):
        if isinstance(grad, tf.IndexedSlices):
            return tuple(range(1, grad.values.shape.rank)) or None
        return self._axes(name, grad.shape.rank if rank is None else rank)

    def _clip(self, grad, var, axes):
        weights = tf.convert_to_tensor(var)
        acc = _norms.acc_dtype([grad])
        if isinstance(grad, tf.IndexedSlices):
            weights = tf.gather(weights, grad.indices)
        values = _pairs.values(grad)
        scale = self._scale(_unit_sq(values, axes, acc), _unit_sq(weights, axes, acc))
        return _pairs.with_values(grad, _pairs.scale_values(values, scale))

    def _scale(self, g_sq, w_sq):
        g_norm = tf.sqrt(g_sq)
        max_norm = self.clip_factor * tf.maximum(tf.sqrt(w_sq), self.eps)
        return tf.where(g_norm > max_norm, max_norm / tf.maximum(g_norm, 1e-6), tf.ones_like(g_norm))


def _check_weights(pair, i):
    """``TypeError`` naming ``grads_and_vars[i]`` when AGC cannot read the weights of ``pair``."""
    grad, var = pair
    if grad is not None and (var is None or getattr(var, "dtype", None) == tf.resource):
        raise TypeError(
            "`grads_and_vars[%d]`: AGC scales a gradient by the norm of its variable's values, so the "
            "second item must be a variable or a tensor of its values; received %s." % (i, _validate.describe(var))
        )


def _unit_sq(values, axes, dtype):
    """Sums of squares over ``axes`` (all when None), kept as size-1 dims, in ``dtype``."""
    return tf.reduce_sum(tf.square(_norms.cast(values, dtype)), axis=axes, keepdims=True)


_norm_of_norms = _norms.norm_of_norms


class NormRecorder(_StatefulCapper):
    """Records gradient norms around a capper, as tensors and TensorBoard summaries.

    ``NormRecorder(capper)`` is a capper: it applies ``capper`` (or nothing) and exposes,
    for the step: ``pre_clip_norm`` and ``post_clip_norm`` (global norms before and after),
    ``variable_norms`` (``{var.op.name: norm}`` of the pre-clip gradients; a variable in
    several pairs gets the norm of all its gradients), and
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
            _state.check_capper(capper, "capper")
        self.capper = capper
        self.summaries = bool(summaries)
        self.per_variable_summaries = bool(per_variable_summaries)
        self.pre_clip_norm = self.post_clip_norm = self.clip_fraction = None
        self.variable_norms = {}

    def _build_state(self):
        self._variable("steps", tf.constant(0, tf.int64), tf.int64)
        self._variable("clipped_steps", tf.constant(0, tf.int64), tf.int64)

    def _transform(self, pairs):
        by_name = {}
        for g, v in pairs:
            if g is not None:
                by_name.setdefault(_validate.var_name(v).split(":")[0], []).append(clipping.global_norm([(g, v)]))
        self.variable_norms = {name: n[0] if len(n) == 1 else _norm_of_norms(n) for name, n in by_name.items()}
        pre = _norm_of_norms([n for norms in by_name.values() for n in norms])
        out, inner_updates = _state.run_capper(self.capper, pairs) if self.capper is not None else (pairs, [])
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
