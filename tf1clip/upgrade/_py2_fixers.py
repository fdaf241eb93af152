"""tf1clip's own 2to3 fixers (on fissix's tree), for what Python 2 TF 1 programs did that fissix's fixers leave.

* ``string.letters`` / ``lowercase`` / ``uppercase`` (locale-dependent in Python 2, ASCII in the C locale)
  become ``string.ascii_*``; ``string.maketrans`` becomes ``str.maketrans``.
* ``file(...)``, Python 2's builtin, becomes ``open(...)`` where the file binds no ``file`` of its own.
* ``pickle.load`` / ``loads`` (``cPickle`` too) get ``encoding="latin1"``, so what Python 2 pickled (its
  ``str``, NumPy arrays) reads as Python 2 read it; the file given to ``pickle.load`` / ``dump`` is opened in
  binary mode (``open(p)`` -> ``open(p, "rb")``, ``"w"`` -> ``"wb"``: the same bytes on POSIX in Python 2),
  inline or bound by the nearest ``with open(...) as f`` / ``f = open(...)``.
* ``round(...)``: reported, not changed (Python 2 rounded halves away from zero and returned a float).
"""

from fissix import fixer_base
from fissix.fixer_util import Comma, KeywordArg, Name, String, find_binding, is_probably_builtin
from fissix.pgen2 import token
from fissix.pygram import python_symbols as syms

ROUND_WARNING = (
    "round(x) in Python 2 returned a float and rounded halves away from zero (round(2.5) == 3.0); Python 3's "
    "returns an int for one argument and rounds halves to even (round(2.5) == 2): check where the result "
    "matters"
)


class FixStringConstants(fixer_base.BaseFix):
    """``string.letters`` -> ``string.ascii_letters`` (and lowercase, uppercase); ``string.maketrans`` -> ``str``."""

    BM_compatible = True
    PATTERN = "power< module='string' trailer< '.' name=('letters' | 'lowercase' | 'uppercase' | 'maketrans') > any* >"
    tf1clip_name = "string"

    def transform(self, node, results):
        name = results["name"][0] if isinstance(results["name"], list) else results["name"]
        if name.value == "maketrans":
            results["module"].replace(Name("str", prefix=results["module"].prefix))
        else:
            name.replace(Name("ascii_" + name.value, prefix=name.prefix))


class FixFile(fixer_base.BaseFix):
    """``file(...)`` -> ``open(...)``, where ``file`` is Python 2's builtin."""

    BM_compatible = True
    PATTERN = "power< name='file' trailer< '(' [any] ')' > any* >"
    tf1clip_name = "file"

    def transform(self, node, results):
        name = results["name"]
        root = node
        while root.parent is not None:
            root = root.parent
        if is_probably_builtin(name) and find_binding("file", root) is None:
            name.replace(Name("open", prefix=name.prefix))


class FixRound(fixer_base.BaseFix):
    """Reports ``round(...)`` (no change)."""

    BM_compatible = True
    PATTERN = "power< name='round' trailer< '(' any ')' > any* >"
    tf1clip_name = "round"

    def transform(self, node, results):
        if is_probably_builtin(results["name"]):
            self.warning(node, ROUND_WARNING)


def _arguments(trailer):
    """The argument nodes of a call's ``(...)`` trailer (commas left out)."""
    inner = trailer.children[1] if len(trailer.children) == 3 else None
    if inner is None:
        return []
    if inner.type == syms.arglist:
        return [c for c in inner.children if c.type != token.COMMA]
    return [inner]


def _add_argument(trailer, argument):
    """Appends ``argument`` (a node) to a call's ``(...)`` trailer."""
    inner = trailer.children[1] if len(trailer.children) == 3 else None
    if inner is None:
        trailer.insert_child(1, argument)
    elif inner.type == syms.arglist:
        inner.append_child(Comma())
        inner.append_child(argument)
    else:
        inner.replace(_arglist([inner.clone(), Comma(), argument]))


def _arglist(children):
    from fissix.pytree import Node

    return Node(syms.arglist, children)


def _open_call(node):
    """The ``(...)`` trailer of ``node`` when it is a call ``open(...)``."""
    if node.type == syms.power and node.children[0].type == token.NAME and node.children[0].value == "open":
        trailers = node.children[1:]
        if len(trailers) == 1 and trailers[0].children[0].value == "(":
            return trailers[0]
    return None


