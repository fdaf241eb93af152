"""Which graph a step is built in, and what a train op runs (private module, public names).

Shared by the capper state protocol, the stateful cappers, the optimizer wrapper
and its policies.
"""

from tf1clip.compat._tf import tf


class _EagerKey(object):
    """Stands for "no graph" where per-graph state is kept (eager execution)."""

    def __repr__(self):
        return "EAGER"


EAGER = _EagerKey()
"""The key of per-graph state outside any Session graph (eager execution, eager ``tf.function``)."""


def graph_key():
    """The key of per-graph state: the Session graph (also from a function body built in it), or ``EAGER``."""
    if tf.compat.v1.executing_eagerly_outside_functions():
        return EAGER
    graph = tf.compat.v1.get_default_graph()
    while getattr(graph, "building_function", False) and getattr(graph, "outer_graph", None) is not None:
        graph = graph.outer_graph
    return graph


def in_session_graph():
    """True in a Session graph or in a function body (a conditional's branch) built in one."""
    return not tf.executing_eagerly() and graph_key() is not EAGER


def building_session_graph():
    """True when ops are added to a Session graph itself (not a function body)."""
    if tf.executing_eagerly():
        return False
    return not getattr(tf.compat.v1.get_default_graph(), "building_function", False)


def as_op(train_op):
    """The ``Operation`` behind ``train_op``: an op, a tensor's op, or a variable's op.

    ``SyncReplicasOptimizer.apply_gradients`` returns the (unread) result of an
    assignment to a resource variable; its ``op`` is the assignment.
    """
    if isinstance(train_op, tf.Operation):
        return train_op
    op = getattr(train_op, "op", None)
    return op if isinstance(op, tf.Operation) else None


def output_ops(pairs):
    """The ops producing the gradients of ``pairs`` (``IndexedSlices``: their values and indices)."""
    ops = set()
    for grad, _ in pairs:
        if isinstance(grad, tf.IndexedSlices):
            ops.update((grad.values.op, grad.indices.op))
        elif isinstance(grad, tf.Tensor) and not tf.executing_eagerly():
            ops.add(grad.op)
    return frozenset(ops)


def reached(start, targets):
    """The ops of ``targets`` that ``start`` (an op) depends on, through data or control inputs.

    A backward walk of ``start``'s graph that stops once every target is found.
    """
    targets = set(targets)
    found, seen, stack = set(), set(), [start]
    while stack and len(found) < len(targets):
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op in targets:
            found.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return found
