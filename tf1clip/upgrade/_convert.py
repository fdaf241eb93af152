"""Converting sources, files, notebooks and trees; every function returns results, none prints."""

import ast
import contextlib
import importlib.util
import io
import json
import os
import re
import shutil
import stat
import tempfile
import tokenize
import traceback
from typing import List, NamedTuple, Optional

from tf1clip.upgrade import _partial
from tf1clip.upgrade import _py2
from tf1clip.upgrade._fixes import finish
from tf1clip.upgrade._notebook import MovedCellBoundary
from tf1clip.upgrade._notebook import NotebookCode
from tf1clip.upgrade._results import FileResult
from tf1clip.upgrade._results import LogEntry
from tf1clip.upgrade._results import TensorFlowMissing
from tf1clip.upgrade._results import needs_of
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO
from tf1clip.upgrade._tables import WARNING

# (a part of a tf_upgrade_v2 WARNING, when the converted file makes it moot)
MOOT_WARNINGS = (
    # tf.get_variable makes TF 1's reference variables under disable_v2_behavior().
    ("returns ResourceVariables by default in 2.0", lambda old, new: "disable_v2_behavior()" in new),
    # "*.save": about Keras' model.save; a file that never names Keras saves with a tf.train.Saver.
    ("Keras model.save now saves to the Tensorflow SavedModel format", lambda old, new: "keras" not in old.lower()),
)

TARGETS = ("auto", "modern", "estimator")
_TEMP_PREFIX = ".tf1clip-upgrade-"


class SourceResult(NamedTuple):
    """A converted source: its new text, the log, and the statements added so that it runs."""

    text: str
    log: List[LogEntry]
    added: List[str]


class _Unconvertible(Exception):
    """The input cannot be converted (not a bug): the message becomes the file's ERROR line."""


def resolve_target(target: str) -> str:
    """``"estimator"`` or ``"modern"``; ``"auto"`` is ``"estimator"`` when tensorflow-estimator runs here."""
    if target not in TARGETS:
        raise ValueError("target must be one of %s, got %r" % (", ".join(TARGETS), target))
    if target != "auto":
        return target
    from tf1clip.upgrade import _engine

    if _engine.tensorflow_version() < (2, 16) and importlib.util.find_spec("tensorflow_estimator"):
        return "estimator"
    return "modern"


def _dedupe(log):
    """Sorted by position, one issue per position: an ERROR absorbs the other issues reported there.

    tf_upgrade_v2 and tf1clip may both report one symbol; the ERROR keeps the other's advice.
    """
    groups = {}
    for entry in sorted(log, key=lambda e: (e[1], e[2])):
        groups.setdefault((entry[1], entry[2]), []).append(entry)
    out = []
    for (line, col), entries in groups.items():
        errors = [e for e in entries if e[0] == ERROR]
        others = [e for e in entries if e[0] != ERROR and (not errors or e[0] == INFO)]
        if errors:
            extra = [e[3] for e in entries if e[0] != INFO and e is not errors[0] and e[3] != errors[0][3]]
            message = errors[0][3] + "".join(" Also: " + text for text in dict.fromkeys(extra))
            others.insert(0, (ERROR, line, col, message))
        seen = set()
        for entry in others:
            if entry not in seen:
                seen.add(entry)
                out.append(LogEntry(*entry))
    return out


def merge_repeated_errors(log):
    """One ERROR per distinct message: the first keeps its position and lists every line it was reported at."""
    lines = {}
    for entry in log:
        if entry.severity == ERROR:
            lines.setdefault(entry.message, []).append(entry.line)
    out, done = [], set()
    for entry in log:
        if entry.severity != ERROR or len(lines[entry.message]) == 1:
            out.append(entry)
        elif entry.message not in done:
            done.add(entry.message)
            listed = ", ".join(str(n) for n in dict.fromkeys(lines[entry.message]))
            out.append(entry._replace(message="%s Lines: %s." % (entry.message, listed)))
    return out


