"""Python 2 sources to Python 3, before the TensorFlow conversion (docs/upgrade.rst, "Python 2 sources").

A file goes through this pass when it is Python 2 (``why``): it does not parse as Python 3, or it names what only
Python 2 has (``xrange``, ``dict.iteritems``, ``import cPickle``, ...) outside a version check or an ``except
ImportError``, or its notebook kernel is Python 2; ``python2="always"`` / ``"never"`` decide instead. The pass runs
2to3's fixers from fissix (the maintained fork of lib2to3, which Python 3.13 removed) and tf1clip's own
(``_py2_fixers``), then Python 2's integer division (``_py2_division``). Each change is an INFO at its line, each
doubt a WARNING; the result's ``line`` maps a line of the Python 3 text back to the input's.
"""

import ast
import difflib
import os
import re
import threading
from typing import Dict, List, NamedTuple, Optional, Tuple

from tf1clip.upgrade import _py2_division
from tf1clip.upgrade._results import LogEntry
from tf1clip.upgrade._tables import INFO, WARNING

CHOICES = ("auto", "always", "never")
REQUIREMENT = "fissix>=24.4"
# fissix's fixers not run: import (an implicit relative import is reported instead: `from . import x` breaks the
# script run from its folder, the usual way to run a TF 1 program), future (__future__ imports are valid Python 3),
# and the optional ones 2to3 skips by default (buffer, idioms, set_literal, ws_comma).
SKIPPED = {"import", "future", "buffer", "idioms", "set_literal", "ws_comma"}
NOTES = {
    "apply": "apply(f, args) is f(*args)",
    "asserts": "unittest's deprecated assert names renamed",
    "basestring": "basestring is str",
    "dict": "d.iteritems()/iterkeys()/itervalues() are d.items()/keys()/values(), and keys()/items()/values() "
    "are wrapped in list() where Python 2's list was used",
    "except": "except E, e is except E as e",
    "exec": "the exec statement is exec()",
    "execfile": "execfile(f) is exec(open(f).read())",
    "exitfunc": "sys.exitfunc is atexit.register",
    "filter": "filter() is wrapped in list() where Python 2's list was used",
    "funcattrs": "f.func_name (func_code, ...) is f.__name__ (__code__, ...)",
    "getcwdu": "os.getcwdu() is os.getcwd()",
    "has_key": "d.has_key(k) is k in d",
    "imports": "a Python 2 module's Python 3 name (cPickle: pickle, StringIO: io, urllib2: urllib.request, ...)",
    "imports2": "a Python 2 module's Python 3 name",
    "input": "Python 2's input() evaluated what was typed: eval(input())",
    "intern": "intern() is sys.intern()",
    "isinstance": "a type repeated in isinstance() removed",
    "itertools": "itertools.izip/imap/ifilter are zip/map/filter",
    "itertools_imports": "itertools.izip/imap/ifilter are zip/map/filter",
    "long": "long is int",
    "map": "map() is wrapped in list() where Python 2's list was used",
    "metaclass": "__metaclass__ is class C(metaclass=...)",
    "methodattrs": "m.im_func (im_self, im_class) is m.__func__ (__self__, ...)",
    "ne": "<> is !=",
    "next": "it.next() is next(it), def next is def __next__",
    "nonzero": "__nonzero__ is __bool__",
    "numliterals": "0777 is 0o777, 10L is 10",
    "operator": "an operator function Python 3 removed, rewritten",
    "paren": "[x for x in 1, 2] is [x for x in (1, 2)]",
    "print": "the print statement is print() (print >>f, x is print(x, file=f))",
    "raise": "raise E, message is raise E(message)",
    "raw_input": "raw_input() is input()",
    "reduce": "reduce is functools.reduce (imported)",
    "reload": "reload() is importlib.reload()",
    "renames": "sys.maxint is sys.maxsize",
    "repr": "`x` is repr(x)",
    "sorted": "sorted/sort(cmp=f) is key=functools.cmp_to_key(f)",
    "standarderror": "StandardError is Exception",
    "sys_exc": "sys.exc_type/exc_value/exc_traceback are sys.exc_info()",
    "throw": "g.throw(E, v) is g.throw(E(v))",
    "tuple_params": "a tuple parameter def f((a, b)) is unpacked in the body",
    "types": "types.StringType (IntType, ...) is the type itself",
    "unicode": "unicode is str, u'...' is '...'",
    "urllib": "urllib/urllib2 functions are in urllib.request/parse/error",
    "xrange": "xrange is range, and range() is wrapped in list() where Python 2's list was used",
    "xreadlines": "f.xreadlines() is f",
    "zip": "zip() is wrapped in list() where Python 2's list was used",
    "string": "string.letters/lowercase/uppercase are string.ascii_* (Python 2's in the C locale); "
    "string.maketrans is str.maketrans",
    "file": "file() is open()",
    "pickle": "pickle.load/loads get encoding='latin1' (what Python 2 pickled, its str and NumPy arrays, reads as "
    "Python 2 read it), and the file pickle reads or writes is opened in binary mode ('rb', 'wb'), as Python 2 "
    "read and wrote it on POSIX",
}
_PREFIX = "Python 2 -> 3: "
ALWAYS = "python2='always'"
PRINT = "print statement"
KERNEL = "its notebook kernel is Python 2"
_BUILTINS = {
    "xrange",
    "unicode",
    "basestring",
    "raw_input",
    "unichr",
    "long",
    "execfile",
    "file",
    "reduce",
    "cmp",
    "apply",
    "buffer",
    "intern",
    "coerce",
    "reload",
}
_METHODS = {"iteritems", "iterkeys", "itervalues", "has_key"}
_MODULES = {
    "cPickle",
    "cStringIO",
    "StringIO",
    "urllib2",
    "urlparse",
    "ConfigParser",
    "Queue",
    "Tkinter",
    "__builtin__",
    "commands",
    "httplib",
    "HTMLParser",
    "cookielib",
    "SocketServer",
    "copy_reg",
    "thread",
}
_ATTRIBUTES = {
    "itertools.izip",
    "itertools.imap",
    "itertools.ifilter",
    "itertools.izip_longest",
    "sys.maxint",
    "os.getcwdu",
    "string.letters",
    "string.maketrans",
    "urllib.urlopen",
    "urllib.urlretrieve",
    "urllib.urlencode",
    "urllib.quote",
}
_GUARDS = {"NameError", "ImportError", "ModuleNotFoundError", "AttributeError", "Exception"}
_LOCK = threading.Lock()
_TOOLS: Dict[bool, object] = {}


