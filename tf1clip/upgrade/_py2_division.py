"""Python 2's ``/`` in Python 3 (TensorFlow-free): ``//`` where both operands are integers, else kept and reported.

Python 2's ``a / b`` floored when both were integers (Python ints, integer NumPy arrays and scalars, TF 1's
``Dimension``, integer tensors) and divided exactly otherwise. The rule, applied to a converted Python 2 file without
``from __future__ import division``:

* both operands provably integers: ``//``, an INFO (what Python 2 computed, whatever it was meant to be);
* one operand provably a float: ``/`` kept (true division in both);
* otherwise ``/`` kept and a WARNING at the line.

"Provably" is decided on the Python 2 meaning of the file, names by every assignment in their scope (a fixed point
over the file): int literals; ``len``, ``int``, ``ord``; ``range``/``xrange`` counters and ``enumerate`` indices;
shapes (``x.shape[i]``, ``x.get_shape()[i]``, ``.as_list()[i]``, ``tf.shape(x)[i]``, ``.value``, a tuple unpacked
from a shape, a name holding a shape, indexed); integer flags (``DEFINE_integer``, ``add_argument(type=int)``); casts
to integer types; the MNIST tutorial's ``.num_examples``; and arithmetic of those. ``math.floor``/``ceil`` and
``round`` gave floats in Python 2.
"""

import ast
import bisect
import io
import tokenize
from typing import Dict, List, NamedTuple, Optional, Tuple

INT, FLOAT, UNKNOWN, TOP = "int", "float", "unknown", "top"
SHAPE = "shape"  # a shape (its elements are integers or Dimensions), not a number

_INT_CALLS = {"len", "int", "ord", "hash", "id", "long"}
_INT_SUFFIXES = (
    "tf.size",
    "tf.rank",
    "tf.to_int32",
    "tf.to_int64",
    "random.randint",
    "random.randrange",
    "math.factorial",
    "math.trunc",
    "np.argmax",
    "np.argmin",
    "numpy.argmax",
    "numpy.argmin",
)
_INT_TYPES = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "intp", "int_", "int"}
_FLOAT_TYPES = {"float16", "float32", "float64", "double", "float_", "float", "half", "bfloat16"}
_FLOAT_CALLS = {"float", "round"}
_FLOAT_SUFFIXES = (
    "time.time",
    "time.clock",
    "random.random",
    "random.uniform",
    "random.gauss",
    "tf.to_float",
    "tf.to_double",
    "np.random.rand",
    "np.random.randn",
    "np.random.uniform",
    "np.random.normal",
    "np.random.random",
    "np.sqrt",
    "np.exp",
    "np.log",
    "np.mean",
    "np.std",
    "np.var",
)
_SHAPE_CALLS = {"tf.shape", "np.shape", "numpy.shape"}
_VERSION_NAMES = {"version_info", "PY2", "PY3", "python_version"}


class Division(NamedTuple):
    """One ``/`` (or ``/=``) of the file: where (line, column of the operator), its text, and the decision."""

    line: int
    col: int
    text: str
    floor: bool  # True: becomes ``//``; False: kept, with a WARNING (a float operand keeps it silently)


