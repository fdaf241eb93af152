"""The capper state protocol and ``chain`` (re-exported by ``tf1clip.core.cappers``).

A capper is a callable ``pairs -> pairs``, or an object with
``transform_with_state(pairs) -> (pairs, update)``, ``update`` being None or a
zero-argument callable that builds the capper's state update. That method is
the one state protocol: everything in tf1clip runs a capper through
``run_capper``, which returns the updates explicitly, and builds them after the
apply (``run_after``).

A plain call ``capper(pairs)`` of a stateful capper is a thin adapter over it
(``call_deferring``). In a Session graph its update goes to the innermost
``run_capper`` running in this thread, which returns it; only a plain call
outside any ``run_capper`` (user code applying it with a plain optimizer) keeps
it, with the ops that produced its output gradients, in the ``STATE_UPDATES``
collection, where ``attach_state_updates(train_op)`` takes the pending updates
whose output the train op consumes (a backward walk of its graph), and no other.
"""

import threading
import weakref
from typing import Any, Callable, List, Optional, Sequence, Tuple

from tf1clip.core import _aggregate, _graphs, _validate
from tf1clip.compat._tf import tf

Pairs = List[Tuple[Any, Any]]

STATE_UPDATES = "tf1clip_state_updates"
"""Graph collection of the pending state updates of plain calls of stateful cappers made outside any
``run_capper`` (Session graphs)."""

KEEPS_FINITE = "_tf1clip_keeps_finite"

# Per thread (replicas build in threads): the ``run_capper`` calls running a plain callable, innermost last.
_RECEIVERS = threading.local()

# Attribute of a graph: [(PendingUpdate, train op it was attached to, op returned)]. Not a
# graph collection, which a MetaGraph export would try (and fail) to serialize; not a
# dict keyed by graph, whose values (ops) would keep their graph alive.
_ATTACHED = "_tf1clip_attached_state_updates"


class PendingUpdate(object):
    """A deferred state update: ``build()`` (also ``self()``) creates its ops.

    ``outputs``: the ops producing the capped gradients it belongs to;
    ``label``: the capper's name, for messages.
    """

    def __init__(self, build, outputs, label=None):
        self.build = build
        self.outputs = outputs
        self.label = label

    def __call__(self):
        return self.build()


def is_capper(value):
    """True for a callable or an object with a callable ``transform_with_state``."""
    return callable(value) or callable(getattr(value, "transform_with_state", None))


def check_capper(capper, arg):
    """``capper`` when it is a capper (``is_capper``), else ``TypeError`` naming ``arg``."""
    if not is_capper(capper):
        raise TypeError(
            "`%s` must be a capper: a callable taking and returning a list of (gradient, variable) "
            "pairs, or an object with transform_with_state(pairs) -> (pairs, update); received %s."
            % (arg, _validate.describe(capper))
        )
    return capper


def capper_name(capper):
    """A readable name of ``capper`` for messages: a function's name, a stateful capper's ``name``, else its repr."""
    name = getattr(capper, "__qualname__", None) or getattr(capper, "__name__", None)
    own = getattr(capper, "name", None)
    if not name and isinstance(own, str) and callable(getattr(capper, "transform_with_state", None)):
        name = own
    return name or repr(capper)


def keeps_finite(capper):
    """True if ``capper``'s output is finite whenever the global norm of its input is.

    Set (``mark_keeps_finite``) on the cappers ``clip_by_global_norm_fn`` and
    ``clip_by_value_fn`` make when their limits are known at construction: every
    output element is then bounded by finite numbers. A policy's fast check may
    skip norming their output.
    """
    return getattr(capper, KEEPS_FINITE, False) is True


def mark_keeps_finite(capper, value):
    setattr(capper, KEEPS_FINITE, bool(value))
    return capper


# The capper factories' cappers: their output needs no validation (``run_checked``).
_TRUSTED: "weakref.WeakSet[Any]" = weakref.WeakSet()


def mark_trusted(capper):
    """Records that ``capper`` is a tf1clip factory's: its output is built by tf1clip, same variables."""
    _TRUSTED.add(capper)


def _is_trusted(capper):
    try:
        return capper in _TRUSTED
    except TypeError:  # neither hashable nor weakly referable: not a factory's capper
        return False