class FissixMissing(ImportError):
    """fissix, which converts Python 2 sources, cannot be imported; the message says what to install."""


class Conversion(NamedTuple):
    """The Python 3 ``text``, the pass's ``log`` (input lines) and ``lines``: input line of each text line."""

    text: str
    log: List[Tuple[str, int, int, str]]
    lines: Optional[List[int]]

    def line(self, number: int) -> int:
        """The input line of line ``number`` of ``text`` (0 stays 0)."""
        if self.lines is None or number <= 0:
            return number
        return self.lines[min(number, len(self.lines)) - 1]


def check_choice(python2: str) -> str:
    if python2 not in CHOICES:
        raise ValueError("python2 must be one of %s, got %r" % (", ".join(CHOICES), python2))
    return python2


def _guarded(node):
    """Whether ``node`` (an ``if`` or ``try``) keeps Python 2 names from Python 3: a version test, or a handler for
    the error a Python 2 name raises."""
    if isinstance(node, ast.If):
        return any(
            isinstance(n, (ast.Name, ast.Attribute))
            and (getattr(n, "id", None) or n.attr) in {"version_info", "PY2"}
            or isinstance(n, ast.Attribute)
            and n.attr == "version"
            for n in ast.walk(node.test)
        )
    if isinstance(node, ast.Try):
        caught = {_py2_division.dotted(n) or "" for h in node.handlers for n in ast.walk(h.type or ast.Pass())}
        return any(h.type is None for h in node.handlers) or bool({c.rsplit(".", 1)[-1] for c in caught} & _GUARDS)
    return False


def _bound_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _marker(node, bound):
    """What Python 2 name ``node`` is (``"xrange"``, ``".iteritems()"``, ``"import cPickle"``), else None."""
    if _print_statement(node):
        return PRINT
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in _BUILTINS - bound:
        return node.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _METHODS:
        return ".%s()" % node.func.attr
    if isinstance(node, ast.Attribute) and _py2_division.dotted(node) in _ATTRIBUTES:
        return _py2_division.dotted(node)
    if isinstance(node, ast.Import):
        modules = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom) and not node.level:
        modules = [node.module or ""] + ["%s.%s" % (node.module, a.name) for a in node.names]
    else:
        return None
    hits = [m for m in modules if m.split(".")[0] in _MODULES or m in _ATTRIBUTES]
    return "import %s" % hits[0] if hits else None


