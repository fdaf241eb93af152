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
import inspect
import weakref

from tf1clip import cappers as _cappers
from tf1clip import clipping
from tf1clip._tf import tf

__all__ = [
    "transform_gradients",
    "clip_gradients_by_norm",
    "TransformGradientsOptimizer",
    "GradientNorms",
]

_V1Optimizer = tf.compat.v1.train.Optimizer
_LossScaleOptimizer = tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer

_NONFINITE_POLICIES = ("nan", "skip", "raise")
_CLIP_STAGES = ("aggregated", "per_replica")
_NORM_TAGS = ("global_norm/gradient_norm", "global_norm/clipped_gradient_norm")

GradientNorms = collections.namedtuple("GradientNorms", ["before", "after"])
GradientNorms.__doc__ = """The global norms of one step: ``before`` and ``after`` the capper (0-d tensors)."""


def _check_optimizer(optimizer, arg="optimizer"):
    if isinstance(optimizer, _V1Optimizer):
        return optimizer
    if isinstance(optimizer, type) and issubclass(optimizer, _V1Optimizer):
        hint = " Pass an instance, e.g. %s(learning_rate=0.001), not the class." % optimizer.__name__
    elif hasattr(optimizer, "apply_gradients") and hasattr(optimizer, "build"):
        hint = (
            " This is a Keras optimizer; give it clipnorm= / global_clipnorm= / "
            "clipvalue=, or use a tf.compat.v1.train optimizer here."
        )
    else:
        hint = ""
    raise TypeError(
        "`%s` must be a tf.compat.v1.train.Optimizer instance (e.g. "
        "tf.compat.v1.train.AdamOptimizer(0.001)); received %s.%s"
        % (arg, clipping._describe(optimizer), hint)
    )


def _check_choice(value, choices, arg):
    if not isinstance(value, str):
        raise TypeError(
            "`%s` must be one of %s; received %s."
            % (arg, ", ".join(repr(c) for c in choices), clipping._describe(value))
        )
    if value not in choices:
        raise ValueError(
            "`%s` must be one of %s; received %r." % (arg, ", ".join(repr(c) for c in choices), value)
        )
    return value


def _check_report_norms(value):
    if value is True or value is False or (isinstance(value, str) and value == "summaries"):
        return value
    error = ValueError if isinstance(value, str) else TypeError
    raise error(
        "`report_norms` must be False, True or 'summaries'; received %s." % clipping._describe(value)
    )


# --- tf.distribute helpers -----------------------------------------------------


def _replica_context():
    """The replica context of a non-default strategy, else None."""
    if not tf.distribute.has_strategy() or tf.distribute.in_cross_replica_context():
        return None
    return tf.distribute.get_replica_context()


def _replica_id(ctx):
    """The replica id as a Python int when known statically, else a tensor."""
    rid = ctx.replica_id_in_sync_group
    static = tf.get_static_value(rid)
    return rid if static is None else int(static)


def _present_indices(pairs):
    return [i for i, (g, _) in enumerate(pairs) if g is not None]


def _sum_over_replicas(ctx, values):
    """Each replica's ``values`` summed over the replicas (the sum on every replica).

    ``ReplicaContext.all_reduce`` is not used: to make the sum differentiable it
    wraps dense values in a ``custom_gradient``, which in a Session graph looks
    the variables behind them up by name and fails on a replica's component
    (``w/replica_1``). The gradients summed here are never differentiated.
    """

    def batch_sum(strategy, *per_replica):
        return strategy.extended.batch_reduce_to(
            tf.distribute.ReduceOp.SUM, [(v, v) for v in per_replica]
        )

    return list(ctx.merge_call(batch_sum, args=tuple(values)))