def dotted(node) -> Optional[str]:
    """``"a.b.c"`` of a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id] + parts[::-1])
    return None


def _ends(name, suffixes):
    return name is not None and any(name == s or name.endswith("." + s) for s in suffixes)


def _join(kinds):
    kinds = {k for k in kinds if k != TOP}
    if not kinds:
        return TOP
    return kinds.pop() if len(kinds) == 1 else UNKNOWN


class _Scope:
    """One scope's names: each name's sources (``(expression, scope)``, or a kind) in assignment order."""

    def __init__(self, parent, is_class=False) -> None:
        self.parent = parent
        self.is_class = is_class
        self.sources: Dict[str, list] = {}
        self.global_names: set = set()

    def bind(self, name, source):
        scope = self
        if name in self.global_names:
            while scope.parent is not None:
                scope = scope.parent
        scope.sources.setdefault(name, []).append(source)

    def lookup(self, name):
        """The scope that binds ``name`` as seen from here (class scopes are skipped from nested functions)."""
        scope, first = self, True
        while scope is not None:
            if (first or not scope.is_class) and name in scope.sources:
                return scope
            scope, first = scope.parent, False
        return None


def _shape_source(node):
    """Whether ``node`` is a shape (a tuple of integers or Dimensions): ``x.shape``, ``x.get_shape()``,
    ``tf.shape(x)``, ``....as_list()``."""
    if isinstance(node, ast.Attribute) and node.attr == "shape":
        return True
    if isinstance(node, ast.Call):
        name = dotted(node.func)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("get_shape", "as_list"):
            return True
        return name in _SHAPE_CALLS
    return False


class _Binder(ast.NodeVisitor):
    """Collects every scope's name sources, and the flags' kinds, from a module."""

    def __init__(self) -> None:
        self.module = _Scope(None)
        self.scope = self.module
        self.scopes = [self.module]
        self.scope_of: Dict[ast.AST, _Scope] = {}
        self.flags: Dict[str, str] = {}
        self.flag_objects: set = {"FLAGS"}

    def generic_visit(self, node):
        self.scope_of[node] = self.scope
        super().generic_visit(node)

    def _new_scope(self, is_class=False):
        self.scopes.append(_Scope(self.scope, is_class))
        return self.scopes[-1]

    def _function(self, node, name=None):
        if name is not None:
            self.scope.bind(name, UNKNOWN)
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)
        for decorator in getattr(node, "decorator_list", []):
            self.visit(decorator)
        outer, self.scope = self.scope, self._new_scope()
        args = node.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]:
            self.scope.bind(arg.arg, UNKNOWN)
        for child in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(child)
        self.scope = outer

    def visit_FunctionDef(self, node):
        self.scope_of[node] = self.scope
        self._function(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self.scope_of[node] = self.scope
        self._function(node)

    def visit_ClassDef(self, node):
        self.scope_of[node] = self.scope
        self.scope.bind(node.name, UNKNOWN)
        for child in node.bases + node.decorator_list:
            self.visit(child)
        outer, self.scope = self.scope, self._new_scope(is_class=True)
        for child in node.body:
            self.visit(child)
        self.scope = outer

    def visit_Global(self, node):
        self.scope.global_names.update(node.names)

    def _target(self, target, source):
        if isinstance(target, ast.Name):
            self.scope.bind(target.id, source)
        elif isinstance(target, (ast.Tuple, ast.List)):
            value = source[0] if isinstance(source, tuple) else None
            pairs = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts)
            for index, element in enumerate(target.elts):
                if pairs:
                    self._target(element, (value.elts[index], self.scope))
                else:
                    self._target(element, INT if value is not None and _shape_source(value) else UNKNOWN)
        elif isinstance(target, ast.Starred):
            self._target(target.value, UNKNOWN)

    def visit_Assign(self, node):
        for target in node.targets:
            self._target(target, (node.value, self.scope))
        self.generic_visit(node)
        self._flag_object(node)

    def visit_AnnAssign(self, node):
        self._target(node.target, (node.value, self.scope) if node.value else UNKNOWN)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            name = ast.Name(id=node.target.id, ctx=ast.Load())
            self.scope_of[name] = self.scope
            self.scope.bind(node.target.id, (ast.BinOp(left=name, op=node.op, right=node.value), self.scope))
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self._target(node.target, (node.value, self.scope))
        self.generic_visit(node)

    def _loop(self, target, iterator):
        name = dotted(iterator.func) if isinstance(iterator, ast.Call) else None
        if name in ("range", "xrange"):
            self._target(target, INT)
        elif name == "enumerate" and isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2:
            self._target(target.elts[0], INT)
            self._target(target.elts[1], UNKNOWN)
        else:
            self._target(target, UNKNOWN)

    def visit_For(self, node):
        self._loop(node.target, node.iter)
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def visit_comprehension(self, node):
        self._loop(node.target, node.iter)
        self.generic_visit(node)

    def visit_withitem(self, node):
        if node.optional_vars is not None:
            self._target(node.optional_vars, UNKNOWN)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node):
        if node.name:
            self.scope.bind(node.name, UNKNOWN)
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            self.scope.bind((alias.asname or alias.name).split(".")[0], UNKNOWN)

    visit_ImportFrom = visit_Import

    def visit_Call(self, node):
        self.generic_visit(node)
        self._flag(node)

    def _flag(self, node):
        """``DEFINE_integer("n", ...)``, ``DEFINE_float``, ``add_argument("--n", type=int)``: the flag's kind."""
        name = dotted(node.func) or ""
        kinds = {"DEFINE_integer": INT, "DEFINE_float": FLOAT, "DEFINE_bool": INT, "DEFINE_boolean": INT}
        leaf = name.rsplit(".", 1)[-1]
        strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        keywords = {k.arg: k.value for k in node.keywords}
        if leaf in kinds and (strings or "name" in keywords):
            flag = strings[0] if strings else getattr(keywords["name"], "value", None)
            self.flags[str(flag)] = _join([self.flags.get(str(flag), TOP), kinds[leaf]])
        elif leaf == "add_argument" and strings and "type" in keywords:
            kind = {"int": INT, "float": FLOAT}.get(dotted(keywords["type"]) or "", UNKNOWN)
            dest = getattr(keywords.get("dest"), "value", None)
            longs = [s for s in strings if s.startswith("--")] or strings
            flag = dest if isinstance(dest, str) else longs[0].lstrip("-").replace("-", "_")
            self.flags[flag] = _join([self.flags.get(flag, TOP), kind])

    def _flag_object(self, node):
        """A name bound to ``...FLAGS`` or ``....parse_args(...)`` holds flags."""
        value = node.value
        name = dotted(value.func) if isinstance(value, ast.Call) else dotted(value)
        if name and (name.endswith("FLAGS") or name.endswith("parse_args")):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.flag_objects.add(target.id)


