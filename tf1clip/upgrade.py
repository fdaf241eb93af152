"""``tf1clip-upgrade``: ``tf_upgrade_v2`` plus the rules that finish a TF 1.x -> TF 2 migration.

Same interface as TensorFlow's ``tf_upgrade_v2``::

    tf1clip-upgrade --infile old.py --outfile new.py
    tf1clip-upgrade --infile old.ipynb --outfile new.ipynb
    tf1clip-upgrade --intree old/ --outtree new/ [--copyotherfiles False]
    tf1clip-upgrade --infile old.py --inplace      (or --intree old/ --inplace)
    python -m tf1clip.upgrade ...

It runs TensorFlow's own converter (``tensorflow.tools.compatibility``: the
``ast_edits`` engine with ``tf_upgrade_v2.TFAPIChangeSpec``), so comments,
formatting and every ``tf_upgrade_v2`` conversion are kept, and adds:

* every ``tf.contrib`` API that ``tf1clip.contrib`` provides is rewritten to its
  ``tf1clip.contrib`` path, however the file spells it (``tf.contrib.X.Y``,
  ``import tensorflow.contrib.slim as slim``, ``slim = tf.contrib.slim``,
  ``from tensorflow.contrib.layers import optimize_loss``), with all its
  arguments; an alias of a contrib symbol that ``tf_upgrade_v2`` knows is
  expanded so that ``tf_upgrade_v2`` converts it;
* ``import tf1clip.contrib`` (or ``import tf1clip``) once, after the TensorFlow
  import, when the converted code needs it;
* ``tf.compat.v1.disable_eager_execution()`` right after the TensorFlow import
  in a file that builds placeholders, Sessions or Savers (graph mode);
* ``os.environ["TF_USE_LEGACY_KERAS"] = "1"`` before the first import in a file
  that uses Keras-2-era APIs (``tf.layers``, ``tf.nn.rnn_cell``,
  ``tf.compat.v1.keras``, or ``tf.keras`` in a graph), which TF 2.16+ only
  provides through the ``tf-keras`` package (``pip install 'tf1clip[legacy-keras]'``);
* ``tf.layers.*`` and ``tf.contrib.rnn.LSTMStateTuple``, which TF 2.21's rename
  table leaves broken, are renamed to their ``tf.compat.v1`` paths;
* an ERROR, with file and line, for every other ``tf.contrib`` symbol (whatever
  the spelling) and for ``tf.estimator`` (removed in TF 2.16). Nothing that
  cannot run is left unreported.

A second run on its own output changes nothing.

Exit status: 0 when no ERROR was reported; 1 when at least one was (all files
are still written; the report lists the errors); 2 for a command-line error.
"""

import argparse
import ast
import functools
import importlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile

import pasta
from tensorflow.tools.compatibility import ast_edits
from tensorflow.tools.compatibility import ipynb
from tensorflow.tools.compatibility import tf_upgrade_v2
from tensorflow.tools.compatibility import tf_upgrade_v2_safety

__all__ = ["ChangeSpec", "SafetyChangeSpec", "Upgrader", "main"]

INFO, WARNING, ERROR = ast_edits.INFO, ast_edits.WARNING, ast_edits.ERROR

# contrib module (as tf_upgrade_v2 spells it) -> the tf1clip module replacing it;
# the module's ``__all__`` says which of its members tf1clip provides.
_CONTRIB_MODULES = {
    "tf.contrib": "tf1clip.contrib",
    "tf.contrib.estimator": "tf1clip.contrib.estimator",
    "tf.contrib.framework": "tf1clip.contrib.framework",
    "tf.contrib.layers": "tf1clip.contrib.layers",
    "tf.contrib.layers.python.layers.optimizers": "tf1clip.contrib.layers",
    "tf.contrib.opt": "tf1clip.contrib.opt",
    "tf.contrib.slim": "tf1clip.contrib.slim",
    "tf.contrib.slim.learning": "tf1clip.contrib.slim.learning",
    "tf.contrib.slim.python.slim.learning": "tf1clip.contrib.slim.learning",
    "tf.contrib.training": "tf1clip.contrib.training",
    "tf.contrib.training.python.training.training": "tf1clip.contrib.training",
}

