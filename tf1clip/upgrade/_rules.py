"""tf1clip's rules on top of ``tf_upgrade_v2``'s change spec (imports TensorFlow).

:class:`ContribRewriter` runs in the spec's preprocessing step: it hands each import to ``_rules_imports`` and
each dotted name to ``_registry.rewrite_chain`` (the entry of ``_registry.CHAIN_RULES`` that claims its path); the
state of the file is a ``_edits.FileEdits``. ``_registry.CALL_RULES`` become the spec's function transformers.
:func:`make_spec` builds each mode's spec once per process (and thread) and restores its tables for each file.
"""

import ast
import copy
import threading
from typing import Any, Dict, Tuple

from tf1clip.contrib import _manifest
from tf1clip.upgrade import _registry

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import collect_aliases
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._astutil import parents
from tf1clip.upgrade._edits import FileEdits
from tf1clip.upgrade._engine import tf_upgrade_v2
from tf1clip.upgrade._engine import tf_upgrade_v2_safety
from tf1clip.upgrade._registry import call_transformers
from tf1clip.upgrade._registry import find_opaque
from tf1clip.upgrade._registry import rewrite_chain
from tf1clip.upgrade._routes import engine_alias_path
from tf1clip.upgrade._routes import is_contrib
from tf1clip.upgrade._routes import supported
from tf1clip.upgrade._rules_aliases import modernize
from tf1clip.upgrade._rules_imports import finish_imports
from tf1clip.upgrade._rules_imports import rewrite_import
from tf1clip.upgrade._rules_imports import rewrite_import_from
from tf1clip.upgrade._rules_paths import rewrite_dataset_properties
from tf1clip.upgrade._rules_paths import rewrite_paths
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import WARNING

# tf_upgrade_v2's rule tables keyed by dotted names.
_ENGINE_TABLES = (
    "symbol_renames",
    "function_transformers",
    "function_keyword_renames",
    "function_warnings",
    "function_arg_warnings",
)
_ENGINE_CALL_TABLES = (
    "function_transformers",
    "function_keyword_renames",
    "function_warnings",
    "function_arg_warnings",
)


def _keep_numeric_v1(spec):
    """Makes ``spec`` convert T.NUMERIC_V1 to their tf.compat.v1 forms, and run ``_registry.CALL_RULES``."""
    for rules in _ENGINE_CALL_TABLES + ("function_reorders",):
        table = getattr(spec, rules, None)
        if isinstance(table, dict):
            table = dict(table)
            for old in list(T.NUMERIC_V1) + [T.V1_VARIABLE]:
                table.pop(old, None)
            setattr(spec, rules, table)
    for old in T.NUMERIC_V1:
        spec.symbol_renames[old] = "tf.compat.v1." + old[len("tf.") :]
    spec.function_transformers.update(call_transformers())


def _without_guessed_aliases(rules):
    """``rules`` without the entries keyed by a guessed alias of a contrib name that tf1clip provides."""
    kept = {}
    for key, value in rules.items():
        path = engine_alias_path(key)
        if path is None or supported(path) is None:
            kept[key] = value
    return kept


class ContribRewriter:
    """Rewrites what tf1clip provides, in every spelling, and reports the rest of ``tf.contrib``.

    ``target`` is ``"estimator"`` (TensorFlow 2.15 + tensorflow-estimator) or ``"modern"``.
    """

    def __init__(self, spec, target="modern"):
        self.edits = FileEdits(spec, target)

    @property
    def log(self):
        return self.edits.log

    @property
    def warnings_and_errors(self):
        return [entry for entry in self.edits.log if entry[0] in (WARNING, ERROR)]

    def run(self, tree):
        """Rewrites ``tree`` in place; the log is in ``log``."""
        modernize(self.edits, tree)
        self.edits.aliases = collect_aliases(tree, follow=is_contrib)
        self.edits.parents = parents(tree)
        find_opaque(self.edits, tree)
        rewrite_paths(self.edits, tree)
        self._visit(tree)
        rewrite_dataset_properties(self.edits, tree)
        finish_imports(self.edits)

    def _visit(self, node):
        for _, value in ast.iter_fields(node):
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.Import):
                    rewrite_import(self.edits, child, node)
                elif isinstance(child, ast.ImportFrom):
                    rewrite_import_from(self.edits, child, node)
                elif isinstance(child, (ast.Name, ast.Attribute)) and dotted(child) is not None:
                    rewrite_chain(self.edits, child, node)
                elif isinstance(child, ast.AST):
                    self._visit(child)


