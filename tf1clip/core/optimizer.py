"""Optimizer decorators: wrap any ``tf.compat.v1.train.Optimizer`` with a capper.

Besides running the capper, the wrapper decides three things contrib never did:

* where the capper runs under ``tf.distribute`` (``clip_stage``): on the
  gradients summed over the replicas (default) or on each replica's share;
* what a non-finite gradient does (``on_nonfinite``): NaN update (default),
  skipped step, or an error naming the variable;
* whether the step's global norms before and after the capper are exposed
  (``report_norms``), as tensors and optionally as summaries.
"""

import collections
import contextlib
import functools
import threading
import weakref
from typing import Any, Callable, Optional, Union

from tf1clip.core import _aggregate, _delegate, _graphs, _policies, _state, _validate, cappers, clipping
from tf1clip.compat import _tf
from tf1clip.compat._tf import tf

__all__ = [
    "transform_gradients",
    "clip_gradients_by_norm",
    "TransformGradientsOptimizer",
    "GradientNorms",
]

_LossScaleOptimizer = tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer

_CLIP_STAGES = ("aggregated", "per_replica")
_NORM_TAGS = ("global_norm/gradient_norm", "global_norm/clipped_gradient_norm")

GradientNorms = collections.namedtuple("GradientNorms", ["before", "after"])
GradientNorms.__doc__ = """The global norms of one step: ``before`` and ``after`` the capper (0-d tensors)."""


def _check_choice(value, choices, arg):
    if not isinstance(value, str):
        raise TypeError(
            "`%s` must be one of %s; received %s."
            % (arg, ", ".join(repr(c) for c in choices), _validate.describe(value))
        )
    if value not in choices:
        raise ValueError("`%s` must be one of %s; received %r." % (arg, ", ".join(repr(c) for c in choices), value))
    return value


def _check_report_norms(value):
    if value is True or value is False or (isinstance(value, str) and value == "summaries"):
        return value
    error = ValueError if isinstance(value, str) else TypeError
    raise error("`report_norms` must be False, True or 'summaries'; received %s." % _validate.describe(value))


def _handler(optimizer):
    """The optimizer that handles non-finite steps for ``optimizer`` (which must then see them as NaN), or None.

    That is a dynamic ``MixedPrecisionLossScaleOptimizer`` or a tf1clip wrapper
    whose policy is not ``"nan"``, directly or under tf1clip ``"nan"`` wrappers.
    """
    seen = set()
    while id(optimizer) not in seen:
        seen.add(id(optimizer))
        if isinstance(optimizer, _LossScaleOptimizer):
            return optimizer if _tf.lso_is_dynamic(optimizer) else None
        if not isinstance(optimizer, TransformGradientsOptimizer):
            return None
        if optimizer.on_nonfinite != "nan":
            return optimizer
        optimizer = optimizer.optimizer
    return None


# The ops SyncReplicasOptimizer's gradient accumulators hand their aggregated gradients out of.
_TAKE_GRADIENT_OPS = frozenset(
    ["AccumulatorTakeGradient", "ResourceAccumulatorTakeGradient", "SparseAccumulatorTakeGradient"]
)
_SYNC_STEP = threading.local()


def _sync_replicas_step(pairs):
    """True when these gradients are a ``SyncReplicasOptimizer``'s aggregated ones.

    They come straight out of its accumulators' take-gradient ops, or an
    enclosing tf1clip wrapper's ``apply_gradients`` received such gradients.
    """
    if getattr(_SYNC_STEP, "depth", 0):
        return True
    for grad, _ in pairs:
        tensor = grad.indices if isinstance(grad, tf.IndexedSlices) else grad
        if getattr(getattr(tensor, "op", None), "type", None) in _TAKE_GRADIENT_OPS:
            return True
    return False


@contextlib.contextmanager
def _sync_replicas_scope(active):
    """Marks the wrapped optimizer's apply as part of a ``SyncReplicasOptimizer`` step when ``active``."""
    _SYNC_STEP.depth = getattr(_SYNC_STEP, "depth", 0) + int(active)
    try:
        yield
    finally:
        _SYNC_STEP.depth -= int(active)