# ``tf.compat.v1.layers`` members; TF 2.21's tf_upgrade_v2 renames only three.
_TF_LAYERS = (
    "AveragePooling1D", "AveragePooling2D", "AveragePooling3D", "BatchNormalization",
    "Conv1D", "Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "Dense", "Dropout",
    "Flatten", "InputSpec", "Layer", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D",
    "SeparableConv1D", "SeparableConv2D", "average_pooling1d", "average_pooling2d",
    "average_pooling3d", "batch_normalization", "conv1d", "conv2d", "conv2d_transpose",
    "conv3d", "conv3d_transpose", "dense", "dropout", "flatten", "max_pooling1d",
    "max_pooling2d", "max_pooling3d", "separable_conv1d", "separable_conv2d",
    "experimental.keras_style_scope", "experimental.set_keras_style",
)

# tf_upgrade_v2 renames these to names that do not exist in TF 2.
_RENAME_FIXES = {
    "tf.contrib.rnn.LSTMStateTuple": "tf.compat.v1.nn.rnn_cell.LSTMStateTuple",
    "contrib_rnn.LSTMStateTuple": "tf.compat.v1.nn.rnn_cell.LSTMStateTuple",
}

_CONTRIB_ERROR = (
    "<function name> cannot be converted automatically: tf.contrib is not part of "
    "TensorFlow 2, and tf1clip provides only its gradient-clipping APIs (tf1clip.contrib). "
    "Port this by hand (tensorflow/addons, tf-slim or your own code)."
)

# Symbols (after the TensorFlow alias, without ``compat.v1.``) that only work in graph mode.
_GRAPH_SYMBOLS = frozenset([
    "placeholder", "placeholder_with_default", "sparse_placeholder", "Session",
    "InteractiveSession", "train.MonitoredSession", "train.MonitoredTrainingSession",
    "train.SingularMonitoredSession", "train.Supervisor", "train.Saver",
    "train.start_queue_runners",
])
_MODE_CALLS = ("disable_eager_execution", "disable_v2_behavior", "enable_eager_execution")
_LEGACY_KERAS_VAR = "TF_USE_LEGACY_KERAS"
_NOTEBOOK_NEWLINE = "###==="  # how tensorflow.tools.compatibility.ipynb encodes a newline in a line



@functools.lru_cache(maxsize=None)
def _provided():
    """Maps each contrib module of ``_CONTRIB_MODULES`` to ``(tf1clip module, member names)``."""
    return {contrib: (target, frozenset(importlib.import_module(target).__all__))
            for contrib, target in _CONTRIB_MODULES.items()}


def _lookup(path):
    """The tf1clip path replacing the contrib ``path``, or None."""
    provided = _provided()
    if path in provided:
        return provided[path][0]
    module, _, name = path.rpartition(".")
    if module in provided and name in provided[module][1]:
        return provided[module][0] + "." + name
    return None


def _supported(path):
    """``(prefix_length, target)`` if tf1clip provides the contrib ``path``, else None.

    The whole dotted path must be a provided module or symbol, or start with a
    provided symbol (``OPTIMIZER_CLS_NAMES.keys``); ``prefix_length`` counts the
    parts that ``target`` replaces.
    """
    parts = path.split(".")
    for k in range(len(parts), 1, -1):
        prefix = ".".join(parts[:k])
        target = _lookup(prefix)
        if target is None:
            continue
        if k == len(parts) or prefix not in _provided():
            return k, target
        return None
    return None


def _is_contrib(path):
    return path == "tf.contrib" or path.startswith("tf.contrib.")


def _dotted(node):
    """``"a.b.c"`` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _tf_path(module):
    """``tensorflow.x.y`` -> ``tf.x.y``; None for other modules."""
    if module == "tensorflow" or module.startswith("tensorflow."):
        return "tf" + module[len("tensorflow"):]
    return None


def _collect_aliases(tree):
    """Names bound to TensorFlow or to ``tf.contrib`` paths anywhere in the file."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                path = _tf_path(alias.name)
                if path is not None and alias.asname:
                    aliases[alias.asname] = path
                elif path is not None:
                    aliases["tensorflow"] = "tf"
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            base = _tf_path(node.module)
            if base is not None:
                for alias in node.names:
                    if alias.name != "*":
                        aliases[alias.asname or alias.name] = base + "." + alias.name
    aliases.setdefault("tf", "tf")
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            path = _resolve(aliases, _dotted(node.value))
            if path is None or not _is_contrib(path):
                continue
            for target in node.targets:
                if isinstance(target, ast.Name) and aliases.get(target.id) != path:
                    aliases[target.id] = path
                    changed = True
    return aliases


def _resolve(aliases, dotted):
    if dotted is None:
        return None
    root, dot, rest = dotted.partition(".")
    base = aliases.get(root)
    if base is None:
        return None
    return base + dot + rest