class _Tf1clipRules:
    """Mixin: tf1clip's rules on top of a tf_upgrade_v2 change spec."""

    target = "modern"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(self, tf_upgrade_v2.TFAPIChangeSpec):
            self.symbol_renames = dict(self.symbol_renames)
            for name in T.TF_LAYERS:
                self.symbol_renames.setdefault("tf.layers." + name, "tf.compat.v1.layers." + name)
            for name in T.rnn_cells():
                self.symbol_renames["tf.contrib.rnn." + name] = T.RNN_CELL_HOME + "." + name
            self.symbol_renames.setdefault("tf.contrib.framework.nest.is_sequence", "tf.nest.is_nested")
            for old, new in T.CONTRIB_RENAMES.items():
                self.symbol_renames.setdefault(old, new)
            self.function_keyword_renames = dict(self.function_keyword_renames)
            for old, keywords in T.CONTRIB_RENAMED_KEYWORDS.items():
                self.function_keyword_renames.setdefault(old, {}).update(keywords)
            for name in T.SUMMARY_OPS:
                self.symbol_renames.setdefault("tf.summary." + name, "tf.compat.v1.summary." + name)
            # TF 2.15's rules move tf.train's session hooks to tf.estimator, which TF 2.16 removed;
            # tf.compat.v1.train has them in every TF 2.
            for old, new in list(self.symbol_renames.items()):
                if old.startswith("tf.train.") and new.startswith("tf.estimator."):
                    self.symbol_renames[old] = "tf.compat.v1." + old[len("tf.") :]
            _keep_numeric_v1(self)
        for rules in _ENGINE_TABLES:
            if isinstance(getattr(self, rules, None), dict):
                setattr(self, rules, _without_guessed_aliases(getattr(self, rules)))
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
        """Restores the spec to what it was when built (its tables copied, so that what one file's conversion drops
        from them is not dropped for the next); the target stays."""
        built = self.__dict__.get("_built")
        if built is None:
            target = self.target
            super().clear_preprocessing()
            self.target = target
            return
        target = self.target
        self.__dict__.clear()
        self.__dict__.update({name: copy.copy(value) for name, value in built.items()})
        self._built, self.target = built, target

    def keep_as_built(self):
        """Records the spec's tables as they are now, for :meth:`clear_preprocessing` to restore."""
        self._built = {name: copy.copy(value) for name, value in vars(self).items() if name != "_built"}


_DefaultRules: Any = tf_upgrade_v2.TFAPIChangeSpec
_SafetyRules: Any = tf_upgrade_v2_safety.TFAPIChangeSpec


class ChangeSpec(_Tf1clipRules, _DefaultRules):
    """``tf_upgrade_v2``'s DEFAULT-mode rules plus tf1clip's."""


class SafetyChangeSpec(_Tf1clipRules, _SafetyRules):
    """``tf_upgrade_v2``'s SAFETY-mode rules (``import tensorflow.compat.v1 as tf``), tf1clip's."""


_LOCAL = threading.local()
"""``specs``: ``{(mode, upgrade_compat_v1_import): (what the spec was built from, the spec)}`` of this thread (a
conversion sets the spec's target and restores its tables, so threads do not share one)."""


def _built() -> Dict[Tuple[str, bool], Tuple[Tuple[Any, ...], Any]]:
    return _LOCAL.__dict__.setdefault("specs", {})


def _built_from():
    """What the spec's tables are derived from beyond TensorFlow's rules (tests replace them)."""
    return (_manifest.ROWS, _registry.CALL_RULES)


def make_spec(mode="DEFAULT", target="modern", upgrade_compat_v1_import=True):
    """The change spec for ``mode`` (``"DEFAULT"`` or ``"SAFETY"``) and ``target``, built once per process and
    thread (and again only when ``_manifest.ROWS`` or ``_registry.CALL_RULES`` is replaced) and restored to its
    built tables for each file (:meth:`_Tf1clipRules.clear_preprocessing`)."""
    key = (mode if mode == "SAFETY" else "DEFAULT", bool(upgrade_compat_v1_import))
    inputs = _built_from()
    built = _built().get(key)
    if built is None or any(old is not new for old, new in zip(built[0], inputs)):
        if mode == "SAFETY":
            spec = SafetyChangeSpec()
        else:
            spec = ChangeSpec(import_rename=False, upgrade_compat_v1_import=upgrade_compat_v1_import)
        spec.target = target
        spec.keep_as_built()
        built = _built()[key] = (inputs, spec)
    spec = built[1]
    spec.target = target
    spec.clear_preprocessing()
    return spec


__all__ = ["ChangeSpec", "SafetyChangeSpec", "ContribRewriter", "make_spec"]
