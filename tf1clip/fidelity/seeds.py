"""TF 1.15's op seeds for programs seeded at the graph level only (``tf.compat.v1.set_random_seed(s)``).

In a graph with a graph-level seed, TF 1.15 gave each random op without its own seed the op seed
``graph._last_id``: the number of ops the graph held when the op was made. TensorFlow 2 numbers those
ops 0, 1, 2, ... per graph instead (``random_seed.get_seed``), so the same program starts from other
weights and draws other dropout masks. :func:`use_tf1_random_seeds` derives the op seed from the op
count again (``Graph.version``, which is TF 1.15's ``_last_id``), corrected where TensorFlow 2 builds a
different number of ops than TF 1.15 did for the same call (the entries of ``_corrections.CORRECTIONS``).
docs/oracle.rst ("Seeds") lists what is matched and what is not.
"""

import weakref

from tf1clip.compat import _tf
from tf1clip.fidelity import _corrections

__all__ = ["use_tf1_random_seeds", "tf1_random_seeds_enabled"]


def _call_site_ops(site):
    """``(before, after)``: TF 1.15's extra ops before and after the random op of the call ``site``."""
    before = after = 0
    for count in _corrections.counts("call"):
        extra_before, extra_after = count(site)
        before, after = before + extra_before, after + extra_after
    return before, after


class _GraphCount:
    """Per graph: how many of its ops are counted (``scanned``), TF 1.15's extra ops among them (``extra``), and
    those TF 1.15 made before the random op of the ``get_seed`` call under way (``pending``)."""

    __slots__ = ("scanned", "extra", "pending", "last", "conv_layers")

    def __init__(self):
        self.scanned = self.extra = self.pending = self.last = 0
        self.conv_layers = weakref.WeakSet()


class _Tf1OpSeeds:
    """Stands in for TF 2's per-graph seed counter: ``setdefault(graph, 0)`` returns TF 1.15's op seed.

    Graphs that drew an op seed before it was installed keep TF 2's counter (``previous``).
    """

    def __init__(self, previous):
        self.previous = previous
        self._graphs = weakref.WeakKeyDictionary()
        undo_convolution = _tf.wrap_convolution(self._convolution)
        undo_get_seed = _tf.wrap_get_seed(self._wrap_get_seed)
        self.undo_hooks = lambda: (undo_convolution(), undo_get_seed())

    def _state(self, graph):
        count = self._graphs.get(graph)
        if count is None:
            count = self._graphs[graph] = _GraphCount()
        return count

    def _convolution(self, dilations, layer):
        """A ``tf.nn.convolution`` call (by the Keras convolution layer ``layer``, or None): TF 1.15's extra ops."""
        if _tf.tf.executing_eagerly():
            return
        count = self._state(_tf.tf.compat.v1.get_default_graph())
        called_before = layer is not None and layer in count.conv_layers
        if layer is not None:
            count.conv_layers.add(layer)
        for correction in _corrections.counts("convolution"):
            count.extra += correction(dilations, called_before)

    def _wrap_get_seed(self, get_seed):
        def get_seed_counting_tf1_ops(op_seed):
            """TF 2's ``get_seed``; also counts the ops TF 1.15 made around the random op, with or without
            an op seed (TF 1.15's later graph-derived seeds count them)."""
            if _tf.tf.executing_eagerly():
                return get_seed(op_seed)
            count = self._count(_tf.tf.compat.v1.get_default_graph())
            before, after = _call_site_ops(_tf.get_seed_call_site(_tf.caller_frame(1)))
            count.pending = before
            try:
                return get_seed(op_seed)
            finally:
                count.pending = 0
                count.extra += before + after

        return get_seed_counting_tf1_ops

    def _count(self, graph):
        count = self._state(graph)
        ops = graph.version
        if ops > count.scanned:
            rules = _corrections.counts("op")
            for op in graph.get_operations()[count.scanned : ops]:
                for rule in rules:
                    count.extra += rule(op)
            count.scanned = ops
        return count

    def setdefault(self, graph, default=None):
        if graph in self.previous:
            return self.previous.setdefault(graph, default)
        count = self._count(graph)
        count.last = count.scanned + count.extra + count.pending
        return count.last

    def __getitem__(self, graph):
        if graph in self.previous:
            return self.previous[graph]
        return self._graphs[graph].last

    def __setitem__(self, graph, value):
        if graph in self.previous:
            self.previous[graph] = value

    def __contains__(self, graph):
        return graph in self.previous or graph in self._graphs

    def get(self, graph, default=None):
        return self[graph] if graph in self else default


def use_tf1_random_seeds(enabled=True):
    """Makes random ops get TF 1.15's op seeds in graphs seeded only at the graph level.

    After this call, a random op or initializer without an op-level seed, built in a graph whose seed was
    set with ``tf.compat.v1.set_random_seed`` (or by an Estimator's ``RunConfig(tf_random_seed=...)``),
    gets the op seed TF 1.15 gave it: the number of ops TF 1.15's graph held at that point. It then draws
    TF 1.15's numbers wherever the program built the same ops as on TF 1.15 up to there (docs/oracle.rst,
    "Seeds", lists the constructs whose op counts tf1clip corrects for, and those it cannot match).

    Applies to graphs that draw their first op seed after the call; op-level seeds, eager execution and
    ``tf.random.set_seed`` in TF 2 code are unchanged. Process-wide and idempotent;
    ``use_tf1_random_seeds(False)`` restores TensorFlow 2's numbering for graphs built afterwards.
    tf1clip-upgrade adds the call to converted programs that set a graph-level seed.
    """
    if not isinstance(enabled, bool):
        raise TypeError("use_tf1_random_seeds: enabled must be True or False, got %r" % (enabled,))
    counter = _tf.graph_seed_counter()
    if enabled and not isinstance(counter, _Tf1OpSeeds):
        _tf.set_graph_seed_counter(_Tf1OpSeeds(counter))
    elif not enabled and isinstance(counter, _Tf1OpSeeds):
        counter.undo_hooks()
        _tf.set_graph_seed_counter(counter.previous)


def tf1_random_seeds_enabled():
    """Whether :func:`use_tf1_random_seeds` is in effect."""
    return isinstance(_tf.graph_seed_counter(), _Tf1OpSeeds)
