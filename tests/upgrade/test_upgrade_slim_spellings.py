"""Every tf-slim-family name tf1clip-upgrade routes, in every import spelling, becomes its tf1clip name.

The cases come from the table that routes them (``_tables.provided()``, the modules under
``tf.contrib.{slim,layers,framework,losses,metrics,training}`` and their ``python.*`` paths).
Spellings: the attribute chain ``tf.contrib.m.name``, ``import tensorflow.contrib.m as a``,
``from tensorflow.contrib.m import name`` and ``from tensorflow.contrib import X as contrib_X``
(Google's style, whose aliases tf_upgrade_v2's own Keras rules are keyed by). One source per
spelling holds every name: each name is bound (the converted source is executed, and each
binding must be the very object its tf1clip name gives); the names that tf_upgrade_v2's own rules
know (by their contrib path or by the alias it guesses) are also called inside a function that
is never run: the call must keep the tf-slim name (no Keras replacement, no tf-keras line).
"""

import textwrap

import pytest

from tf1clip.upgrade import _tables
from tf1clip.upgrade import upgrade_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]
pytest.importorskip("tf_slim")

TABLE = _tables.provided()
FAMILY = {
    module: entry
    for module, entry in TABLE.items()
    if module.split(".")[2:3] and module.split(".")[2] in _tables.SLIM_ROOTS
}
# A member that is itself a routed module goes where the module goes (contrib's
# layers.python.layers.optimizers is tf1clip's optimize_loss module, tf1clip.contrib.layers).
CASES = [
    (module, name, TABLE[module + "." + name][0] if module + "." + name in TABLE else target + "." + name)
    for module, (target, names, _) in sorted(FAMILY.items())
    for name in sorted(names)
]
MODULES = sorted(FAMILY)
# ``contrib_layers.python.layers.x``: contrib's implementation path through Google's alias is no spelling
# TF 1 code used; the alias spelling covers the public paths.
PUBLIC = [i for i, (module, _, _) in enumerate(CASES) if ".python." not in module]
_ENGINE_RULES = (
    "symbol_renames",
    "function_transformers",
    "function_keyword_renames",
    "function_warnings",
    "function_arg_warnings",
)


def _engine_keys():
    from tf1clip.upgrade._engine import tf_upgrade_v2

    spec = tf_upgrade_v2.TFAPIChangeSpec()
    return {key for rules in _ENGINE_RULES for key in getattr(spec, rules, {})}


def _engine_knows(module, name, keys):
    """Whether tf_upgrade_v2 has a rule for the name, by path or guessed alias (``contrib_layers.x``, ``slim.x``)."""
    root, _, rest = module[len("tf.contrib.") :].partition(".")
    tail = (rest + "." if rest else "") + name
    guesses = {module + "." + name, "contrib_%s.%s" % (root, tail)} | ({"slim." + tail} if root == "slim" else set())
    return bool(guesses & keys)


def _use(spelling, index, module, name):
    """``(statement binding v<index>, expression to call)`` for one case in ``spelling``."""
    if spelling == "chain":
        return None, "%s.%s" % (module, name)
    if spelling == "import_as":
        return None, "m%d.%s" % (MODULES.index(module), name)
    if spelling == "from_import":
        return "from tensorflow%s import %s as v%d" % (module[2:], name, index), "v%d" % index
    root, _, rest = module[len("tf.contrib.") :].partition(".")
    return None, "contrib_%s%s.%s" % (root, "." + rest if rest else "", name)


def _cases(spelling):
    return PUBLIC if spelling == "from_contrib_import_as" else range(len(CASES))


