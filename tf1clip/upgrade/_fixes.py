"""Post-conversion fixes: the imports and settings converted code needs to run on TF 2 (no TensorFlow import)."""

import ast
import importlib.util

from tf1clip import fidelity
from tf1clip.contrib import _manifest
from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import chains
from tf1clip.upgrade._astutil import collect_aliases
from tf1clip.upgrade._astutil import dotted as dotted_name
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._numerics import numeric_notes
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import ESTIMATOR_INSTALL
from tf1clip.upgrade._tables import INFO
from tf1clip.upgrade._tables import WARNING


def _builds_graph(path):
    """Whether the tf1clip ``path`` builds TF 1 graph code (``_manifest``'s graph rows and routed names)."""
    if not path.startswith("tf1clip.contrib."):
        return False
    own = _manifest.graph_targets()
    return path in own or path.startswith(tuple(p + "." for p in own)) or path.endswith(_manifest.ROUTED_GRAPH)


def _first_line(stmt):
    return min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])


def _top_index(body):
    """Index of the first statement after the module docstring and ``__future__`` imports."""
    index = 0
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        index = 1
    while index < len(body) and isinstance(body[index], ast.ImportFrom) and body[index].module == "__future__":
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
        self.mode_call = self.data_use = False
        self.tf1clip_uses, self.estimator_uses = [], []
        self._tree, self._statements = tree, None
        aliases = collect_aliases(tree, "tf1clip", "tf1clip")
        for dotted, node in chains(tree):
            if dotted.split(".")[0] == "tf1clip":
                self.tf1clip_uses.append(dotted)
            path = resolve(aliases, dotted) or dotted
            if self.graph_use is None and _builds_graph(path):
                self.graph_use = (dotted, node)
            if self.keras_v1_use is None and path.startswith(_manifest.keras2_targets() + T.KERAS2_MODULES):
                self.keras_v1_use = (dotted, node)
            if dotted.endswith(T.MODE_CALLS):
                self.mode_call = True
            if dotted.startswith(tf_alias + "."):
                self._tf_use(dotted[len(tf_alias) + 1 :], dotted, node)
        for node in ast.walk(tree):
            imported = _imports_tf_keras(node)
            if imported and "rnn_cell" in imported and self.keras_v1_use is None:
                self.keras_v1_use = ("import of " + imported, node)
            elif imported and self.keras_use is None:
                self.keras_use = ("import of tensorflow.keras", node)

    def _tf_use(self, rest, dotted, node):
        short = rest[len("compat.v1.") :] if rest.startswith("compat.v1.") else rest
        head = short.split(".")[0]
        if self.graph_use is None and short in T.GRAPH_SYMBOLS:
            self.graph_use = (dotted, node)
        v1_keras = head == "layers" or short.startswith("nn.rnn_cell.") or rest.startswith("compat.v1.keras")
        if self.keras_v1_use is None and v1_keras:
            self.keras_v1_use = (dotted, node)
        if self.keras_use is None and head == "keras":
            self.keras_use = (dotted, node)
        if head == "data":
            self.data_use = True
        if head == "estimator" or rest.startswith("compat.v2.estimator"):
            self.estimator_uses.append((dotted, node if hasattr(node, "lineno") else self._statement_of(node)))

    def _statement_of(self, node):
        """The innermost statement holding ``node`` (a node the converter made has no position)."""
        if self._statements is None:
            self._statements = {}
            for stmt in ast.walk(self._tree):
                if isinstance(stmt, ast.stmt):
                    for child in ast.walk(stmt):
                        self._statements[id(child)] = stmt
        return self._statements.get(id(node), node)

    @property
    def legacy_keras_use(self):
        return self.keras_v1_use or (self.keras_use if self.graph_use else None)