def _contrib_error(literal, path):
    return _CONTRIB_ERROR.replace("<function name>", "%s (%s)" % (literal, path))


def _import_error(statement, path):
    return ("%s fails on TensorFlow 2: tf1clip does not provide %s and tf.contrib is gone. Remove "
            "it once its uses are ported (uses that tf_upgrade_v2 converts have been converted)."
            % (statement, path))


class _ContribRewriter:
    """Rewrites the contrib APIs tf1clip provides, in every spelling; reports the others."""

    def __init__(self, spec):
        self._spec = spec
        self._aliases = {}
        self.log = []

    @property
    def warnings_and_errors(self):
        return [entry for entry in self.log if entry[0] in (WARNING, ERROR)]

    def _add(self, severity, node, message):
        entry = (severity, node.lineno, node.col_offset, message)
        self.log.append(entry)
        print("%s line %d:%d: %s" % entry)

    def run(self, tree):
        self._aliases = _collect_aliases(tree)
        self._visit(tree)

    def _engine_converts(self, name):
        return name in self._spec.symbol_renames or name in self._spec.function_transformers

    def _binding_supported(self, root):
        path = self._aliases.get(root)
        return path is not None and _is_contrib(path) and _supported(path) is not None

    def _visit(self, node):
        for _, value in ast.iter_fields(node):
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.Import):
                    self._import(child)
                elif isinstance(child, ast.ImportFrom):
                    self._import_from(child, node)
                elif isinstance(child, (ast.Name, ast.Attribute)):
                    self._chain(child, node)
                elif isinstance(child, ast.AST):
                    self._visit(child)

    def _chain(self, node, parent):
        dotted = _dotted(node)
        if dotted is None:
            self._visit(node)
            return
        if not isinstance(node.ctx, ast.Load):
            return
        path = _resolve(self._aliases, dotted)
        if path is None or not _is_contrib(path):
            return
        root = dotted.split(".")[0]
        supported = _supported(path)
        if supported is not None:
            if self._binding_supported(root):
                return  # the alias itself now names a tf1clip module or symbol
            length, target = supported
            sub, sub_parent = node, parent
            for _ in range(len(path.split(".")) - length):
                sub_parent, sub = sub, sub.value
            self._replace(sub_parent, sub, target)
            return
        if self._engine_converts(dotted):
            return
        if self._engine_converts(path):
            self._replace(parent, node, path, "so that tf_upgrade_v2 converts it")
            return
        if _is_contrib(dotted):
            return  # tf_upgrade_v2 reports it (module_deprecations, made ERRORs)
        self._add(ERROR, node, _contrib_error(dotted, path))

    def _replace(self, parent, node, new_name, why=""):
        new_node = ast_edits.full_name_node(new_name, node.ctx)
        for part in ast.walk(new_node):
            ast.copy_location(part, node)
        pasta.ast_utils.replace_child(parent, node, new_node)
        self._add(INFO, node, ("Renamed %r to %r %s" % (_dotted(node), new_name, why)).strip())

    def _import(self, node):
        for alias in node.names:
            path = _tf_path(alias.name)
            if path is None or not _is_contrib(path):
                continue
            supported = _supported(path)
            if supported is not None and supported[0] == len(path.split(".")):
                old = pasta.dump(node)
                alias.name = supported[1]
                self._add(INFO, node, "Changed import from %r to %r" % (old, pasta.dump(node)))
            else:
                self._add(ERROR, node, _import_error("import " + alias.name, path))

    def _import_from(self, node, parent):
        base = _tf_path(node.module or "")
        if node.level or base is None:
            return
        keep, moved = [], {}
        for alias in node.names:
            path = base + "." + alias.name
            supported = _supported(path) if _is_contrib(path) and alias.name != "*" else None
            if supported is not None and supported[0] == len(path.split(".")):
                module, _, name = supported[1].rpartition(".")
                asname = alias.asname or (alias.name if name != alias.name else None)
                moved.setdefault(module, []).append(ast.alias(name=name, asname=asname))
                continue
            keep.append(alias)
            if _is_contrib(path):
                self._add(ERROR, node, _import_error(
                    "from %s import %s" % (node.module, alias.name), path))
        if not moved:
            return
        old = pasta.dump(node)
        groups = list(moved.items())
        if not keep and len(groups) == 1:  # in place, keeping the statement's formatting
            module, aliases = groups.pop()
            for alias, new in zip(node.names, aliases):
                alias.name, alias.asname = new.name, new.asname
            node.module = module
        elif not keep:
            node.module, node.names = groups.pop(0)
        else:
            node.names = keep
        body = next(value for _, value in ast.iter_fields(parent)
                    if isinstance(value, list) and any(item is node for item in value))
        index = next(i for i, item in enumerate(body) if item is node)
        new_nodes = []
        for offset, (module, aliases) in enumerate(groups, 1):
            new_node = ast.ImportFrom(module=module, names=aliases, level=0)
            ast.copy_location(new_node, node)
            body.insert(index + offset, new_node)
            pasta.base.formatting.set(new_node, "prefix", pasta.base.formatting.get(node, "prefix"))
            new_nodes.append(new_node)
        self._add(INFO, node, "Changed import from %r to %r" % (
            old, "; ".join(pasta.dump(n).strip() for n in [node] + new_nodes)))


