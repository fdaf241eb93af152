"""tf1clip-upgrade's rules are the entries of ``_registry``, each keyed by the TF paths it claims: one entry added is one
rule added, anywhere in the tuple, and one rule claims each path."""

import ast

import pytest

from tf1clip.contrib import _manifest
from tf1clip.upgrade import _registry
from tf1clip.upgrade import _tables
from tf1clip.upgrade import upgrade_source


def _messages(result, severity):
    return [e.message for e in result.log if e.severity == severity]


def test_every_entry_has_a_name_of_its_own_and_the_catch_alls_yield_to_every_other_rule():
    for rules in (_registry.CHAIN_RULES, _registry.CALL_RULES):
        names = [rule.name for rule in rules]
        assert all(names) and len(set(names)) == len(names), names
    catch_alls = [r.name for r in _registry.CHAIN_RULES if r.yields_to == _registry.EVERY_OTHER]
    assert catch_alls == ["a TF 1 module object outside tf.contrib", "a contrib name nothing converts"]
    names = {r.name for r in _registry.CHAIN_RULES}
    for rule in _registry.CHAIN_RULES:
        assert rule.yields_to == _registry.EVERY_OTHER or set(rule.yields_to) <= names, rule.name


def _rule(name, under, claims):
    def rewrite(chain):
        chain.edits.replace(chain.parent, chain.node, "tf.compat.v1.identity")

    return _registry.ChainRule(name, under, claims, rewrite)


def test_a_chain_rule_added_anywhere_converts_the_names_it_claims(monkeypatch):
    source = "import tensorflow as tf\nx = tf.contrib.nosuch.thing(1)\n"
    assert "tf.contrib.nosuch.thing" in _messages(upgrade_source(source, target="modern"), "ERROR")[0]
    rule = _rule("tf.contrib.nosuch", ("tf.contrib.nosuch",), lambda c: c.path != "tf.contrib.nosuch")
    for rules in ((rule,) + _registry.CHAIN_RULES, _registry.CHAIN_RULES + (rule,)):
        monkeypatch.setattr(_registry, "CHAIN_RULES", rules)
        result = upgrade_source(source, target="modern")  # the catch-all yields to it
        assert "x = tf.compat.v1.identity(1)" in result.text
        assert _messages(result, "ERROR") == []


def test_a_chain_rule_claiming_what_another_claims_is_refused(monkeypatch):
    source = "import tensorflow as tf\nopt = tf.contrib.opt.LazyAdamOptimizer(0.1)\n"
    assert "tf1clip.contrib.opt.LazyAdamOptimizer(0.1)" in upgrade_source(source, target="modern").text
    rule = _rule("every tf.contrib.opt name", ("tf.contrib.opt",), lambda c: True)
    rules = _registry.CHAIN_RULES
    monkeypatch.setattr(_registry, "CHAIN_RULES", (rule,) + rules)
    with pytest.raises(
        RuntimeError, match="2 rules claim tf.contrib.opt.LazyAdamOptimizer .*every tf.contrib.opt name"
    ):
        upgrade_source(source, target="modern")
    yielding = rule._replace(yields_to=("a contrib name tf1clip provides",))
    monkeypatch.setattr(_registry, "CHAIN_RULES", (yielding,) + rules)
    assert "tf1clip.contrib.opt.LazyAdamOptimizer(0.1)" in upgrade_source(source, target="modern").text


def test_the_order_of_the_chain_rules_does_not_matter(monkeypatch):
    source = (
        "import tensorflow as tf\n"
        "from tensorflow.contrib import layers\n"
        "opt = tf.contrib.opt.LazyAdamOptimizer(0.1)\n"
        "mode = tf.estimator.ModeKeys.TRAIN\n"
        "s = tf.contrib.summary.scalar('x', 1.0)\n"
        "w = tf.contrib.summary.scalar\n"
        "cell = tf.contrib.rnn.BasicLSTMCell(4)\n"
        "d = tf.contrib.distributions.Normal(0.0, 1.0)\n"
        "y = tf.contrib.nosuch.thing(layers.fully_connected(x, 3))\n"
        "flags = tf.app.flags\n"
    )
    for target in ("modern", "estimator"):
        expected = upgrade_source(source, target=target)
        monkeypatch.setattr(_registry, "CHAIN_RULES", tuple(reversed(_registry.CHAIN_RULES)))
        reversed_order = upgrade_source(source, target=target)
        monkeypatch.undo()
        assert reversed_order.text == expected.text
        assert reversed_order.log == expected.log


def test_a_declined_chain_goes_to_the_rule_claiming_its_path_without_the_decliner():
    source = (
        "import tensorflow as tf\n"
        "a = tf.contrib.summary.scalar('x', 1.0)\n"  # called: the summary rule's
        "b = tf.contrib.summary.scalar\n"  # not called: declined, tf_upgrade_v2's rules convert it
    )
    text = upgrade_source(source, target="modern").text
    assert "a = tf.compat.v2.summary.experimental.write_raw_pb(tf.compat.v1.summary.scalar(" in text
    assert "b = tf.compat.v2.summary.scalar\n" in text