def _step_advance(global_step, sync, handler):
    """Builds the ``global_step`` increment of a skipped step, or None.

    Only in a ``SyncReplicasOptimizer`` step, where the chief's accumulators
    count every aggregated step and the replicas' tokens are the global step:
    a skipped step that left it put would make every later gradient stale.
    An inner tf1clip wrapper that skips the step advances it itself.
    """
    if not sync or global_step is None or isinstance(handler, TransformGradientsOptimizer):
        return None
    return lambda: global_step.assign_add(tf.ones([], global_step.dtype.base_dtype), read_value=False)


def _check_nesting(optimizer, policy):
    inner = optimizer
    while isinstance(inner, TransformGradientsOptimizer):
        inner = inner.optimizer
    if policy != "nan" and isinstance(inner, tf.compat.v1.train.SyncReplicasOptimizer):
        reason = (
            "a skipped step would leave its token queues unserved"
            if policy == "skip"
            else "the check would also gate the chief's queue runner, which cannot evaluate the replica's gradients"
        )
        raise ValueError(
            "on_nonfinite=%r cannot wrap a SyncReplicasOptimizer: %s. Nest the other way: "
            "tf.compat.v1.train.SyncReplicasOptimizer(tf1clip.clip_gradients_by_norm(opt, c, "
            "on_nonfinite=%r), ...)." % (policy, reason, policy)
        )


