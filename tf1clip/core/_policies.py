"""The ``on_nonfinite`` policies of the optimizer wrapper (private).

Each policy has one interface::

    check = policy.check(pairs, clipped, capper, hand_on)   # a Check, or None
    train_op = policy.run(Step(...), hand_on)               # builds the apply around it

plus the class attributes ``name``, ``needs_agreement`` (replicas capping their own
share must agree on the verdict) and ``needs_verdict`` (``run`` reads ``Step.finite``).

``hand_on``: the wrapped optimizer handles non-finite steps itself (a dynamic
loss-scale optimizer, or a tf1clip wrapper whose policy is not ``"nan"``); the
step is then handed on as all-NaN gradients (``poison``) instead of gated here.

In a Session graph the gates cost O(1) executed nodes whatever the number of
variables: finiteness is read off the global norms (a non-finite value makes
its norm non-finite), the exact per-gradient check runs only when a norm is
not finite, and an apply is skipped by making its ops wait on one dead output
of a ``Switch`` (TensorFlow's executor then runs none of them) instead of
routing every gradient and variable through a conditional. The executor still
walks the dead branch every step, so the exact check is built per batch of
gradients (O(batches) nodes) and joins the input batches outside the branch,
where they are the norm's own concatenations: a new consumer of every
gradient would keep the ``tf.gradients`` tuples' Identity nodes that grappler
otherwise removes. What remains is the price of any conditional in a Session
graph: one ``Switch`` puts the executor in its control-flow mode for every
node (``benchmarks/RESULTS.md``, the ``reference`` row). Building the gate in
a non-inlined function avoids that mode but cost more (measured: the apply
waiting on a function call's output added 10-15 % to a small-op step).
In eager mode and inside ``tf.function`` the same decisions use Python
branches or ``tf.cond``.
"""

import collections

import numpy as np

from tf1clip.core import _batching, _graphs, _pairs, _state, _validate
from tf1clip.core import clipping
from tf1clip.compat._tf import tf

Step = collections.namedtuple("Step", ["apply", "check", "finite", "updates", "counter", "advance"], defaults=[None])
Step.__doc__ = """What a policy runs: ``apply()`` builds the wrapped optimizer's update (its
``apply_gradients`` on the capped pairs);
``check`` is the policy's ``Check`` (or None) and ``finite`` its agreed result (a
bool tensor, or None); ``updates`` the capper's state-update builders (built
after the apply, only if it happened); ``counter()`` the skipped-steps variable;
``advance()`` (or None) builds what a skipped step still does to ``global_step``."""


def _session_graph():
    """True in a Session graph, including a conditional's branch built in one (a
    loss-scale optimizer's), where a gate must not open a graph of its own: a
    cross-replica call in the wrapped optimizer's apply would then fail."""
    return _graphs.in_session_graph()


def _switch(pred):
    """(dead unless ``pred`` is false, dead unless ``pred`` is true): two Identity gates."""
    when_false, when_true = tf.raw_ops.Switch(data=pred, pred=pred)
    return tf.identity(when_false), tf.identity(when_true)


def _merge(a, b):
    return tf.raw_ops.Merge(inputs=[a, b])[0]


def _joined_batches(pairs):
    """``(grads, [(batch, values)])``: the present gradients and their norm batches joined
    as ``clipping.global_norm`` joins them (so the same concatenations serve both)."""
    grads = [g for g, _ in pairs if g is not None]
    return grads, [(batch, _batching.joined_values(grads, batch)) for batch in _batching.batches(grads)]


def _finite_flags(joined):
    """One bool per present gradient, in order: all its values are finite (or None).

    ``joined`` is ``_joined_batches(pairs)``; the flags take O(batches) nodes.
    """
    grads, batches = joined
    if not grads:
        return None
    parts, order = [], []
    for batch, values in batches:
        with _pairs.colocate(values):
            finite = tf.math.is_finite(values)
            if len(batch) == 1:
                parts.append(tf.reshape(tf.reduce_all(finite), [1]))
            else:
                rows = tf.cast(tf.reduce_all(finite, axis=list(range(1, values.shape.rank))), tf.int32)
                parts.append(tf.cast(tf.math.segment_min(rows, _batching.segments(grads, batch)), tf.bool))
        order.extend(batch)
    flags = parts[0] if len(parts) == 1 else tf.concat(parts, 0)
    if order != sorted(order):
        flags = tf.gather(flags, np.argsort(order).astype(np.int32))
    return flags