def upgrade_source(
    text: str,
    mode: str = "DEFAULT",
    target: str = "auto",
    upgrade_compat_v1_import: bool = True,
    python2: str = "auto",
    path: Optional[str] = None,
) -> SourceResult:
    """Converts Python source ``text``; raises SyntaxError (and friends) when no statement of it can be parsed.

    ``mode``: ``"DEFAULT"`` or ``"SAFETY"`` as in ``tf_upgrade_v2``; ``target``:
    ``"modern"`` (TF 2.16+: Estimator code is reported), ``"estimator"`` (TF 2.15 +
    tensorflow-estimator: converted as TF 2.15's ``tf_upgrade_v2`` does) or ``"auto"``
    (the installed one). ``python2``: ``"auto"`` converts Python 2 source to Python 3 first
    (docs/upgrade.rst, "Python 2 sources"), ``"always"`` takes any source as Python 2, ``"never"``
    skips that pass; ``path``: where the file is (for Python 2's implicit relative imports).
    A statement that no parser reads is kept as it is, with an ERROR at its line (``_partial``).
    Log lines are the input's.
    """
    from tf1clip.upgrade import _engine
    from tf1clip.upgrade._rules import make_spec

    if mode not in ("DEFAULT", "SAFETY"):
        raise ValueError("mode must be 'DEFAULT' or 'SAFETY', got %r" % (mode,))
    target = resolve_target(target)
    spec = make_spec(mode, target, upgrade_compat_v1_import)
    masked = _partial.Masked(text)
    py2, tree = _parse(masked, python2, path)
    reads_tf = any(isinstance(node, ast.Name) and node.id == "tf" for node in ast.walk(tree))
    with contextlib.redirect_stdout(io.StringIO()):  # the engine prints each log line
        tree, pre_log, _ = spec.preprocess(tree)
        visitor = _engine.PastaEditVisitor(spec)
        visitor.visit(tree)
    new_text, post_log, added = finish(_engine.pasta.dump(tree), tree, target=target, input_names_tf=reads_tf)
    new_text = masked.restore(new_text)
    tf_log = [(e[0], py2.line(e[1])) + tuple(e[2:]) for e in list(pre_log) + list(visitor.log) + post_log]
    log = _without_moot_warnings(_dedupe(py2.log + tf_log + masked.log()), text, new_text)
    return SourceResult(new_text, merge_repeated_errors(log), added)


PARSE_ROUNDS = 20


def _pasta_message(line):
    return (
        "pasta, the parser that keeps the formatting (tf_upgrade_v2's too), cannot read the line %r; rewrite it "
        "(for example a subscript whose first slice starts with a parenthesis: a[(n - 1) * 2:n, 0] "
        "as a[2 * (n - 1):n, 0])" % line
    )


def _parse(masked, python2, path):
    """``(Python 2 pass, pasta tree)`` of ``masked``'s text, masking each statement no parser reads (``_partial``).

    Raises the first parse error when nothing could be masked, or when every statement is."""
    from tf1clip.upgrade import _engine

    first = None
    for _ in range(PARSE_ROUNDS):
        py2 = _py2.to_python3(masked.text, python2, path)
        try:
            return py2, _engine.pasta.parse(py2.text)
        except SyntaxError as err:
            first = first or err
            message = "%s: %s" % (type(err).__name__, err.msg)
            progress = masked.mask_unparsable(python2 != "never")
            progress = progress or masked.mask_line(py2.line(err.lineno or 0), message)
        except _engine.pasta.base.annotate.AnnotationError as err:
            first = first or err
            progress = _mask_pasta_error(masked, py2, err)
        if not progress or masked.everything():
            break
    raise first


def _mask_pasta_error(masked, py2, err):
    """Masks the innermost statement holding the line pasta names in ``err``; False when it names none."""
    match = re.search(r"\nline (\d+): (.*)", str(err))
    if match is None:
        return False
    number = int(match.group(1))
    holding = [
        node
        for node in ast.walk(ast.parse(py2.text))
        if isinstance(node, ast.stmt) and node.lineno <= number <= (node.end_lineno or node.lineno)
    ]
    if not holding:
        return False
    node = min(holding, key=lambda n: (n.end_lineno or n.lineno) - n.lineno)
    reason = (
        "pasta, the parser that keeps the formatting, cannot read it; rewrite it, e.g. a[(n - 1) * 2:n] as "
        "a[2 * (n - 1):n]"
    )
    masked.mask(py2.line(node.lineno) - 1, py2.line(node.end_lineno or node.lineno) - 1, reason)
    return True