def _all_reduce_sum(ctx, pairs):
    """Sums every gradient over the replicas; each replica gets the sum."""
    idx = _present_indices(pairs)
    if not idx:
        return pairs
    summed = _sum_over_replicas(ctx, [pairs[i][0] for i in idx])
    out = list(pairs)
    for i, grad in zip(idx, summed):
        out[i] = (grad, pairs[i][1])
    return out


def _nothing_like(grad, keep):
    """``grad`` where ``keep`` holds, else a gradient adding nothing to a sum."""
    if isinstance(grad, tf.IndexedSlices):
        if keep is True:
            return grad
        rows = 0 if keep is False else tf.where(keep, tf.shape(grad.indices)[0], 0)
        return tf.IndexedSlices(grad.values[:rows], grad.indices[:rows], grad.dense_shape)
    if keep is True:
        return grad
    if keep is False:
        return tf.zeros_like(grad)
    return tf.where(keep, grad, tf.zeros_like(grad))


def _first_replica_only(ctx, pairs):
    """Replica 0 keeps its gradients, the others send zeros: their SUM is replica 0's."""
    rid = _replica_id(ctx)
    keep = (rid == 0) if isinstance(rid, int) else tf.equal(rid, 0)
    out = []
    for grad, var in pairs:
        if grad is not None:
            with clipping._colocate(grad):
                grad = _nothing_like(grad, keep)
        out.append((grad, var))
    return out


def _accepts_skip_aggregation(optimizer):
    if isinstance(optimizer, TransformGradientsOptimizer):
        return True
    try:
        params = inspect.signature(optimizer.apply_gradients).parameters
    except (TypeError, ValueError):
        return False
    return "skip_gradients_aggregation" in params


def _check_distributed(pairs, global_step):
    """Raises ValueError for a variable a replica-local update would change N times."""
    for grad, var in pairs:
        if grad is not None and not isinstance(var, tf.distribute.DistributedValues):
            raise ValueError(
                "Variable %s was created outside the distribution strategy's scope; "
                "create every trained variable inside `strategy.scope()`."
                % clipping._var_name(var)
            )
    if global_step is not None and not isinstance(global_step, tf.distribute.DistributedValues):
        raise ValueError(
            "`global_step` (%s) was created outside the distribution strategy's scope; "
            "create it inside `strategy.scope()` (e.g. "
            "tf.compat.v1.train.get_or_create_global_step())." % clipping._var_name(global_step)
        )


def _uses_dynamic_loss_scale(optimizer):
    """True if ``optimizer`` is, or wraps, a dynamic MixedPrecisionLossScaleOptimizer."""
    seen = set()
    while id(optimizer) not in seen:
        seen.add(id(optimizer))
        if isinstance(optimizer, _LossScaleOptimizer):
            return optimizer._doing_dynamic_loss_scaling()
        if isinstance(optimizer, TransformGradientsOptimizer):
            optimizer = optimizer.optimizer
            continue
        return False
    return False


# --- non-finite checks ----------------------------------------------------------


def _finite_flags(pairs):
    flags = []
    for grad, _ in pairs:
        if grad is not None:
            with clipping._colocate(grad):
                flags.append(tf.reduce_all(tf.math.is_finite(clipping._values(grad))))
    return flags


def _nonfinite_message(pairs, clipped, capper):
    """Per-check error messages, in the order ``_finite_flags(pairs) + _finite_flags(clipped)``."""
    before = [
        "tf1clip: the gradient of %s holds inf or NaN (on_nonfinite='raise')." % clipping._var_name(v)
        for g, v in pairs
        if g is not None
    ]
    after = [
        "tf1clip: the gradient of %s became inf or NaN in %s although every input gradient "
        "was finite (on_nonfinite='raise'); a global norm may have overflowed."
        % (clipping._var_name(v), _cappers._capper_name(capper))
        for g, v in clipped
        if g is not None
    ]
    return before + after


def _all_true(flags):
    if not flags:
        return tf.constant(True)
    return flags[0] if len(flags) == 1 else tf.reduce_all(tf.stack(flags))