def _all(flags):
    if not flags:
        return tf.constant(True)
    return flags[0] if len(flags) == 1 else tf.reduce_all(tf.stack(flags))


def _all_of(vector):
    return tf.constant(True) if vector is None else tf.reduce_all(vector)


class Check(object):
    """Finiteness of the capper's input (and output): fast via norms, exact on demand.

    ``pairs`` and ``clipped`` are ``_validate.CheckedPairs`` (not validated again).

    The fast check norms the output too, unless the capper keeps finite values
    finite (``_state.keeps_finite``): then a finite input norm already implies a
    finite output, and the output is checked exactly only when that norm is not
    finite (a finite input whose global norm overflowed).
    """

    def __init__(self, pairs, clipped, capper, with_output):
        self.pairs, self.clipped, self.capper = pairs, clipped, capper
        self.with_output = with_output
        norms = [clipping.global_norm(pairs)]
        if with_output and not _state.keeps_finite(capper):
            norms.append(clipping.global_norm(clipped))
        self.fast = _all([tf.math.is_finite(n) for n in norms])
        # Joined outside the exact check's gate, the input batches are the norm's own
        # concatenations (grappler merges them) instead of new consumers of every gradient.
        self._joined = None if tf.executing_eagerly() else _joined_batches(pairs)

    def flags(self):
        """A bool vector, one flag per checked gradient (input, then output), or None."""
        joined = self._joined if self._joined is not None else _joined_batches(self.pairs)
        parts = [_finite_flags(joined)]
        if self.with_output:
            parts.append(_finite_flags(_joined_batches(self.clipped)))
        parts = [p for p in parts if p is not None]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else tf.concat(parts, 0)

    def messages(self):
        """Per-flag error messages, in the order of ``flags()``."""
        out = [
            "tf1clip: the gradient of %s holds inf or NaN (on_nonfinite='raise')." % _validate.var_name(v)
            for g, v in self.pairs
            if g is not None
        ]
        if self.with_output:
            out += [
                "tf1clip: the gradient of %s became inf or NaN in %s although every input "
                "gradient was finite (on_nonfinite='raise'); a global norm may have overflowed."
                % (_validate.var_name(v), _state.capper_name(self.capper))
                for g, v in self.clipped
                if g is not None
            ]
        return out

    def finite(self):
        """True when every checked value is finite; the exact check runs only if a norm is not."""
        if tf.executing_eagerly():
            return self.fast if bool(self.fast) else _all_of(self.flags())
        if not _session_graph():
            return tf.compat.v1.cond(self.fast, lambda: tf.constant(True), lambda: _all_of(self.flags()))
        when_false, when_true = _switch(self.fast)
        with tf.control_dependencies([when_false]):
            exact = _all_of(self.flags())
        return _merge(when_true, exact)


def _flag_after(op, value):
    with tf.control_dependencies([op]):
        return tf.constant(value)


def _build_updates(train_op, updates):
    return _state.run_after(train_op, updates)


class NanPolicy(object):
    """``"nan"``: the capper's output is applied as is; no check, no variable."""

    name = "nan"
    needs_agreement = False
    needs_verdict = True  # the all-finite flag, when handed on

    def check(self, pairs, clipped, capper, hand_on):
        # Handed on, a non-finite input must reach the inner optimizer as NaN.
        return Check(pairs, clipped, capper, with_output=False) if hand_on else None

    def run(self, step, hand_on=False):
        train_op = _build_updates(step.apply(), step.updates)
        if not hand_on or step.advance is None:
            return train_op
        # A loss-scale optimizer skips a non-finite step without advancing global_step.
        with tf.control_dependencies([train_op]):
            return tf.group(train_op, _count_unless(step.finite, None, step.advance))


