"""tf1clip-upgrade's rules, each a named entry keyed by what it matches.

:data:`CHAIN_CHECKS` log about a dotted name (a WARNING where TF 1.15's behaviour is kept unless the call opts
into a fix); then :data:`CHAIN_RULES` decide what becomes of it (``tf.contrib.x.y``, ``alias.y``) as
:class:`~tf1clip.upgrade._rules.ContribRewriter` walks a file before tf_upgrade_v2's own rules. Each chain rule
claims TF paths: those under its ``under`` prefixes (``""``: every path) for which its ``claims`` holds, a question
about the path alone (with what tf1clip provides, the target and tf_upgrade_v2's tables; never the spelling, the
node or the file's bindings), minus what the rules it ``yields_to`` claim. Exactly one rule claims each path
(tests/upgrade/test_upgrade_registry.py checks every path the converter knows), so the order of the entries does
not matter. What depends on the chain's context (a bare name bound to a mode key, a class that is not called,
``alias = tf.contrib.x`` that can be deferred) is decided in the claiming rule's ``rewrite``, which returns
``DECLINED`` where the rule does not apply: the rule claiming the path without it then takes the chain.
:data:`CALL_RULES` run inside tf_upgrade_v2's visitor on the calls of one function (``"*.minimize"``: any
``x.minimize(...)``), after it: each matching entry rewrites the call or logs about it.

What a rule knows about names comes from the tables (``_tables``, itself derived from
``tf1clip.contrib._manifest``); adding a rule is adding one entry here (docs/upgrade.rst, "How a rule is added").
"""

import ast
import functools
from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._astutil import dotted
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._routes import contrib_error
from tf1clip.upgrade._routes import is_contrib
from tf1clip.upgrade._routes import is_module
from tf1clip.upgrade._routes import supported
from tf1clip.upgrade._rules_aliases import from_listing
from tf1clip.upgrade._rules_aliases import instead_of_missing
from tf1clip.upgrade._rules_aliases import is_listed
from tf1clip.upgrade._rules_aliases import is_strategy
from tf1clip.upgrade._rules_aliases import passes_tf12_map_keywords
from tf1clip.upgrade._rules_aliases import renamed_to_nothing
from tf1clip.upgrade._rules_aliases import to_tf14_map
from tf1clip.upgrade._rules_aliases import to_v1_strategy
from tf1clip.upgrade._rules_estimator import is_canned_estimator_call
from tf1clip.upgrade._rules_estimator import is_mode_key
from tf1clip.upgrade._rules_estimator import is_moved_contrib_estimator
from tf1clip.upgrade._rules_estimator import is_removed_estimator
from tf1clip.upgrade._rules_estimator import is_tf1_estimator_spelled_out
from tf1clip.upgrade._rules_estimator import is_tpu_estimator
from tf1clip.upgrade._rules_estimator import is_v1_only_estimator
from tf1clip.upgrade._rules_estimator import report_removed_estimator
from tf1clip.upgrade._rules_estimator import rewrite_canned_estimator_call
from tf1clip.upgrade._rules_estimator import rewrite_mode_key
from tf1clip.upgrade._rules_estimator import rewrite_moved_contrib_estimator
from tf1clip.upgrade._rules_estimator import rewrite_to_tf1clip_estimator
from tf1clip.upgrade._rules_estimator import rewrite_tpu_estimator
from tf1clip.upgrade._rules_estimator import rewrite_v1_only_estimator
from tf1clip.upgrade._rules_imports import defer_binding
from tf1clip.upgrade._rules_summary import decide_summary
from tf1clip.upgrade._rules_summary import is_summary_decision
from tf1clip.upgrade._rules_mixed_precision import is_loss_scaling
from tf1clip.upgrade._rules_mixed_precision import rewrite_loss_scaling
from tf1clip.upgrade._tables import DECLINED
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO
from tf1clip.upgrade._tables import WARNING


