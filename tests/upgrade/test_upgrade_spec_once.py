"""The change spec is built once per process and restored to its built tables for each file."""

from tf1clip.upgrade import _rules
from tf1clip.upgrade import upgrade_source

_CONTRIB = "import tensorflow as tf\nopt = tf.contrib.opt.LazyAdamOptimizer(0.1)\nx = tf.placeholder(tf.float32)\n"


def _specs_used(monkeypatch, sources, **options):
    used = []
    make_spec = _rules.make_spec

    def recording(*args, **kwargs):
        used.append(make_spec(*args, **kwargs))
        return used[-1]

    monkeypatch.setattr(_rules, "make_spec", recording)
    results = [upgrade_source(source, **options) for source in sources]
    return used, results


def test_two_conversions_use_one_spec_built_once(monkeypatch):
    upgrade_source(_CONTRIB, target="modern")
    built = []
    init = _rules.ChangeSpec.__init__

    def counting(self, *args, **kwargs):
        built.append(self)
        init(self, *args, **kwargs)

    monkeypatch.setattr(_rules.ChangeSpec, "__init__", counting)
    used, results = _specs_used(monkeypatch, [_CONTRIB, _CONTRIB], target="modern")
    assert used[0] is used[1]
    assert built == []
    assert results[0].text == results[1].text and "tf1clip.contrib.opt.LazyAdamOptimizer(0.1)" in results[0].text
    safety, _ = _specs_used(monkeypatch, [_CONTRIB, _CONTRIB], target="modern", mode="SAFETY")
    assert safety[0] is safety[1] and safety[0] is not used[0]


def test_another_thread_builds_a_spec_of_its_own():
    import threading

    mine = _rules.make_spec()
    theirs = []
    thread = threading.Thread(target=lambda: theirs.extend([_rules.make_spec(), _rules.make_spec()]))
    thread.start()
    thread.join()
    assert theirs[0] is theirs[1] and theirs[0] is not mine and _rules.make_spec() is mine


def test_the_target_is_the_callers_on_the_shared_spec(monkeypatch):
    source = "import tensorflow as tf\nest = tf.estimator.Estimator(model_fn)\n"
    used, results = _specs_used(monkeypatch, [source, source, source], target="modern")
    used_estimator, estimator = _specs_used(monkeypatch, [source], target="estimator")
    assert used[0] is used_estimator[0] and used_estimator[0].target == "estimator"
    assert "tf1clip.estimator.Estimator" in results[2].text
    assert "tf1clip.estimator" not in estimator[0].text


def test_what_one_file_drops_from_the_spec_is_back_for_the_next(monkeypatch):
    summary = "import tensorflow as tf\ng = tf.contrib.summary.generic('x', t)\n"
    compat = "import tensorflow.compat.v1 as tf\nx = tf.placeholder(tf.float32)\n"
    used, results = _specs_used(monkeypatch, [summary, compat, summary, _CONTRIB], target="modern")
    assert len({id(spec) for spec in used}) == 1
    errors = [[e.message for e in r.log if e.severity == "ERROR"] for r in results]
    assert errors[0] == errors[2] and any("tf.contrib.summary.generic" in m for m in errors[0])
    assert "tf.contrib.summary.generic" in used[0].symbol_renames  # dropped for the file only
    assert "tf1clip.contrib.opt.LazyAdamOptimizer(0.1)" in results[3].text
    assert "tf.compat.v1.placeholder" in results[3].text


def test_a_replaced_manifest_or_call_rule_table_builds_the_spec_again(monkeypatch):
    from tf1clip.upgrade import _registry

    first = _rules.make_spec()
    assert _rules.make_spec() is first
    monkeypatch.setattr(_registry, "CALL_RULES", _registry.CALL_RULES[:1] + _registry.CALL_RULES[1:])
    assert _rules.make_spec() is not first