def _print_statement(node):
    """``print >>f, x`` and a bare ``print``: Python 2 print statements that also parse as Python 3 (and do nothing
    there, or fail)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift):
        return isinstance(node.left, ast.Name) and node.left.id == "print"
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Name) and node.value.id == "print"


def markers(tree) -> List[Tuple[int, str]]:
    """``(line, name)`` of each name only Python 2 has, outside version checks and guarded ``try`` blocks."""
    bound = _bound_names(tree)
    found = []

    def walk(node, guarded):
        guarded = guarded or _guarded(node)
        what = None if guarded else _marker(node, bound)
        if what:
            found.append((node.lineno, what))
        for child in ast.iter_child_nodes(node):
            walk(child, guarded)

    walk(tree, False)
    return sorted(found)


def why(text: str, python2: str = "auto") -> Tuple[Optional[str], bool]:
    """``(reason, print_function)``: why ``text`` is taken as Python 2 (None: it is not), and whether its prints are
    calls (it parses as Python 3, with no print statement that Python 3 also parses, such as ``print >>f, x``)."""
    if check_choice(python2) == "never":
        return None, True
    try:
        tree = ast.parse(text)
    except SyntaxError as err:
        return "it does not parse as Python 3 (line %s: %s)" % (err.lineno, err.msg), False
    except (ValueError, RecursionError, MemoryError):
        return None, False
    found = markers(tree)
    calls = not any(name == PRINT for _, name in found)
    if python2 == "always":
        return ALWAYS, calls
    if found:
        line, name = found[0]
        return "it uses Python 2's %s (line %d)" % (name, line), calls
    return None, True


def _fissix():
    try:
        from fissix import refactor
    except ImportError as err:
        raise FissixMissing(
            "converting Python 2 sources needs fissix (%s), which cannot be imported here (%s); install it: "
            "pip install '%s', or reinstall tf1clip" % (REQUIREMENT, err, REQUIREMENT)
        ) from err
    except OSError as err:  # fissix writes its grammar tables under the user's cache folder on import
        raise FissixMissing(
            "fissix cannot write its grammar cache (%s); set XDG_CACHE_HOME to a writable folder" % err
        ) from err
    return refactor


def _watch(tool, fixer):
    """Records ``(line, fixer name)`` in ``tool.changes`` each time ``fixer`` changes the tree."""
    name = getattr(fixer, "tf1clip_name", None) or type(fixer).__module__.rsplit(".fix_", 1)[-1]
    transform = fixer.transform

    def watched(node, results):
        line, before, attached = _line_of(node), str(node), node.parent is not None
        new = transform(node, results)
        replaced = attached and node.parent is None  # the fixer replaced the node itself
        if name == "reduce" or replaced or str(node if new is None else new) != before:
            tool.changes.append((line, name))
        return new

    fixer.transform = watched


def _line_of(node):
    while node is not None:
        for leaf in node.leaves():
            if leaf.lineno:
                return leaf.lineno
        node = node.parent
    return 0


def _tool(print_statement):
    """fissix's RefactoringTool with the fixers run here (made once per grammar)."""
    if print_statement in _TOOLS:
        return _TOOLS[print_statement]
    refactor = _fissix()
    from tf1clip.upgrade import _py2_fixers

    class Tool(refactor.RefactoringTool):
        def get_fixers(self):
            self.changes = []
            pre, post = super().get_fixers()
            post += [fixer(self.options, self.fixer_log) for fixer in _py2_fixers.FIXERS]
            for fixer in pre + post:
                _watch(self, fixer)
                if type(fixer).__name__ == "FixSorted":
                    _py2_fixers.presort(fixer)
            return pre, post

    names = [n for n in refactor.get_fixers_from_package("fissix.fixes") if n.rsplit(".fix_", 1)[1] not in SKIPPED]
    _TOOLS[print_statement] = Tool(names, {"print_function": not print_statement})
    return _TOOLS[print_statement]


def _run(text, print_statement):
    """``(Python 3 text, [(line, fixer)], [fixer messages], [lines of files opened binary])``; raises on a parse
    error."""
    with _LOCK:
        tool = _tool(print_statement)
        tool.changes = []
        del tool.fixer_log[:]
        tree = tool.refactor_string(text if text.endswith("\n") else text + "\n", "<python 2 source>")
        pickle = [f for f in tool.post_order if getattr(f, "tf1clip_name", None) == "pickle"]
        opened = list(getattr(pickle[0], "opened", [])) if pickle else []
        result = (str(tree), list(tool.changes), list(tool.fixer_log), opened)
    new = result[0] if text.endswith("\n") else result[0][:-1]
    return (new,) + result[1:]