class TransformGradientsOptimizer(_delegate.DelegatingOptimizer):
    """A ``tf.compat.v1.train.Optimizer`` that transforms gradients before applying them.

    ``apply_gradients`` calls the capper once on the pairs it receives, checks
    that it kept the variables and their order, and hands the result to the
    wrapped optimizer. Everything else is the wrapped optimizer's:
    ``compute_gradients``, slots, ``variables()`` and checkpointing (both
    ``tf.compat.v1.train.Saver`` names and ``tf.compat.v1.train.Checkpoint``
    keys are those of the unwrapped optimizer, so checkpoints move freely
    between wrapped and unwrapped code), and every public attribute the
    wrapper does not define itself (``swapping_saver``,
    ``make_session_run_hook``...). ``get_name()`` is the wrapper's own.

    Under a ``tf.distribute`` strategy (``call_for_each_replica``) with
    ``clip_stage="aggregated"``, the gradients are summed over the replicas
    first, the capper sees the sum, and the wrapped optimizer applies the
    result once, without summing again: the update is the one a single device
    would make on the whole batch. ``clip_stage="per_replica"`` keeps
    contrib's behaviour (each replica's share capped, then summed).

    ``on_nonfinite`` decides what a step with an inf or NaN gradient does
    (checked after aggregation, before and after the capper):

    * ``"nan"``: nothing special; the capper's output is applied as is (a
      global-norm capper turns every gradient into NaN, which a loss-scale
      optimizer recognises as overflow). No extra op, no extra variable.
    * ``"skip"``: the wrapped optimizer's whole update is skipped: weights,
      slots, non-slot variables (Adam's ``beta1_power``...) and
      ``global_step`` are left untouched (inside a ``SyncReplicasOptimizer``
      ``global_step`` still advances), and the int64 variable
      ``<name>_skipped_steps`` (``skipped_steps``, a local variable) is
      incremented; stateful cappers' state is left as well.
    * ``"raise"``: the step fails with ``tf.errors.InvalidArgumentError``
      naming the first variable whose gradient is not finite; nothing is
      updated.

    When the wrapped optimizer handles non-finite steps itself (a dynamic
    ``MixedPrecisionLossScaleOptimizer``, or a tf1clip wrapper whose policy is
    not ``"nan"``), a step whose input gradients are not finite is handed to
    it as all-NaN gradients whatever the capper made of them (with ``"skip"``
    it is also counted here). ``"skip"`` and ``"raise"`` around a
    ``SyncReplicasOptimizer`` are refused (nest the other way). Inside one
    (the gradients come from its accumulators), a skipped step still advances
    ``global_step``, so that the replicas' tokens stay current.

    Build it with ``transform_gradients`` or ``clip_gradients_by_norm``.
    """

    def __init__(
        self,
        optimizer: Any,
        transform_grads_fn: Callable,
        name: Optional[str] = None,
        *,
        on_nonfinite: str = "nan",
        clip_stage: str = "aggregated",
        report_norms: Union[bool, str] = False,
    ) -> None:
        _validate.check_optimizer(optimizer)
        _state.check_capper(transform_grads_fn, "transform_grads_fn")
        if name is not None and (not isinstance(name, str) or not name):
            raise TypeError("`name` must be a non-empty string or None; received %s." % _validate.describe(name))
        self._on_nonfinite = _check_choice(on_nonfinite, tuple(_policies.POLICIES), "on_nonfinite")
        self._clip_stage = _check_choice(clip_stage, _CLIP_STAGES, "clip_stage")
        self._report_norms = _check_report_norms(report_norms)
        _check_nesting(optimizer, on_nonfinite)
        super(TransformGradientsOptimizer, self).__init__(use_locking=False, name=name or optimizer.get_name())
        self._optimizer = optimizer
        self._capper = transform_grads_fn
        self._policy = _policies.POLICIES[on_nonfinite]()
        self._skip_counters: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
        self._step_norms: "weakref.WeakKeyDictionary[Any, GradientNorms]" = weakref.WeakKeyDictionary()
        self._warned_per_replica = False

    _tf1clip_sums_once = True  # apply_gradients takes skip_gradients_aggregation

    @property
    def optimizer(self):
        """The wrapped optimizer."""
        return self._optimizer

    @property
    def capper(self):
        """The capper applied in ``apply_gradients``."""
        return self._capper

    @property
    def transform_grads_fn(self):
        """The capper (``capper``), under the name of contrib's ``transform_grads_fn`` argument."""
        return self._capper

    @property
    def on_nonfinite(self) -> str:
        """The non-finite policy: ``"nan"``, ``"skip"`` or ``"raise"``."""
        return self._on_nonfinite

    @property
    def clip_stage(self) -> str:
        """Where the capper runs under a strategy: ``"aggregated"`` or ``"per_replica"``."""
        return self._clip_stage

    @property
    def skipped_steps_name(self) -> str:
        """The name given to the skipped-steps variable: ``get_name() + "_skipped_steps"``."""
        return self.get_name() + "_skipped_steps"

    @property
    def skipped_steps(self):
        """The int64 variable counting skipped steps in the default graph.

        In a Session graph it is a local variable (``LOCAL_VARIABLES``): not in
        the default ``tf.compat.v1.train.Saver`` list, so that checkpoints move
        between runs with and without ``"skip"``; ``tf.train.Checkpoint`` saves
        it. ``local_variables_initializer()`` initializes it, and so does the
        first skipped step if nothing did.

        Raises:
          ValueError: the policy is not ``"skip"``.
          RuntimeError: no step was built in this graph yet.
        """
        if self._on_nonfinite != "skip":
            raise ValueError(
                "skipped_steps exists only with on_nonfinite='skip'; this wrapper has "
                "on_nonfinite=%r." % self._on_nonfinite
            )
        counter = self._skip_counters.get(_graphs.graph_key())
        if counter is None:
            raise RuntimeError(
                "No step was built in this graph yet: call minimize() or apply_gradients() "
                "before reading skipped_steps."
            )
        return counter

    @property
    def norms(self):
        """``GradientNorms(before, after)`` of the last step built in the default graph.

        The global norms of the gradients the capper received (after
        aggregation under a strategy with ``clip_stage="aggregated"``; replica
        0's share with ``"per_replica"``) and of the gradients it returned.

        Raises:
          ValueError: the wrapper was built without ``report_norms``.
          RuntimeError: no step was built in this graph yet.
        """
        if not self._report_norms:
            raise ValueError("Norms are recorded only with report_norms=True or 'summaries'.")
        norms = self._step_norms.get(tf.compat.v1.get_default_graph())
        if norms is None and tf.executing_eagerly():
            norms = self._step_norms.get(_graphs.EAGER)
        if norms is None:
            raise RuntimeError(
                "No step was built in this graph yet: call minimize() or apply_gradients() "
                "first. (When a MixedPrecisionLossScaleOptimizer wraps this wrapper, the step "
                "is built inside its conditional; wrap the loss-scale optimizer instead.)"
            )
        return norms

    @tf.autograph.experimental.do_not_convert
    def apply_gradients(self, grads_and_vars, global_step=None, name=None, **kwargs):
        """Caps ``grads_and_vars`` with the capper, then applies them.

        In order: validate the pairs (once per step), sum them over the replicas
        (``clip_stage="aggregated"``), cap, take the verdict of the non-finite
        policy, sum the capped gradients (``"per_replica"`` when the policy needs
        every replica on one branch), and apply them through the policy's gate.
        ``global_step``, ``name`` and any further keyword go to the wrapped
        optimizer. ``skip_gradients_aggregation=True`` says the gradients are
        already summed over the replicas: the capper then runs on them as they
        are and the keyword is passed on.
        """
        pairs = _validate.checked_pairs(grads_and_vars)
        handler = _handler(self._optimizer)
        hand_on = handler is not None
        sync = _sync_replicas_step(pairs)
        agg = _aggregate.Aggregation.for_step(self._clip_stage, self._policy, kwargs, hand_on)
        self._warn_per_replica(agg)
        pairs = agg.sum_before(pairs, global_step)
        clipped, updates = _state.run_checked(self._capper, pairs)
        self._record_norms(agg, pairs, clipped)
        check = self._policy.check(pairs, clipped, self._capper, hand_on)
        finite = agg.agree(check.finite() if check is not None and self._policy.needs_verdict else None)
        clipped = agg.sum_after(clipped, global_step)
        if hand_on and finite is not None:
            clipped = _policies.poison(clipped, finite)
        clipped, inner_kwargs = agg.hand_over(self._optimizer, clipped, kwargs)
        apply = functools.partial(
            self._optimizer.apply_gradients, list(clipped), global_step=global_step, name=name, **inner_kwargs
        )
        counter = functools.partial(self._skip_counter, pairs)
        step = _policies.Step(apply, check, finite, updates, counter, _step_advance(global_step, sync, handler))
        with _sync_replicas_scope(sync):
            return self._policy.run(step, hand_on)

    def _skip_counter(self, pairs):
        """The skipped-steps variable of this graph, created on first use."""
        graph = _graphs.graph_key()
        counter = self._skip_counters.get(graph)
        if counter is not None:
            return counter
        present = [v for g, v in pairs if g is not None] or [v for _, v in pairs]
        with tf.init_scope():
            if present:
                with tf.distribute.get_strategy().extended.colocate_vars_with(present[0]):
                    counter = self._new_counter()
            else:
                counter = self._new_counter()
        self._skip_counters[graph] = counter
        _tf.handle_deferred_dependencies(self, self.skipped_steps_name, counter)
        return counter

    def _new_counter(self):
        collections = None
        if not tf.executing_eagerly():
            collections = [tf.compat.v1.GraphKeys.LOCAL_VARIABLES]
        return tf.compat.v1.Variable(
            0, dtype=tf.int64, trainable=False, name=self.skipped_steps_name, collections=collections
        )

    def _record_norms(self, agg, before, after):
        if not self._report_norms or not agg.reports_norms():
            return
        with tf.name_scope("gradient_norms"):
            norms = GradientNorms(
                clipping.global_norm(before, name="before"), clipping.global_norm(after, name="after")
            )
        key = _graphs.EAGER if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
        self._step_norms[key] = norms
        if self._report_norms == "summaries":
            for tag, value in zip(_NORM_TAGS, norms):
                tf.compat.v1.summary.scalar(tag, value)

    def _warn_per_replica(self, agg):
        if self._warned_per_replica or not agg.per_replica or agg.replicas <= 1:
            return
        self._warned_per_replica = True
        tf.compat.v1.logging.warning(
            "tf1clip: %s applies its capper to each replica's gradients before they are "
            "summed (clip_stage='per_replica', contrib's behaviour) over %d replicas; the "
            "update differs from one device on the whole batch. Use "
            "clip_stage='aggregated' to cap the summed gradients.",
            self.get_name(),
            agg.replicas,
        )

    def _own_variables(self):
        counter = self._skip_counters.get(_graphs.graph_key())
        return {} if counter is None else {self.skipped_steps_name: counter}