class _Tf1clipRules:
    """Mixin: tf1clip's rules on top of a tf_upgrade_v2 change spec."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(self, tf_upgrade_v2.TFAPIChangeSpec):
            self.symbol_renames = dict(self.symbol_renames)
            for name in _TF_LAYERS:
                self.symbol_renames.setdefault("tf.layers." + name, "tf.compat.v1.layers." + name)
            self.symbol_renames.update(_RENAME_FIXES)
        self.module_deprecations = {
            name: (ERROR, _CONTRIB_ERROR if name == "tf.contrib" else message)
            if _is_contrib(name) else (level, message)
            for name, (level, message) in self.module_deprecations.items()
        }

    def preprocess(self, root_node, after_compat_v1_upgrade=False):
        if isinstance(self, tf_upgrade_v2.TFAPIChangeSpec):
            result = super().preprocess(root_node, after_compat_v1_upgrade=after_compat_v1_upgrade)
        else:
            result = super().preprocess(root_node)
        if after_compat_v1_upgrade:
            return result  # the outer call rewrites contrib once
        root_node, logs, errors = result
        rewriter = _ContribRewriter(self)
        rewriter.run(root_node)
        return root_node, logs + rewriter.log, errors + rewriter.warnings_and_errors


class ChangeSpec(_Tf1clipRules, tf_upgrade_v2.TFAPIChangeSpec):
    """``tf_upgrade_v2``'s DEFAULT-mode rules plus tf1clip's."""


class SafetyChangeSpec(_Tf1clipRules, tf_upgrade_v2_safety.TFAPIChangeSpec):
    """``tf_upgrade_v2``'s SAFETY-mode rules (``import tensorflow.compat.v1 as tf``), tf1clip's."""


def _chains(tree):
    """``(dotted, node)`` for every maximal Name/Attribute chain read in ``tree``."""
    found = []

    def visit(node):
        for child in ast.iter_child_nodes(node):
            dotted = _dotted(child) if isinstance(child, (ast.Name, ast.Attribute)) else None
            if dotted is not None:
                if isinstance(child.ctx, ast.Load):
                    found.append((dotted, child))
            else:
                visit(child)

    visit(tree)
    return found


def _first_line(stmt):
    return min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])


def _top_index(body):
    """Index of the first statement after the module docstring and ``__future__`` imports."""
    index = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        index = 1
    while index < len(body) and isinstance(body[index], ast.ImportFrom) \
            and body[index].module == "__future__":
        index += 1
    return index


def _module_level(node):
    """``node`` and the statements nested in it outside function and class bodies."""
    yield node
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield from _module_level(child)


def _tensorflow_import(body):
    """``(alias, top-level statement)`` of the first module-level ``import tensorflow... as X``."""
    for stmt in body:
        for node in _module_level(stmt):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in ("tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2"):
                        if alias.asname or alias.name == "tensorflow":
                            return alias.asname or "tensorflow", stmt
    return None, None


class _Scan:
    """What the converted code uses that decides the lines to add."""

    def __init__(self, tree, tf_alias):
        self.graph_use = self.keras_v1_use = self.keras_use = None
        self.mode_call = False
        self.tf1clip_uses, self.estimator_uses = [], []
        for dotted, node in _chains(tree):
            if dotted.split(".")[0] == "tf1clip":
                self.tf1clip_uses.append(dotted)
            if dotted.endswith(_MODE_CALLS):
                self.mode_call = True
            if dotted.startswith(tf_alias + "."):
                self._tf_use(dotted[len(tf_alias) + 1:], dotted, node)
        for node in ast.walk(tree):
            if self.keras_use is None and _imports_tf_keras(node):
                self.keras_use = ("import of tensorflow.keras", node)

    def _tf_use(self, rest, dotted, node):
        short = rest[len("compat.v1."):] if rest.startswith("compat.v1.") else rest
        head = short.split(".")[0]
        if self.graph_use is None and short in _GRAPH_SYMBOLS:
            self.graph_use = (dotted, node)
        v1_keras = head == "layers" or short.startswith("nn.rnn_cell.") \
            or rest.startswith("compat.v1.keras")
        if self.keras_v1_use is None and v1_keras:
            self.keras_v1_use = (dotted, node)
        if self.keras_use is None and head == "keras":
            self.keras_use = (dotted, node)
        if head == "estimator" or rest.startswith("compat.v2.estimator"):
            self.estimator_uses.append((dotted, node))

    @property
    def legacy_keras_use(self):
        return self.keras_v1_use or (self.keras_use if self.graph_use else None)


def _imports_tf_keras(node):
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
        names = [node.module + "." + alias.name for alias in node.names]
    else:
        return False
    return any(n == "tensorflow.keras" or n.startswith("tensorflow.keras.") for n in names)


def _log_at(log, severity, node, message):
    log.append((severity, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), message))


def _legacy_keras_lines(scan, first, text, log):
    """Lines that route Keras to tf-keras, and whether they go after ``first`` (``import os``)."""
    use = scan.legacy_keras_use
    if use is None or _LEGACY_KERAS_VAR in text:
        return [], False
    line = 'os.environ["%s"] = "1"  # tf1clip-upgrade: %s needs Keras 2 (tf-keras)' % (
        _LEGACY_KERAS_VAR, use[0])
    _log_at(log, INFO, use[1],
            "%s needs Keras 2, which TensorFlow 2.16+ takes from the tf-keras package only when "
            "%s=1 is set before TensorFlow is imported: added 'os.environ[\"%s\"] = \"1\"' "
            "before the first import." % (use[0], _LEGACY_KERAS_VAR, _LEGACY_KERAS_VAR))
    if importlib.util.find_spec("tf_keras") is None:
        _log_at(log, WARNING, use[1],
                "The tf-keras package is not installed here; install it where this program runs: "
                "pip install 'tf1clip[legacy-keras]' (or pip install tf-keras).")
    imports_os = (isinstance(first, ast.Import) and len(first.names) == 1
                  and first.names[0].name == "os" and first.names[0].asname is None)
    return ([line], True) if imports_os else (["import os", line], False)


def _tf1clip_import_line(tree, scan, anchor, log):
    if not scan.tf1clip_uses:
        return []
    contrib = any(use.startswith("tf1clip.contrib") for use in scan.tf1clip_uses)
    needed = "tf1clip.contrib" if contrib else "tf1clip"
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names if alias.asname is None]
    if any(name == needed or name.startswith(needed + ".") for name in imported):
        return []
    _log_at(log, INFO, anchor, "Added 'import %s' for the tf1clip calls." % needed)
    return ["import " + needed]


def _graph_mode_line(scan, tf_alias, tf_stmt, log):
    if scan.graph_use is None or scan.mode_call:
        return []
    dotted, node = scan.graph_use
    if tf_alias is None:
        _log_at(log, WARNING, node,
                "%s needs graph mode, but this file has no module-level 'import tensorflow as "
                "...': call tf.compat.v1.disable_eager_execution() when the program starts."
                % dotted)
        return []
    call = "%s.compat.v1.disable_eager_execution()" % tf_alias
    _log_at(log, INFO, node,
            "%s needs graph mode, which TensorFlow 2 turns off: added '%s' right after the "
            "TensorFlow import (line %d)." % (dotted, call, tf_stmt.lineno))
    return [call + "  # tf1clip-upgrade: placeholders and Sessions need graph mode"]


def _finish(text, tree, notebook=False):
    """Adds the imports and settings the converted ``text`` needs to run on TF 2.

    ``tree`` is the converted pasta tree, whose nodes keep the input's line
    numbers. Returns ``(new_text, log, added)``: log entries are ``(severity,
    line, col, message)``, ``added`` the statements added. In notebook mode the
    added lines are joined to an existing line with the ipynb converter's
    newline marker, keeping the line count.
    """
    try:
        body = ast.parse(text).body
    except SyntaxError:
        return text, [], []
    tf_alias, input_tf_stmt = _tensorflow_import(tree.body)
    _, tf_stmt = _tensorflow_import(body)
    scan = _Scan(tree, tf_alias or "tf")  # tf_upgrade_v2 assumes ``tf`` too
    log = []
    for dotted, node in scan.estimator_uses:
        _log_at(log, ERROR, node,
                "%s: tf.estimator was removed in TensorFlow 2.16 and cannot be converted "
                "automatically; build the model in a tf.compat.v1 graph and train it with a "
                "Session loop (the tf1clip.contrib clipping APIs work there)." % dotted)
    top = _top_index(body)
    if top == len(body):
        return text, log, []  # only a docstring and __future__ imports
    first = body[top]
    inserts = []  # (line, after_it, new_lines)
    keras_lines, after_os = _legacy_keras_lines(scan, first, text, log)
    if keras_lines:
        inserts.append((first.end_lineno, True, keras_lines) if after_os
                       else (_first_line(first), False, keras_lines))
    tf_lines = _tf1clip_import_line(tree, scan, input_tf_stmt or tree, log)
    tf_lines += _graph_mode_line(scan, tf_alias, input_tf_stmt, log)
    if tf_lines:
        inserts.append((tf_stmt.end_lineno, True, tf_lines) if tf_stmt is not None
                       else (_first_line(first), False, tf_lines))
    added = [line.split("  #")[0] for _, _, lines in inserts for line in lines
             if line != "import os"]
    return _insert_lines(text, inserts, notebook), log, added


def _insert_lines(text, inserts, notebook):
    """Inserts ``(line, after, new_lines)`` blocks (1-based lines, at column 0)."""
    merged = {}
    for line, after, new in inserts:
        merged.setdefault((line, after), []).extend(new)
    inserts = [(line, after, new) for (line, after), new in merged.items()]
    lines = text.split("\n")
    if notebook:
        for line, after, new in sorted(inserts, key=lambda i: (i[0], i[1]), reverse=True):
            old = lines[line - 1]
            joined = _NOTEBOOK_NEWLINE.join(new)
            if after:
                tail = _NOTEBOOK_NEWLINE if old.endswith(_NOTEBOOK_NEWLINE) else ""
                body = old[:len(old) - len(tail)]
                lines[line - 1] = body + _NOTEBOOK_NEWLINE + joined + tail
            else:
                lines[line - 1] = joined + _NOTEBOOK_NEWLINE + old
        return "\n".join(lines)
    carriage_return = "\r" if "\r\n" in text else ""
    for line, after, new in sorted(inserts, key=lambda i: (i[0], i[1]), reverse=True):
        index = line if after else line - 1
        lines[index:index] = [entry + carriage_return for entry in new]
    return "\n".join(lines)


class Upgrader(ast_edits.ASTCodeUpgrader):
    """``ast_edits.ASTCodeUpgrader`` that also makes the converted files runnable on TF 2.

    ``.py`` and ``.ipynb`` files, alone or in trees; a file that cannot be parsed
    is reported as an ERROR and left unchanged (``tf_upgrade_v2`` writes it empty).
    """

    def __init__(self, api_change_spec):
        super().__init__(api_change_spec)
        self._notebook = False
        self.added = {}  # file name -> statements added so that it runs on TF 2

    def update_string_pasta(self, text, in_filename):
        """``ASTCodeUpgrader.update_string_pasta`` plus ``_finish``; logs sorted by line."""
        try:
            tree = pasta.parse(text)
        except (SyntaxError, ValueError, TypeError) as err:
            error = (ERROR, 0, 0, "Failed to parse (%s: %s); the file was left unchanged."
                     % (type(err).__name__, err))
            return 0, "", [self.format_log(error, None)], [self.format_log(error, in_filename)]
        tree, pre_log, _ = self._api_change_spec.preprocess(tree)
        # The engine's own visitor, as ASTCodeUpgrader.update_string_pasta uses it.
        visitor = ast_edits._PastaEditVisitor(self._api_change_spec)  # pylint: disable=protected-access
        visitor.visit(tree)
        self._api_change_spec.clear_preprocessing()
        new_text, post_log, added = _finish(pasta.dump(tree), tree, notebook=self._notebook)
        if added:
            self.added[in_filename] = added
        for entry in post_log:
            print("%s line %d:%d: %s" % entry)
        log = sorted(pre_log + visitor.log + post_log, key=lambda entry: entry[1:3])
        errors = [entry for entry in log if entry[0] in (WARNING, ERROR)]
        return (1, new_text, [self.format_log(entry, None) for entry in log],
                [self.format_log(entry, in_filename) for entry in errors])

    def process_file(self, in_filename, out_filename, no_change_to_outfile_on_error=True):
        if in_filename.endswith(".ipynb"):
            return self._process_notebook(in_filename, out_filename)
        result = super().process_file(in_filename, out_filename, no_change_to_outfile_on_error)
        if result[0] == 0:
            _copy_unless_same(in_filename, out_filename)
        return result

    def _process_notebook(self, in_filename, out_filename):
        """Converts the code cells with tensorflow.tools.compatibility.ipynb's helpers.

        Unlike ``ipynb.process_file``, it accepts cells whose ``source`` is one
        string and writes sources as lists of lines (Jupyter's format), so its
        output can be converted again.
        """
        try:
            with open(in_filename, encoding="utf-8") as in_file:
                notebook = json.load(in_file)
            for cell in notebook["cells"]:
                if isinstance(cell.get("source"), str):
                    cell["source"] = cell["source"].splitlines(True)
            with tempfile.TemporaryDirectory() as tmp:
                lines_file = os.path.join(tmp, "notebook.ipynb")
                with open(lines_file, "w", encoding="utf-8") as out_file:
                    json.dump(notebook, out_file)
                raw_code, notebook = ipynb._get_code(lines_file)  # pylint: disable=protected-access
            self._notebook = True
            try:
                processed, text, log, errors = self.update_string_pasta(
                    "\n".join(line.code for line in raw_code), in_filename)
            finally:
                self._notebook = False
            if not processed:
                return 0, self._format_log(log, in_filename, out_filename), errors
            notebook = ipynb._update_notebook(  # pylint: disable=protected-access
                notebook, raw_code, text.split("\n"))
        except (ValueError, KeyError, IndexError, TypeError, AssertionError) as err:
            message = "Could not convert the notebook (%s: %s); it was left unchanged." % (
                type(err).__name__, str(err).strip().split("\n")[0])
            _copy_unless_same(in_filename, out_filename)
            return 0, self._format_log([self.format_log((ERROR, 0, 0, message), None)],
                                       in_filename, out_filename), [
                self.format_log((ERROR, 0, 0, message), in_filename)]
        for cell in notebook["cells"]:
            if isinstance(cell.get("source"), str):
                cell["source"] = cell["source"].splitlines(True)
        with open(out_filename, "w", encoding="utf-8") as out_file:
            json.dump(notebook, out_file, indent=1, ensure_ascii=False)
            out_file.write("\n")
        return 1, self._format_log(log, in_filename, out_filename), errors

    def process_tree(self, root_directory, output_root_directory, copy_other_files):
        notebooks = []
        for dir_name, _, file_list in os.walk(root_directory):
            for filename in file_list:
                path = os.path.join(dir_name, filename)
                if filename.endswith(".ipynb") and not os.path.islink(path):
                    notebooks.append(path)
        count, report, errors = super().process_tree(
            root_directory, output_root_directory, copy_other_files)
        for path in notebooks:
            out = os.path.join(output_root_directory, os.path.relpath(path, root_directory))
            os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
            _, file_report, file_errors = self.process_file(path, out)
            count += 1
            report += file_report
            errors[path] = file_errors
        return count, report, errors


def _copy_unless_same(source, destination):
    if os.path.abspath(source) != os.path.abspath(destination):
        shutil.copyfile(source, destination)


def _bool(text):
    value = str(text).strip().lower()
    if value in ("1", "true", "yes", "y", "on"):
        return True
    if value in ("0", "false", "no", "n", "off"):
        return False
    raise argparse.ArgumentTypeError("expected True or False, got %r" % text)


def _parser():
    parser = argparse.ArgumentParser(
        prog="tf1clip-upgrade",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""Convert TensorFlow 1.x Python files and notebooks to run on TensorFlow 2.

tf_upgrade_v2's conversions, plus: tf.contrib clipping APIs -> tf1clip.contrib,
graph mode for placeholders/Sessions, legacy Keras for tf.layers/rnn_cell, and an
ERROR for every tf.contrib symbol that cannot be converted.

  tf1clip-upgrade --infile foo.py --outfile bar.py
  tf1clip-upgrade --infile foo.ipynb --outfile bar.ipynb
  tf1clip-upgrade --intree ~/code/old --outtree ~/code/new

Exit status: 0 if no ERROR was reported, 1 if some were, 2 for a usage error.""")
    parser.add_argument("--infile", dest="input_file",
                        help="If converting a single file, the name of the file to convert.")
    parser.add_argument("--outfile", dest="output_file",
                        help="If converting a single file, the output filename.")
    parser.add_argument("--intree", dest="input_tree",
                        help="If converting a whole tree of files, the directory to read from.")
    parser.add_argument("--outtree", dest="output_tree",
                        help="If converting a whole tree of files, the output directory "
                             "(must not exist).")
    parser.add_argument("--copyotherfiles", dest="copy_other_files", type=_bool, default=True,
                        help="If converting a whole tree, whether to copy the files that are not "
                             ".py or .ipynb (default: True).")
    parser.add_argument("--inplace", dest="in_place", action="store_true",
                        help="Convert the input file or tree in place.")
    parser.add_argument("--no_import_rename", dest="no_import_rename", action="store_true",
                        help="Accepted for tf_upgrade_v2 compatibility (imports are never renamed "
                             "to compat.v2).")
    parser.add_argument("--no_upgrade_compat_v1_import", dest="no_upgrade_compat_v1_import",
                        action="store_true",
                        help="Don't upgrade explicit imports of `tensorflow.compat.v1 as tf`.")
    parser.add_argument("--reportfile", dest="report_filename", default="report.txt",
                        help="The file where the report is written (default: %(default)s).")
    parser.add_argument("--mode", dest="mode", choices=["DEFAULT", "SAFETY"], default="DEFAULT",
                        help="DEFAULT: tf_upgrade_v2's conversions. SAFETY: keep 1.x code and "
                             "import tensorflow.compat.v1 as tf.")
    parser.add_argument("--print_all", dest="print_all", action="store_true",
                        help="Print the full log to stdout instead of just the issues.")
    return parser


