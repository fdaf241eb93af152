"""Cappers: callables from a list of ``(gradient, variable)`` pairs to a new list.

A capper is what contrib called a ``transform_grads_fn``. Any plain function
with that contract is one; the factories here build cappers from the clipping
functions, and ``chain`` composes several into one.
"""

from typing import Any, Callable, List, Optional, Sequence, Tuple

from tf1clip import clipping
from tf1clip._tf import tf

Pairs = List[Tuple[Any, Any]]

__all__ = [
    "STATE_UPDATES",
    "attach_state_updates",
    "run_capper",
    "defer_state_update",
    "clip_by_value_fn",
    "clip_by_norm_fn",
    "clip_by_average_norm_fn",
    "clip_by_global_norm_fn",
    "chain",
]


STATE_UPDATES = "tf1clip_state_updates"
"""Graph collection of pending state-update builders of stateful cappers (Session graphs)."""


class _EagerKey(object):
    """Stands for "no graph" where per-graph state is kept (eager execution)."""


_EAGER = _EagerKey()


def _graph_key():
    """The key of per-graph state: the Session graph, or _EAGER outside any graph."""
    if tf.compat.v1.executing_eagerly_outside_functions():
        return _EAGER
    graph = tf.compat.v1.get_default_graph()
    while getattr(graph, "building_function", False) and getattr(graph, "outer_graph", None) is not None:
        graph = graph.outer_graph
    return graph


def _building_session_graph():
    if tf.executing_eagerly():
        return False
    return not getattr(tf.compat.v1.get_default_graph(), "building_function", False)


def defer_state_update(build_update: Callable[[], Any]) -> Any:
    """Runs ``build_update()`` (which creates a stateful capper's update ops) at the right time.

    In eager mode and inside ``tf.function`` the update is built now: it then runs
    exactly once per call, after the reads made before it. In a Session graph it is
    kept in the ``STATE_UPDATES`` collection until ``attach_state_updates`` builds it
    after the step's apply op, so that evaluating the clipped gradients on their own
    never advances the state.
    """
    if _building_session_graph():
        tf.compat.v1.add_to_collection(STATE_UPDATES, build_update)
        return None
    return build_update()


def attach_state_updates(train_op: Any, name: Optional[str] = None, updates: Sequence[Callable[[], Any]] = ()) -> Any:
    """Returns ``train_op`` extended with the pending updates of stateful cappers.

    The tf1clip decorators and ``tf1clip.contrib`` train-op builders do this
    themselves. Call it when you apply the output of a stateful capper (such as
    ``AutoClip``, ``ZClip`` or ``NormRecorder``) with a plain optimizer::

        clipped = autoclip(optimizer.compute_gradients(loss))
        train_op = tf1clip.attach_state_updates(optimizer.apply_gradients(clipped))

    or, with the explicit protocol::

        clipped, updates = tf1clip.run_capper(autoclip, optimizer.compute_gradients(loss))
        train_op = tf1clip.attach_state_updates(optimizer.apply_gradients(clipped), updates=updates)

    ``updates`` (from ``run_capper``) and the updates pending in the graph's
    ``STATE_UPDATES`` collection are built after ``train_op`` (so after the
    variables were updated), once per run of the returned op. Pending updates
    are consumed: each is attached once. Without updates ``train_op`` is
    returned unchanged. A stateful capper called again while its previous
    update is still pending raises ``RuntimeError``.

    Raises:
      TypeError: ``train_op`` is not an ``Operation``/``Tensor`` (or None), or
        ``updates`` is not a sequence of callables.
    """
    if train_op is not None and not isinstance(train_op, (tf.Operation, tf.Tensor)) and not tf.executing_eagerly():
        raise TypeError(
            "`train_op` must be a tf.Operation or tf.Tensor (e.g. the result of "
            "optimizer.apply_gradients); received %s." % clipping._describe(train_op)
        )
    if isinstance(updates, (str, bytes)) or not all(callable(u) for u in updates):
        raise TypeError(
            "`updates` must be a list of zero-argument callables (from run_capper); received %s."
            % clipping._describe(updates)
        )
    if train_op is None or tf.executing_eagerly():
        for build in updates:
            build()
        return train_op
    graph = train_op.graph
    pending = graph.get_collection_ref(STATE_UPDATES)
    builders = list(updates) + list(pending)
    del pending[:]
    if not builders:
        return train_op
    with graph.as_default():
        return _run_after(train_op, builders, name=name)


def run_capper(
    capper: Callable, pairs: Sequence[Tuple[Any, Any]], label: Optional[str] = None
) -> Tuple[Pairs, List[Callable[[], Any]]]:
    """Runs ``capper`` on ``pairs``; returns ``(pairs, updates)``.

    ``updates`` lists zero-arg builders of the capper's state updates, to be
    built after (control-dependent on) the apply, and only when the step is
    applied; the caller owns them (nothing is left pending). A capper with a
    ``transform_with_state(pairs) -> (pairs, update_or_None)`` method is run
    through it; any other callable is called, and the updates the stateful
    cappers inside it deferred (``defer_state_update``) are collected. The
    result is checked as by ``apply_capper``.
    """
    label = label or _capper_name(capper)
    with_state = getattr(capper, "transform_with_state", None)
    if with_state is not None:
        result, update = with_state(list(pairs))
        return _check_result(result, pairs, label), [] if update is None else [update]
    if not _building_session_graph():
        return apply_capper(capper, pairs, label), []
    pending = tf.compat.v1.get_default_graph().get_collection_ref(STATE_UPDATES)
    start = len(pending)
    result = apply_capper(capper, pairs, label)
    # Taken now: under a strategy other replicas' cappers add theirs too.
    updates = pending[start:]
    del pending[start:]
    return result, updates