class Chain:
    """A dotted name being converted: ``node`` (a child of ``parent``) spelled ``name``, read as the TF path
    ``path``, in the file whose state is ``edits``; ``found`` is ``_routes.supported(path)``, computed once."""

    def __init__(self, edits, node, parent, name, path):
        self.edits, self.node, self.parent, self.name, self.path = edits, node, parent, name, path

    @functools.cached_property
    def found(self):
        return supported(self.path)


class ChainRule(NamedTuple):
    """A rule for dotted names, keyed by the TF paths it claims.

    ``under``: the paths it may claim are these, or below them (``""``: any path); ``claims(chain)``: whether it
    claims ``chain.path``, reading only ``chain.path``, ``chain.found`` and ``chain.edits``' target and change spec
    (never the node, its spelling or the file's bindings); ``yields_to``: the names of the rules whose claim wins over
    this one's where both hold (:data:`EVERY_OTHER`: every other rule's), so that one rule claims each path;
    ``rewrite(chain)`` rewrites or reports the chain, or returns ``DECLINED`` where its context (spelling, parent,
    bindings) says the rule does not apply, and the rule that claims the path without this one takes it."""

    name: str
    under: Tuple[str, ...]
    claims: Callable[[Chain], bool]
    rewrite: Callable[[Chain], Optional[str]]
    yields_to: Tuple[str, ...] = ()


EVERY_OTHER = ("*",)
"""``yields_to`` of a rule that claims only what no other rule claims."""


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