def run_checked(capper: Any, pairs: Any) -> Tuple[Any, List[Callable[[], Any]]]:
    """``run_capper(capper, pairs)`` for ``_validate.CheckedPairs``, returning ``CheckedPairs``.

    A capper made by a ``tf1clip`` factory (``mark_trusted``) takes them as they are and its output is not
    validated (tf1clip built it, with the same variables); any other capper is handed a list and runs
    through ``run_capper``, which validates its output.
    """
    if _is_trusted(capper):
        return _validate.CheckedPairs(capper(pairs)), []
    clipped, updates = run_capper(capper, list(pairs))
    return _validate.CheckedPairs(clipped), updates


def check_result(result, pairs, label, same_variables=True):
    """``result`` as a list of pairs; with ``same_variables``, the variables of ``pairs`` in order.

    Raises ``TypeError`` when the result is not a list of pairs and
    ``ValueError`` when a variable was dropped, added or reordered, naming
    ``label``.
    """
    try:
        result = _validate.check_pairs(result, arg="the result of %s" % str(label).replace("`", ""))
    except TypeError as err:
        raise TypeError("%s A capper must return a list of (gradient, variable) pairs." % err) from None
    if not same_variables:
        return result
    if len(result) != len(pairs) or any(new_var is not old_var for (_, new_var), (_, old_var) in zip(result, pairs)):
        before = [_validate.var_name(v) for _, v in pairs]
        after = [_validate.var_name(v) for _, v in result]
        raise ValueError(
            "%s must return the same variables in the same order; it received %s and returned %s."
            % (label, before, after)
        )
    return result


def run_capper(
    capper: Any, pairs: Sequence[Tuple[Any, Any]], label: Optional[str] = None, same_variables: bool = True
) -> Tuple[Pairs, List[Callable[[], Any]]]:
    """Runs ``capper`` on ``pairs``; returns ``(pairs, updates)``.

    ``updates`` lists zero-argument builders of the capper's state updates, to
    be built after (control-dependent on) the apply, and only when the step is
    applied (``attach_state_updates(train_op, updates=updates)``); the caller
    owns them, nothing is left pending. A capper with
    ``transform_with_state(pairs) -> (pairs, update_or_None)`` is run through
    it; any other callable is called, and the updates that the stateful cappers
    it calls deferred (plain calls) are handed to this call and returned: they
    never reach ``STATE_UPDATES``.

    The result must hold the same variables in the same order
    (``same_variables=False``, used by the ``tf1clip.contrib`` train-op
    builders as contrib did, only requires a list of pairs).

    Raises:
      TypeError: ``capper`` is not a capper, or returned something else than
        a list of pairs.
      ValueError: it dropped, added or reordered variables.
    """
    check_capper(capper, label or "capper")
    label = label or capper_name(capper)
    pairs = list(pairs)
    with_state = getattr(capper, "transform_with_state", None)
    if callable(with_state):
        result, update = with_state(pairs)
        return check_result(result, pairs, label, same_variables), [] if update is None else [update]
    if not _graphs.building_session_graph():
        return check_result(capper(pairs), pairs, label, same_variables), []
    deferred: List[Callable[[], Any]] = []
    stack = _receivers()
    stack.append(deferred)
    try:
        result = check_result(capper(pairs), pairs, label, same_variables)
    finally:
        stack.pop()
    return result, deferred


def defer_state_update(build_update: Callable[[], Any], outputs: Sequence[Tuple[Any, Any]] = ()) -> Any:
    """Runs ``build_update()`` (a stateful capper's update) now, or keeps it pending.

    In eager mode and inside ``tf.function`` the update is built now: it then
    runs exactly once per call, after the reads made before it. In a Session
    graph, called while ``run_capper`` runs a plain callable (the tf1clip
    decorators, ``chain``, the ``tf1clip.contrib`` train-op builders), it is
    returned by that ``run_capper``; called outside any, it is kept in the
    ``STATE_UPDATES`` collection, with the ops of ``outputs`` (the capped
    pairs), until ``attach_state_updates`` builds it after the apply of a train
    op that consumes those pairs. Either way evaluating the capped gradients on
    their own never advances the state.
    """
    return _defer(build_update, outputs, None)