def _binary_mode(trailer, reading):
    """Makes ``open(...)`` (its trailer) binary: ``"w"`` -> ``"wb"``; no mode -> ``"rb"`` when ``reading``."""
    arguments = _arguments(trailer)
    modes = [a for a in arguments if a.type == syms.argument and a.children[0].value == "mode"]
    mode = modes[0].children[2] if modes else (arguments[1] if len(arguments) > 1 else None)
    if mode is None:
        if reading and len(arguments) == 1:
            _add_argument(trailer, String(' "rb"'))
            return True
        return False
    if mode.type != token.STRING or "b" in mode.value.strip("'\"") or mode.value[-1] not in "'\"":
        return False
    mode.replace(String(mode.value[:-1] + "b" + mode.value[-1], prefix=mode.prefix))
    return True


def _bound_open(name_leaf):
    """The ``open(...)`` trailer bound to ``name_leaf``'s name by the nearest ``with ... as`` or assignment."""
    name, node = name_leaf.value, name_leaf
    while node.parent is not None:
        parent = node.parent
        if parent.type == syms.with_stmt:
            for item in parent.children:
                found = _with_item_open(item, name)
                if found is not None:
                    return found
        if parent.type in (syms.suite, syms.file_input):
            for statement in reversed(parent.children[: parent.children.index(node)]):
                found = _assigned_open(statement, name)
                if found is not None:
                    return found
        node = parent
    return None


def _with_item_open(item, name):
    if item.type == syms.with_item and len(item.children) == 3:
        target = item.children[2]
        if target.type == token.NAME and target.value == name:
            return _open_call(item.children[0])
    return None


def _assigned_open(statement, name):
    expression = statement.children[0] if statement.type == syms.simple_stmt else None
    if expression is not None and expression.type == syms.expr_stmt and len(expression.children) == 3:
        target, sign, value = expression.children
        if target.type == token.NAME and target.value == name and sign.value == "=":
            return _open_call(value)
    return None


class FixPickle(fixer_base.BaseFix):
    """``pickle.load(f)`` -> ``pickle.load(f, encoding="latin1")``; binary modes for the files pickle uses."""

    BM_compatible = True
    PATTERN = """
        power< module=('pickle' | 'cPickle') trailer< '.' method=('load' | 'loads' | 'dump') >
               call=trailer< '(' [any] ')' > >
    """
    tf1clip_name = "pickle"

    def start_tree(self, tree, filename):
        super().start_tree(tree, filename)
        self.opened = []  # the lines of the open(...) calls made binary

    def transform(self, node, results):
        method = results["method"][0] if isinstance(results["method"], list) else results["method"]
        call = results["call"]
        arguments = _arguments(call)
        keywords = [a.children[0].value for a in arguments if a.type == syms.argument]
        position = 0 if method.value == "load" else 1 if method.value == "dump" else None
        if position is not None and len(arguments) > position and arguments[position].type != syms.argument:
            handle = arguments[position]
            trailer = _open_call(handle) if handle.type == syms.power else None
            if trailer is None and handle.type == token.NAME:
                trailer = _bound_open(handle)
            if trailer is not None and _binary_mode(trailer, reading=method.value == "load"):
                self.opened.append(trailer.parent.get_lineno())
        if method.value in ("load", "loads") and arguments and "encoding" not in keywords:
            _add_argument(call, KeywordArg(Name("encoding", prefix=" "), String('"latin1"')))


def presort(fixer):
    """Makes fissix's ``fix_sorted`` (not run by the bottom matcher: its pattern is tried on every node, a third of
    the pass's time on a 1,000-line file) look first whether the node calls ``sorted`` or ``.sort``."""
    match = fixer.match

    def quick(node):
        children = getattr(node, "children", None)
        if node.type != syms.power or not children:
            return False
        calls_sorted = children[0].type == token.NAME and children[0].value == "sorted"
        if not calls_sorted and not any(_is_sort(child) for child in children[1:]):
            return False
        return match(node)

    fixer.match = quick


def _is_sort(trailer):
    children = trailer.children if trailer.type == syms.trailer else ()
    return len(children) == 2 and children[0].value == "." and children[1].value == "sort"


FIXERS = (FixStringConstants, FixFile, FixPickle, FixRound)

__all__ = ["FIXERS", "ROUND_WARNING", "presort"]