def _gate(pairs, op):
    """The gradients, made to wait for ``op``."""
    out = []
    with tf.control_dependencies([op]):
        for grad, var in pairs:
            if grad is not None:
                with clipping._colocate(grad):
                    if isinstance(grad, tf.IndexedSlices):
                        grad = tf.IndexedSlices(tf.identity(grad.values), grad.indices, grad.dense_shape)
                    else:
                        grad = tf.identity(grad)
            out.append((grad, var))
    return out


def _poison(pairs, finite):
    """Multiplies every gradient by 1 where ``finite`` holds, else by NaN."""
    if not _present_indices(pairs):
        return pairs
    factor = tf.where(finite, tf.constant(1.0), tf.constant(float("nan")))
    return clipping._scale_pairs(pairs, factor)


def _flag_op(op, value):
    with tf.control_dependencies([op]):
        return tf.constant(value)


class TransformGradientsOptimizer(_V1Optimizer):
    """A ``tf.compat.v1.train.Optimizer`` that transforms gradients before applying them.

    ``apply_gradients`` calls the capper once on the pairs it receives, checks
    that it kept the variables and their order, and hands the result to the
    wrapped optimizer. Everything else is the wrapped optimizer's:
    ``compute_gradients``, slots, ``variables()`` and checkpointing (both
    ``tf.compat.v1.train.Saver`` names and ``tf.compat.v1.train.Checkpoint``
    keys are those of the unwrapped optimizer, so checkpoints move freely
    between wrapped and unwrapped code). ``get_name()`` is the wrapper's own.

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
      ``global_step`` are left untouched, and the int64 variable
      ``<name>_skipped_steps`` (``skipped_steps``) is incremented. When a
      dynamic ``MixedPrecisionLossScaleOptimizer`` is wrapped, the step is
      instead handed to it as all-NaN gradients, so that it skips the step
      and lowers the loss scale.
    * ``"raise"``: the step fails with ``tf.errors.InvalidArgumentError``
      naming the first variable whose gradient is not finite; nothing is
      updated.

    Build it with ``transform_gradients`` or ``clip_gradients_by_norm``.
    """

    def __init__(
        self,
        optimizer,
        transform_grads_fn,
        name=None,
        *,
        on_nonfinite="nan",
        clip_stage="aggregated",
        report_norms=False,
    ):
        _check_optimizer(optimizer)
        _cappers._check_capper(transform_grads_fn, "transform_grads_fn")
        if name is not None and (not isinstance(name, str) or not name):
            raise TypeError("`name` must be a non-empty string or None; received %s." % clipping._describe(name))
        self._on_nonfinite = _check_choice(on_nonfinite, _NONFINITE_POLICIES, "on_nonfinite")
        self._clip_stage = _check_choice(clip_stage, _CLIP_STAGES, "clip_stage")
        self._report_norms = _check_report_norms(report_norms)
        super(TransformGradientsOptimizer, self).__init__(
            use_locking=False, name=name or optimizer.get_name()
        )
        self._optimizer = optimizer
        self._transform_grads_fn = transform_grads_fn
        self._skip_counters = weakref.WeakKeyDictionary()
        self._step_norms = weakref.WeakKeyDictionary()
        self._warned_per_replica = False

    @property
    def optimizer(self):
        """The wrapped optimizer."""
        return self._optimizer

    @property
    def transform_grads_fn(self):
        """The capper applied in ``apply_gradients``."""
        return self._transform_grads_fn

    @property
    def on_nonfinite(self):
        """The non-finite policy: ``"nan"``, ``"skip"`` or ``"raise"``."""
        return self._on_nonfinite

    @property
    def clip_stage(self):
        """Where the capper runs under a strategy: ``"aggregated"`` or ``"per_replica"``."""
        return self._clip_stage

    @property
    def skipped_steps_name(self):
        """The name given to the skipped-steps variable: ``get_name() + "_skipped_steps"``."""
        return self.get_name() + "_skipped_steps"

    @property
    def skipped_steps(self):
        """The int64 variable counting skipped steps in the default graph.

        Raises:
          ValueError: the policy is not ``"skip"``.
          RuntimeError: no step was built in this graph yet.
        """
        if self._on_nonfinite != "skip":
            raise ValueError(
                "skipped_steps exists only with on_nonfinite='skip'; this wrapper has "
                "on_nonfinite=%r." % self._on_nonfinite
            )
        counter = self._skip_counters.get(_cappers._graph_key())
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
            norms = self._step_norms.get(_cappers._EAGER)
        if norms is None:
            raise RuntimeError(
                "No step was built in this graph yet: call minimize() or apply_gradients() "
                "first. (When a MixedPrecisionLossScaleOptimizer wraps this wrapper, the step "
                "is built inside its conditional; wrap the loss-scale optimizer instead.)"
            )
        return norms

    def compute_gradients(self, *args, **kwargs):
        """Forwards to the wrapped optimizer's ``compute_gradients``."""
        return self._optimizer.compute_gradients(*args, **kwargs)

    @tf.autograph.experimental.do_not_convert
    def apply_gradients(self, grads_and_vars, global_step=None, name=None, **kwargs):
        """Transforms ``grads_and_vars`` with the capper, then applies them.

        ``global_step``, ``name`` and any further keyword go to the wrapped
        optimizer. ``skip_gradients_aggregation=True`` says the gradients are
        already summed over the replicas: the capper then runs on them as
        they are and the keyword is passed on.
        """
        pairs = clipping._check_pairs(grads_and_vars)
        ctx = _replica_context()
        replicated = ctx is not None and not kwargs.get("skip_gradients_aggregation")
        policy = self._on_nonfinite
        # A dynamic loss scale must see every overflow, whatever the capper
        # makes of it: non-finite steps reach it as all-NaN gradients.
        poison = policy != "raise" and _uses_dynamic_loss_scale(self._optimizer)
        per_replica = replicated and self._clip_stage == "per_replica"
        # Under a strategy the gradients are summed here, once, and handed on
        # summed; per-replica capping leaves the sum to the wrapped optimizer
        # unless skipping needs every replica to take the same branch.
        summed = replicated and (not per_replica or (policy == "skip" and not poison))
        if per_replica:
            self._warn_per_replica(ctx)
        if summed and not per_replica:
            pairs = _all_reduce_sum(ctx, pairs)
        clipped, state_updates = self._transform(pairs)
        if self._report_norms:
            self._record_norms(ctx, pairs, clipped)
        finite = None
        if policy != "nan" or poison:
            finite, clipped = self._check_finite(pairs, clipped, ctx if per_replica else None)
        if summed and per_replica:
            clipped = _all_reduce_sum(ctx, clipped)
        if poison:
            clipped = _poison(clipped, finite)
        inner_kwargs = dict(kwargs)
        if summed:
            local_apply = policy == "skip" and not poison
            clipped = self._hand_over_summed(ctx, clipped, global_step, inner_kwargs, local_apply)

        def apply(step=global_step):
            return self._optimizer.apply_gradients(clipped, global_step=step, name=name, **inner_kwargs)

        if policy != "skip":
            train_op = apply()
        elif poison:
            counter = self._skip_counter(pairs)
            with tf.control_dependencies([apply()]):
                train_op = counter.assign_add(tf.cast(tf.logical_not(finite), tf.int64), read_value=False)
        else:
            train_op = self._apply_if_finite(finite, apply, global_step, self._skip_counter(pairs))
        return _cappers._run_after(train_op, state_updates)

    def _transform(self, pairs):
        """Runs the capper; returns its pairs and the state updates it deferred."""
        pending = tf.compat.v1.get_default_graph().get_collection_ref(_cappers.STATE_UPDATES)
        start = len(pending)
        clipped = _cappers.apply_capper(self._transform_grads_fn, pairs)
        # Taken now: under a strategy other replicas' cappers add theirs too.
        state_updates = pending[start:]
        del pending[start:]
        return clipped, state_updates

    def _check_finite(self, pairs, clipped, ctx):
        """Returns (all finite?, gradients to apply); ``ctx`` makes replicas agree."""
        with tf.name_scope("check_finite"):
            flags = _finite_flags(pairs)
            if self._on_nonfinite != "nan":
                flags += _finite_flags(clipped)
            finite = _all_true(flags)
            if self._on_nonfinite == "raise":
                clipped = _gate(clipped, self._assert_finite(flags, finite, pairs, clipped))
            elif ctx is not None and self._on_nonfinite == "skip":
                (bad,) = _sum_over_replicas(ctx, [tf.cast(tf.logical_not(finite), tf.float32)])
                finite = tf.equal(bad, 0.0)
        return finite, clipped

    def _hand_over_summed(self, ctx, pairs, global_step, inner_kwargs, needs_local_apply):
        """Makes the wrapped optimizer apply already-summed gradients once."""
        if _accepts_skip_aggregation(self._optimizer):
            if ctx.num_replicas_in_sync > 1:
                _check_distributed(pairs, global_step)
            inner_kwargs["skip_gradients_aggregation"] = True
            return pairs
        if needs_local_apply:
            raise ValueError(
                "on_nonfinite='skip' under a tf.distribute strategy needs a wrapped optimizer "
                "whose apply_gradients accepts skip_gradients_aggregation (every "
                "tf.compat.v1.train optimizer does) or a dynamic "
                "MixedPrecisionLossScaleOptimizer; received %s." % type(self._optimizer).__name__
            )
        return _first_replica_only(ctx, pairs)

    def _apply_if_finite(self, finite, apply, global_step, counter):
        """``apply()`` if ``finite``, else counts the step; steps ``global_step`` if applied."""
        graph = None if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
        scope = "" if graph is None else graph.get_name_scope()
        train_ops = [] if graph is None else list(graph.get_collection(tf.compat.v1.GraphKeys.TRAIN_OP))

        def applied():
            # The branch runs in the caller's name scope, so that variables the
            # wrapped optimizer creates there keep their unwrapped names.
            if graph is None:
                return _flag_op(apply(step=None), True)
            with tf.compat.v1.get_default_graph().name_scope(scope + "/" if scope else ""):
                return _flag_op(apply(step=None), True)

        def skipped():
            return _flag_op(counter.assign_add(1, read_value=False), False)

        # global_step is stepped outside the conditional: under a strategy its
        # update is a cross-replica call, which cannot sit in a branch.
        did_apply = tf.compat.v1.cond(finite, applied, skipped, name="apply_if_finite")
        if global_step is None:
            train_op = tf.group(did_apply)
        else:
            with tf.control_dependencies([did_apply]):
                step = tf.cast(did_apply, global_step.dtype.base_dtype)
                train_op = tf.group(global_step.assign_add(step, read_value=False))
        if graph is not None:
            # The wrapped optimizer's op sits inside the conditional: list ours instead.
            graph.get_collection_ref(tf.compat.v1.GraphKeys.TRAIN_OP)[:] = train_ops + [train_op]
        return train_op

    def _assert_finite(self, flags, finite, pairs, clipped):
        messages = _nonfinite_message(pairs, clipped, self._transform_grads_fn)
        first = tf.argmin(tf.cast(tf.stack(flags), tf.int32), output_type=tf.int32)
        return tf.debugging.Assert(finite, [tf.gather(tf.constant(messages), first)], name="assert_finite")

    def _skip_counter(self, pairs):
        """The skipped-steps variable of this graph, created on first use."""
        present = [v for g, v in pairs if g is not None] or [v for _, v in pairs]
        colocate = present[0] if present else None
        graph = _cappers._graph_key()
        counter = self._skip_counters.get(graph)
        if counter is not None:
            return counter
        with tf.init_scope():
            if colocate is None:
                counter = self._new_counter()
            else:
                with tf.distribute.get_strategy().extended.colocate_vars_with(colocate):
                    counter = self._new_counter()
        self._skip_counters[graph] = counter
        self._handle_deferred_dependencies(name=self.skipped_steps_name, trackable=counter)
        return counter

    def _new_counter(self):
        return tf.compat.v1.Variable(
            0, dtype=tf.int64, trainable=False, name=self.skipped_steps_name
        )

    def _record_norms(self, ctx, before, after):
        if ctx is not None and _replica_id(ctx) != 0:
            return
        with tf.name_scope("gradient_norms"):
            norms = GradientNorms(
                clipping.global_norm(before, name="before"), clipping.global_norm(after, name="after")
            )
        key = _cappers._EAGER if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
        self._step_norms[key] = norms
        if self._report_norms == "summaries":
            for tag, value in zip(_NORM_TAGS, norms):
                tf.compat.v1.summary.scalar(tag, value)

    def _warn_per_replica(self, ctx):
        if self._warned_per_replica or ctx.num_replicas_in_sync <= 1:
            return
        self._warned_per_replica = True
        tf.compat.v1.logging.warning(
            "tf1clip: %s applies its capper to each replica's gradients before they are "
            "summed (clip_stage='per_replica', contrib's behaviour) over %d replicas; the "
            "update differs from one device on the whole batch. Use "
            "clip_stage='aggregated' to cap the summed gradients.",
            self.get_name(),
            ctx.num_replicas_in_sync,
        )

    def get_slot(self, *args, **kwargs):
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._optimizer.get_slot_names(*args, **kwargs)

    def _own_variables(self):
        counter = self._skip_counters.get(_cappers._graph_key())
        return {} if counter is None else {self.skipped_steps_name: counter}

    def variables(self):
        """The wrapped optimizer's variables (contrib's wrapper returned []).

        With ``on_nonfinite="skip"`` the skipped-steps counter is added.
        """
        return self._optimizer.variables() + list(self._own_variables().values())

    # Object-based checkpointing: present the wrapped optimizer's dependencies
    # as this object's own, so checkpoint keys match the unwrapped optimizer.
    def _trackable_children(self, *args, **kwargs):
        children = self._optimizer._trackable_children(*args, **kwargs)
        own = self._own_variables()
        if own:
            children = dict(children)
            children.update(own)
        return children

    def _lookup_dependency(self, name, *args, **kwargs):
        own = self._own_variables().get(name)
        if own is not None:
            return own
        return self._optimizer._lookup_dependency(name, *args, **kwargs)

    @property
    def _deferred_dependencies(self):
        self._optimizer._maybe_initialize_trackable()
        return self._optimizer._deferred_dependencies

    def _create_or_restore_slot_variable(self, *args, **kwargs):
        return self._optimizer._create_or_restore_slot_variable(*args, **kwargs)

    def _restore_slot_variable(self, *args, **kwargs):
        return self._optimizer._restore_slot_variable(*args, **kwargs)


def transform_gradients(
    optimizer,
    transform_grads_fn,
    name=None,
    *,
    on_nonfinite="nan",
    clip_stage="aggregated",
    report_norms=False,
):
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
        ``report_norms`` value.
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
    optimizer,
    clip_norm,
    *,
    on_nonfinite="nan",
    clip_stage="aggregated",
    report_norms=False,
):
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
    _check_optimizer(optimizer)
    return TransformGradientsOptimizer(
        optimizer,
        _cappers.clip_by_global_norm_fn(clip_norm),
        name="ClipByNorm" + optimizer.get_name(),
        on_nonfinite=on_nonfinite,
        clip_stage=clip_stage,
        report_norms=report_norms,
    )
