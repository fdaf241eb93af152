"""``X = tf.contrib.M`` converts like ``from tensorflow.contrib import M``, for every contrib module.

Once every use of the alias is converted, its binding names what the uses now need (a tf1clip
module) or, when the uses no longer refer to it, is removed; while a use is left that nothing
converts, the binding stays with an ERROR.
"""

import ast
import builtins

import pytest

from tf1clip.upgrade import upgrade_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

# contrib module -> (alias, a typical use of the alias)
CONVERTED = {
    "mixed_precision": (
        "mp",
        "mp.LossScaleOptimizer(tf.train.GradientDescentOptimizer(0.1), mp.FixedLossScaleManager(128.0))",
    ),
    "slim": ("slim", "slim.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3)"),
    "layers": ("layers", "layers.fully_connected(tf.zeros([1, 4]), 2)"),
    "opt": ("opt", "opt.LazyAdamOptimizer(0.1)"),
    "training": ("training", "training.HParams(a=1)"),
    "framework": ("fw", "fw.get_variables()"),
    "framework.nest": ("nest", "nest.flatten([1])"),
    "rnn": ("rnn", "rnn.LSTMCell(4)"),
    "legacy_seq2seq": ("s2s", "s2s.sequence_loss_by_example"),
    "seq2seq": ("s2s", "s2s.sequence_loss"),
    "estimator": ("est", "est.clip_gradients_by_norm(tf.train.GradientDescentOptimizer(0.1), 1.0)"),
    "gan": ("tfgan", "tfgan.losses.wasserstein_generator_loss"),
    "cudnn_rnn": ("cudnn_rnn", "cudnn_rnn.CudnnCompatibleLSTMCell(4)"),
    "metrics": ("metrics", "metrics.streaming_accuracy"),
    "losses": ("losses", "losses.mean_squared_error"),
    "tpu": ("tpu", "tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.1))"),
    "summary": ("summary", "summary.create_file_writer('/tmp/logs')"),
    "data": ("data", "data.map_and_batch"),
}

# alias bindings with a use that nothing converts
UNCONVERTED = {
    "member without successor": "mp = tf.contrib.mixed_precision\nx = mp.LossScaleManager\n",
    "module without successor": "bf = tf.contrib.bayesflow\nx = bf.monte_carlo\n",
    "module passed on": "mp = tf.contrib.mixed_precision\nx = mp.FixedLossScaleManager(1.0)\nprint(mp)\n",
    "name bound twice": "def f():\n    mp = tf.contrib.mixed_precision\n    return mp.FixedLossScaleManager(1.0)\n"
    "def g():\n    mp = tf.contrib.mixed_precision\n    return mp.FixedLossScaleManager(2.0)\n",
}


def _unbound(text):
    """The names ``text`` reads but never binds (builtins aside)."""
    tree = ast.parse(text)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef):
            bound.add(node.name)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound


@pytest.mark.parametrize("module", sorted(CONVERTED))
def test_a_module_alias_whose_uses_all_convert_leaves_no_contrib(module):
    alias, use = CONVERTED[module]
    source = "import tensorflow as tf\n%s = tf.contrib.%s\nx = %s\n" % (alias, module, use)
    result = upgrade_source(source)
    errors = [e.message for e in result.log if e.severity == "ERROR"]
    assert errors == [], "%r: %s" % (source, errors)
    assert "tf.contrib" not in result.text, result.text
    compile(result.text, "converted.py", "exec")
    assert _unbound(result.text) == set(), result.text


def test_the_mixed_precision_alias_line_is_removed_like_its_import():
    alias, use = CONVERTED["mixed_precision"]
    via_alias = upgrade_source("import tensorflow as tf\nmp = tf.contrib.mixed_precision\nx = %s\n" % use)
    via_import = upgrade_source(
        "import tensorflow as tf\nfrom tensorflow.contrib import mixed_precision as mp\nx = %s\n" % use
    )
    assert via_alias.text == via_import.text
    assert [e.message for e in via_alias.log if e.message.startswith("Removed")] == [
        "Removed 'mp = tf.contrib.mixed_precision': every use of mp was converted."
    ]


@pytest.mark.parametrize("case", sorted(UNCONVERTED))
def test_a_module_alias_with_an_unconverted_use_stays_with_an_error(case):
    source = "import tensorflow as tf\n" + UNCONVERTED[case]
    result = upgrade_source(source)
    binding_lines = [i for i, line in enumerate(source.splitlines(), 1) if "= tf.contrib." in line]
    error_lines = {e.line for e in result.log if e.severity == "ERROR"}
    assert binding_lines[0] in error_lines, (result.text, [(e.line, e.message) for e in result.log])
    assert result.text.count("= tf.contrib.") == len(binding_lines), result.text
    assert _unbound(result.text) == set(), result.text