def _run_after(train_op, builders, name=None):
    """Builds each of ``builders`` under a control dependency on ``train_op``; groups all."""
    if not builders:
        return train_op
    with tf.control_dependencies([train_op]):
        updates = [build() for build in builders]
        return tf.group(train_op, *[u for u in updates if u is not None], name=name)


def _capper_name(capper):
    return getattr(capper, "__qualname__", None) or getattr(capper, "__name__", None) or repr(capper)


_KEEPS_FINITE = "_tf1clip_keeps_finite"


def keeps_finite(capper):
    """True if ``capper``'s output is finite whenever the global norm of its input is.

    Set on the cappers ``clip_by_global_norm_fn`` and ``clip_by_value_fn`` make
    when their limits are known at construction: every output element is then
    bounded by finite numbers. A policy's fast check may skip norming their output.
    """
    return getattr(capper, _KEEPS_FINITE, False) is True


def _check_capper(capper, arg):
    if not callable(capper):
        raise TypeError(
            "`%s` must be a callable taking and returning a list of (gradient, "
            "variable) pairs; received %s." % (arg, clipping._describe(capper))
        )
    return capper


def apply_capper(capper: Callable, pairs: Sequence[Tuple[Any, Any]], label: Optional[str] = None) -> Pairs:
    """Calls ``capper(pairs)`` and checks it returned the same variables in order.

    Raises ``TypeError`` when the result is not a list of pairs and
    ``ValueError`` when a variable was dropped, added or reordered, naming the
    capper (or ``label``, e.g. the argument it was passed as).
    """
    label = label or _capper_name(capper)
    return _check_result(capper(list(pairs)), pairs, label)


def _check_result(result, pairs, label):
    try:
        result = clipping._check_pairs(result, arg="the result of %s" % label)
    except TypeError as err:
        raise TypeError("%s A capper must return a list of (gradient, variable) pairs." % err) from None
    if len(result) != len(pairs) or any(new_var is not old_var for (_, new_var), (_, old_var) in zip(result, pairs)):
        before = [clipping._var_name(v) for _, v in pairs]
        after = [clipping._var_name(v) for _, v in result]
        raise ValueError(
            "%s must return the same variables in the same order; it received "
            "%s and returned %s." % (label, before, after)
        )
    return result


def clip_by_value_fn(clip_value_min: Any, clip_value_max: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_value``; bounds are checked now."""
    low = clipping._check_bound(clip_value_min, "clip_value_min")
    high = clipping._check_bound(clip_value_max, "clip_value_max")
    clipping.clip_by_value([], clip_value_min, clip_value_max)

    def capper(grads_and_vars):
        return clipping.clip_by_value(grads_and_vars, clip_value_min, clip_value_max, name=name)

    capper.__qualname__ = "clip_by_value_fn(%r, %r)" % (clip_value_min, clip_value_max)
    setattr(capper, _KEEPS_FINITE, low is not None and high is not None)
    return capper


def clip_by_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_norm`` (each tensor on its own)."""
    clipping._check_clip_norm(clip_norm)

    def capper(grads_and_vars):
        return clipping.clip_by_norm(grads_and_vars, clip_norm, name=name)

    capper.__qualname__ = "clip_by_norm_fn(%r)" % (clip_norm,)
    return capper


def clip_by_average_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_average_norm``."""
    clipping._check_clip_norm(clip_norm)

    def capper(grads_and_vars):
        return clipping.clip_by_average_norm(grads_and_vars, clip_norm, name=name)

    capper.__qualname__ = "clip_by_average_norm_fn(%r)" % (clip_norm,)
    return capper


def clip_by_global_norm_fn(clip_norm: Any, name: Optional[str] = None) -> Callable:
    """Returns a capper applying ``tf1clip.clip_by_global_norm`` (the norm is dropped)."""
    static, _ = clipping._check_clip_norm(clip_norm)

    def capper(grads_and_vars):
        return clipping.clip_by_global_norm(grads_and_vars, clip_norm, name=name)[0]

    capper.__qualname__ = "clip_by_global_norm_fn(%r)" % (clip_norm,)
    setattr(capper, _KEEPS_FINITE, static is not None)
    return capper


class _Chain(object):
    """The capper ``chain`` returns (see there)."""

    def __init__(self, cappers):
        self.cappers = cappers
        self.__qualname__ = "chain(%s)" % ", ".join(_capper_name(c) for c in cappers)

    def transform_with_state(self, grads_and_vars):
        """Runs each capper in order; the update builds every stateful capper's update."""
        pairs = clipping._check_pairs(grads_and_vars)
        updates = []
        for capper in self.cappers:
            pairs, more = run_capper(capper, pairs)
            updates.extend(more)
        if not updates:
            return pairs, None

        def update():
            built = [build() for build in updates]
            return tf.group(*[u for u in built if u is not None])

        return pairs, update

    def __call__(self, grads_and_vars):
        pairs, update = self.transform_with_state(grads_and_vars)
        if update is not None:
            defer_state_update(update)
        return pairs


def chain(*cappers: Callable) -> Callable:
    """Returns a capper that applies ``cappers`` in order, like optax's ``chain``.

    Example: ``chain(clip_by_value_fn(-1, 1), clip_by_global_norm_fn(5.0))``.
    Each step's result is checked to keep the variables and their order. The
    stateful cappers in it update their state after the apply, in order.
    """
    for i, capper in enumerate(cappers):
        _check_capper(capper, "cappers[%d]" % i)
    return _Chain(cappers)