def _report(files_processed, errors, added):
    num_issues = sum(len(e) for e in errors.values())
    num_errors = sum(1 for e in errors.values() for line in e if ": ERROR: " in line)
    lines = ["tf1clip-upgrade: TensorFlow 1.x -> 2 upgrade (tf_upgrade_v2 + tf1clip rules)\n",
             "-" * 80 + "\n",
             "Converted %d files\n" % files_processed,
             "Detected %d issues that require attention (%d errors)\n" % (num_issues, num_errors),
             "-" * 80 + "\n"]
    if added:
        lines.append("Added so that the code runs on TensorFlow 2 (TF_USE_LEGACY_KERAS needs the "
                     "tf-keras package: pip install 'tf1clip[legacy-keras]'):\n")
        lines += ["  %s: %s\n" % (name, "; ".join(added[name])) for name in sorted(added)]
        lines.append("-" * 80 + "\n")
    for filename in sorted(errors):
        if errors[filename]:
            lines += ["-" * 80 + "\n", "File: %s\n" % filename, "-" * 80 + "\n",
                      "\n".join(errors[filename]) + "\n"]
    return "".join(lines), num_errors


def main(argv=None):
    """Runs the command; returns the exit status (0: no errors, 1: errors reported, 2: usage)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.mode == "SAFETY":
        spec = SafetyChangeSpec()
    else:
        spec = ChangeSpec(import_rename=False,
                          upgrade_compat_v1_import=not args.no_upgrade_compat_v1_import)
    upgrader = Upgrader(spec)

    if args.input_file:
        if args.input_tree:
            parser.error("give either --infile or --intree, not both")
        if args.in_place == bool(args.output_file):
            parser.error("--infile needs exactly one of --outfile and --inplace")
        if not os.path.isfile(args.input_file):
            parser.error("--infile %r is not a file" % args.input_file)
        if not args.input_file.endswith((".py", ".ipynb")):
            parser.error("--infile must be a .py or .ipynb file, got %r" % args.input_file)
        output_file = args.input_file if args.in_place else args.output_file
        files_processed, report_text, errors = upgrader.process_file(args.input_file, output_file)
        errors = {args.input_file: errors}
        files_processed = 1
    elif args.input_tree:
        if args.in_place == bool(args.output_tree):
            parser.error("--intree needs exactly one of --outtree and --inplace")
        if not os.path.isdir(args.input_tree):
            parser.error("--intree %r is not a directory" % args.input_tree)
        output_tree = args.input_tree if args.in_place else args.output_tree
        if not args.in_place and os.path.exists(output_tree):
            parser.error("--outtree %r must not exist" % output_tree)
        files_processed, report_text, errors = upgrader.process_tree(
            args.input_tree, output_tree, args.copy_other_files)
    else:
        parser.print_help()
        return 2

    report, num_errors = _report(files_processed, errors, upgrader.added)
    detailed_header = "=" * 80 + "\nDetailed log follows:\n\n" + "=" * 80 + "\n"
    with open(args.report_filename, "w") as report_file:
        report_file.write(report)
        report_file.write(detailed_header)
        report_file.write(report_text)
    print(report)
    if args.print_all:
        print(detailed_header)
        print(report_text)
    print("\nMake sure to read the detailed log %r\n" % args.report_filename)
    return 1 if num_errors else 0


if __name__ == "__main__":
    sys.exit(main())
