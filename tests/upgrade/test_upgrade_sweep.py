"""Every public name of TF 1.15's tf.contrib (the recorded listing, tf1clip/upgrade/_tf115_contrib.py) through
tf1clip-upgrade: each ends in exactly one of

- a rewrite to a name that resolves in the installed TensorFlow (imported and reached attribute by attribute);
- a tf1clip route (a ``tf1clip.*`` name, for a contrib path tf1clip provides);
- an ERROR that names a successor and how to install it (``_decisions``),

and the converted text of a file reported clean names no tf.contrib.
"""

import re

import pytest
import tensorflow as tf

from tf1clip import upgrade
from tf1clip.contrib import _decisions
from tf1clip.upgrade import _contrib_names
from tf1clip.upgrade import _routes

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

BATCH = 1500
# Contrib modules whose names rules of their own send to tf1clip: the Estimator rules to tf1clip.estimator (the
# Estimator tests check those names; importing tf1clip.estimator here would change the process's TensorFlow), the
# loss-scaling rule to tf1clip.contrib.mixed_precision.
_RULE_ROUTES = ("tf.contrib.tpu", "tf.contrib.estimator", "tf.contrib.mixed_precision")
# TF 2.16+'s AttributeError for a tf.compat.v1 Keras-2 name under Keras 3 (tests/subprocess/test_upgrade_sweep_keras2.py
# resolves those names under TF_USE_LEGACY_KERAS=1).
KERAS2_ONLY = "is not available with Keras 3"
_USE = re.compile(r"^print\((?P<name>[A-Za-z_][\w.]*)\)  # (?P<index>\d+)$")


def _resolves(name):
    value = tf
    for part in name.split(".")[1:]:
        value = getattr(value, part)
    return value


def _sweep():
    """``{listing index: (converted line or None, [ERROR messages at its line])}`` over the whole listing."""
    entries = list(_contrib_names.every_name())
    outcome = {}
    for start in range(0, len(entries), BATCH):
        chunk = entries[start : start + BATCH]
        lines = ["import tensorflow as tf"] + ["print(%s)  # %d" % (e.path, start + i) for i, e in enumerate(chunk)]
        result = upgrade.upgrade_source("\n".join(lines) + "\n", target="modern")
        errors = {}
        for entry in result.log:
            if entry.severity == "ERROR":
                errors.setdefault(entry.line - 2 + start, []).append(entry.message)
        converted = {}
        for line in result.text.splitlines():
            found = _USE.match(line.strip())
            if found:
                converted[int(found.group("index"))] = found.group("name")
        for i in range(start, start + len(chunk)):
            outcome[i] = (converted.get(i), errors.get(i, []))
    return entries, outcome


@pytest.fixture(scope="module")
def sweep():
    return _sweep()


def test_the_listing_is_tf115s_whole_contrib():
    names = list(_contrib_names.every_name())
    assert len(names) > 8000
    top = {e.name for e in names if e.module == "tf.contrib"}
    assert {"distributions", "keras", "data", "rnn", "summary", "distribute", "timeseries", "tpu"} <= top
    assert _contrib_names.entry("tf.contrib.distributions.Normal").core[0] == "tf.distributions.Normal"
    assert _contrib_names.entry("tf.contrib.keras.api.keras.layers.Dense").module == "tf.contrib.keras.layers"
    assert _contrib_names.entry("tf.contrib.rnn.core_rnn_cell.BasicLSTMCell").module == "tf.contrib.rnn"
    assert _contrib_names.entry("tf.contrib.distributions.NoSuchName") is None


def test_every_top_level_contrib_module_has_a_decision():
    modules = [e.path for e in _contrib_names.every_name() if e.module == "tf.contrib"]
    assert [m for m in modules if _decisions.decision(m + ".x") is _decisions.GENERIC] == []
    assert {d.verdict for d in _decisions.DECISIONS.values()} <= set(_decisions.VERDICTS)


def test_every_contrib_name_converts_resolves_or_names_its_successor(sweep):
    entries, outcome = sweep
    bad = []
    for i, entry in enumerate(entries):
        converted, errors = outcome[i]
        kind = _classify(entry, converted, errors)
        if kind is not None:
            bad.append("%s: %s (%s, %s)" % (entry.path, kind, converted, errors[:1]))
    assert bad[:30] == [] and len(bad) == 0


def _classify(entry, converted, errors, keras2_only_resolves=True):
    """None when ``entry`` ended in exactly one allowed outcome, else what went wrong (``keras2_only_resolves``: a
    name TF 2.16+ has under Keras 2 only counts as resolving)."""
    contrib = [m for m in errors if "tf.contrib" in m]
    if converted is not None and converted.startswith("tf1clip."):
        tf1clip_route = _routes.supported(entry.path) is not None or entry.module in _RULE_ROUTES
        return None if tf1clip_route and not contrib else "a tf1clip name for an unprovided path, or an ERROR too"
    if converted is None or converted.startswith("tf.contrib."):
        if len(contrib) != 1:
            return "left without exactly one ERROR"
        return None if "(install: " in contrib[0] else "ERROR without an install line"
    if contrib:
        return "rewritten and an ERROR"
    try:
        _resolves(converted)
    except AttributeError as e:
        if not (keras2_only_resolves and KERAS2_ONLY in str(e)):
            return "rewritten to %s, which does not resolve: %r" % (converted, e)
    return None


def test_aliases_of_core_names_convert_to_them(sweep):
    entries, outcome = sweep
    by_path = {e.path: outcome[i][0] for i, e in enumerate(entries)}
    assert by_path["tf.contrib.distributions.Normal"] == "tf.compat.v1.distributions.Normal"
    assert by_path["tf.contrib.framework.nest.flatten"] == "tf.nest.flatten"
    assert by_path["tf.contrib.keras.layers.Dense"] == "tf.keras.layers.Dense"
    assert by_path["tf.contrib.data.TFRecordWriter"] == "tf.data.experimental.TFRecordWriter"


def test_a_clean_file_names_no_contrib(sweep):
    """A converted file without an ERROR names no tf.contrib (one file per alias spelled in three forms)."""
    entries, outcome = sweep
    aliases = [e for i, e in enumerate(entries) if not outcome[i][1] and e.kind != "module"][:300]
    for entry in aliases:
        module = "tensorflow" + entry.module[len("tf") :]
        source = "import tensorflow as tf\nimport %s as m\nfrom %s import %s\nprint(m.%s, %s, %s)\n" % (
            module,
            module,
            entry.name,
            entry.name,
            entry.name,
            entry.path,
        )
        result = upgrade.upgrade_source(source, target="modern")
        if not [e for e in result.log if e.severity == "ERROR"]:
            assert "tf.contrib" not in result.text and "tensorflow.contrib" not in result.text, (
                entry.path,
                result.text,
            )
