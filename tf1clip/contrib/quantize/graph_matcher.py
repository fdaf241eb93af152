"""Op-type patterns over a ``tf.Graph`` (TF 1.15's ``contrib/quantize/python/graph_matcher.py``).

A pattern matches an op by type (``"Conv2D"``, ``"Relu|Relu6"``, ``"*"``) and, when it has input patterns, each
input's producing op. With ``ordered_inputs=False`` every permutation of the input patterns is tried; as in
TF 1.15, what an abandoned permutation matched stays in the result (it can be read back with ``get_op``).
"""

import itertools

__all__ = ["OpTypePattern", "OneofPattern", "MatchResult", "GraphMatcher"]


class MatchResult:
    """The op and tensor each pattern of a match matched."""

    def __init__(self):
        self._found = {}

    def add(self, pattern, op, tensor):
        self._found[pattern] = (op, tensor)

    def items(self):
        """``(pattern, (op, tensor))`` pairs."""
        return self._found.items()

    def merge_from(self, other):
        self._found.update(other.items())

    def get_op(self, pattern):
        """The op ``pattern`` matched, or None."""
        return self._found.get(pattern, (None, None))[0]

    def get_tensor(self, pattern):
        """The tensor ``pattern`` matched (the input its parent read), or None."""
        return self._found.get(pattern, (None, None))[1]


class OpTypePattern:
    """Matches an op whose type is one of ``op_type`` (``|``-separated, ``*`` for any) and whose inputs match
    ``inputs`` (patterns or op-type strings), in order or, with ``ordered_inputs=False``, in any order."""

    def __init__(self, op_type, inputs=None, ordered_inputs=True):
        inputs = list(inputs or [])
        if len(inputs) > 8:
            raise ValueError("Only < 8 inputs are allowed when ordered_inputs is False.")
        self._types = None if op_type == "*" else frozenset(op_type.split("|"))
        self._inputs = [p if isinstance(p, (OpTypePattern, OneofPattern)) else OpTypePattern(p) for p in inputs]
        self._ordered = ordered_inputs

    def match(self, op, tensor):
        if self._types is not None and op.type not in self._types:
            return None
        result = MatchResult()
        result.add(self, op, tensor)
        if not self._inputs:
            return result
        if len(op.inputs) != len(self._inputs):
            return None
        orders = [self._inputs] if self._ordered else itertools.permutations(self._inputs)
        for patterns in orders:
            for input_tensor, pattern in zip(op.inputs, patterns):
                sub = pattern.match(input_tensor.op, input_tensor)
                if sub is None:
                    break
                result.merge_from(sub)
            else:
                return result
        return None


class OneofPattern:
    """Matches what the first of ``sub_patterns`` that matches matches."""

    def __init__(self, sub_patterns):
        self._subs = list(sub_patterns)

    def match(self, op, tensor):
        for pattern in self._subs:
            result = pattern.match(op, tensor)
            if result is not None:
                return result
        return None


class GraphMatcher:
    """Matches one pattern against ops, rooted at each op in turn."""

    def __init__(self, pattern):
        self._pattern = pattern

    def match_op(self, op):
        """The :class:`MatchResult` of the pattern rooted at ``op``, or None."""
        found = self._pattern.match(op, None)
        if found is None:
            return None
        result = MatchResult()
        result.merge_from(found)
        return result

    def match_ops(self, ops):
        for op in ops:
            result = self.match_op(op)
            if result is not None:
                yield result

    def match_graph(self, graph):
        """Matches rooted at each op of ``graph``, in creation order."""
        return self.match_ops(graph.get_operations())