class SkipPolicy(object):
    """``"skip"``: a non-finite step changes no variable and counts itself."""

    name = "skip"
    needs_agreement = True
    needs_verdict = True

    def check(self, pairs, clipped, capper, hand_on):
        return Check(pairs, clipped, capper, with_output=not hand_on)

    def run(self, step, hand_on=False):
        if hand_on:
            # The inner optimizer sees all-NaN gradients and skips on its own.
            train_op = _build_updates(step.apply(), step.updates)
            with tf.control_dependencies([train_op, _ensure_initialized(step.counter())]):
                return tf.group(train_op, _count_unless(step.finite, step.counter(), step.advance))
        if _session_graph():
            return self._gated(step)
        return self._cond(step)

    def _gated(self, step):
        graph = tf.compat.v1.get_default_graph()
        train_ops = list(graph.get_collection(tf.compat.v1.GraphKeys.TRAIN_OP))
        ready = _ensure_initialized(step.counter())
        skipped, applied = _switch(step.finite)
        with tf.control_dependencies([applied]):
            did_apply = _flag_after(_build_updates(step.apply(), step.updates), True)
        with tf.control_dependencies([skipped, ready]):
            did_skip = _flag_after(_count(step.counter(), step.advance), False)
        train_op = tf.group(_merge(did_apply, did_skip), ready)
        # The wrapped optimizer's op does not run on a skipped step: list ours instead.
        graph.get_collection_ref(tf.compat.v1.GraphKeys.TRAIN_OP)[:] = train_ops + [train_op]
        return train_op

    def _cond(self, step):
        graph = None if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
        scope = "" if graph is None else graph.get_name_scope()

        def applied():
            # The branch keeps the caller's name scope, so that variables the
            # wrapped optimizer creates there keep their unwrapped names.
            if graph is None:
                return _flag_after(_build_updates(step.apply(), step.updates), True)
            with graph.name_scope(scope + "/" if scope else ""):
                return _flag_after(_build_updates(step.apply(), step.updates), True)

        def skipped():
            return _flag_after(_count(step.counter(), step.advance), False)

        return tf.group(tf.compat.v1.cond(step.finite, applied, skipped, name="apply_if_finite"))


def _count_unless(finite, counter, advance=None):
    """Counts a step that is not ``finite``; the count is built on that path only."""
    if not _session_graph():
        return tf.compat.v1.cond(finite, lambda: tf.constant(False), lambda: _count(counter, advance))
    skipped, applied = _switch(finite)
    with tf.control_dependencies([skipped]):
        counted = _flag_after(_count(counter, advance), False)
    return _merge(applied, counted)


def _count(counter, advance=None):
    """Counts a skipped step (``counter`` may be None); ``advance`` (or None) builds what it does to ``global_step``."""
    ops = [] if counter is None else [counter.assign_add(1, read_value=False)]
    ops += [] if advance is None else [advance()]
    return ops[0] if len(ops) == 1 else tf.group(*ops)


def _ensure_initialized(counter):
    """Initializes the (local) counter on the first step when no initializer ran (Session graphs)."""
    if not _session_graph():
        return tf.no_op()
    initialized = tf.compat.v1.is_variable_initialized(counter)
    missing, present = _switch(initialized)
    with tf.control_dependencies([missing]):
        created = _flag_after(counter.assign(tf.zeros([], counter.dtype.base_dtype), read_value=False), True)
    return _merge(present, created)


class RaisePolicy(object):
    """``"raise"``: a non-finite step fails with the first bad variable's name; nothing changes."""

    name = "raise"
    needs_agreement = False
    needs_verdict = False  # asserts on the check itself, replica by replica

    def check(self, pairs, clipped, capper, hand_on):
        return Check(pairs, clipped, capper, with_output=True)

    def guard(self, check):
        """An op that passes when every value is finite and fails naming the first bad one."""
        if tf.executing_eagerly():
            return None if bool(check.fast) else self._assert(check)
        if not _session_graph():
            return tf.compat.v1.cond(check.fast, tf.no_op, lambda: _flag_after(self._assert(check), True).op)
        when_false, when_true = _switch(check.fast)
        with tf.control_dependencies([when_false]):
            failed = _flag_after(self._assert(check), False)
        return _merge(when_true, failed)

    def _assert(self, check):
        flags = check.flags()
        if flags is None:
            return tf.no_op()
        first = tf.argmin(tf.cast(flags, tf.int32), output_type=tf.int32)
        message = tf.gather(tf.constant(check.messages()), first)
        return tf.debugging.Assert(tf.reduce_all(flags), [message], name="assert_finite")

    def run(self, step, hand_on=False):
        gate = self.guard(step.check)
        with tf.control_dependencies([] if gate is None else [gate]):
            return _build_updates(step.apply(), step.updates)


POLICIES = {"nan": NanPolicy, "skip": SkipPolicy, "raise": RaisePolicy}


def poison(pairs, finite):
    """Multiplies every gradient by 1 where ``finite`` holds, else by NaN."""
    if all(g is None for g, _ in pairs):
        return pairs
    factor = tf.where(finite, tf.constant(1.0), tf.constant(float("nan")))
    return _pairs.scale_pairs(pairs, factor)
