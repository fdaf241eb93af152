"""What a conversion returns, and the report text made from it (no TensorFlow import)."""

import dataclasses
import re
from typing import Dict, List, NamedTuple, Optional, Sequence

from tf1clip.contrib import _manifest
from tf1clip.upgrade._tables import ERROR, GAN_EXTRA, INFO, SLIM_EXTRA, WARNING


class TensorFlowMissing(ImportError):
    """TensorFlow (or its converter) cannot be imported; the message says what to install."""


class LogEntry(NamedTuple):
    """One line of the conversion log (``line`` 0: the whole file)."""

    severity: str  # "INFO", "WARNING" or "ERROR"
    line: int
    col: int
    message: str

    def format(self, filename: Optional[str] = None) -> str:
        text = "%d:%d: %s: %s" % (self.line, self.col, self.severity, self.message)
        return "%s:%s" % (filename, text) if filename else text


@dataclasses.dataclass
class FileResult:
    """The outcome for one file.

    ``status``: ``"converted"`` (written with changes), ``"unchanged"`` (nothing to
    change; an in-place file is not touched), ``"failed"`` (the file could not be
    converted: decoding, parsing (no statement parses; a statement that does not is an
    ERROR of a converted file), nesting depth, notebook structure; it is copied
    unchanged and an ERROR says why), ``"crashed"`` (an internal error of the tool;
    copied unchanged, traceback in ``crash``), ``"copied"`` (not a .py/.ipynb file),
    ``"symlink"`` (recreated as a link) or ``"skipped"``.
    """

    input: str
    output: str
    status: str
    log: List[LogEntry] = dataclasses.field(default_factory=list)
    added: List[str] = dataclasses.field(default_factory=list)
    crash: Optional[str] = None
    needs: List[str] = dataclasses.field(default_factory=list)
    """What the converted code needs installed: ``"tf1clip"``, tf1clip's extras (``"slim"``, ...), ``"tf-keras"``."""

    @property
    def issues(self) -> List[LogEntry]:
        return [e for e in self.log if e.severity in (WARNING, ERROR)]

    @property
    def errors(self) -> List[LogEntry]:
        return [e for e in self.log if e.severity == ERROR]

    @property
    def converted(self) -> bool:
        """Whether the file was processed as code (not copied, linked or skipped)."""
        return self.status in ("converted", "unchanged", "failed", "crashed")


RULE = "-" * 80 + "\n"
_TF1CLIP_PATH = re.compile(r"\btf1clip((?:\.[A-Za-z_]\w*)*)")


def needs_of(text: str, log: Sequence[LogEntry], added: Sequence[str]) -> List[str]:
    """What converted code ``text`` (with its conversion ``log`` and ``added`` lines) needs installed."""
    found = set()
    for match in _TF1CLIP_PATH.finditer(text):
        found.add("tf1clip")
        path = "tf1clip" + match.group(1)
        if path == "tf1clip.estimator" or path.startswith("tf1clip.estimator."):
            found.add("estimator")
        targets = [t for t in _manifest.targets() if path == t or path.startswith(t + ".")]
        if targets:
            target = max(targets, key=len)
            if path != target:
                found.update(_row_extras(target, path))
            elif target != "tf1clip.contrib":
                found.update(_manifest.extra_for(target))
    for extra, name in ((SLIM_EXTRA, "slim"), (GAN_EXTRA, "gan")):
        if any(extra in e.message for e in log if e.severity == INFO):
            found.add(name)
    if any("TF_USE_LEGACY_KERAS" in line for line in added):
        found.add("tf-keras")
    return sorted(found)


def _row_extras(target, path):
    name = path[len(target) + 1 :].split(".")[0]
    return {r.extra for r in _manifest.rows(target) if name in r.names and r.extra}


def install_line(results: Sequence[FileResult]) -> Optional[str]:
    """The command installing what the converted files need (None: they need nothing of tf1clip)."""
    needs = {n for r in results for n in r.needs}
    if not needs:
        return None
    return _manifest.install_line(needs - {"tf1clip", "tf-keras"}, keras2="tf-keras" in needs)


def exit_status(results: Sequence[FileResult]) -> int:
    """0: no ERROR; 1: ERRORs reported; 3: the tool crashed on some file (a bug to report)."""
    if any(r.status == "crashed" for r in results):
        return 3
    return 1 if any(r.errors for r in results) else 0


def summary(results: Sequence[FileResult]) -> str:
    """The report's head: counts, the lines added per file, then every WARNING and ERROR by file."""
    files = [r for r in results if r.converted]
    issues = sum(len(r.issues) for r in files)
    errors = sum(len(r.errors) for r in files)
    crashed = [r for r in files if r.status == "crashed"]
    lines = [
        "tf1clip-upgrade: TensorFlow 1.x -> 2 upgrade (tf_upgrade_v2 + tf1clip rules)\n",
        RULE,
        "Converted %d files\n" % len(files),
        "Detected %d issues that require attention (%d errors)\n" % (issues, errors),
    ]
    if crashed:
        lines.append(
            "tf1clip-upgrade failed on %d files (copied unchanged; see the detailed log and "
            "please report it)\n" % len(crashed)
        )
    added = {r.input: r.added for r in files if r.added}
    if added:
        keras = any("TF_USE_LEGACY_KERAS" in line for lines_ in added.values() for line in lines_)
        lines += [
            RULE,
            "Added so that the code runs on TensorFlow 2%s:\n"
            % (
                " (TF_USE_LEGACY_KERAS needs the tf-keras package: python3 -m tf1clip.install_extras legacy-keras)"
                if keras
                else ""
            ),
        ]
        lines += ["  %s: %s\n" % (name, "; ".join(added[name])) for name in sorted(added)]
    for package, extra, name in (("tf-slim", SLIM_EXTRA, "slim"), ("TF-GAN", GAN_EXTRA, "gan")):
        routed = sorted(r.input for r in files if any(extra in e.message for e in r.log if e.severity == INFO))
        if routed:
            install = _manifest.install_line([name])
            lines += [RULE, "Routed to %s, which these files now need (%s):\n" % (package, install)]
            lines += ["  %s\n" % name for name in routed]
    for result in sorted(files, key=lambda r: r.input):
        if result.issues:
            lines += [RULE, "File: %s\n" % result.input, RULE]
            lines += [entry.format(result.input) + "\n" for entry in result.issues]
    needed = install_line(files)
    if needed:
        lines += [RULE, "Install what the converted code needs:\n  %s\n" % needed]
    lines.append(RULE)
    return "".join(lines)


def detailed_log(results: Sequence[FileResult]) -> str:
    """Every log line of every file, with what was done to it."""
    parts = []
    for result in results:
        if result.status in ("copied",):
            continue
        parts.append(
            RULE
            + "Processing file %r\n outputting to %r (%s)\n" % (result.input, result.output, result.status)
            + RULE
            + "\n"
        )
        parts += [entry.format() + "\n" for entry in result.log]
        if result.crash:
            parts.append(result.crash)
        parts.append("\n")
    return "".join(parts)


def errors_by_file(results: Sequence[FileResult]) -> Dict[str, List[str]]:
    """``{input file: formatted WARNING/ERROR lines}`` as tf_upgrade_v2's ``process_tree`` returns."""
    return {r.input: [e.format(r.input) for e in r.issues] for r in results if r.converted}
