"""Sources the parsers read only in part: the statements they cannot read are masked, the rest converted (no TF import).

A statement that neither Python 3's parser nor (for a Python 2 source) 2to3's reads, or that pasta cannot annotate,
is replaced by a marker statement (``_tf1clip_unparsed_<n>(k)``) and its other lines by marker comments, so the
masked text has the input's lines, and the report the input's line numbers. The marker is indented where a
statement may stand, and a block header that does not parse takes its block with it. After the conversion each
marker gets its statement's original lines back (``restore``), and each masked statement is an ERROR.

Statements are found at the tokenize level (``logical_lines``: brackets, strings, comments, backslashes), so
the scan needs no parse. Only the top-level chunks (a column-0 statement and what belongs to it) that do not parse
alone are searched, so the cost stays near one parse of the file.
"""

import ast
import re
import textwrap
from typing import List, NamedTuple, Optional, Tuple

from tf1clip.upgrade._tables import ERROR

_CONTINUATION = re.compile(r"(else|elif|except|finally)\b")
_IPYTHON = re.compile(r"\s*([%!?]|[\w.]+\?\??\s*$|[A-Za-z_][\w.]*\s*=\s*[!%])")
_CONFLICT = re.compile(r"(<{7}|={7}|>{7}|\|{7})(\s|$)")


class LostMarker(Exception):
    """The converted text lost a masked statement's marker (a converter bug, reported as an ERROR)."""


class Logical(NamedTuple):
    """A logical line: its first and last physical line (0-based), and whether it ends with ``:`` (opens a block)."""

    start: int
    end: int
    opens: bool


def _indent(line):
    return line[: len(line) - len(line.lstrip(" \t\f"))]


def logical_lines(lines: List[str]) -> List[Logical]:
    """The logical lines of ``lines``, blank and comment-only lines left out; a statement still open at the end of
    the text (an unclosed bracket or triple quote) is taken line by line."""
    out: List[Logical] = []
    depth, quote, start, last = 0, "", None, ""
    for number, line in enumerate(lines):
        if start is None:
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            start, last = number, ""
        continued, index, size = False, 0, len(line)
        while index < size:
            char = line[index]
            if quote:
                if char == "\\":
                    index += 2
                elif line.startswith(quote, index):
                    index += len(quote)
                    quote, last = "", "'"
                else:
                    index += 1
                continue
            if char == "#":
                break
            if char in "\"'":
                quote = line[index : index + 3] if line[index : index + 3] in ('"""', "'''") else char
                index += len(quote)
                continue
            if char == "\\" and not line[index + 1 :].strip():
                continued = True
                break
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth = max(depth - 1, 0)
            if not char.isspace():
                last = char
            index += 1
        if len(quote) == 1:
            quote = ""  # a one-quote string ends with its line
        if not quote and not depth and not continued:
            out.append(Logical(start, number, last == ":"))
            start = None
    if start is not None:
        out += [Logical(n, n, False) for n in range(start, len(lines)) if lines[n].strip()]
    return out


def _error_line(err) -> Optional[int]:
    """The 1-based line a parser's exception names (Python's, or fissix's ParseError/TokenError), else None."""
    if isinstance(err, SyntaxError):
        return err.lineno
    context = getattr(err, "context", None)
    if context and len(context) > 1 and context[1]:
        return context[1][0]
    return None  # fissix's TokenError names the end of the text, not the statement


_DRIVERS: list = []


def _fissix_errors(text) -> Optional[List[Optional[int]]]:
    """The line of 2to3's parse error with each of its grammars (print statement, print function); None: one of
    them reads ``text`` (or fissix is missing)."""
    try:
        if not _DRIVERS:
            from fissix import pygram
            from fissix import pytree
            from fissix.pgen2 import driver

            for grammar in (pygram.python_grammar, pygram.python_grammar_no_print_statement):
                _DRIVERS.append(driver.Driver(grammar, convert=pytree.convert))
    except Exception:  # noqa: BLE001 - no fissix (or no cache folder): Python 3's parser decides alone
        return None
    lines = []
    for parser in _DRIVERS:
        try:
            parser.parse_string(text if text.endswith("\n") else text + "\n")
            return None
        except Exception as err:  # noqa: BLE001 - fissix's parse errors have no common class
            lines.append(_error_line(err))
    return lines