def _without_moot_warnings(log, text, new_text):
    """``log`` without tf_upgrade_v2's warnings that the converted file makes moot (MOOT_WARNINGS)."""
    moot = [m for m, needs in MOOT_WARNINGS if needs(text, new_text)]
    return [e for e in log if e.severity != WARNING or not any(m in e.message for m in moot)]


def _convert_code(text, options):
    from tf1clip.upgrade import _engine

    try:
        return upgrade_source(text, **options)
    except _engine.pasta.base.annotate.AnnotationError as err:
        raise _Unconvertible(_pasta_message(str(err).split("\n", 1)[-1].strip().split(": ", 1)[-1])) from None
    except _partial.LostMarker as err:
        raise _Unconvertible(
            "the conversion lost a statement it could not parse (%s); please report it" % err
        ) from None
    except RecursionError:
        raise _Unconvertible(
            "the code is nested too deeply for the converter (RecursionError); convert "
            "this file by hand or split the expression"
        ) from None
    except _py2.FissixMissing as err:
        raise _Unconvertible(str(err)) from None
    except (SyntaxError, ValueError, TypeError, MemoryError) as err:
        raise _Unconvertible(
            "Failed to parse (%s: %s)" % (type(err).__name__, str(err).splitlines()[0] if str(err) else "")
        ) from None