def _fixer_log(changes, messages, opened):
    """The INFO per changed line and fixer, a WARNING per fixer message (``round`` once, naming its lines)."""
    log = []
    for line, name in sorted(set(changes)):
        log.append((INFO, line, 0, _PREFIX + NOTES.get(name, "fissix's fix_" + name) + "."))
    for line in sorted(set(opened) - {line for line, name in changes if name == "pickle"}):
        message = "this file is opened in binary mode ('rb', 'wb') for pickle, as Python 2 read and wrote it on POSIX."
        log.append((INFO, line, 0, _PREFIX + message))
    warnings = []
    for message in messages:
        match = re.match(r"Line (\d+): (.*)", message, re.S)
        if match:
            warnings.append([int(match.group(1)), match.group(2)])
        elif warnings and not message.startswith("###"):
            warnings[-1][1] += " " + message
    from tf1clip.upgrade._py2_fixers import ROUND_WARNING

    rounds = sorted({line for line, text in warnings if text == ROUND_WARNING})
    if rounds:
        lines = "" if len(rounds) == 1 else " Lines: %s." % ", ".join(str(n) for n in rounds)
        log.append((WARNING, rounds[0], 0, _PREFIX + ROUND_WARNING + "." + lines))
    log += [(WARNING, line, 0, _PREFIX + text) for line, text in warnings if text != ROUND_WARNING]
    return log


def _line_map(old, new):
    """The 1-based input line of each line of ``new`` (``old`` converted)."""
    a, b = old.split("\n"), new.split("\n")
    origin = [0] * len(b)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for j in range(j1, j2):
            if tag == "equal":
                origin[j] = i1 + (j - j1) + 1
            else:
                origin[j] = min(i1 + min(j - j1, max(i2 - i1 - 1, 0)), len(a) - 1) + 1
    return origin


def _division_log(found, conversion_line):
    log = []
    for d in found:
        line = conversion_line(d.line)
        if d.floor:
            message = "`%s` divides two integers, which Python 2 floored: now `//`." % d.text
            log.append((INFO, line, d.col, _PREFIX + message))
        else:
            message = (
                "`%s`: Python 2 floored `/` when both operands were integers (ints, integer arrays or tensors, "
                "Dimensions) and Python 3 does not; kept `/`, since tf1clip-upgrade cannot tell what they hold here. "
                "Write `//` if both are integers (docs/upgrade.rst, 'Python 2 sources')." % d.text
            )
            log.append((WARNING, line, d.col, _PREFIX + message))
    return log


def _relative_imports(tree, path, conversion_line):
    """A WARNING at each implicit relative import (a module beside ``path``, in a package) of a Python 2 file."""
    directory = os.path.dirname(os.path.abspath(path)) if path else None
    if directory is None or not os.path.exists(os.path.join(directory, "__init__.py")):
        return []
    future = any(
        isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "absolute_import" for a in n.names)
        for n in tree.body
    )
    log = []
    for node in [] if future else ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            first = name.split(".")[0]
            if os.path.exists(os.path.join(directory, first + ".py")) or os.path.exists(
                os.path.join(directory, first, "__init__.py")
            ):
                message = (
                    "`%s` is an implicit relative import: Python 2 found %s beside this file, in package %s (it has "
                    "__init__.py), however the file was run. Python 3 finds it only when that folder is on sys.path "
                    "(the script run from there); imported as part of the package, it needs `from . import %s`. "
                    "Left as it was." % (name, first, os.path.basename(directory), first)
                )
                log.append((WARNING, conversion_line(node.lineno), node.col_offset, _PREFIX + message))
    return log