def _imports_tf_keras(node):
    """The first Keras-2 module an import statement names, or None."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
        names = [node.module + "." + alias.name for alias in node.names]
    else:
        return None
    found = [
        n
        for n in names
        if n == "tensorflow.keras" or n.startswith(("tensorflow.keras.", "tensorflow.compat.v1.nn.rnn_cell"))
    ]
    return found[0] if found else None


def _log_at(log, severity, node, message):
    log.append((severity, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), message))


def _legacy_keras_lines(scan, first, text, log):
    """Lines that route Keras to tf-keras, and whether they go after ``first`` (``import os``)."""
    use = scan.legacy_keras_use
    if use is None or T.LEGACY_KERAS_VAR in text:
        return [], False
    line = 'os.environ["%s"] = "1"  # tf1clip-upgrade: %s needs Keras 2 (tf-keras)' % (T.LEGACY_KERAS_VAR, use[0])
    _log_at(
        log,
        INFO,
        use[1],
        "%s needs Keras 2, which TensorFlow 2.16+ takes from the tf-keras package only when "
        '%s=1 is set before TensorFlow is imported: added \'os.environ["%s"] = "1"\' '
        "before the first import." % (use[0], T.LEGACY_KERAS_VAR, T.LEGACY_KERAS_VAR),
    )
    if importlib.util.find_spec("tf_keras") is None:
        _log_at(
            log,
            WARNING,
            use[1],
            "The tf-keras package is not installed here; install it where this program runs: "
            "python3 -m tf1clip.install_extras legacy-keras (tf-keras at TensorFlow's minor version).",
        )
    imports_os = (
        isinstance(first, ast.Import)
        and len(first.names) == 1
        and first.names[0].name == "os"
        and first.names[0].asname is None
    )
    return ([line], True) if imports_os else (["import os", line], False)


def _tf1clip_import_line(tree, scan, anchor, log):
    if not scan.tf1clip_uses:
        return []
    needed = []
    for use in scan.tf1clip_uses:
        parts = use.split(".")
        if len(parts) > 2 and parts[1] == "contrib" and ".".join(parts[:3]) in _manifest.separate_imports():
            module = "tf1clip.contrib." + parts[2]
        elif len(parts) > 1 and parts[1] == "estimator":
            module = "tf1clip.estimator"
        elif len(parts) > 1 and parts[1] == "contrib":
            module = "tf1clip.contrib"
        else:
            module = "tf1clip"
        if module not in needed:
            needed.append(module)
    if len(needed) > 1 and "tf1clip" in needed:
        needed.remove("tf1clip")
    imported = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.asname is None
    ]
    lines = []
    for module in sorted(needed):
        if any(name == module or name.startswith(module + ".") for name in imported):
            continue
        if module == "tf1clip.contrib" and any(n.startswith("tf1clip.contrib.") for n in needed):
            continue
        _log_at(log, INFO, anchor, "Added 'import %s' for the tf1clip calls." % module)
        lines.append("import " + module)
    return lines


def _graph_mode_line(scan, tf_alias, tf_stmt, log):
    if scan.graph_use is None or scan.mode_call:
        return []
    dotted, node = scan.graph_use
    if tf_alias is None:
        _log_at(
            log,
            WARNING,
            node,
            "%s needs graph mode, but this file has no module-level 'import tensorflow as "
            "...': call tf.compat.v1.disable_v2_behavior() when the program starts." % dotted,
        )
        return []
    # TF 1.15's semantics, not only its graph mode: reference variables (the order in which a step's
    # reads see its assignments) and Dimension shapes (``shape[i].value``); docs/oracle.rst has the numbers.
    call = "%s.compat.v1.disable_v2_behavior()" % tf_alias
    _log_at(
        log,
        INFO,
        node,
        "%s needs graph mode and TF 1 semantics, which TensorFlow 2 turns off: added '%s' right after the "
        "TensorFlow import (line %d)." % (dotted, call, tf_stmt.lineno),
    )
    why = (
        "placeholders and Sessions need"
        if dotted.split(".")[-1] in ("placeholder", "Session")
        else "TF 1 graph code needs"
    )
    return [call + "  # tf1clip-upgrade: %s TF 1 behavior" % why]


def _fidelity_lines(tree, scan, log):
    """The call of each fidelity switch (``tf1clip.fidelity.SWITCHES``, in order) whose detector finds a use in
    ``tree``, with its INFO at that use and its WARNINGs, unless the file calls it already."""
    lines = []
    for switch in fidelity.SWITCHES:
        call = "tf1clip.%s" % switch.how.call
        found = switch.conversion.detect(tree)
        if found is None or any(u.endswith(switch.how.call) for u in scan.tf1clip_uses):
            continue
        scan.tf1clip_uses.append(call)
        subject, node = found
        _log_at(log, INFO, node, switch.conversion.report % {"subject": subject, "call": call + "()"})
        for node, message in switch.conversion.warnings(tree):
            _log_at(log, WARNING, node, message)
        lines.append(switch.line())
    return lines


def _estimator_error(uses, log):
    """One ERROR for the file's unconverted tf.estimator uses, at the first, naming each with its line."""
    where = {}
    for dotted, node in sorted(uses, key=lambda use: getattr(use[1], "lineno", 0)):
        where.setdefault(dotted, []).append(str(getattr(node, "lineno", 0)))
    _log_at(
        log,
        ERROR,
        uses[0][1],
        "tf.estimator was removed in TensorFlow 2.16, and tf1clip-upgrade could not convert these uses (a module "
        "alias or import; used here: %s): write tf1clip.estimator (tensorflow-estimator 2.15's v1 API on every "
        "TensorFlow; %s)."
        % (
            "; ".join("%s, line %s" % (name, ", ".join(dict.fromkeys(lines))) for name, lines in where.items()),
            ESTIMATOR_INSTALL,
        ),
    )