def find_opaque(edits, tree):
    """Adds to ``edits.opaque`` the aliases of provided contrib modules used other than by attribute."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
            continue
        path = edits.aliases.get(node.id)
        if path is None or not is_contrib(path) or not is_module(path):
            continue
        parent = edits.parents.get(node)
        if isinstance(parent, ast.Attribute) or (isinstance(parent, ast.Assign) and parent.value is node):
            continue
        if _is_getattr(node, parent) and (
            path in T.COMPLETE_MODULES
            or (_literal_name(parent) is not None and supported(path + "." + _literal_name(parent)) is not None)
        ):
            continue
        edits.opaque.add(node.id)


def _getattr_ok(edits, node, call, path):
    name = _literal_name(call)
    if name is None and path in T.COMPLETE_MODULES:
        return True
    if name is None:
        edits.add(
            ERROR,
            call,
            "%s(%s, ...) names a member of %s that cannot be known before "
            "the program runs, so the module was left as is: tf1clip provides only some of "
            "%s (%s)." % (call.func.id, dotted(node), path, path, T.successor(path)),
        )
        return False
    if supported(path + "." + name) is None:
        edits.add(ERROR, call, contrib_error("%s(%s, %r)" % (call.func.id, dotted(node), name), path + "." + name))
        return False
    return True


def _module_use_ok(edits, node, path):
    """Whether a bare reference ``node`` to the provided contrib module ``path`` may be rewritten."""
    parent = edits.parents.get(node)
    if _is_getattr(node, parent):
        return _getattr_ok(edits, node, parent, path)
    if isinstance(parent, ast.Assign) and parent.value is node:
        return not any(t.id in edits.opaque for t in parent.targets if isinstance(t, ast.Name))
    if isinstance(node, ast.Name) and node.id in edits.opaque:
        return True  # reported at the binding's opaque use below
    edits.add(
        ERROR,
        node,
        "%s (%s) is passed around as a module object, so tf1clip cannot check that "
        "it provides every member the program uses; it was left as is (%s)." % (dotted(node), path, T.successor(path)),
    )
    return False


def _renamed_prefix(path):
    """The ``PREFIX_RENAMES`` key that starts ``path``, or None."""
    return next((old for old in T.PREFIX_RENAMES if path == old or path.startswith(old + ".")), None)


def _rename_prefix(chain):
    old = _renamed_prefix(chain.path)
    if chain.edits.aliases.get(chain.name.split(".")[0], "").startswith(old):
        return  # the alias's binding is renamed
    kept = len(chain.path.split(".")) - len(old.split("."))
    chain.edits.replace_prefix(chain.parent, chain.node, kept, T.PREFIX_RENAMES[old])


def _module_object(chain):
    _v1_module(chain.edits, chain.node, chain.parent, chain.name, chain.path)


def _provided(chain):
    """Rewrites a chain to the tf1clip module or member replacing the contrib ``path``."""
    edits, node, parent, name, path = chain.edits, chain.node, chain.parent, chain.name, chain.path
    length, target, extra = chain.found
    root = name.split(".")[0]
    if extra:
        edits.note_extra(node, extra)
    if _binding_supported(edits, root) and _alias_gives(edits, root, name, path, length, target):
        return  # the alias itself now names a tf1clip module or member
    if length == len(path.split(".")) and path in T.MEMBERWISE and defer_binding(edits, node, parent):
        return  # ``alias = tf.contrib.rnn``: its uses go member by member
    if length == len(path.split(".")) and is_module(path) and not _module_use_ok(edits, node, path):
        edits.count_unconverted(root)
        return
    edits.replace_prefix(parent, node, len(path.split(".")) - length, target)


def _to_rnn_home(chain):
    if "." in chain.name:  # a bare name comes from an import that is rewritten
        chain.edits.replace(chain.parent, chain.node, T.rnn_target(chain.path))


def _by_engine(chain):
    """tf_upgrade_v2 converts the name as spelled; an alias of a name it converts is spelled out for it."""
    if not chain.edits.engine_converts(chain.name):
        chain.edits.replace(chain.parent, chain.node, chain.path, "so that tf_upgrade_v2 converts it")


def _unless_engine_converts_spelling(rewrite):
    """``rewrite``, unless tf_upgrade_v2's rules convert the chain as spelled (an alias they guess,
    ``contrib_data.X``, bound to another module than the one they take it for): then they do."""

    @functools.wraps(rewrite)
    def checked(chain):
        if chain.edits.engine_converts(chain.name):
            return None
        return rewrite(chain)

    return checked


def _renamed_class(path):
    """The number of parts of the longest proper prefix of ``path`` that ``CONTRIB_RENAMES`` renames, or 0."""
    parts = path.split(".")
    return next((k for k in range(len(parts) - 1, 2, -1) if ".".join(parts[:k]) in T.CONTRIB_RENAMES), 0)


def _rename_class(chain):
    k = _renamed_class(chain.path)
    parts = chain.path.split(".")
    chain.edits.replace_prefix(chain.parent, chain.node, len(parts) - k, T.CONTRIB_RENAMES[".".join(parts[:k])])


def _defer(chain):
    """``alias = <the module>`` deferred until the alias's uses are known; declined for another use."""
    return None if defer_binding(chain.edits, chain.node, chain.parent) else DECLINED


def _defer_tf_spelled(chain):
    """``mp = tf.contrib.mixed_precision`` (spelled from ``tf``) deferred: the binding goes once ``mp`` has no use
    left; declined for another use."""
    if chain.edits.aliases.get(chain.name.split(".")[0]) != "tf":
        return DECLINED
    return _defer(chain)


def _report_unconverted(chain):
    edits, node, name, path = chain.edits, chain.node, chain.name, chain.path
    root = name.split(".")[0]
    edits.count_unconverted(root)
    if root in edits.opaque and name == root:
        _module_use_ok(edits, node, path)
    else:
        edits.add(ERROR, node, contrib_error(name, path))


_CONTRIB = ("tf.contrib",)
_ESTIMATOR = tuple(T.ESTIMATOR_PREFIXES)

