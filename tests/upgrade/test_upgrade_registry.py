"""tf1clip-upgrade's rules are the ordered entries of ``_registry``: one entry added is one rule added."""

import ast

import pytest

from tf1clip.contrib import _manifest
from tf1clip.upgrade import _registry
from tf1clip.upgrade import _tables
from tf1clip.upgrade import upgrade_source


def _messages(result, severity):
    return [e.message for e in result.log if e.severity == severity]


def test_every_entry_has_a_name_of_its_own_and_the_last_takes_every_chain():
    for rules in (_registry.CHAIN_RULES, _registry.CALL_RULES):
        names = [rule.name for rule in rules]
        assert all(names) and len(set(names)) == len(names), names
    assert _registry.CHAIN_RULES[-1].name == "a contrib name nothing converts"
    assert _registry.CHAIN_RULES[-1].match(None)


def test_a_chain_rule_added_before_the_fallback_converts_its_names(monkeypatch):
    source = "import tensorflow as tf\nx = tf.contrib.nosuch.thing(1)\n"
    assert "tf.contrib.nosuch.thing" in _messages(upgrade_source(source, target="modern"), "ERROR")[0]

    def rewrite(chain):
        chain.edits.replace(chain.parent, chain.node, "tf.compat.v1.identity")

    rule = _registry.ChainRule("tf.contrib.nosuch", lambda c: c.path.startswith("tf.contrib.nosuch."), rewrite)
    monkeypatch.setattr(_registry, "CHAIN_RULES", _registry.CHAIN_RULES[:-1] + (rule,) + _registry.CHAIN_RULES[-1:])
    result = upgrade_source(source, target="modern")
    assert "x = tf.compat.v1.identity(1)" in result.text
    assert _messages(result, "ERROR") == []


def test_the_first_matching_chain_rule_wins(monkeypatch):
    source = "import tensorflow as tf\nopt = tf.contrib.opt.LazyAdamOptimizer(0.1)\n"
    assert "tf1clip.contrib.opt.LazyAdamOptimizer(0.1)" in upgrade_source(source, target="modern").text
    first = _registry.ChainRule("report everything", lambda c: True, lambda c: None)
    monkeypatch.setattr(_registry, "CHAIN_RULES", (first,) + _registry.CHAIN_RULES)
    assert "tf.contrib.opt.LazyAdamOptimizer(0.1)" in upgrade_source(source, target="modern").text


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
