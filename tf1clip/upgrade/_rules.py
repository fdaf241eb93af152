"""tf1clip's rewriting rules, run inside ``tf_upgrade_v2``'s preprocessing step (imports TensorFlow)."""

import ast

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._engine import ast_edits
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._engine import tf_upgrade_v2
from tf1clip.upgrade._engine import tf_upgrade_v2_safety
from tf1clip.upgrade._fixes import dotted
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO
from tf1clip.upgrade._tables import WARNING

_SLIM_KEYS = (
    "slim.l1_regularizer",
    "slim.l2_regularizer",
    "slim.xavier_initializer",
    "slim.xavier_initializer_conv2d",
    "slim.variance_scaling_initializer",
)


def lookup(path):
    """``(tf1clip path, needs tf-slim)`` for a contrib module or member tf1clip provides, or None."""
    table = T.provided()
    if path in table:
        return table[path][0], path not in T.OWN  # a module only tf-slim provides
    module, _, name = path.rpartition(".")
    if module in table and name in table[module][1]:
        return table[module][0] + "." + name, name in table[module][2]
    return None


def supported(path):
    """``(prefix_length, target, needs tf-slim)`` if tf1clip provides the contrib ``path``, else None.

    The whole dotted path must be a provided module or member, or start with a
    provided member (``OPTIMIZER_CLS_NAMES.keys``); ``prefix_length`` counts the
    parts that ``target`` replaces.
    """
    parts = path.split(".")
    table = T.provided()
    for k in range(len(parts), 1, -1):
        prefix = ".".join(parts[:k])
        found = lookup(prefix)
        if found is None:
            continue
        if k == len(parts) or prefix not in table:
            return (k,) + found
        return None
    return None


def is_contrib(path):
    return path == "tf.contrib" or path.startswith("tf.contrib.")


def is_module(path):
    return path in T.provided()


def tf_path(module):
    """``tensorflow.x.y`` -> ``tf.x.y``; None for other modules."""
    if module == "tensorflow" or module.startswith("tensorflow."):
        return "tf" + module[len("tensorflow") :]
    return None


def _resolve(aliases, name):
    if name is None:
        return None
    root, dot, rest = name.partition(".")
    base = aliases.get(root)
    if base is None:
        return None
    return base + dot + rest