# Names of the rules that other rules yield to.
_MODE_KEY = "an Estimator mode key spelled in full"
_REMOVED_ESTIMATOR = "an Estimator class tensorflow-estimator 2.15 lacks"
_TPU_ESTIMATOR = "a tf.contrib.tpu Estimator class"
_MOVED_ESTIMATOR = "a tf.contrib.estimator member moved to tf.estimator"
_PROVIDED = "a contrib name tf1clip provides"
_LOSS_SCALING = "tf.contrib.mixed_precision loss scaling"
_STRATEGY = "a tf.contrib.distribute strategy (TF 1.15's v1 strategies)"
_RNN = "a tf.contrib.rnn name TF 2 has itself"
_SUMMARY = "a tf.contrib.summary call TF 2's summaries match only in part"
_RENAMED_TO_NOTHING = "a contrib name tf_upgrade_v2 renames to one this TensorFlow lacks"
_ENGINE = "a contrib name tf_upgrade_v2 converts"
_RENAMED_CLASS = "a member of a renamed contrib class"
_LISTED = "a contrib name TF 1.15's listing binds to a core name (or a module of it)"
_MEMBERWISE = "a binding of a module converted member by member"

# tf1clip's own decisions on a contrib name: the three rules keyed by Estimator tables, then what tf1clip provides,
# then the rules keyed by a contrib module of their own (none of which claims what another does).
_TF1CLIP_FIRST = (_MODE_KEY, _TPU_ESTIMATOR, _MOVED_ESTIMATOR)
_TF1CLIP = _TF1CLIP_FIRST + (_PROVIDED, _LOSS_SCALING, _STRATEGY, _RNN, _SUMMARY)
# Then tf_upgrade_v2's rules (a rename to a missing name is not taken), then what TF 1.15's listing tells.
_ENGINE_RULES = _TF1CLIP + (_RENAMED_TO_NOTHING, _ENGINE)