def test_what_tf1clip_provides_is_looked_up_once_per_chain(monkeypatch):
    calls = []

    def counting(path):
        calls.append(path)
        return supported(path)

    supported = _registry.supported
    monkeypatch.setattr(_registry, "supported", counting)
    upgrade_source("import tensorflow as tf\nopt = tf.contrib.opt.LazyAdamOptimizer(0.1)\n", target="modern")
    assert calls.count("tf.contrib.opt.LazyAdamOptimizer") == 1


def test_a_call_rule_added_warns_at_the_calls_it_matches(monkeypatch):
    source = (
        "import tensorflow as tf\n"
        "a = opt.apply_gradients(pairs, global_step=None)\n"
        "b = opt.apply_gradients(pairs, None, 'name', fix=True)\n"
        "c = opt.apply_gradients(pairs, None, 'name', 'x')\n"
        "d = opt.apply_gradients(pairs, extra='x')\n"
    )
    rule = _registry.CallRule(
        "apply_gradients(extra=...) without fix",
        "*.apply_gradients",
        _registry.passed_without("extra", 3, "fix"),
        _registry.warn("extra= behaves as on TF 1.15; pass fix=True for the fix."),
    )
    monkeypatch.setattr(_registry, "CALL_RULES", _registry.CALL_RULES + (rule,))
    result = upgrade_source(source, target="modern")
    warned = [e.line for e in result.log if e.severity == "WARNING" and "pass fix=True" in e.message]
    assert warned == [4, 5]
    assert result.text == source


def test_the_decay_var_list_rule_is_an_entry():
    (rule,) = [r for r in _registry.CALL_RULES if r.function == "*.minimize"]
    call = ast.parse("opt.minimize(loss, decay_var_list=[w])").body[0].value
    assert rule.match(call)
    call.keywords.append(ast.keyword(arg="decay_listed_only", value=ast.Constant(True)))
    assert not rule.match(call)
    logs = []
    rule.rewrite(call, logs)
    assert logs and logs[0][0] == "WARNING" and "decay_listed_only=True" in logs[0][3]


def test_rnn_names_tf2_has_come_from_the_manifest(monkeypatch):
    assert _tables.rnn_cells() == _manifest.tf2_names("tf1clip.contrib.rnn", "tf.compat.v1.nn.rnn_cell")
    assert "LSTMCell" in _tables.rnn_cells() and "NASCell" not in _tables.rnn_cells()
    assert _tables.rnn_target("tf.contrib.rnn.static_rnn") == "tf.compat.v1.nn.static_rnn"
    assert _tables.rnn_target("tf.contrib.rnn.python.ops.core_rnn_cell.static_rnn") is None
    row = _manifest.Row(
        "tf1clip.contrib.rnn", "tf1clip.contrib.rnn._base", ("FakeCell",), (), tf2_home=_tables.RNN_CELL_HOME
    )
    monkeypatch.setattr(_manifest, "ROWS", _manifest.ROWS + (row,))
    result = upgrade_source("import tensorflow as tf\ncell = tf.contrib.rnn.FakeCell(4)\n", target="modern")
    assert "cell = tf.compat.v1.nn.rnn_cell.FakeCell(4)" in result.text


@pytest.mark.parametrize(
    ("module", "separate"),
    [("learn", True), ("legacy_seq2seq", True), ("cudnn_rnn", True), ("tfprof", True), ("rnn", False)],
)
def test_separate_imports_come_from_the_manifest(module, separate):
    assert ("tf1clip.contrib." + module in _manifest.separate_imports()) is separate


def test_a_chain_check_added_warns_at_each_call_without_the_opt_in_keyword_in_every_spelling(monkeypatch):
    check = _registry.ChainCheck(
        "LazyAdamOptimizer without fix",
        _registry.constructed_without("tf.contrib.opt", "LazyAdamOptimizer", "fix"),
        _registry.warn_at_call("LazyAdamOptimizer keeps TF 1.15's quirk; add fix=True."),
    )
    monkeypatch.setattr(_registry, "CHAIN_CHECKS", _registry.CHAIN_CHECKS + (check,))
    source = (
        "import tensorflow as tf\n"
        "from tensorflow.contrib.opt import LazyAdamOptimizer\n"
        "from tensorflow.contrib.opt.python.training import lazy_adam_optimizer as lao\n"
        "a = tf.contrib.opt.LazyAdamOptimizer(0.1)\n"
        "b = LazyAdamOptimizer(0.1)\n"
        "c = lao.LazyAdamOptimizer(0.1, fix=True)\n"
        "d = tf.contrib.opt.LazyAdamOptimizer\n"
        "e = lao.LazyAdamOptimizer(0.1)\n"
    )
    result = upgrade_source(source, target="modern")
    warned = [e.line for e in result.log if e.severity == "WARNING" and "add fix=True" in e.message]
    assert warned == [4, 5, 8]
    assert "a = tf1clip.contrib.opt.LazyAdamOptimizer(0.1)" in result.text
    assert "c = lao.LazyAdamOptimizer(0.1, fix=True)" in result.text