def _collect_aliases(tree):
    """Names bound to TensorFlow or to ``tf.contrib`` / flags paths anywhere in the file."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                path = tf_path(alias.name)
                if path is not None and alias.asname:
                    aliases[alias.asname] = path
                elif path is not None:
                    aliases["tensorflow"] = "tf"
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            base = tf_path(node.module)
            if base is not None:
                for alias in node.names:
                    if alias.name != "*":
                        aliases[alias.asname or alias.name] = base + "." + alias.name
    aliases.setdefault("tf", "tf")
    bindings = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bindings[node.id] = bindings.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            bindings[node.arg] = bindings.get(node.arg, 0) + 2
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            path = _resolve(aliases, dotted(node.value))
            if path is None or not is_contrib(path):
                continue
            for target in node.targets:
                # only a name bound once, by this assignment, is an alias of what it is given
                if isinstance(target, ast.Name) and bindings.get(target.id) == 1 and aliases.get(target.id) != path:
                    aliases[target.id] = path
                    changed = True
    return aliases


def _parents(tree):
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _literal_name(call):
    """The attribute name of ``getattr(x, "name"[, default])``, or None."""
    if len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str):
        return call.args[1].value
    return None


def _is_getattr(node, parent):
    return (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id in ("getattr", "hasattr")
        and parent.args
        and parent.args[0] is node
    )


def contrib_error(literal, path):
    named = literal if literal == path else "%s (%s)" % (literal, path)
    return (
        "%s cannot be converted automatically: tf.contrib is not part of TensorFlow 2 and "
        "tf1clip does not provide it; %s." % (named, T.successor(path))
    )


def import_error(statement, path):
    return (
        "%s fails on TensorFlow 2: tf.contrib is gone and tf1clip does not provide %s; %s. Remove "
        "the import once its uses are ported." % (statement, path, T.successor(path))
    )


class ContribRewriter:
    """Rewrites what tf1clip provides, in every spelling, and reports the rest of ``tf.contrib``.

    ``target`` is ``"estimator"`` (TensorFlow 2.15 + tensorflow-estimator) or ``"modern"``.
    """

    def __init__(self, spec, target="modern"):
        self._spec = spec
        self._target = target
        self._aliases = {}
        self._parents = {}
        self._opaque = set()  # aliases of contrib modules used in ways that hide which member
        self._unconverted = {}  # alias -> uses left unconverted
        self._pending_imports = []
        self._pending_bindings = []
        self._slim_noted = False
        self.log = []

    @property
    def warnings_and_errors(self):
        return [entry for entry in self.log if entry[0] in (WARNING, ERROR)]

    def _add(self, severity, node, message):
        self.log.append((severity, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), message))

    def run(self, tree):
        self._aliases = _collect_aliases(tree)
        self._parents = _parents(tree)
        self._find_opaque(tree)
        self._visit(tree)
        self._drop_converted_imports()

    # ---- what a module object is used for --------------------------------------------------

    def _find_opaque(self, tree):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
                continue
            path = self._aliases.get(node.id)
            if path is None or not is_contrib(path) or not is_module(path):
                continue
            parent = self._parents.get(node)
            if isinstance(parent, ast.Attribute) or (isinstance(parent, ast.Assign) and parent.value is node):
                continue
            if (
                _is_getattr(node, parent)
                and _literal_name(parent) is not None
                and supported(path + "." + _literal_name(parent)) is not None
            ):
                continue
            self._opaque.add(node.id)

    def _module_use_ok(self, node, path):
        """Whether a bare reference ``node`` to the provided contrib module ``path`` may be rewritten."""
        parent = self._parents.get(node)
        if _is_getattr(node, parent):
            name = _literal_name(parent)
            if name is None:
                self._add(
                    ERROR,
                    parent,
                    "%s(%s, ...) names a member of %s that cannot be known before "
                    "the program runs, so the module was left as is: tf1clip provides only some of "
                    "%s (%s)." % (parent.func.id, dotted(node), path, path, T.successor(path)),
                )
                return False
            if supported(path + "." + name) is None:
                self._add(
                    ERROR, parent, contrib_error("%s(%s, %r)" % (parent.func.id, dotted(node), name), path + "." + name)
                )
                return False
            return True
        if isinstance(parent, ast.Assign) and parent.value is node:
            targets = [t.id for t in parent.targets if isinstance(t, ast.Name)]
            if any(t in self._opaque for t in targets):
                return False
            return True
        if isinstance(node, ast.Name) and node.id in self._opaque:
            return True  # reported at the binding's opaque use below
        self._add(
            ERROR,
            node,
            "%s (%s) is passed around as a module object, so tf1clip cannot check that "
            "it provides every member the program uses; it was left as is (%s)."
            % (dotted(node), path, T.successor(path)),
        )
        return False

    # ---- the walk --------------------------------------------------------------------------

    def _engine_converts(self, name):
        return name in self._spec.symbol_renames or name in self._spec.function_transformers

    def _binding_supported(self, root):
        path = self._aliases.get(root)
        return path is not None and is_contrib(path) and supported(path) is not None and root not in self._opaque

    def _visit(self, node):
        for _, value in ast.iter_fields(node):
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.Import):
                    self._import(child, node)
                elif isinstance(child, ast.ImportFrom):
                    self._import_from(child, node)
                elif isinstance(child, (ast.Name, ast.Attribute)):
                    self._chain(child, node)
                elif isinstance(child, ast.AST):
                    self._visit(child)

    def _note_slim(self, node):
        if not self._slim_noted:
            self._slim_noted = True
            self._add(
                INFO,
                node,
                "tf.contrib names that tf-slim provides were routed to tf1clip.contrib, "
                "which takes them from the tf-slim package: pip install '%s'." % T.SLIM_EXTRA,
            )

    def _chain(self, node, parent):
        name = dotted(node)
        if name is None:
            self._visit(node)
            return
        if not isinstance(node.ctx, ast.Load):
            return
        path = _resolve(self._aliases, name)
        if (
            path is None
            or self._prefix_rename(node, parent, name, path)
            or self._mode_key(node, parent, path)
            or self._estimator(node, parent, name, path)
        ):
            return
        if not is_contrib(path):
            self._v1_module(node, parent, name, path)
        elif supported(path) is not None:
            self._provided(node, parent, name, path)
        elif not self._converted_elsewhere(node, parent, name, path):
            root = name.split(".")[0]
            self._unconverted[root] = self._unconverted.get(root, 0) + 1
            if root in self._opaque and name == root:
                self._module_use_ok(node, path)
            else:
                self._add(ERROR, node, contrib_error(name, path))

    def _provided(self, node, parent, name, path):
        """Rewrites a chain to the tf1clip module or member replacing the contrib ``path``."""
        length, target, needs_slim = supported(path)
        root = name.split(".")[0]
        if needs_slim:
            self._note_slim(node)
        if self._binding_supported(root):
            return  # the alias itself now names a tf1clip module or member
        if length == len(path.split(".")) and is_module(path) and not self._module_use_ok(node, path):
            self._unconverted[root] = self._unconverted.get(root, 0) + 1
            return
        sub, sub_parent = node, parent
        for _ in range(len(path.split(".")) - length):
            sub_parent, sub = sub, sub.value
        self._replace(sub_parent, sub, target)

    def _converted_elsewhere(self, node, parent, name, path):
        """Whether a contrib chain tf1clip does not provide is converted by another rule or tf_upgrade_v2."""
        if path.startswith(T.MIXED_PRECISION + ".") and self._mixed_precision(node, parent, name, path):
            return True
        rnn = T.rnn_target(path)
        if rnn is not None:
            if "." in name:  # a bare name comes from an import that is rewritten
                self._replace(parent, node, rnn)
            return True
        if self._engine_converts(name):
            return True
        if self._engine_converts(path):
            self._replace(parent, node, path, "so that tf_upgrade_v2 converts it")
            return True
        return bool(T.MEMBERWISE.get(path)) and self._alias_binding(node, parent)

    def _v1_module(self, node, parent, name, path):
        """``getattr(tf.train, name)``: a TF 1 module object, used bare, becomes its tf.compat.v1 module."""
        if (
            path.startswith("tf.")
            and path[3:] in T.V1_MODULES
            and name.split(".")[0] == "tf"
            and not (self._target == "estimator" and path == "tf.estimator")
        ):
            self._replace(
                parent,
                node,
                "tf.compat.v1." + path[3:],
                "(the module object itself is used, so it must have every TF 1 member)",
            )

    def _prefix_rename(self, node, parent, name, path):
        for old, new in T.PREFIX_RENAMES.items():
            if path == old or path.startswith(old + "."):
                if self._aliases.get(name.split(".")[0], "").startswith(old):
                    return True  # the alias's binding is renamed
                depth = len(path.split(".")) - len(old.split("."))
                sub, sub_parent = node, parent
                for _ in range(depth):
                    sub_parent, sub = sub, sub.value
                self._replace(sub_parent, sub, new)
                return True
        return False

    def _replace(self, parent, node, new_name, why=""):
        new_node = ast_edits.full_name_node(new_name, node.ctx)
        for part in ast.walk(new_node):
            ast.copy_location(part, node)
        pasta.ast_utils.replace_child(parent, node, new_node)
        self._parents[new_node] = parent
        self._add(INFO, node, ("Renamed %r to %r %s" % (dotted(node), new_name, why)).strip())

    # ---- tf.estimator / tf.contrib.estimator -----------------------------------------------

    def _mode_key(self, node, parent, path):
        """``ModeKeys.TRAIN`` -> ``"train"`` (modern target) or ``tf.estimator.ModeKeys.TRAIN``."""
        module, _, key = path.rpartition(".")
        values = T.MODE_KEYS.get(module)
        if values is None or key not in values or "." not in dotted(node):
            return False  # a bare name bound to a mode key keeps its binding, which is rewritten
        if self._target == "estimator":
            if module == "tf.estimator.ModeKeys":
                return True
            self._replace(parent, node, "tf.estimator.ModeKeys." + ("PREDICT" if key == "INFER" else key))
            return True
        constant = ast.copy_location(ast.Constant(values[key]), node)
        pasta.ast_utils.replace_child(parent, node, constant)
        self._add(
            INFO,
            node,
            "Replaced %r by its value %r: mode keys are strings, and %s is gone on TF 2.16+."
            % (dotted(node), values[key], module.rpartition(".")[0]),
        )
        return True

    def _estimator(self, node, parent, name, path):
        """Converts TF 1 estimator code for the estimator target, as TF 2.15's tf_upgrade_v2 does."""
        if self._target != "estimator":
            return False
        if path.startswith("tf.contrib.estimator."):
            member = path[len("tf.contrib.estimator.") :]
            if member in T.CONTRIB_ESTIMATOR:
                self._replace(parent, node, T.CONTRIB_ESTIMATOR[member])
                return True
            return False
        if not path.startswith("tf.estimator."):
            return False
        member = path[len("tf.estimator.") :]
        if any(member == p or member.startswith(p + ".") for p in T.ESTIMATOR_V1_ONLY):
            self._replace(parent, node, "tf.compat.v1.estimator." + member)
            return True
        if member in T.CANNED_ESTIMATORS and isinstance(parent, ast.Call) and parent.func is node:
            arg_names, add_reduction = T.CANNED_ESTIMATORS[member]
            if any(ast_edits.get_arg_value(parent, a)[0] for a in arg_names):
                self._replace(
                    parent,
                    node,
                    "tf.compat.v1.estimator." + member,
                    "(it is given a tf.compat.v1 optimizer or input_layer_partitioner, which "
                    "only the tf.compat.v1.estimator class takes)",
                )
                return True
            if add_reduction and not any(k.arg == "loss_reduction" for k in parent.keywords):
                parent.keywords.append(
                    ast.keyword(arg="loss_reduction", value=pasta.parse("tf.keras.losses.Reduction.SUM"))
                )
                self._add(
                    INFO,
                    node,
                    "%s: added loss_reduction=tf.keras.losses.Reduction.SUM, the TF 1 "
                    "default (TF 2's is SUM_OVER_BATCH_SIZE)." % name,
                )
            return True
        return False

    # ---- tf.contrib.mixed_precision --------------------------------------------------------

    def _mixed_precision(self, node, parent, name, path):
        member = path[len(T.MIXED_PRECISION) + 1 :]
        call = parent if isinstance(parent, ast.Call) and parent.func is node else None
        if member == "LossScaleOptimizer":
            if call is not None:
                _rename_keywords(call, {"loss_scale_manager": "loss_scale"})
            self._replace(parent, node, T.LOSS_SCALE_OPTIMIZER)
            return True
        if member == "FixedLossScaleManager":
            # contrib's LossScaleOptimizer skips non-finite steps with any manager; TF 2's optimizer does so
            # only for a DynamicLossScale, and one that multiplies by 1 keeps the scale fixed.
            if call is not None:
                _rename_keywords(call, {"loss_scale": "initial_loss_scale"})
                call.keywords += [
                    ast.keyword(arg="increment_period", value=ast.Constant(1)),
                    ast.keyword(arg="multiplier", value=ast.Constant(1.0)),
                ]
            self._replace(
                parent,
                node,
                "tf.compat.v1.mixed_precision.DynamicLossScale",
                "with increment_period=1, multiplier=1.0: a fixed scale that still skips "
                "non-finite steps, as contrib's LossScaleOptimizer did",
            )
            return True
        if member == "ExponentialUpdateLossScaleManager":
            if call is not None and _exponential_is_dynamic(call):
                _rename_keywords(
                    call,
                    {
                        "init_loss_scale": "initial_loss_scale",
                        "incr_every_n_steps": "increment_period",
                        "incr_ratio": "multiplier",
                    },
                )
                call.keywords = [k for k in call.keywords if k.arg not in ("decr_every_n_nan_or_inf", "decr_ratio")]
                if len(call.args) >= 4:
                    call.keywords.insert(0, ast.keyword(arg="multiplier", value=call.args[3]))
                call.args = call.args[:2]
                self._replace(parent, node, "tf.compat.v1.mixed_precision.DynamicLossScale")
            else:
                self._replace(parent, node, T.DYNAMIC_LOSS_SCALE)
            return True
        return False

    # ---- imports ---------------------------------------------------------------------------

    def _import(self, node, parent):
        for alias in node.names:
            path = tf_path(alias.name)
            if path is None:
                continue
            if not is_contrib(path):
                continue
            found = supported(path)
            if found is not None and found[0] == len(path.split(".")):
                old = pasta.dump(node)
                alias.name = found[1]
                self._add(INFO, node, "Changed import from %r to %r" % (old.strip(), pasta.dump(node).strip()))
            elif alias.asname:
                self._pending_imports.append((node, parent, alias, path))
            else:
                self._add(ERROR, node, import_error("import " + alias.name, path))

    def _import_from(self, node, parent):
        base = tf_path(node.module or "")
        if node.level or base is None:
            return
        keep, moved = [], {}
        for alias in node.names:
            path = base + "." + alias.name
            if path in T.PREFIX_RENAMES:
                moved.setdefault(tf_module(T.PREFIX_RENAMES[path].rpartition(".")[0]), []).append(
                    ast.alias(name=alias.name, asname=alias.asname)
                )
                continue
            rnn = T.rnn_target(path)
            if rnn is not None:
                module, _, name = rnn.rpartition(".")
                moved.setdefault(tf_module(module), []).append(
                    ast.alias(name=name, asname=alias.asname or (alias.name if name != alias.name else None))
                )
                continue
            found = supported(path) if is_contrib(path) and alias.name != "*" else None
            if found is not None and found[0] == len(path.split(".")):
                if found[2]:
                    self._note_slim(node)
                module, _, name = found[1].rpartition(".")
                asname = alias.asname or (alias.name if name != alias.name else None)
                moved.setdefault(module, []).append(ast.alias(name=name, asname=asname))
                continue
            keep.append(alias)
            if is_contrib(path) and alias.name != "*":
                self._pending_imports.append((node, parent, alias, path))
            elif is_contrib(path):
                self._add(ERROR, node, import_error("from %s import %s" % (node.module, alias.name), path))
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
        body = _body_of(parent, node)
        index = next(i for i, item in enumerate(body) if item is node)
        new_nodes = []
        for offset, (module, aliases) in enumerate(groups, 1):
            new_node = ast.ImportFrom(module=module, names=aliases, level=0)
            ast.copy_location(new_node, node)
            body.insert(index + offset, new_node)
            pasta.base.formatting.set(new_node, "prefix", pasta.base.formatting.get(node, "prefix"))
            new_nodes.append(new_node)
        self._add(
            INFO,
            node,
            "Changed import from %r to %r"
            % (old.strip(), "; ".join(pasta.dump(n).strip() for n in [node] + new_nodes)),
        )

    def _alias_binding(self, node, parent):
        """Defers ``alias = tf.contrib.<memberwise module>`` until its uses are known."""
        if (
            not isinstance(parent, ast.Assign)
            or parent.value is not node
            or len(parent.targets) != 1
            or not isinstance(parent.targets[0], ast.Name)
        ):
            return False
        self._pending_bindings.append((parent, parent.targets[0].id, dotted(node)))
        return True

    def _drop_converted_imports(self):
        """Removes a contrib import (and repoints an alias) whose every use was converted; else an ERROR."""
        for assign, bound, name in self._pending_bindings:
            path = _resolve(self._aliases, name)
            if self._unconverted.get(bound) or bound in self._opaque:
                self._add(ERROR, assign.value, contrib_error(name, path))
                continue
            self._replace(assign, assign.value, T.MEMBERWISE[path], "(every use of %s was converted)" % bound)
        for node, parent, alias, path in self._pending_imports:
            bound = alias.asname or alias.name.split(".")[0]
            statement = ("import " if isinstance(node, ast.Import) else "from %s import " % node.module) + alias.name
            if self._unconverted.get(bound) or bound in self._opaque:
                self._add(ERROR, node, import_error(statement, path))
                continue
            node.names = [a for a in node.names if a is not alias]
            self._add(INFO, node, "Removed %r: every use of %s was converted." % (statement, bound))
            if node.names:
                continue
            body = _body_of(parent, node)
            if len(body) > 1:
                body.remove(node)
            else:
                body[0] = ast.copy_location(ast.Pass(), node)


