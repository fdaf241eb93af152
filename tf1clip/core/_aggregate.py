"""Where the wrapper's capper runs under a ``tf.distribute`` strategy (private).

``Aggregation.for_step`` decides, once per ``apply_gradients`` call, whether the
gradients are summed over the replicas before the capper (``"aggregated"``),
after it (``"per_replica"`` with a policy that needs every replica to agree), or
by the wrapped optimizer as usual. The wrapper calls ``sum_before``, runs the
capper, calls ``agree`` on its verdict and calls ``sum_after`` (the one place sums are
made around the capper); ``hand_over`` says how the summed gradients reach the
wrapped optimizer once.
"""

import inspect

from tf1clip.core import _pairs, _validate
from tf1clip.compat._tf import tf


def replica_context():
    """The replica context of a non-default strategy, else None."""
    if not tf.distribute.has_strategy() or tf.distribute.in_cross_replica_context():
        return None
    return tf.distribute.get_replica_context()


def replica_id(ctx):
    """The replica id as a Python int when known statically, else a tensor."""
    rid = ctx.replica_id_in_sync_group
    static = tf.get_static_value(rid)
    return rid if static is None else int(static)


def sum_over_replicas(ctx, values, variables=(), global_step=None):
    """Each replica's ``values`` summed over the replicas (the sum on every replica).

    ``ReplicaContext.all_reduce`` is not used: to make the sum differentiable it
    wraps dense values in a ``custom_gradient``, which in a Session graph looks
    the variables behind them up by name and fails on a replica's component
    (``w/replica_1``). The gradients summed here are never differentiated.

    ``variables`` (one per value, or none) are regrouped over the replicas and
    returned as a second list: a replica's own component (what ``minimize()``
    without ``var_list`` collects for a ``tf.compat.v1.Variable``) comes back as
    its distributed variable; one shared by all replicas is refused.
    """

    def batch_sum(strategy, per_replica, regrouped, step):
        if variables and strategy.num_replicas_in_sync > 1:
            _check_in_scope(regrouped, step)
        summed = strategy.extended.batch_reduce_to(tf.distribute.ReduceOp.SUM, [(v, v) for v in per_replica])
        return summed, list(regrouped)

    summed, regrouped = ctx.merge_call(batch_sum, args=(tuple(values), tuple(variables), global_step))
    return list(summed), list(regrouped)


def _sum_pairs(ctx, pairs, global_step):
    idx = [i for i, (g, _) in enumerate(pairs) if g is not None]
    if not idx:
        return pairs
    summed, variables = sum_over_replicas(ctx, [pairs[i][0] for i in idx], [pairs[i][1] for i in idx], global_step)
    out = list(pairs)
    for i, grad, var in zip(idx, summed, variables):
        out[i] = (grad, var)
    return _validate.CheckedPairs(out)


def _nothing_like(grad, keep):
    """``grad`` where ``keep`` (a bool or a bool tensor) holds, else nothing to add to a sum."""
    if keep is True:
        return grad
    if isinstance(grad, tf.IndexedSlices):
        rows = 0 if keep is False else tf.where(keep, tf.shape(grad.indices)[0], 0)
        return tf.IndexedSlices(grad.values[:rows], grad.indices[:rows], grad.dense_shape)
    return tf.zeros_like(grad) if keep is False else tf.where(keep, grad, tf.zeros_like(grad))


def _first_replica_only(ctx, pairs):
    """Replica 0 keeps its gradients, the others send nothing: their SUM is replica 0's."""
    rid = replica_id(ctx)
    keep = (rid == 0) if isinstance(rid, int) else tf.equal(rid, 0)
    out = []
    for grad, var in pairs:
        if grad is not None:
            with _pairs.colocate(grad):
                grad = _nothing_like(grad, keep)
        out.append((grad, var))
    return out


def _accepts_skip_aggregation(optimizer):
    if getattr(optimizer, "_tf1clip_sums_once", False):
        return True
    try:
        params = inspect.signature(optimizer.apply_gradients).parameters
    except (TypeError, ValueError):
        return False
    return "skip_gradients_aggregation" in params


def _takes_keyword(optimizer):
    """Whether ``optimizer.apply_gradients`` takes ``skip_gradients_aggregation`` (named or as ``**kwargs``)."""
    if _accepts_skip_aggregation(optimizer):
        return True
    try:
        params = inspect.signature(optimizer.apply_gradients).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params)