def _source(spelling, called):
    lines = ["import tensorflow as tf"]
    if spelling == "import_as":
        lines += ["import tensorflow%s as m%d" % (module[2:], k) for k, module in enumerate(MODULES)]
    if spelling == "from_contrib_import_as":
        lines += ["from tensorflow.contrib import %s as contrib_%s" % (root, root) for root in _tables.SLIM_ROOTS]
    calls = []
    for index in _cases(spelling):
        module, name, _ = CASES[index]
        binding, expression = _use(spelling, index, module, name)
        lines.append(binding or "v%d = %s" % (index, expression))
        if index in called:
            calls.append("    c%d = %s(x)" % (index, expression))
    return "\n".join(lines + ["", "", "def _calls(x):"] + calls) + "\n"


def _resolve(path):
    import importlib

    parts = path.split(".")
    obj = importlib.import_module(parts[0] + "." + parts[1])
    for part in parts[2:]:
        obj = getattr(obj, part)
    return obj


def test_the_family_table_is_not_empty():
    assert len(CASES) > 1000 and len(MODULES) > 100
    assert ("tf.contrib.slim.nets", "resnet_v1", "tf1clip.contrib.slim.nets.resnet_v1") in CASES
    assert ("tf.contrib.layers", "xavier_initializer", "tf1clip.contrib.layers.xavier_initializer") in CASES


@pytest.mark.parametrize("spelling", ["chain", "import_as", "from_import", "from_contrib_import_as"])
def test_every_tf_slim_family_name_is_routed_in_every_spelling(spelling):
    keys = _engine_keys()
    called = [i for i in _cases(spelling) if _engine_knows(CASES[i][0], CASES[i][1], keys)]
    assert len(called) >= 10  # xavier_initializer, l2_regularizer, layer_norm, recompute_grad, ...
    source = _source(spelling, called)
    result = upgrade_source(source, target="modern")
    issues = [e.format() for e in result.log if e.severity != "INFO"]
    assert issues == []
    assert "TF_USE_LEGACY_KERAS" not in result.text and "keras" not in result.text
    assert "tensorflow.contrib" not in result.text and "tf.contrib" not in result.text
    calls = result.text.split("def _calls(x):\n")[1].splitlines()
    expected = []
    for index in called:
        module, name, target = CASES[index]
        expression = target if spelling == "chain" else _use(spelling, index, module, name)[1]
        expected.append("    c%d = %s(x)" % (index, expression))
    assert [line for line, want in zip(calls, expected) if line != want] == []
    assert len(calls) == len(expected)
    namespace = {}
    runnable = [line for line in result.text.splitlines() if "disable_v2_behavior" not in line]
    exec(compile("\n".join(runnable), "<converted %s>" % spelling, "exec"), namespace)  # noqa: S102
    wrong = [CASES[index] for index in _cases(spelling) if namespace["v%d" % index] is not _resolve(CASES[index][2])]
    assert wrong == []


@pytest.mark.parametrize(
    "before",
    [
        "from tensorflow.contrib import layers as contrib_layers\n",
        "import tensorflow.contrib.layers as contrib_layers\n",
        "contrib_layers = tf.contrib.layers\n",
    ],
)
def test_contrib_layers_initializers_and_regularizers_stay_tf_slims(before):
    """tf_upgrade_v2 would turn these calls into Keras initializers and regularizers (and tf1clip-upgrade then
    into a tf-keras line); the tf-slim functions keep TF 1's numbers (l2_regularizer's scale is not halved)."""
    body = textwrap.dedent("""\
        w = tf.get_variable("w", [3], initializer=contrib_layers.xavier_initializer(),
                            regularizer=contrib_layers.l2_regularizer(0.5))
        b = contrib_layers.variance_scaling_initializer(), contrib_layers.l1_regularizer(0.1)
        """)
    result = upgrade_source("import tensorflow as tf\n" + before + body, target="modern")
    assert "contrib_layers.xavier_initializer()" in result.text
    assert "contrib_layers.l2_regularizer(0.5)" in result.text
    assert "contrib_layers.variance_scaling_initializer(), contrib_layers.l1_regularizer(0.1)" in result.text
    assert "keras" not in result.text.lower()
    assert "tf1clip.contrib" in result.text and "tensorflow.contrib" not in result.text