def tf_module(path):
    """``tf.x.y`` -> ``tensorflow.x.y``."""
    return "tensorflow" + path[len("tf") :]


def _body_of(parent, node):
    return next(
        value for _, value in ast.iter_fields(parent) if isinstance(value, list) and any(item is node for item in value)
    )


def _rename_keywords(call, renames):
    for keyword in call.keywords:
        if keyword.arg in renames:
            keyword.arg = renames[keyword.arg]


def _number(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.Div, ast.Mult)):
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Div) and right == 0):
            return None
        try:
            return {ast.Pow: left**right, ast.Div: left / (right or 1), ast.Mult: left * right}[type(node.op)]
        except OverflowError:
            return None
    return None


def _exponential_is_dynamic(call):
    """Whether ``ExponentialUpdateLossScaleManager(...)`` equals a ``DynamicLossScale``.

    True when the call's literal arguments decrease after every non-finite step
    (``decr_every_n_nan_or_inf=1``) by ``decr_ratio == 1 / incr_ratio``.
    """
    names = ("init_loss_scale", "incr_every_n_steps", "decr_every_n_nan_or_inf", "incr_ratio", "decr_ratio")
    values = dict(zip(names, call.args))
    values.update({k.arg: k.value for k in call.keywords if k.arg})
    if set(values) - set(names) or any(k.arg is None for k in call.keywords):
        return False
    every = _number(values["decr_every_n_nan_or_inf"]) if "decr_every_n_nan_or_inf" in values else 2.0
    incr = _number(values["incr_ratio"]) if "incr_ratio" in values else 2.0
    decr = _number(values["decr_ratio"]) if "decr_ratio" in values else 0.8
    return every == 1.0 and incr is not None and decr is not None and abs(decr * incr - 1.0) < 1e-12