def first_error(text: str, python2: bool) -> Optional[Tuple[Optional[int], str]]:
    """``(1-based line, Python 3's message)`` of the statement of ``text`` no parser reads; None: one reads it.

    ``python2``: 2to3's grammars may read it too; the error then is the furthest line a parser reached."""
    try:
        ast.parse(text)
        return None
    except SyntaxError as err:
        line, message = err.lineno, "%s: %s" % (type(err).__name__, err.msg)
    except (ValueError, RecursionError, MemoryError):
        return None  # not a syntax problem: the conversion reports it
    if python2:
        lines = _fissix_errors(text)
        if lines is None:
            return None
        known = [n for n in lines + [line] if n]
        line = max(known) if known else None
    return line, message


def _alone_message(text, fallback):
    try:
        ast.parse(textwrap.dedent(text))
    except SyntaxError as err:
        return "%s: %s" % (type(err).__name__, err.msg)
    except (ValueError, RecursionError, MemoryError):
        pass
    return fallback


def hint(line: str) -> str:
    """A sentence on what the unparsable ``line`` is, when it is an IPython line or a merge-conflict marker."""
    if _CONFLICT.match(line):
        return " It is a merge-conflict marker: resolve the conflict, then convert the file again."
    if _IPYTHON.match(line):
        return " An IPython line (%magic, !shell, ?help) is not Python: it runs in a notebook only."
    return ""