CHAIN_RULES = (
    ChainRule(
        "absl flags and tf.app live on in tf.compat.v1",
        tuple(T.PREFIX_RENAMES),
        lambda c: _renamed_prefix(c.path) is not None,
        _rename_prefix,
    ),
    ChainRule(_MODE_KEY, tuple(T.MODE_KEYS), is_mode_key, rewrite_mode_key),
    ChainRule(_REMOVED_ESTIMATOR, _ESTIMATOR, is_removed_estimator, report_removed_estimator),
    ChainRule(_TPU_ESTIMATOR, ("tf.contrib.tpu",), is_tpu_estimator, rewrite_tpu_estimator),
    ChainRule(_MOVED_ESTIMATOR, ("tf.contrib.estimator",), is_moved_contrib_estimator, rewrite_moved_contrib_estimator),
    # A mode key (tf.estimator.ModeKeys.TRAIN) and a class tensorflow-estimator lacks are decided by their rules.
    ChainRule(
        "TF 1's tf.estimator on the modern target",
        _ESTIMATOR,
        is_tf1_estimator_spelled_out,
        rewrite_to_tf1clip_estimator,
        (_MODE_KEY, _REMOVED_ESTIMATOR),
    ),
    ChainRule(
        "a tf.estimator member only tf.compat.v1 keeps",
        ("tf.estimator",),
        is_v1_only_estimator,
        rewrite_v1_only_estimator,
    ),
    ChainRule(
        "a canned Estimator call on the estimator target",
        ("tf.estimator",),
        is_canned_estimator_call,
        rewrite_canned_estimator_call,
    ),
    ChainRule(
        "a TF 1 module object outside tf.contrib", ("",), lambda c: not is_contrib(c.path), _module_object, EVERY_OTHER
    ),
    # A mode key, a tf.contrib.tpu Estimator and a tf.contrib.estimator member moved to tf.estimator are decided by
    # their rules even where tf1clip provides the name (tf.contrib.learn.ModeKeys is tf1clip.contrib.learn's).
    ChainRule(_PROVIDED, _CONTRIB, lambda c: c.found is not None, _provided, _TF1CLIP_FIRST),
    ChainRule(_LOSS_SCALING, (T.MIXED_PRECISION,), is_loss_scaling, rewrite_loss_scaling, (_PROVIDED,)),
    ChainRule(_STRATEGY, ("tf.contrib.distribute",), is_strategy, to_v1_strategy, (_PROVIDED,)),
    ChainRule(_RNN, ("tf.contrib.rnn",), lambda c: T.rnn_target(c.path) is not None, _to_rnn_home, (_PROVIDED,)),
    ChainRule(_SUMMARY, ("tf.contrib.summary",), is_summary_decision, decide_summary, (_PROVIDED,)),
    # tf1clip's decisions win over tf_upgrade_v2's rules, and a rename to a missing name over the rest of them.
    ChainRule(_RENAMED_TO_NOTHING, _CONTRIB, renamed_to_nothing, instead_of_missing, _TF1CLIP),
    ChainRule(
        _ENGINE, _CONTRIB, lambda c: c.edits.engine_converts(c.path), _by_engine, _TF1CLIP + (_RENAMED_TO_NOTHING,)
    ),
    # What tf1clip and tf_upgrade_v2 convert wins over the listing's core names and the bindings deferred.
    ChainRule(
        _RENAMED_CLASS,
        _CONTRIB,
        lambda c: _renamed_class(c.path) > 0,
        _unless_engine_converts_spelling(_rename_class),
        _ENGINE_RULES,
    ),
    ChainRule(
        _LISTED,
        _CONTRIB,
        is_listed,
        _unless_engine_converts_spelling(from_listing),
        _ENGINE_RULES + (_RENAMED_CLASS,),
    ),
    ChainRule(
        _MEMBERWISE,
        tuple(T.MEMBERWISE),
        lambda c: bool(T.MEMBERWISE.get(c.path)),
        _unless_engine_converts_spelling(_defer),
        _ENGINE_RULES + (_RENAMED_CLASS, _LISTED),
    ),
    ChainRule(
        "a binding of a contrib module spelled from tf",
        _CONTRIB,
        lambda c: c.path.count(".") == 2,
        _unless_engine_converts_spelling(_defer_tf_spelled),
        _ENGINE_RULES + (_RENAMED_CLASS, _LISTED, _MEMBERWISE),
    ),
    ChainRule(
        "a contrib name nothing converts",
        _CONTRIB,
        lambda c: True,
        _unless_engine_converts_spelling(_report_unconverted),
        EVERY_OTHER,
    ),
)
"""The rules for dotted names; their order does not matter (each path is claimed by one rule)."""


class _Keyed(NamedTuple):
    """``rules`` looked up by the keys of their ``under`` (``by_key``); ``yields``: each rule's ``yields_to`` and,
    transitively, what those yield to (None: every other rule); ``rank``: 0 for a rule that yields to none, else one
    more than the highest rank it yields to (the catch-alls last)."""

    rules: Tuple[ChainRule, ...]
    by_key: Dict[str, List[ChainRule]]
    yields: Dict[str, Optional[FrozenSet[str]]]
    rank: Dict[str, int]


def _keyed(rules):
    index: Dict[str, List[ChainRule]] = {}
    for rule in rules:
        for key in rule.under:
            index.setdefault(key, []).append(rule)
    direct = {r.name: r.yields_to for r in rules}
    yields: Dict[str, Optional[FrozenSet[str]]] = {}
    rank: Dict[str, int] = {}

    def close(name, seen=()):
        if name not in yields:
            if direct.get(name, ()) == EVERY_OTHER:
                yields[name], rank[name] = None, len(direct) + 1
            else:
                reached, depth = set(), 0
                for other in direct.get(name, ()):
                    if other in seen or other not in direct:
                        continue
                    close(other, seen + (name,))
                    reached |= {other} | (yields[other] or frozenset())
                    depth = max(depth, rank[other] + 1)
                yields[name], rank[name] = frozenset(reached), depth
        return yields[name]

    for name in direct:
        close(name)
    return _Keyed(rules, index, yields, rank)