def _indent_columns(indent):
    """Python 2's width of a line's leading ``indent``: a tab moves to the next multiple of 8."""
    column = 0
    for char in indent:
        column = (column // 8 + 1) * 8 if char == "\t" else 0 if char == "\f" else column + 1
    return column


def expand_tabs(text: str) -> Tuple[str, List[int]]:
    """``text`` with every indentation holding a tab written in spaces, as wide as Python 2 took it (Python 3
    refuses tabs and spaces mixed inconsistently); lines inside a string are kept. Also the lines changed."""
    from fissix.pgen2 import tokenize as tokenize2

    inside: set = set()
    readline = iter(text.splitlines(True)).__next__
    try:
        for kind, _, start, end, _ in tokenize2.generate_tokens(readline):
            if kind == tokenize2.STRING and end[0] > start[0]:
                inside.update(range(start[0] + 1, end[0] + 1))
    except (tokenize2.TokenError, IndentationError, StopIteration):
        pass
    lines, changed = text.split("\n"), []
    for index, line in enumerate(lines):
        indent = line[: len(line) - len(line.lstrip(" \t\f"))]
        if "\t" in indent and index + 1 not in inside:
            lines[index] = " " * _indent_columns(indent) + line[len(indent) :]
            changed.append(index + 1)
    return "\n".join(lines), changed


def _tabs(new, conversion_line):
    """``new`` with tabs expanded where Python 3 refuses its indentation (TabError), and the INFO lines."""
    try:
        ast.parse(new)
        return new, []
    except TabError:
        pass
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return new, []
    new, changed = expand_tabs(new)
    note = (
        "the indentation mixed tabs and spaces, which Python 3 refuses: written in spaces, as wide as Python 2 "
        "took it (a tab to the next multiple of 8 columns), on %d lines from here." % len(changed)
    )
    return new, [(INFO, conversion_line(changed[0]), 0, _PREFIX + note)] if changed else []


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


def python2_kernel(notebook) -> bool:
    """Whether a parsed notebook's kernel is Python 2 (kernelspec ``python2``, or language_info version 2.x)."""
    metadata = _mapping(notebook.get("metadata"))
    spec, info = _mapping(metadata.get("kernelspec")), _mapping(metadata.get("language_info"))
    if spec.get("name"):
        return str(spec["name"]).lower() in ("python2", "python 2") or str(spec.get("display_name")) == "Python 2"
    return info.get("name") == "python" and str(info.get("version", "")).startswith("2.")


def kernel_log(log, notebook):
    """Gives ``notebook`` (converted as Python 2 for its kernel) a Python 3 kernel; the log that says so."""
    metadata = notebook.setdefault("metadata", {})
    metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    info = metadata.get("language_info")
    if isinstance(info, dict):
        info.pop("version", None)
        info["pygments_lexer"] = "ipython3"
        if isinstance(info.get("codemirror_mode"), dict):
            info["codemirror_mode"]["version"] = 3
    log = [e._replace(message=e.message.replace(ALWAYS, KERNEL)) if e.line == 0 else e for e in log]
    note = "The notebook's kernel was Python 2: its code was converted as Python 2, and its kernel is now python3."
    return [LogEntry(INFO, 0, 0, note)] + log


def to_python3(text: str, python2: str = "auto", path: Optional[str] = None) -> Conversion:
    """``text`` converted from Python 2 when it is Python 2 (``why``); else ``text`` unchanged, with no log.

    ``path``: the file's path, whose folder tells implicit relative imports. A Python 2 file that fissix cannot
    parse either is returned unchanged (the TensorFlow conversion then reports the syntax error).
    """
    reason, calls = why(text, python2)
    if reason is None:
        return Conversion(text, [], None)
    try:
        new, changes, messages, opened = _run(text, print_statement=not calls)
    except FissixMissing:
        raise
    except Exception:  # noqa: BLE001 - fissix's parse errors have no common class
        try:
            new, changes, messages, opened = _run(text, print_statement=calls)
        except Exception:  # noqa: BLE001
            return Conversion(text, [], None)
    head = (
        "This is Python 2 source (%s): converted to Python 3 first, with fissix's 2to3 fixers and tf1clip's "
        "rules (docs/upgrade.rst, 'Python 2 sources')." % reason
    )
    log = [(INFO, 0, 0, head)] + _fixer_log(changes, messages, opened)
    conversion = Conversion(new, log, _line_map(text, new))
    new, tab_log = _tabs(new, conversion.line)
    log += tab_log
    conversion = conversion._replace(text=new)
    try:
        tree = ast.parse(new)
        found = _py2_division.divisions(new, tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return conversion
    log += _division_log(found, conversion.line) + _relative_imports(tree, path, conversion.line)
    return conversion._replace(text=_py2_division.floor_divisions(new, found), log=sorted(log, key=lambda e: e[1]))


__all__ = [
    "CHOICES",
    "REQUIREMENT",
    "Conversion",
    "FissixMissing",
    "check_choice",
    "markers",
    "why",
    "to_python3",
    "python2_kernel",
    "kernel_log",
]