def future_division(tree) -> bool:
    """Whether the module has ``from __future__ import division``."""
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(a.name == "division" for a in node.names)
        for node in tree.body
    )


def _arith(a, b):
    a, b = (UNKNOWN if k == SHAPE else k for k in (a, b))
    if FLOAT in (a, b):
        return FLOAT
    if UNKNOWN in (a, b):
        return UNKNOWN
    return TOP if TOP in (a, b) else INT


def _dtype_kind(node):
    name = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else dotted(node)
    leaf = (name or "").rsplit(".", 1)[-1]
    return INT if leaf in _INT_TYPES else FLOAT if leaf in _FLOAT_TYPES else UNKNOWN


class _Kinds:
    """The Python 2 kind (INT, FLOAT or UNKNOWN) of each name and expression of a module: the greatest fixed point
    of every name's sources (a name assigned ``0`` and ``n + 1`` is an integer)."""

    def __init__(self, binder: _Binder) -> None:
        self.binder = binder
        self.values: Dict[Tuple[int, str], str] = {}
        entries = [(scope, name, sources) for scope in binder.scopes for name, sources in scope.sources.items()]
        for scope, name, _ in entries:
            self.values[(id(scope), name)] = TOP
        for _ in range(100):  # each round lowers some name; the lattice has three levels
            changed = False
            for scope, name, sources in entries:
                new = _join(s if isinstance(s, str) else self.kind(*s) for s in sources)
                if new != self.values[(id(scope), name)]:
                    self.values[(id(scope), name)], changed = new, True
            if not changed:
                break

    def final(self, node, scope):
        kind = self.kind(node, scope)
        return UNKNOWN if kind in (TOP, SHAPE) else kind

    def kind(self, node, scope):
        if isinstance(node, ast.Constant):
            value = node.value
            return INT if isinstance(value, int) else FLOAT if isinstance(value, float) else UNKNOWN
        if isinstance(node, ast.Name):
            owner = scope.lookup(node.id)
            return self.values.get((id(owner), node.id), UNKNOWN) if owner else UNKNOWN
        if isinstance(node, ast.BinOp):
            return self._binop(node, scope)
        if isinstance(node, ast.UnaryOp):
            return INT if isinstance(node.op, ast.Not) else self.kind(node.operand, scope)
        if isinstance(node, ast.IfExp):
            return _join([self.kind(node.body, scope), self.kind(node.orelse, scope)])
        if isinstance(node, ast.Compare):
            return INT
        if _shape_source(node):
            return SHAPE
        if isinstance(node, ast.Call):
            return self._call(node, scope)
        if isinstance(node, ast.Subscript):
            scalar = not isinstance(node.slice, (ast.Slice, ast.Tuple))
            return INT if scalar and self.kind(node.value, scope) == SHAPE else UNKNOWN
        if isinstance(node, ast.Attribute):
            return self._attribute(node, scope)
        return UNKNOWN

    def _binop(self, node, scope):
        left, right = self.kind(node.left, scope), self.kind(node.right, scope)
        op = node.op
        if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)):
            if isinstance(op, ast.Mod) and isinstance(node.left, (ast.Constant, ast.JoinedStr)) and left == UNKNOWN:
                return UNKNOWN  # string formatting
            return _arith(left, right)
        if isinstance(op, ast.Pow):
            exponent = node.right
            natural = isinstance(exponent, ast.Constant) and isinstance(exponent.value, int) and exponent.value >= 0
            natural = natural or (isinstance(exponent, ast.Call) and dotted(exponent.func) == "len")
            kind = _arith(left, right)
            return kind if kind != INT or natural else UNKNOWN  # 2 ** -1 was 0.5 in Python 2
        if isinstance(op, (ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor)):
            kind = _arith(left, right)
            return UNKNOWN if kind == FLOAT else kind
        return UNKNOWN

    def _call(self, node, scope):
        name = dotted(node.func) or ""
        args = node.args
        if name in _INT_CALLS or _ends(name, _INT_SUFFIXES):
            return INT
        if name in _FLOAT_CALLS or _ends(name, _FLOAT_SUFFIXES):
            return FLOAT
        if name.startswith("math."):
            return INT if name in ("math.factorial", "math.trunc") else FLOAT  # Python 2's floor/ceil: floats
        if name == "abs" and len(args) == 1:
            return self.kind(args[0], scope)
        if name in ("max", "min") and len(args) >= 2 and not any(isinstance(a, ast.Starred) for a in args):
            return _join([self.kind(a, scope) for a in args])
        head, _, leaf = name.rpartition(".")
        if head in ("np", "numpy") and leaf in _INT_TYPES | _FLOAT_TYPES:
            return _dtype_kind(node.func)
        if _ends(name, ("tf.cast",)):
            dtype = args[1] if len(args) > 1 else next((k.value for k in node.keywords if k.arg == "dtype"), None)
            return _dtype_kind(dtype) if dtype is not None else UNKNOWN
        if isinstance(node.func, ast.Attribute) and node.func.attr == "astype" and args:
            return _dtype_kind(args[0])
        return UNKNOWN

    def _attribute(self, node, scope):
        name = dotted(node)
        if name in ("math.pi", "math.e", "math.inf", "math.nan", "np.pi", "np.e", "numpy.pi"):
            return FLOAT
        if name in ("sys.maxint", "sys.maxsize") or node.attr == "num_examples":
            return INT  # num_examples: the MNIST tutorial's DataSet
        if node.attr == "value" and self.kind(node.value, scope) == INT:
            return INT  # Dimension.value
        receiver = dotted(node.value)
        flags = self.binder.flags
        if node.attr in flags and receiver and (receiver.endswith("FLAGS") or receiver in self.binder.flag_objects):
            return flags[node.attr]
        return UNKNOWN