_KEYED: Dict[int, _Keyed] = {}


def _keyed_rules(rules):
    known = _KEYED.get(id(rules))
    if known is None or known.rules is not rules:
        known = _KEYED[id(rules)] = _keyed(rules)
    return known


def claimants(chain, rules=None, declined=()):
    """The rules of ``rules`` (default :data:`CHAIN_RULES`) that claim ``chain.path``, leaving out those named in
    ``declined``: one for every path the converter meets (tests/upgrade/test_upgrade_rule_claims.py).

    A rule claims the path when it is under one of its ``under`` keys, its ``claims`` holds and no rule it yields
    to (directly or through another) has a claim that holds; rules are asked in rank order, so a rule that yields
    to one whose claim held is not asked."""
    keyed = _keyed_rules(CHAIN_RULES if rules is None else rules)
    parts = chain.path.split(".")
    under = list(keyed.by_key.get("", ()))
    for k in range(1, len(parts) + 1):
        under.extend(keyed.by_key.get(".".join(parts[:k]), ()))
    held: List[ChainRule] = []
    names: Set[str] = set()
    for rule in sorted(dict.fromkeys(under), key=lambda r: keyed.rank[r.name]):
        yields = keyed.yields[rule.name]
        if rule.name in declined or (names if yields is None else names & yields):
            continue
        if rule.claims(chain):
            held.append(rule)
            names.add(rule.name)
    return held


def _dispatch(chain):
    declined: Tuple[str, ...] = ()
    while True:
        found = claimants(chain, declined=declined)
        if len(found) != 1:
            raise RuntimeError(
                "tf1clip-upgrade: %s rules claim %s (%s); please report it"
                % (len(found), chain.path, ", ".join(r.name for r in found) or "none")
            )
        if found[0].rewrite(chain) != DECLINED:
            return
        declined += (found[0].name,)


class ChainCheck(NamedTuple):
    """A check of dotted names: ``report(chain)`` runs for every check whose ``match(chain)`` is true, before
    :data:`CHAIN_RULES` decide the rewrite (a check logs; it rewrites nothing)."""

    name: str
    match: Callable[[Chain], bool]
    report: Callable[[Chain], None]


def constructed_without(module, name, keyword):
    """A ``match``: a call of ``module``'s ``name`` (in any spelling, also from ``module``'s implementation
    modules) that does not pass the keyword ``keyword``."""

    def match(chain):
        parent = chain.parent
        return (
            chain.path.startswith(module + ".")
            and chain.path.rpartition(".")[2] == name
            and isinstance(parent, ast.Call)
            and parent.func is chain.node
            and keyword not in {k.arg for k in parent.keywords}
        )

    return match


def warn_at_call(message):
    """A ``report`` that logs ``message`` as a WARNING at the call of the chain."""

    def report(chain):
        chain.edits.add(WARNING, chain.parent, message)

    return report


def _opt_in_fix(module, name, where=None):
    """The check for ``module``'s ``name``, whose TF 1.15 quirk tf1clip keeps unless the call passes the keyword
    of ``T.OPT_IN_FIXES[name]`` (and, with ``where``, only where ``where(chain)`` is true)."""
    keyword, message = T.OPT_IN_FIXES[name]
    without = constructed_without(module, name, keyword)
    match = without if where is None else (lambda chain: without(chain) and where(chain))
    return ChainCheck("%s(...) without %s=" % (name, keyword), match, warn_at_call(message))


def _uses_distribute(chain):
    """Whether the file names ``tf.distribute`` (or ``tf.contrib.distribute``) or passes ``train_distribute``."""
    edits = chain.edits
    return any(
        (isinstance(n, ast.Attribute) and n.attr == "distribute")
        or (isinstance(n, ast.keyword) and n.arg in ("train_distribute", "eval_distribute"))
        for n in edits.parents
    ) or any(".distribute" in path for path in edits.aliases.values())


