"""One chain rule of ``_registry`` claims each TF path the converter knows, on either target."""

import functools

import pytest

from tf1clip.contrib import _manifest
from tf1clip.upgrade import _contrib_names
from tf1clip.upgrade import _registry
from tf1clip.upgrade import _tables as T
from tf1clip.upgrade._edits import FileEdits
from tf1clip.upgrade._rules import _ENGINE_TABLES
from tf1clip.upgrade._rules import make_spec
from tf1clip.upgrade._rules_aliases import STRATEGIES
from tf1clip.upgrade._rules_mixed_precision import _CLASSES as LOSS_SCALING
from tf1clip.upgrade._rules_summary import EVERY_N
from tf1clip.upgrade._rules_summary import NOT_EQUIVALENT
from tf1clip.upgrade._rules_summary import SUMMARY
from tf1clip.upgrade._rules_summary import WRITERS

_SAMPLES = (
    "tf",
    "tf.nn.relu",
    "tf.train.AdamOptimizer",
    "tf.compat.v1.layers.dense",
    "tf.gfile.GFile",
    "tf.keras.layers.Dense",
    "tf.contrib",
    "tf.contrib.nosuch",
    "tf.contrib.nosuch.thing",
    "tf.contrib.opt.nosuch",
)


def _with_members(module, names):
    return [module] + [module + "." + n for n in names]


def known_paths(spec):
    """Every TF path the converter's tables, TF 1.15's contrib listing and tf_upgrade_v2's rules name, a made-up
    member below each table key (``tf.app.x``), and some other paths."""
    paths = set(_SAMPLES)
    for entry in _contrib_names.every_name():
        paths.update((entry.module, entry.path))
    paths.update(_contrib_names.module_paths())
    for row in _manifest.ROWS:
        for module in row.tf_paths:
            paths.update(_with_members(module, row.names))
    for module, (_, names, _) in T.provided().items():
        paths.update(_with_members(module, names))
    for table in (T.PREFIX_RENAMES, T.CONTRIB_RENAMES, T.MEMBERWISE, T.MODE_KEYS, T.MEMBER_MODULES):
        paths.update(key for key in table)
        paths.update(key + ".x" for key in table)
    for home, modules in T._RNN_HOME_SOURCES.items():
        for module in modules:
            paths.update(_with_members(module, _manifest.tf2_names("tf1clip.contrib.rnn", home)))
    for module, keys in T.MODE_KEYS.items():
        paths.update(_with_members(module, keys))
    estimator = list(T.ESTIMATOR_REMOVED) + list(T.CANNED_ESTIMATORS) + list(T.ESTIMATOR_V1_ONLY)
    estimator += ["Estimator", "ModeKeys", "RunConfig", "x"]
    for prefix in T.ESTIMATOR_PREFIXES:
        paths.update(_with_members(prefix, estimator))
        paths.update(prefix + "." + n + ".x" for n in estimator)
    paths.update(_with_members("tf.contrib.tpu", T.CONTRIB_TPU_ESTIMATOR))
    paths.update("tf.contrib.tpu." + n + ".x" for n in T.CONTRIB_TPU_ESTIMATOR)
    paths.update(_with_members("tf.contrib.estimator", list(T.CONTRIB_ESTIMATOR) + list(T.CONTRIB_ESTIMATOR_V1)))
    paths.update(_with_members(SUMMARY, list(WRITERS) + list(NOT_EQUIVALENT) + [EVERY_N.rpartition(".")[2]]))
    paths.update(_with_members(T.MIXED_PRECISION, LOSS_SCALING))
    for module in ("mirrored_strategy", "one_device_strategy"):
        paths.update(_with_members("tf.contrib.distribute.python." + module, STRATEGIES))
    paths.update(_with_members("tf.contrib.distribute", STRATEGIES))
    for table in _ENGINE_TABLES:
        paths.update(key for key in getattr(spec, table) if key.startswith("tf."))
    paths.update("tf." + m for m in T.V1_MODULES)
    paths.update("tf." + m + ".x" for m in T.V1_FROM_IMPORTS)
    return sorted(paths)


def claims(rules, target):
    """``{path: names of the rules of rules claiming it}`` for each known path."""
    edits = FileEdits(make_spec(target=target), target)
    found = {}
    for path in known_paths(edits.spec):
        chain = _registry.Chain(edits, None, None, None, path)  # a claim reads the path, never the node or name
        found[path] = [r.name for r in _registry.claimants(chain, rules)]
    return found


@functools.lru_cache(maxsize=None)
def _claims_of_the_registry(target):
    return claims(_registry.CHAIN_RULES, target)


def unclaimed_or_shared(rules, target):
    """``{path: names of the rules claiming it}`` for each known path that not exactly one of ``rules`` claims."""
    found = _claims_of_the_registry(target) if rules is _registry.CHAIN_RULES else claims(rules, target)
    return {path: names for path, names in found.items() if len(names) != 1}


def test_the_known_paths_cover_every_table():
    paths = set(known_paths(make_spec()))
    assert len(paths) > 10000
    assert {"tf.contrib.opt.LazyAdamOptimizer", "tf.app.run", "tf.estimator.ModeKeys.TRAIN", EVERY_N} <= paths
    assert {e.path for e in _contrib_names.every_name()} <= paths
    assert {p for r in _manifest.ROWS for p in r.tf_paths} <= paths


@pytest.mark.parametrize("target", ["modern", "estimator"])
def test_exactly_one_rule_claims_each_known_path(target):
    assert unclaimed_or_shared(_registry.CHAIN_RULES, target) == {}


def test_claims_made_to_overlap_are_found():
    provided = "a contrib name tf1clip provides"
    rules = tuple(r._replace(yields_to=()) if r.name == provided else r for r in _registry.CHAIN_RULES)
    found = unclaimed_or_shared(rules, "modern")
    assert sorted(found["tf.contrib.learn.ModeKeys.EVAL"]) == [provided, "an Estimator mode key spelled in full"]
    without = tuple(r for r in _registry.CHAIN_RULES if r.name != "a contrib name nothing converts")
    assert unclaimed_or_shared(without, "modern")["tf.contrib.nosuch.thing"] == []


def test_every_rule_but_the_memberwise_binding_claims_some_known_path():
    """Of ``MEMBERWISE``'s modules tf1clip provides ``tf.contrib.rnn`` and the listing binds names of
    ``tf.contrib.framework.nest`` to core names, whose rules win: that rule takes a module only if neither holds."""
    claimed = set()
    for target in ("modern", "estimator"):
        claimed.update(name for names in _claims_of_the_registry(target).values() for name in names)
    assert {r.name for r in _registry.CHAIN_RULES} - claimed == {"a binding of a module converted member by member"}