def _check_in_scope(variables, global_step):
    """Raises ValueError for a variable every replica would update (N times).

    Called in cross-replica context with the replicas' variables regrouped:
    only a variable shared by all replicas comes back as itself.
    """
    for var in variables:
        if not isinstance(var, tf.distribute.DistributedValues):
            raise ValueError(
                "Variable %s was created outside the distribution strategy's scope; "
                "create every trained variable inside `strategy.scope()`." % _validate.var_name(var)
            )
    if global_step is not None and not isinstance(global_step, tf.distribute.DistributedValues):
        raise ValueError(
            "`global_step` (%s) was created outside the distribution strategy's scope; "
            "create it inside `strategy.scope()` (e.g. "
            "tf.compat.v1.train.get_or_create_global_step())." % _validate.var_name(global_step)
        )


def _summed_by_the_caller(optimizer, pairs, kwargs):
    """``pairs`` an enclosing wrapper already summed (``skip_gradients_aggregation``), for ``optimizer``.

    An optimizer whose ``apply_gradients`` cannot take that keyword sums over
    the replicas itself: the keyword is dropped (from ``kwargs``) and it gets
    replica 0's sum, the others nothing.
    """
    if not kwargs.get("skip_gradients_aggregation") or _takes_keyword(optimizer):
        return pairs
    del kwargs["skip_gradients_aggregation"]
    ctx = replica_context()
    return pairs if ctx is None else _first_replica_only(ctx, pairs)


class Aggregation(object):
    """How one ``apply_gradients`` call sums over the replicas.

    ``ctx`` is None outside a strategy (or when the caller already summed:
    ``skip_gradients_aggregation=True``); every step is then the identity.
    """

    def __init__(self, ctx, per_replica, agree):
        self.ctx = ctx
        self.per_replica = ctx is not None and per_replica
        # Summed here (not by the wrapped optimizer): always when aggregated;
        # per replica only when the policy needs every replica on one branch.
        self.sums_here = ctx is not None and (not per_replica or agree)

    @classmethod
    def for_step(cls, clip_stage, policy, kwargs, hand_on):
        ctx = replica_context()
        if kwargs.get("skip_gradients_aggregation"):
            ctx = None
        return cls(ctx, clip_stage == "per_replica", policy.needs_agreement and not hand_on)

    @property
    def replicas(self):
        return 1 if self.ctx is None else self.ctx.num_replicas_in_sync

    def reports_norms(self):
        """Only replica 0 records the step's norms."""
        return self.ctx is None or replica_id(self.ctx) == 0

    def sum_before(self, pairs, global_step):
        """The gradients the capper sees: summed over the replicas with ``"aggregated"``, else as they are."""
        if self.sums_here and not self.per_replica:
            return _sum_pairs(self.ctx, pairs, global_step)
        return pairs

    def sum_after(self, clipped, global_step):
        """The capper's output, summed over the replicas when this step caps each replica's share and sums."""
        if self.sums_here and self.per_replica:
            return _sum_pairs(self.ctx, clipped, global_step)
        return clipped

    def agree(self, verdict):
        """``verdict`` (a bool tensor, or None) made to hold only if it holds on every replica (per-replica capping)."""
        if verdict is None or not self.per_replica:
            return verdict
        (bad,), _ = sum_over_replicas(self.ctx, [tf.cast(tf.logical_not(verdict), tf.float32)])
        return tf.equal(bad, 0.0)

    def hand_over(self, optimizer, pairs, kwargs):
        """Returns (pairs, kwargs) making ``optimizer`` apply already-summed gradients once.

        Each replica applies the sum to its own copy of the variables
        (``skip_gradients_aggregation=True``) when the optimizer accepts it. In a
        function body (a loss-scale optimizer's conditional) a replica-local
        apply would capture the variables' primary handles, which cannot be
        placed with the other replicas' updates; there, and for optimizers
        without the keyword, replica 0 hands on the sum and the others nothing,
        and the optimizer's own cross-replica sum applies it once.
        """
        kwargs = dict(kwargs)
        if not self.sums_here:
            return _summed_by_the_caller(optimizer, pairs, kwargs), kwargs
        in_function = getattr(tf.compat.v1.get_default_graph(), "building_function", False)
        if _accepts_skip_aggregation(optimizer) and not in_function:
            kwargs["skip_gradients_aggregation"] = True
            return pairs, kwargs
        return _first_replica_only(self.ctx, pairs), kwargs
