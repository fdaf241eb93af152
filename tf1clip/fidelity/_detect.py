"""What in a source file makes tf1clip-upgrade add a fidelity switch, and at which lines (no TensorFlow import).

Each detector takes the converted file's syntax tree (``ast`` or pasta, whose nodes keep the input's line
numbers) and returns ``(subject, node)`` for the first use that needs the switch, or None; ``seed_warnings``
gives the WARNINGs of ``use_tf1_random_seeds``.
"""

import ast

from tf1clip.fidelity import _corrections

# Calls that draw op seeds (random ops, initializers, layers and cells that make variables).
SEED_DRAWERS = frozenset(
    "random_uniform uniform random_normal normal truncated_normal dropout random_shuffle shuffle multinomial "
    "categorical random_crop random_gamma gamma get_variable Variable dense conv1d conv2d conv3d conv2d_transpose "
    "separable_conv2d fully_connected embed_sequence dynamic_rnn static_rnn bidirectional_dynamic_rnn".split()
)
# Initializers that draw no op seed (``*_initializer`` names that are not random).
DETERMINISTIC_INITIALIZERS = (
    "variables_initializer",
    "tables_initializer",
    "zeros_initializer",
    "ones_initializer",
    "constant_initializer",
    "identity_initializer",
)
# Calls whose arguments are sizes (``tf1clip.use_tf1_shapes()``): names ending with these, and these functions.
SIZE_CLASS_SUFFIXES = ("Cell", "Wrapper", "Attention", "Dense", "TensorShape")
SIZE_FUNCTIONS = frozenset(
    "get_variable placeholder dense fully_connected embed_sequence conv1d conv2d conv3d zero_state".split()
)


def call_name(call, whole=False):
    """``"a.b.c"`` for a call of ``a.b.c``; ``"c"`` for ``x().c(...)`` (``""`` if ``whole``); else ``""``."""
    attributes, func = [], call.func
    while isinstance(func, ast.Attribute):
        attributes.insert(0, func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        return ".".join([func.id] + attributes)
    return attributes[-1] if attributes and not whole else ""


def _calls(tree):
    """The calls in ``tree``, by line."""
    return sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)), key=lambda n: getattr(n, "lineno", 0))


def graph_seed_uses(tree):
    """``(name, node)`` of each call that sets a graph-level seed: ``set_random_seed``, ``tf_random_seed=``."""
    uses = []
    for node in _calls(tree):
        name = call_name(node, whole=True)
        if name.split(".")[-1] == "set_random_seed":
            uses.append((name, node))
        elif any(k.arg == "tf_random_seed" for k in node.keywords):
            uses.append(("%s(tf_random_seed=...)" % (name.split(".")[-1] or "..."), node))
    return uses


def graph_seed(tree):
    """``use_tf1_random_seeds``' detector: the first call that sets a graph-level seed."""
    uses = graph_seed_uses(tree)
    return uses[0] if uses else None


def _draws_seed(name):
    """Whether a call of ``name`` may draw an op seed (a random op, an initializer, a layer or cell)."""
    tail = name.split(".")[-1]
    initializer = tail.endswith("_initializer") and not tail.endswith(DETERMINISTIC_INITIALIZERS)
    return tail in SEED_DRAWERS or initializer


def _seed_unmatched(node):
    """Why op seeds drawn after the call ``node`` differ from TF 1.15's, or None."""
    full = call_name(node)
    for entry in _corrections.UNMATCHED:
        if any(full == key or full.endswith("." + key) for key in entry.calls):
            return entry.why
    return None


def seed_warnings(tree):
    """``(node, message)`` at each call after which TensorFlow 2's op count (and so the op seeds of later random
    ops) differs from TF 1.15's, when a call that draws a seed follows it in the file."""
    calls = _calls(tree)
    drawn = [getattr(c, "lineno", 0) for c in calls if _draws_seed(call_name(c))]
    found = []
    for node in calls:
        why = _seed_unmatched(node)
        if why and any(line > getattr(node, "lineno", 0) for line in drawn):
            found.append(
                (
                    node,
                    "%s: random ops and initializers built after this call (later lines) without an op-level seed "
                    "may draw other numbers than on TF 1.15; give them a seed= to fix their numbers "
                    "(docs/oracle.rst, 'Seeds')." % why,
                )
            )
    return found


def _holds_quotient(node):
    """Whether the expression ``node`` is or holds (in arithmetic, a list or a tuple) a true division ``/``."""
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Div) or _holds_quotient(node.left) or _holds_quotient(node.right)
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_holds_quotient(e) for e in node.elts)
    return isinstance(node, ast.UnaryOp) and _holds_quotient(node.operand)


def size_quotient(tree):
    """``use_tf1_shapes``' detector: the first call of a cell, wrapper, attention mechanism, Dense layer or
    size-taking function with an argument holding a true quotient (``num_units / 2``, a float under Python 3)."""
    for node in _calls(tree):
        name = call_name(node)
        tail = name.split(".")[-1]
        if not (tail.endswith(SIZE_CLASS_SUFFIXES) or tail in SIZE_FUNCTIONS):
            continue
        if any(_holds_quotient(a) for a in list(node.args) + [k.value for k in node.keywords]):
            return name, node
    return None