def transform_gradients(
    optimizer: Any,
    transform_grads_fn: Callable,
    name: Optional[str] = None,
    *,
    on_nonfinite: str = "nan",
    clip_stage: str = "aggregated",
    report_norms: Union[bool, str] = False,
) -> "TransformGradientsOptimizer":
    """Returns ``optimizer`` wrapped so that ``transform_grads_fn`` runs in ``apply_gradients``.

    The capper runs once per step, after the wrapped optimizer's
    ``compute_gradients`` (so after a loss-scale optimizer has unscaled), on
    the pairs passed to ``apply_gradients`` (or built by ``minimize``).

    Example::

        def my_capper(grads_and_vars):
            return [(None if g is None else tf.clip_by_value(g, -1., 1.), v)
                    for g, v in grads_and_vars]

        opt = tf1clip.transform_gradients(
            tf.compat.v1.train.GradientDescentOptimizer(0.1), my_capper)
        train_op = opt.minimize(loss, global_step=global_step)

    Args:
      optimizer: a ``tf.compat.v1.train.Optimizer`` instance.
      transform_grads_fn: a capper, ``pairs -> pairs`` (e.g. from
        ``tf1clip.chain`` or ``tf1clip.clip_by_norm_fn``).
      name: the wrapper's name (default: the wrapped optimizer's name).
      on_nonfinite: ``"nan"`` (default), ``"skip"`` or ``"raise"``: what a
        step with an inf or NaN gradient does (see
        ``TransformGradientsOptimizer``).
      clip_stage: under a ``tf.distribute`` strategy, ``"aggregated"``
        (default) caps the gradients summed over the replicas, as one device
        on the whole batch would; ``"per_replica"`` caps each replica's share
        before the sum (``tf.contrib``'s behaviour).
      report_norms: ``True`` records the step's global norms before and after
        the capper as tensors (``wrapper.norms``); ``"summaries"`` also writes
        them as the scalar summaries ``global_norm/gradient_norm`` and
        ``global_norm/clipped_gradient_norm``.

    Returns:
      A ``TransformGradientsOptimizer``.

    Raises:
      TypeError: ``optimizer`` is not a v1 optimizer instance, or
        ``transform_grads_fn`` is not callable.
      ValueError: an unknown ``on_nonfinite``, ``clip_stage`` or
        ``report_norms`` value, or ``on_nonfinite="skip"`` or ``"raise"``
        around a ``SyncReplicasOptimizer``.
    """
    return TransformGradientsOptimizer(
        optimizer,
        transform_grads_fn,
        name=name,
        on_nonfinite=on_nonfinite,
        clip_stage=clip_stage,
        report_norms=report_norms,
    )