class _Tf1clipRules:
    """Mixin: tf1clip's rules on top of a tf_upgrade_v2 change spec."""

    target = "modern"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(self, tf_upgrade_v2.TFAPIChangeSpec):
            self.symbol_renames = dict(self.symbol_renames)
            for name in T.TF_LAYERS:
                self.symbol_renames.setdefault("tf.layers." + name, "tf.compat.v1.layers." + name)
            for name in T.RNN_CELLS:
                self.symbol_renames["tf.contrib.rnn." + name] = "tf.compat.v1.nn.rnn_cell." + name
            self.symbol_renames.setdefault("tf.contrib.framework.nest.is_sequence", "tf.nest.is_nested")
            for name in T.SUMMARY_OPS:
                self.symbol_renames.setdefault("tf.summary." + name, "tf.compat.v1.summary." + name)
            # TF 2.15's rules move tf.train's session hooks to tf.estimator, which TF 2.16 removed;
            # tf.compat.v1.train has them in every TF 2.
            for old, new in list(self.symbol_renames.items()):
                if old.startswith("tf.train.") and new.startswith("tf.estimator."):
                    self.symbol_renames[old] = "tf.compat.v1." + old[len("tf.") :]
            self.function_transformers = {k: v for k, v in self.function_transformers.items() if k not in _SLIM_KEYS}
        # tf1clip reports contrib itself (naming the successor), and absl flags live on in tf.compat.v1.
        self.module_deprecations = {
            name: value
            for name, value in self.module_deprecations.items()
            if not is_contrib(name) and name not in T.PREFIX_RENAMES
        }

    def preprocess(self, root_node, after_compat_v1_upgrade=False):
        if isinstance(self, tf_upgrade_v2.TFAPIChangeSpec):
            result = super().preprocess(root_node, after_compat_v1_upgrade=after_compat_v1_upgrade)
        else:
            result = super().preprocess(root_node)
        if after_compat_v1_upgrade:
            return result  # the outer call rewrites contrib once
        root_node, logs, errors = result
        rewriter = ContribRewriter(self, self.target)
        rewriter.run(root_node)
        return root_node, logs + rewriter.log, errors + rewriter.warnings_and_errors

    def clear_preprocessing(self):
        target = self.target
        super().clear_preprocessing()
        self.target = target


class ChangeSpec(_Tf1clipRules, tf_upgrade_v2.TFAPIChangeSpec):
    """``tf_upgrade_v2``'s DEFAULT-mode rules plus tf1clip's."""


class SafetyChangeSpec(_Tf1clipRules, tf_upgrade_v2_safety.TFAPIChangeSpec):
    """``tf_upgrade_v2``'s SAFETY-mode rules (``import tensorflow.compat.v1 as tf``), tf1clip's."""


def make_spec(mode="DEFAULT", target="modern", upgrade_compat_v1_import=True):
    """The change spec for ``mode`` (``"DEFAULT"`` or ``"SAFETY"``) and ``target``."""
    if mode == "SAFETY":
        spec = SafetyChangeSpec()
    else:
        spec = ChangeSpec(import_rename=False, upgrade_compat_v1_import=upgrade_compat_v1_import)
    spec.target = target
    return spec


__all__ = ["ChangeSpec", "SafetyChangeSpec", "ContribRewriter", "make_spec", "supported", "lookup"]