_VAR_LIST_POSITION = {"compute_gradients": 1, "minimize": 2}


def _passes_var_list(chain):
    """Whether the file calls ``compute_gradients``/``minimize`` with a ``var_list`` (by keyword or position)."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in _VAR_LIST_POSITION
        and (any(k.arg == "var_list" for k in n.keywords) or len(n.args) > _VAR_LIST_POSITION[n.func.attr])
        for n in chain.edits.parents
    )


def _wrapped_optimizer_kept(chain):
    """Whether the call's first argument is a name that stays bound to it (``w = Wrapper(opt)``, not
    ``opt = Wrapper(opt)`` nor ``Wrapper(AdamOptimizer(...))``)."""
    call = chain.parent
    if not call.args or not isinstance(call.args[0], ast.Name):
        return False
    assign = chain.edits.parents.get(call)
    targets = assign.targets if isinstance(assign, ast.Assign) else []
    return not any(isinstance(t, ast.Name) and t.id == call.args[0].id for t in targets)


CHAIN_CHECKS: Tuple[ChainCheck, ...] = (
    _opt_in_fix("tf.contrib.estimator", "clip_gradients_by_norm", where=_uses_distribute),
    _opt_in_fix("tf.contrib.opt", "MultitaskOptimizerWrapper", where=_wrapped_optimizer_kept),
    _opt_in_fix("tf.contrib.opt", "VariableClippingOptimizer"),
    _opt_in_fix("tf.contrib.opt", "ElasticAverageOptimizer", where=_passes_var_list),
)
"""The checks of dotted names, in the order they run: a TF 1.15 quirk tf1clip keeps unless the call opts into
its fix is one entry (its keyword and WARNING in ``T.OPT_IN_FIXES``)."""


def rewrite_chain(edits, node, parent):
    """Checks the Name/Attribute chain ``node`` (a child of ``parent``) with every matching entry of
    :data:`CHAIN_CHECKS`, then rewrites or reports it with the entry of :data:`CHAIN_RULES` that claims its path."""
    if not isinstance(node.ctx, ast.Load):
        return
    name = dotted(node)
    path = resolve(edits.aliases, name)
    if path is None:
        return
    chain = Chain(edits, node, parent, name, path)
    for check in CHAIN_CHECKS:
        if check.match(chain):
            check.report(chain)
    _dispatch(chain)


class CallRule(NamedTuple):
    """A rule for calls of ``function`` (tf_upgrade_v2's key: a full name, or ``"*.method"`` for any
    ``x.method(...)``): ``rewrite(call, logs)`` runs for each rule whose ``match(call)`` is true, in order, and
    returns the call (changed or not); ``logs`` takes ``(severity, line, col, message)`` entries."""

    name: str
    function: str
    match: Callable[[ast.Call], bool]
    rewrite: Callable[[ast.Call, List[Any]], ast.Call]


def passed_without(argument, position, opt_in):
    """A ``match``: the call passes ``argument`` (by keyword, or as positional argument number ``position``,
    counted from 0) and not the keyword ``opt_in``."""

    def match(call):
        keywords = {k.arg for k in call.keywords}
        return (argument in keywords or len(call.args) > position) and opt_in not in keywords

    return match


def warn(message):
    """A ``rewrite`` that leaves the call as it is and logs ``message`` as a WARNING at it."""

    def rewrite(call, logs):
        logs.append((WARNING, call.lineno, call.col_offset, message))
        return call

    return rewrite


def _tf1_variable(call, logs):
    """``tf.Variable(...)`` -> ``tf.compat.v1.Variable(...)`` (TF 1.15's variable kind)."""
    root = call.func.value
    compat = ast.Attribute(value=ast.Attribute(value=root, attr="compat", ctx=ast.Load()), attr="v1", ctx=ast.Load())
    call.func = ast.copy_location(ast.Attribute(value=compat, attr="Variable", ctx=ast.Load()), call.func)
    logs.append(
        (INFO, call.lineno, call.col_offset, "Changed tf.Variable to tf.compat.v1.Variable: " + T.V1_VARIABLE_WHY)
    )
    return call


CALL_RULES = (
    CallRule(
        "a called tf.Variable makes TF 1.15's variable kind",
        T.V1_VARIABLE,
        lambda call: isinstance(call.func, ast.Attribute),
        _tf1_variable,
    ),
    CallRule(
        "AdamW/MomentumW minimize(decay_var_list=...) decayed every variable on TF 1.15",
        "*.minimize",
        passed_without("decay_var_list", T.DECAY_VAR_LIST_POSITION, "decay_listed_only"),
        warn(T.DECAY_VAR_LIST_WARNING),
    ),
    CallRule(
        "TF 1.2-1.3's contrib Dataset.map(num_threads=, output_buffer_size=)",
        "*.map",
        passes_tf12_map_keywords,
        to_tf14_map,
    ),
)
"""The rules for calls, in the order they run on one call."""


def call_transformers():
    """``{function: transformer}`` for tf_upgrade_v2's ``function_transformers``, running :data:`CALL_RULES`."""
    by_function = {}
    for rule in CALL_RULES:
        by_function.setdefault(rule.function, []).append(rule)
    return {function: _transformer(chosen) for function, chosen in by_function.items()}


def _transformer(rules):
    def transform(parent, node, full_name, name, logs):
        for rule in rules:
            if rule.match(node):
                node = rule.rewrite(node, logs)
        return node

    return transform


def _binding_supported(edits, root):
    path = edits.aliases.get(root)
    return (
        path is not None
        and is_contrib(path)
        and path not in T.MEMBERWISE
        and supported(path) is not None
        and root not in edits.opaque
    )


def _alias_gives(edits, root, name, path, length, target):
    """Whether ``name`` (through the alias ``root``, whose binding is rewritten) reaches what ``path`` is
    routed to; not so where a member has a route of its own (``layers.python.layers.optimizers`` is
    tf1clip's ``optimize_loss`` module, ``tf1clip.contrib.layers``)."""
    parts = path.split(".")
    bound = supported(edits.aliases[root])[1]
    return bound + name[len(root) :] == ".".join([target] + parts[length:])


def _v1_module(edits, node, parent, name, path):
    """``getattr(tf.train, name)``: a TF 1 module object, used bare, becomes its tf.compat.v1 module; and
    ``tensorflow.gfile.X`` (bound by ``import tensorflow.gfile``) becomes ``tensorflow.compat.v1.gfile.X``."""
    parts = path.split(".")
    if name.split(".")[0] == "tensorflow" and len(parts) > 1 and parts[1] in T.V1_FROM_IMPORTS:
        edits.replace_prefix(parent, node, len(parts) - 2, "tensorflow.compat.v1." + parts[1])
        return
    if (
        path.startswith("tf.")
        and path[3:] in T.V1_MODULES
        and name.split(".")[0] == "tf"
        and not (edits.target == "estimator" and path == "tf.estimator")
    ):
        edits.replace(
            parent,
            node,
            "tf.compat.v1." + path[3:],
            "(the module object itself is used, so it must have every TF 1 member)",
        )


__all__ = [
    "Chain",
    "ChainRule",
    "CHAIN_RULES",
    "EVERY_OTHER",
    "DECLINED",
    "claimants",
    "ChainCheck",
    "CHAIN_CHECKS",
    "constructed_without",
    "warn_at_call",
    "CallRule",
    "CALL_RULES",
    "passed_without",
    "warn",
    "call_transformers",
    "find_opaque",
    "rewrite_chain",
]