def _session_threads_note(tree, scan, target, log):
    """Logs, at the first ``ConfigProto`` that sets thread counts, that TF 2 may ignore them (adds no code).

    A WARNING where the file builds ``tf.data`` pipelines, or Estimators on the estimator target (TF 2.15's
    own Estimator, whose graph building starts the runtime); otherwise INFO.
    """
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (dotted_name(node.func) or "").split(".")[-1] == "ConfigProto"
        and any(k.arg in T.THREAD_KEYWORDS for k in node.keywords)
    ]
    if not calls:
        return
    estimator = bool(scan.estimator_uses) or any(u.startswith("tf1clip.estimator") for u in scan.tf1clip_uses)
    lines = ", ".join(dict.fromkeys(str(getattr(c, "lineno", 0)) for c in calls))
    message = (
        "ConfigProto thread counts (line %s): TensorFlow 2 gives a Session its intra-/inter-op thread counts only "
        "if TensorFlow's runtime has not started before the first Session; building a tf.data function "
        "(Dataset.map, filter, ...), a control flow v2 tf.cond or tf.while_loop, or running an eager op starts it, "
        "and the counts are then ignored without a message (one intra-op thread per core). To keep them, call "
        "tf.config.threading.set_intra_op_parallelism_threads(n) and set_inter_op_parallelism_threads(n) at the "
        "start of the program." % lines
    )
    if estimator and target != "estimator":
        message += " Estimators: tf1clip.estimator does this with RunConfig(session_config=...)'s counts."
    severity = WARNING if scan.data_use or (estimator and target == "estimator") else INFO
    _log_at(log, severity, calls[0], message)


def _tf_import_line(tree, log):
    """``import tensorflow as tf`` where the converted code reads ``tf`` and nothing binds it."""
    use = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any(a.name == "*" or (a.asname or a.name.split(".")[0]) == "tf" for a in node.names):
                return []
        elif isinstance(node, ast.Name) and node.id == "tf":
            if not isinstance(node.ctx, ast.Load):
                return []
            use = use or node
        elif getattr(node, "arg", None) == "tf" or getattr(node, "name", None) == "tf":
            return []
    if use is None:
        return []
    _log_at(log, INFO, use, "Added 'import tensorflow as tf' for the tf.* names the conversion wrote.")
    return ["import tensorflow as tf"]


def finish(text, tree, target="modern", input_names_tf=True):
    """Adds the imports and settings the converted ``text`` needs to run on TF 2.

    ``tree`` is the converted pasta tree, whose nodes keep the input's line
    numbers. ``input_names_tf``: whether the input used the name ``tf``; if not,
    and the conversion wrote ``tf.*`` names, ``import tensorflow as tf`` is added.
    Returns ``(new_text, log, added)``: log entries are ``(severity,
    line, col, message)``, ``added`` the statements added.
    """
    try:
        body = ast.parse(text).body
    except SyntaxError:
        return text, [], []
    tf_alias, input_tf_stmt = _tensorflow_import(tree.body)
    _, tf_stmt = _tensorflow_import(body)
    scan = _Scan(tree, tf_alias or "tf")  # tf_upgrade_v2 assumes ``tf`` too
    log = []
    if scan.estimator_uses and target != "estimator":
        _estimator_error(scan.estimator_uses, log)
    _session_threads_note(tree, scan, target, log)
    numeric_notes(
        tree, log, _log_at, graph_seed=fidelity.change("tf1_random_seeds").conversion.detect(tree) is not None
    )
    top = _top_index(body)
    if top == len(body):
        return text, log, []  # only a docstring and __future__ imports
    first = body[top]
    inserts = []  # (line, after_it, new_lines)
    # TF 2.15 (the estimator target) has Keras 2 built in: no tf-keras switch there.
    keras_lines, after_os = _legacy_keras_lines(scan, first, text, log) if target != "estimator" else ([], False)
    if keras_lines:
        inserts.append((first.end_lineno, True, keras_lines) if after_os else (_first_line(first), False, keras_lines))
    tf_lines = [] if input_names_tf else _tf_import_line(tree, log)
    tf1_rule_lines = _fidelity_lines(tree, scan, log)
    tf_lines += _tf1clip_import_line(tree, scan, input_tf_stmt or tree, log)
    tf_lines += _graph_mode_line(scan, tf_alias, input_tf_stmt, log) + tf1_rule_lines
    if tf_lines:
        inserts.append(
            (tf_stmt.end_lineno, True, tf_lines) if tf_stmt is not None else (_first_line(first), False, tf_lines)
        )
    added = [line.split("  #")[0] for _, _, lines in inserts for line in lines if line != "import os"]
    return _insert_lines(text, inserts), log, added


def _insert_lines(text, inserts):
    """Inserts ``(line, after, new_lines)`` blocks (1-based lines, at column 0)."""
    merged = {}
    for line, after, new in inserts:
        merged.setdefault((line, after), []).extend(new)
    inserts = [(line, after, new) for (line, after), new in merged.items()]
    lines = text.split("\n")
    carriage_return = "\r" if "\r\n" in text else ""
    for line, after, new in sorted(inserts, key=lambda i: (i[0], i[1]), reverse=True):
        index = line if after else line - 1
        lines[index:index] = [entry + carriage_return for entry in new]
    return "\n".join(lines)