def _char_col(lines, line, col):
    """The character column of UTF-8 byte offset ``col`` in 1-based ``line``."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8")[:col].decode("utf-8", "replace"))


def _first_line(lines, node):
    """The source of ``node`` on its first line (ast.get_source_segment splits the whole text at each call)."""
    text = lines[node.lineno - 1]
    start = _char_col(lines, node.lineno, node.col_offset)
    end = _char_col(lines, node.end_lineno, node.end_col_offset) if node.end_lineno == node.lineno else len(text)
    return text[start:end]


def _operators(text):
    """``[((line, col), string)]`` of every ``/`` and ``/=`` token, in order."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.OP and token.string in ("/", "/="):
            found.append((token.start, token.string))
    return found


def _sites(tree, binder, kinds):
    """``(node, left node, left kind, right kind)`` of every ``/`` and ``/=``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            scope = binder.scope_of.get(node, binder.module)
            yield node, node.left, kinds.final(node.left, scope), kinds.final(node.right, scope)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div):
            scope = binder.scope_of.get(node, binder.module)
            left = kinds.final(node.target, scope) if isinstance(node.target, ast.Name) else UNKNOWN
            yield node, node.target, left, kinds.final(node.value, scope)


def divisions(text: str, tree: Optional[ast.Module] = None) -> List[Division]:
    """Every ``/`` and ``/=`` of Python 3 source ``text`` (parsed: ``tree``) that Python 2 may have floored, with the
    decision.

    None for a file with ``from __future__ import division``; a ``/`` with a float operand is left out.
    """
    tree = ast.parse(text) if tree is None else tree
    if future_division(tree):
        return []
    binder = _Binder()
    binder.visit(tree)
    kinds = _Kinds(binder)
    lines = text.split("\n")
    operators = _operators(text)
    starts = [start for start, _ in operators]
    found = []
    for node, left, left_kind, right_kind in _sites(tree, binder, kinds):
        if FLOAT in (left_kind, right_kind):
            continue
        end = (left.end_lineno, _char_col(lines, left.end_lineno, left.end_col_offset))
        index = bisect.bisect_left(starts, end)
        want = "/=" if isinstance(node, ast.AugAssign) else "/"
        while index < len(operators) and operators[index][1] != want:
            index += 1
        if index == len(operators):
            continue
        (line, col), _ = operators[index]
        found.append(Division(line, col, _first_line(lines, node)[:80], left_kind == right_kind == INT))
    return sorted(found)


def floor_divisions(text: str, found: List[Division]) -> str:
    """``text`` with each ``/`` of ``found`` whose ``floor`` is set written ``//``."""
    lines = text.split("\n")
    for division in sorted(found, key=lambda d: (d.line, -d.col)):
        if division.floor:
            line = lines[division.line - 1]
            lines[division.line - 1] = line[: division.col] + "/" + line[division.col :]
    return "\n".join(lines)


__all__ = ["Division", "divisions", "floor_divisions", "future_division", "dotted", "INT", "FLOAT", "UNKNOWN"]