def _decode(data):
    """``(text, encoding, crlf)`` of Python source bytes (PEP 263 cookie and BOM honoured)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as err:
        raise _Unconvertible("cannot decode the file (%s: %s)" % (type(err).__name__, err)) from None
    if encoding == "utf-8-sig" and text.startswith("\ufeff"):
        text = text[1:]
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
    if crlf:
        text = text.replace("\r\n", "\n")
    return text, encoding, crlf


def _encode(text, encoding, crlf):
    if crlf:
        text = text.replace("\n", "\r\n")
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as err:
        raise _Unconvertible(
            "the converted code cannot be written in the file's encoding %s (%s)" % (encoding, err)
        ) from None


def _convert_python(data, options):
    text, encoding, crlf = _decode(data)
    result = _convert_code(text, options)
    return _encode(result.text, encoding, crlf), result.log, result.added


def _check_notebook(notebook):
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise _Unconvertible("not a Jupyter notebook: 'cells' must be a list")
    for index, cell in enumerate(notebook["cells"]):
        if not isinstance(cell, dict):
            raise _Unconvertible(
                "not a Jupyter notebook: cell %d is a %s, not an object" % (index, type(cell).__name__)
            )
        source = cell.get("source", [])
        if not isinstance(source, str) and not (
            isinstance(source, list) and all(isinstance(line, str) for line in source)
        ):
            raise _Unconvertible(
                "not a Jupyter notebook: the source of cell %d is neither a string nor a list of strings" % index
            )


def _position(entry):
    return entry.line, entry.col


def _skip_unparsable_cells(notebook, cells, python2):
    """``cells`` without the code cells that no parser reads (unless none is left), and an ERROR for each."""
    errors = {}
    for cell, code in cells.cell_codes():
        error = _partial.parses(code, python2)
        if error is not None:
            errors[cell.index] = error
    if not errors or len(errors) == len(cells.cells):
        return cells, []
    cells = NotebookCode(notebook, skip=errors)
    log = []
    for cell, first in cells.skipped:
        line, message = errors[cell.index]
        line = min(max(line, 1), len(cell.lines))
        text = cell.lines[line - 1].strip()
        log.append(
            LogEntry(
                ERROR,
                first + line - 1,
                0,
                "Could not parse cell %d (its line %d, %s), left unchanged: %r; the other cells were converted.%s"
                % (cell.index + 1, line, message, text, _partial.hint(text)),
            )
        )
    return cells, log


def _convert_notebook(data, options):
    """Converts the code cells together (one program) and puts each converted cell back in its place.

    Cells whose ``source`` is one string are accepted; changed cells are written as
    lists of lines (Jupyter's format), so the output can be converted again. A rule
    may delete, add or split lines anywhere (``_notebook``). Log lines count the code
    cells' lines one after another, as ``tf_upgrade_v2`` does. A code cell that does not
    parse is kept as it is, with an ERROR, unless no code cell parses.
    """
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as err:
        raise _Unconvertible("cannot read the notebook (%s: %s)" % (type(err).__name__, err)) from None
    _check_notebook(notebook)
    cells = NotebookCode(notebook)
    kernel = _py2.python2_kernel(notebook) and options.get("python2", "auto") == "auto"
    cells, skipped_log = _skip_unparsable_cells(notebook, cells, kernel or options.get("python2", "auto") != "never")
    try:
        result = _convert_code(cells.code, dict(options, python2="always") if kernel else options)
    except _Unconvertible:
        where = cells.syntax_error()
        if where is None:
            raise
        raise _Unconvertible("Failed to parse cell %d, line %d (SyntaxError: %s)" % where) from None
    log = sorted([entry._replace(line=cells.line(entry.line)) for entry in result.log] + skipped_log, key=_position)
    if kernel:
        log = _py2.kernel_log(log, notebook)
    elif result.text == cells.code:
        return data, log, result.added  # nothing to change: the file stays byte for byte
    try:
        notebook = cells.apply(result.text)
    except MovedCellBoundary as err:
        raise _Unconvertible("the conversion did not keep the cells apart (%s); please report it" % err) from None
    text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
    return text.encode("utf-8"), log, result.added


def _write(path, data, mode):
    """Writes ``data`` to ``path`` through a temporary file in its directory, with permission bits ``mode``."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, mode)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.remove(temp)


def _convert_into(result, data, options):
    """The converted bytes of ``data``; sets ``result``'s status, log, added lines and crash."""
    try:
        if result.input.endswith(".ipynb"):
            new, result.log, result.added = _convert_notebook(data, options)
        else:
            new, result.log, result.added = _convert_python(data, dict(options, path=result.input))
    except _Unconvertible as err:
        result.status = "failed"
        result.log = [LogEntry(ERROR, 0, 0, "%s; the file was left unchanged." % err)]
        return data
    except TensorFlowMissing:
        raise
    except Exception as err:  # noqa: BLE001 - a bug must not stop the other files of a tree
        result.status = "crashed"
        result.crash = traceback.format_exc()
        result.log = [
            LogEntry(
                ERROR,
                0,
                0,
                "tf1clip-upgrade failed on this file (internal error %s: %s); the "
                "file was left unchanged. Please report it with the detailed log." % (type(err).__name__, err),
            )
        ]
        return data
    if new == data:
        result.status = "unchanged"
    result.needs = needs_of(new.decode("utf-8", "replace"), result.log, result.added)
    return new


def upgrade_file(
    input_file: str,
    output_file: Optional[str] = None,
    mode: str = "DEFAULT",
    target: str = "auto",
    upgrade_compat_v1_import: bool = True,
    python2: str = "auto",
) -> FileResult:
    """Converts one ``.py`` or ``.ipynb`` file to ``output_file`` (None: in place).

    Never raises for a bad file: a file that cannot be converted gets an ERROR and
    is copied unchanged (in place: left untouched); an unchanged file is not
    rewritten in place. The output keeps the input's permission bits, encoding,
    byte-order mark and CRLF line endings.
    """
    options = dict(
        mode=mode, target=target, upgrade_compat_v1_import=upgrade_compat_v1_import, python2=_py2.check_choice(python2)
    )
    in_place = output_file is None or os.path.realpath(output_file) == os.path.realpath(input_file)
    source = os.path.realpath(input_file)
    result = FileResult(input_file, input_file if in_place or output_file is None else output_file, "converted")
    try:
        with open(source, "rb") as handle:
            data = handle.read()
        file_mode = stat.S_IMODE(os.stat(source).st_mode)
    except OSError as err:
        result.status = "failed"
        result.log = [LogEntry(ERROR, 0, 0, "cannot read the file (%s); nothing was written." % err)]
        return result
    new = _convert_into(result, data, options)
    if new == data and in_place:
        return result
    destination = source if in_place else output_file
    try:
        _write(destination, new, file_mode)
    except OSError as err:
        result.status = "failed"
        result.log.append(LogEntry(ERROR, 0, 0, "cannot write %s (%s)." % (destination, err)))
    return result


def _link(path, in_root, out_path, out_root):
    target = os.readlink(path)
    if os.path.isabs(target):
        inside = os.path.relpath(target, in_root)
        if not inside.startswith(os.pardir):
            target = os.path.join(os.path.abspath(out_root), inside)
    os.symlink(target, out_path)


def _check_trees(input_tree, output_root, in_place):
    if not os.path.isdir(input_tree):
        raise ValueError("input_tree must be a directory, got %r" % (input_tree,))
    inside = os.path.relpath(os.path.realpath(output_root), os.path.realpath(input_tree))
    if not in_place and not inside.startswith(os.pardir):
        raise ValueError("output_tree must not be inside input_tree, got %r in %r" % (output_root, input_tree))


def _tree_file(path, out_path, roots, in_place, copy_other_files, options):
    """The result for one file of a tree (None: nothing done)."""
    name = os.path.basename(path)
    code = name.endswith((".py", ".ipynb"))
    if name.startswith(_TEMP_PREFIX):
        return None
    if os.path.islink(path):
        if in_place:
            why = "Skipped the symbolic link (its target is converted where it lives)."
            return FileResult(path, path, "skipped", [LogEntry(INFO, 0, 0, why)])
        if code or copy_other_files:
            _link(path, roots[0], out_path, roots[1])
            return FileResult(path, out_path, "symlink")
        return None
    if code:
        return upgrade_file(path, None if in_place else out_path, **options)
    if copy_other_files and not in_place:
        shutil.copy2(path, out_path)
        return FileResult(path, out_path, "copied")
    return None


def upgrade_tree(
    input_tree: str,
    output_tree: Optional[str] = None,
    copy_other_files: bool = True,
    mode: str = "DEFAULT",
    target: str = "auto",
    upgrade_compat_v1_import: bool = True,
    python2: str = "auto",
) -> List[FileResult]:
    """Converts every ``.py`` and ``.ipynb`` file under ``input_tree`` (``output_tree`` None: in place).

    Out of place, the other files are copied (``copy_other_files``) with their
    permission bits, and symbolic links are recreated (a link into the tree points
    at the converted copy). In place, symbolic links are skipped (their targets in
    the tree are converted once). One file's failure never stops the others.
    """
    options = dict(
        mode=mode, target=target, upgrade_compat_v1_import=upgrade_compat_v1_import, python2=_py2.check_choice(python2)
    )
    in_place = output_tree is None or os.path.realpath(output_tree) == os.path.realpath(input_tree)
    output_root = input_tree if output_tree is None else output_tree
    _check_trees(input_tree, output_root, in_place)
    results = []
    for dir_name, dir_names, file_names in os.walk(input_tree):
        dir_names.sort()
        out_dir = (
            dir_name if in_place else os.path.normpath(os.path.join(output_root, os.path.relpath(dir_name, input_tree)))
        )
        if not in_place:
            os.makedirs(out_dir, exist_ok=True)
        for name in sorted(dir_names):
            path = os.path.join(dir_name, name)
            if os.path.islink(path) and not in_place:
                _link(path, input_tree, os.path.join(out_dir, name), output_root)
                results.append(FileResult(path, os.path.join(out_dir, name), "symlink"))
        for name in sorted(file_names):
            path, out_path = os.path.join(dir_name, name), os.path.join(out_dir, name)
            result = _tree_file(path, out_path, (input_tree, output_root), in_place, copy_other_files, options)
            if result is not None:
                results.append(result)
    return results


__all__ = [
    "SourceResult",
    "upgrade_source",
    "upgrade_file",
    "upgrade_tree",
    "resolve_target",
    "merge_repeated_errors",
    "TARGETS",
]
