"""A notebook's code cells as one program, and back (TensorFlow-free).

The code cells are converted together, so an import in one cell is seen by the
uses in the next. Each cell after the first starts with a marker *statement*
(``_tf1clip_cell_<n>(k)``), and the program ends with one; IPython lines
(``%magic``, ``!shell``, ``?help``, ``tf.nn?``, ``x = !cmd`` and their ``\\`` continuation
lines) become marker statements holding the line. Rules that delete, add or split
statements move neither kind (comments would be lost with a deleted statement:
pasta keeps a statement's leading comments in that statement), so the converted
program splits back into the same cells whatever a rule did to their lines.

Cells that are not Python (markdown, raw, empty, ``%%bash`` and other cell magics)
are left as they are; ``%%time``, ``%%timeit`` and ``%%capture`` cells are Python
after their first line.
"""

import ast
import re

_PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_ASSIGNED_MAGIC = re.compile(r"^\s*[A-Za-z_][\w.]*\s*=\s*[!%]")
_HELP = re.compile(r"^\s*[A-Za-z_][\w.]*\?\??\s*$")


class MovedCellBoundary(Exception):
    """The converted program lost or reordered a cell marker (a converter bug, reported as an ERROR)."""


def source_text(cell):
    """A cell's ``source`` (a string or a list of strings) as one string."""
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def source_lines(text):
    """``text`` as Jupyter's list of lines, each but the last ending with ``\\n``."""
    return _LINE.findall(text)


def _is_magic(line, continued):
    stripped = line.lstrip()
    return (
        continued
        or line.startswith(("%", "?"))
        or (stripped.startswith("!") and not stripped.startswith("!="))
        or bool(_ASSIGNED_MAGIC.match(line))
        or bool(_HELP.match(line))
    )


class _Cell:
    """One code cell: its index in the notebook, cell-magic head line, lines and final newline."""

    def __init__(self, index, text):
        self.index = index
        self.head = ""
        if text.startswith("%%"):
            self.head, _, text = text.partition("\n")
            self.head += "\n"
        self.newline = text.endswith("\n")
        self.lines = text.split("\n")[:-1] if self.newline else text.split("\n")


class NotebookCode:
    """The code cells of ``notebook`` (a parsed .ipynb) joined into ``code``; ``apply`` splits a conversion back.

    ``line(n)`` maps a line of ``code`` (1-based) to the line counted over the code
    cells' lines one after another, the numbering ``tf_upgrade_v2`` reports. The code cells whose
    indices are in ``skip`` are left as they are (``skipped``), their lines still counted.
    """

    def __init__(self, notebook, skip=()):
        self.notebook = notebook
        self.cells, self.skipped = [], []  # skipped: (cell, code-cell line number of its first line)
        self._skip = set(skip)
        for index, cell in enumerate(notebook["cells"]):
            text = source_text(cell)
            if cell.get("cell_type") != "code" or not text:
                continue
            if text.startswith("%%") and text.split(None, 1)[0] not in _PYTHON_CELL_MAGICS:
                continue
            self.cells.append(_Cell(index, text))
        nonce = 0
        joined = "\n".join(source_text(cell) for cell in notebook["cells"])
        while "_tf1clip_cell_%d" % nonce in joined or "_tf1clip_magic_%d" % nonce in joined:
            nonce += 1
        self._cell_call = "_tf1clip_cell_%d" % nonce
        self._magic_call = "_tf1clip_magic_%d" % nonce
        self._magic_line = re.compile(r"^\s*%s\((.*)\)\s*$" % self._magic_call)
        self.code, self._origin = self._join()

    def _join(self):
        code, origin, ranges, number = [], [], [], 0
        cells, self.cells = self.cells, []
        for cell in cells:
            if cell.index in self._skip:
                self.skipped.append((cell, number + 1))
                number += len(cell.lines)
                continue
            position = len(self.cells)
            self.cells.append(cell)
            if position:
                code.append("%s(%d)" % (self._cell_call, position))
                origin.append(number + 1)
            continued, indent, start = False, "", len(code)
            for line in cell.lines:
                number += 1
                origin.append(number)
                if _is_magic(line, continued):
                    indent = indent if continued else line[: len(line) - len(line.lstrip())]
                    code.append("%s%s(%r)" % (indent, self._magic_call, line))
                    continued = line.rstrip().endswith("\\")
                else:
                    code.append(line)
                    continued = False
            ranges.append((start, len(code)))
        code.append("%s(%d)" % (self._cell_call, len(self.cells)))
        origin.append(number + 1)
        self._ranges = ranges
        return "\n".join(code) + "\n", origin

    def line(self, number):
        """The code-cell line number of line ``number`` of ``code`` (0 stays 0)."""
        if number <= 0:
            return number
        return self._origin[min(number, len(self._origin)) - 1]

    def cell_codes(self):
        """``(cell, its code)`` of each converted cell, its IPython lines as marker statements."""
        lines = self.code.split("\n")
        return [(cell, "\n".join(lines[start:end]) + "\n") for cell, (start, end) in zip(self.cells, self._ranges)]

    def syntax_error(self):
        """``(notebook cell number from 1, line in it, message)`` of the first cell that fails to parse alone."""
        lines = self.code.split("\n")
        for cell, (start, end) in zip(self.cells, self._ranges):
            try:
                ast.parse("\n".join(lines[start:end]) + "\n")
            except SyntaxError as err:
                return cell.index + 1, (err.lineno or 0) + (1 if cell.head else 0), err.msg
        return None

    def _split(self, text):
        """The converted ``text`` as a list of line lists, one per code cell."""
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        cells, expected = [[]], 1
        for line in lines:
            if line.strip() == "%s(%d)" % (self._cell_call, expected):
                cells.append([])
                expected += 1
            elif self._cell_call in line:
                raise MovedCellBoundary("a cell boundary moved: %r" % line)
            else:
                match = self._magic_line.match(line)
                cells[-1].append(ast.literal_eval(match.group(1)) if match else line)
        if expected != len(self.cells) + 1:
            raise MovedCellBoundary("%d of %d cell boundaries were found" % (expected - 1, len(self.cells)))
        cells[-2].extend(cells.pop())  # what follows the end marker
        return cells

    def apply(self, text):
        """The notebook with its code cells replaced by the converted ``text``, every cell's source a list of lines."""
        for cell, lines in zip(self.cells, self._split(text)):
            new = cell.head + "\n".join(lines) + ("\n" if cell.newline and lines else "")
            self.notebook["cells"][cell.index]["source"] = new
        for cell in self.notebook["cells"]:
            if isinstance(cell.get("source"), str):
                cell["source"] = source_lines(cell["source"])
        return self.notebook


__all__ = ["NotebookCode", "MovedCellBoundary", "source_text", "source_lines"]