class Masked:
    """``original`` with the statements masked that the parsers cannot read (``text``)."""

    def __init__(self, original: str):
        self.original = original
        self.lines = original.split("\n")
        self.logical = logical_lines(self.lines)
        self._owner = {}
        for position, logical in enumerate(self.logical):
            for number in range(logical.start, logical.end + 1):
                self._owner[number] = position
        nonce = 0
        while "_tf1clip_unparsed_%d" % nonce in original:
            nonce += 1
        self._call = "_tf1clip_unparsed_%d" % nonce
        self._marker = re.compile(r"%s\((\d+)\)" % self._call)
        self._filler = "#" + self._call
        self.spans: List[List] = []  # [first, last physical line (0-based), message], in order
        self.text = original

    def masked(self, number: int) -> bool:
        """Whether physical line ``number`` (0-based) is masked."""
        return any(first <= number <= last for first, last, _ in self.spans)

    def mask(self, first: int, last: int, message: str):
        """Masks physical lines ``first`` to ``last`` (0-based; widened to whole logical lines) for ``message``."""
        first = self.logical[self._owner[first]].start if first in self._owner else first
        last = self.logical[self._owner[last]].end if last in self._owner else last
        keep = []
        for span in self.spans:
            if span[1] < first or span[0] > last:
                keep.append(span)
            else:
                first, last, message = min(first, span[0]), max(last, span[1]), span[2]
        self.spans = sorted(keep + [[first, last, message]])
        self.text = self._build()

    def _units(self):
        """The logical lines outside the masked spans and the spans (``[first, last, message]``), in order."""
        units, spans, position = [], list(self.spans), 0
        while position < len(self.logical) or spans:
            logical = self.logical[position] if position < len(self.logical) else None
            if spans and (logical is None or spans[0][0] <= logical.start):
                span = spans.pop(0)
                units.append(span)
                while position < len(self.logical) and self.logical[position].start <= span[1]:
                    position += 1
            else:
                units.append(logical)
                position += 1
        return units

    def _build(self):
        lines, indents, units = list(self.lines), {}, self._units()
        for place, unit in enumerate(units):
            if isinstance(unit, Logical):
                continue
            first, last, _ = unit
            before = units[place - 1] if place else None
            after = next((u for u in units[place + 1 :] if isinstance(u, Logical)), None)
            indent = ""
            if _indent(self.lines[first]) and before is not None:
                if isinstance(before, Logical):
                    indent = _indent(self.lines[before.start])
                    if before.opens:
                        deeper = _indent(self.lines[after.start]) if after is not None else ""
                        indent = deeper if len(deeper) > len(indent) else indent + "    "
                else:
                    indent = indents[before[0]]
            indents[first] = indent
            lines[first] = "%s%s(%d)" % (indent, self._call, place)
            for number in range(first + 1, last + 1):
                lines[number] = indent + self._filler
        self._places = {place: unit for place, unit in enumerate(units) if not isinstance(unit, Logical)}
        return "\n".join(lines)

    def _block_end(self, position):
        """The last physical line of the block that the header ``self.logical[position]`` opens."""
        header = self.logical[position]
        width, end = len(_indent(self.lines[header.start])), header.end
        for logical in self.logical[position + 1 :]:
            if len(_indent(self.lines[logical.start])) <= width:
                break
            end = logical.end
        return end

    def _chunks(self):
        """``(first, last)`` physical lines of each top-level chunk: a column-0 statement and the indented
        statements, ``else``/``except`` parts and decorated definition that belong to it."""
        chunks: List[List[int]] = []
        for logical in self.logical:
            line = self.lines[logical.start]
            joins = chunks and (
                _indent(line) or _CONTINUATION.match(line) or self.lines[chunks[-1][2]].lstrip().startswith("@")
            )
            if joins:
                chunks[-1][1] = logical.end
                if not _indent(line):
                    chunks[-1][2] = logical.start
            else:
                chunks.append([logical.start, logical.end, logical.start])
        return [(first, last) for first, last, _ in chunks]

    def _chunk_text(self, first, last):
        return "\n".join(self.text.split("\n")[first : last + 1]) + "\n"

    def mask_unparsable(self, python2: bool) -> bool:
        """Masks every statement that no parser reads; returns whether it masked any."""
        found = False
        for first, last in self._chunks():
            if first_error(self._chunk_text(first, last), python2) is None:
                continue
            found = True
            for _ in range(last - first + 2):
                error = first_error(self._chunk_text(first, last), python2)
                if error is None:
                    break
                line, message = error
                number = first + line - 1 if line else None
                if number is None or not first <= number <= last or self.masked(number):
                    self.mask(first, last, message)
                    break
                position = self._owner.get(number)
                if position is None:  # a blank or comment line: the statement that follows it
                    position = next((p for p, lg in enumerate(self.logical) if lg.start > number), None)
                    if position is None or self.logical[position].start > last:
                        self.mask(first, last, message)
                        break
                logical = self.logical[position]
                end = self._block_end(position) if logical.opens else logical.end
                text = "\n".join(self.lines[logical.start : logical.end + 1])
                self.mask(logical.start, end, _alone_message(text, message))
            else:
                self.mask(first, last, "SyntaxError")
        return found

    def mask_line(self, number: int, message: str) -> bool:
        """Masks the statement holding 1-based line ``number``; False when there is none or it is masked."""
        if not 1 <= number <= len(self.lines) or self.masked(number - 1) or number - 1 not in self._owner:
            return False
        logical = self.logical[self._owner[number - 1]]
        self.mask(logical.start, self._block_end(self._owner[number - 1]) if logical.opens else logical.end, message)
        return True

    def everything(self) -> bool:
        """Whether every statement is masked (nothing is left to convert)."""
        return all(self.masked(logical.start) for logical in self.logical)

    def restore(self, text: str) -> str:
        """The converted ``text`` with each masked statement's original lines back."""
        if not self.spans:
            return text
        out, seen = [], set()
        for line in text.split("\n"):
            stripped = line.strip()
            if stripped == self._filler:
                continue
            match = self._marker.fullmatch(stripped)
            if match and int(match.group(1)) in self._places:
                first, last, _ = self._places[int(match.group(1))]
                seen.add(int(match.group(1)))
                out += self.lines[first : last + 1]
            else:
                out.append(line)
        if seen != set(self._places):
            raise LostMarker("%d of %d masked statements were found" % (len(seen), len(self._places)))
        return "\n".join(out)

    def log(self) -> List[Tuple[str, int, int, str]]:
        """An ERROR at each masked statement."""
        entries = []
        for first, last, message in self.spans:
            where = "this line" if first == last else "these %d lines" % (last - first + 1)
            line = self.lines[first].strip()
            shown = line if len(line) <= 80 else line[:77] + "..."
            text = "Could not parse %s, left unchanged (%s): %r; the rest of the file was converted.%s" % (
                where,
                message,
                shown,
                hint(line),
            )
            entries.append((ERROR, first + 1, len(_indent(self.lines[first])), text))
        return entries


def parses(text: str, python2: bool) -> Optional[Tuple[int, str]]:
    """None when a parser reads ``text``; else ``(1-based line, Python 3's message)`` of its first error."""
    error = first_error(text, python2)
    if error is None:
        return None
    try:
        ast.parse(text)
    except SyntaxError as err:
        return err.lineno or 0, "%s: %s" % (type(err).__name__, err.msg)
    return error[0] or 0, error[1]


__all__ = ["Masked", "LostMarker", "logical_lines", "first_error", "parses", "hint"]