def clip_gradients_by_norm(
    optimizer: Any,
    clip_norm: Any,
    *,
    on_nonfinite: str = "nan",
    clip_stage: str = "aggregated",
    report_norms: Union[bool, str] = False,
) -> "TransformGradientsOptimizer":
    """Returns ``optimizer`` wrapped to clip gradients by their GLOBAL norm.

    This is ``tf.contrib.estimator.clip_gradients_by_norm``: despite its name it
    scales all gradients together so that their global norm is at most
    ``clip_norm`` (``tf1clip.clip_by_global_norm``), as contrib did. For a
    per-tensor limit use ``transform_gradients(opt, tf1clip.clip_by_norm_fn(c))``.
    The wrapper is named ``'ClipByNorm' + optimizer.get_name()``.

    Unlike contrib, under a ``tf.distribute`` strategy the norm is that of the
    gradients summed over the replicas (``clip_stage="aggregated"``).

    Args:
      optimizer: a ``tf.compat.v1.train.Optimizer`` instance.
      clip_norm: the limit on the global norm, > 0: a number or a 0-d tensor.
      on_nonfinite, clip_stage, report_norms: as for ``transform_gradients``.

    Returns:
      A ``TransformGradientsOptimizer``.
    """
    _validate.check_optimizer(optimizer)
    return TransformGradientsOptimizer(
        optimizer,
        cappers.clip_by_global_norm_fn(clip_norm),
        name="ClipByNorm" + optimizer.get_name(),
        on_nonfinite=on_nonfinite,
        clip_stage=clip_stage,
        report_norms=report_norms,
    )