def _defer(build_update, outputs, label):
    """Builds the update now (eager, ``tf.function``), or hands it to the innermost ``run_capper`` of this
    thread, or, for a plain call outside any, keeps it in ``STATE_UPDATES``."""
    if not _graphs.building_session_graph():
        return build_update()
    record = PendingUpdate(build_update, _graphs.output_ops(outputs), label)
    stack = _receivers()
    if stack:
        stack[-1].append(record)
    else:
        tf.compat.v1.add_to_collection(STATE_UPDATES, record)
    return None


def _receivers():
    """This thread's lists receiving deferred updates, one per ``run_capper`` running a plain callable."""
    stack = getattr(_RECEIVERS, "stack", None)
    if stack is None:
        stack = _RECEIVERS.stack = []
    return stack


def call_deferring(capper, grads_and_vars):
    """A plain call of a capper with ``transform_with_state``: caps, defers the update."""
    pairs, update = capper.transform_with_state(grads_and_vars)
    if update is not None:
        _defer(update, pairs, capper_name(capper))
    return pairs


def attach_state_updates(train_op: Any, name: Optional[str] = None, updates: Sequence[Callable[[], Any]] = ()) -> Any:
    """Returns ``train_op`` extended with the state updates of the stateful cappers it applies.

    The tf1clip decorators and ``tf1clip.contrib`` train-op builders do this
    themselves. Call it when you apply the output of a stateful capper (such as
    ``AutoClip``, ``ZClip`` or ``NormRecorder``) with a plain optimizer::

        clipped = autoclip(optimizer.compute_gradients(loss))
        train_op = tf1clip.attach_state_updates(optimizer.apply_gradients(clipped))

    or, with the explicit protocol::

        clipped, updates = tf1clip.run_capper(autoclip, optimizer.compute_gradients(loss))
        train_op = tf1clip.attach_state_updates(optimizer.apply_gradients(clipped), updates=updates)

    ``updates`` (from ``run_capper``) and, of the updates pending in the graph's
    ``STATE_UPDATES`` collection (plain calls), those whose capped gradients
    ``train_op`` consumes, are built after ``train_op`` (so after the variables
    were updated) and run once per run of the returned op. Each pending update
    is taken by the first train op that consumes it; the others stay pending.
    So "cap everything, then apply each" works, and in a GAN the
    discriminator's and the generator's cappers each advance with their own
    train op. A pending update whose capper returned no gradient at all is
    taken by the next call. Without updates ``train_op`` is returned unchanged.

    Raises:
      TypeError: ``train_op`` is not an ``Operation``/``Tensor`` (or the
        variable ``SyncReplicasOptimizer.apply_gradients`` returns, or None),
        or ``updates`` is not a sequence of callables.
      RuntimeError: ``train_op`` applies capped gradients whose update an
        earlier call attached to another train op that ``train_op`` does not
        run (one that runs ``train_op``'s apply through a dependency): run
        alone, ``train_op`` would leave that capper's state behind. Attach the
        train op that applies the gradients first.
    """
    if train_op is not None and _graphs.as_op(train_op) is None and not tf.executing_eagerly():
        raise TypeError(
            "`train_op` must be a tf.Operation or tf.Tensor (e.g. the result of "
            "optimizer.apply_gradients); received %s." % _validate.describe(train_op)
        )
    if isinstance(updates, (str, bytes)) or not all(callable(u) for u in updates):
        raise TypeError(
            "`updates` must be a list of zero-argument callables (from run_capper); received %s."
            % _validate.describe(updates)
        )
    if train_op is None or tf.executing_eagerly():
        for build in updates:
            build()
        return train_op
    op = _graphs.as_op(train_op)
    taken = _take_pending(op)
    builders = list(updates) + taken
    if not builders:
        return train_op
    with op.graph.as_default():
        result = run_after(op, builders, name=name)
    runner = _graphs.as_op(result)
    attached = getattr(op.graph, _ATTACHED, None)
    if attached is None:
        attached = []
        setattr(op.graph, _ATTACHED, attached)
    attached.extend((p, op, runner) for p in taken if getattr(p, "outputs", ()))
    return result


def _take_pending(op):
    """Removes and returns the pending updates whose outputs ``op`` consumes.

    Raises ``RuntimeError`` when ``op`` consumes the outputs of an update
    attached before to another train op whose result ``op`` does not run.
    """
    pending = op.graph.get_collection_ref(STATE_UPDATES)
    attached = getattr(op.graph, _ATTACHED, ())
    if not pending and not attached:
        return []
    targets = set()
    for p in pending:
        targets.update(getattr(p, "outputs", ()))
    for p, _, runner in attached:
        targets.update(p.outputs)
        targets.add(runner)
    found = _graphs.reached(op, targets)
    for p, taker, runner in attached:
        if taker is not op and runner not in found and set(p.outputs) & found:
            raise RuntimeError(
                "`train_op` %r applies gradients capped by %s, whose state update an earlier "
                "attach_state_updates call attached to %r (which runs %r's apply through a "
                "dependency): run alone, %r would leave %s's state behind. Call "
                "attach_state_updates on %r first, then build the train ops that depend on it "
                "(`with tf.control_dependencies([attached_op]): ...`)."
                % (
                    op.name,
                    p.label or "a stateful capper",
                    taker.name,
                    op.name,
                    op.name,
                    p.label or "the capper",
                    op.name,
                )
            )
    taken = [p for p in pending if not getattr(p, "outputs", ()) or set(p.outputs) & found]
    pending[:] = [p for p in pending if not any(p is t for t in taken)]
    return taken


def run_after(train_op, builders, name=None):
    """Builds each of ``builders`` under a control dependency on ``train_op``; groups all."""
    if not builders:
        return train_op
    with tf.control_dependencies([_graphs.as_op(train_op) or train_op]):
        built = [build() for build in builders]
        return tf.group(train_op, *[u for u in built if u is not None], name=name)


class OneTransformPerStep(object):
    """The rule that keeps a stateful capper's state exact: one transform per graph and replica.

    Two transforms of one capper in one Session graph (two optimizers or train
    ops sharing it) would read the same state and both write it; run in one
    ``Session.run`` they race, and even in separate runs the state mixes two
    gradient streams. So the second is refused when it is built. Under a
    ``tf.distribute`` strategy each replica transforms once; in eager mode and
    ``tf.function`` each call runs in order, and there is no rule.
    """

    def __init__(self):
        self._seen: "weakref.WeakKeyDictionary[Any, set]" = weakref.WeakKeyDictionary()

    def claim(self, name, kind):
        """Records one transform by the capper ``name`` (class ``kind``); ``RuntimeError`` for a second."""
        graph = _graphs.graph_key()
        if graph is _graphs.EAGER:
            return
        ctx = _aggregate.replica_context()
        replica = None if ctx is None else _aggregate.replica_id(ctx)
        replica = replica if replica is None or isinstance(replica, int) else id(replica)
        seen = self._seen.setdefault(graph, set())
        if replica in seen:
            raise RuntimeError(
                "%s already caps the gradients of a train op in this graph. A stateful capper's state "
                "advances once per applied step of one train op: shared by two optimizers or train ops "
                "(run in one Session.run, they would race on it) its state would be wrong. Create one "
                "capper per optimizer, e.g. %s(..., name='%s_d') and %s(..., name='%s_g')."
                % (name, kind, name, kind, name)
            )
        seen.add(replica)


class _Chain(object):
    """The capper ``chain`` returns (see there)."""

    def __init__(self, cappers):
        self.cappers = cappers
        self.__qualname__ = "chain(%s)" % ", ".join(capper_name(c) for c in cappers)

    def transform_with_state(self, grads_and_vars):
        """Runs each capper in order; the update builds every stateful capper's update."""
        pairs = _validate.check_pairs(grads_and_vars)
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
        return call_deferring(self, grads_and_vars)


def chain(*cappers: Any) -> Any:
    """Returns a capper that applies ``cappers`` in order, like optax's ``chain``.

    Example: ``chain(clip_by_value_fn(-1, 1), clip_by_global_norm_fn(5.0))``.
    Each step's result is checked to keep the variables and their order. The
    stateful cappers in it update their state after the apply, in order. A
    capper may be a callable or an object with only ``transform_with_state``.
    """
    for i, capper in enumerate(cappers):
        check_capper(capper, "cappers[%d]" % i)
    return _Chain(cappers)
