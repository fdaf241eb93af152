"""tf1clip-upgrade names, at its line, each use whose numbers stay different from TF 1.15's for a documented reason.

The rnn cells whose training drifts with TF 2's kernels (tests/oracle/test_rnn_cell_drift.py, docs/rnn.rst "Numerics")
get an INFO; calls after which op seeds differ (tests/oracle/test_seeds.py, docs/oracle.rst "Seeds") a WARNING.
"""

import ast
import os
import textwrap

import pytest

from tf1clip.contrib import _manifest
from tf1clip.upgrade import upgrade_source
from tf1clip.upgrade._numerics import known_differences

KNOWN_DIFFERENCES = known_differences()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# tests/oracle/test_rnn_cell_drift.py's KERNEL_DRIFT cases -> the name each builds.
DRIFT_CASES = {
    "layer_norm_lstm": "tf1clip.contrib.rnn.LayerNormBasicLSTMCell",
    "cudnn_compatible_gru": "tf1clip.contrib.cudnn_rnn.CudnnCompatibleGRUCell",
    "attention": "tf1clip.contrib.rnn.AttentionCellWrapper",
    "embedding": "tf1clip.contrib.rnn.EmbeddingWrapper",
}


def _notes(source):
    result = upgrade_source(textwrap.dedent(source))
    return result, [(e.severity, e.line, e.message) for e in result.log if "differs from TF 1.15" in e.message]


def _kernel_drift_cases():
    """The keys of tests/oracle/test_rnn_cell_drift.py's KERNEL_DRIFT (read, not imported: it is an oracle module)."""
    with open(os.path.join(ROOT, "tests", "oracle", "test_rnn_cell_drift.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["KERNEL_DRIFT"]:
            return sorted(key.value for key in node.value.keys)
    raise AssertionError("KERNEL_DRIFT not found")


def test_the_table_names_exactly_the_cells_whose_drift_is_tensorflows():
    assert sorted(DRIFT_CASES) == _kernel_drift_cases()
    assert sorted(KNOWN_DIFFERENCES) == sorted(DRIFT_CASES.values())
    for path in KNOWN_DIFFERENCES:
        target, _, name = path.rpartition(".")
        assert name in _manifest.names(target), path


@pytest.mark.parametrize(
    "spelling",
    [
        "cell = tf.contrib.rnn.{name}({args})",
        "cell = rnn.{name}({args})",
        "cell = {name}({args})",
    ],
)
@pytest.mark.parametrize("path", sorted(KNOWN_DIFFERENCES))
def test_each_use_is_named_at_its_line_with_the_reason_and_the_docs(path, spelling):
    module, _, name = path.rpartition(".")
    tf_module = "tensorflow.contrib." + module.split(".")[-1]
    args = {"AttentionCellWrapper": "base, 3", "EmbeddingWrapper": "base, 10, 4"}.get(name, "4")
    if spelling.startswith("cell = tf.contrib.rnn.") and module.endswith("cudnn_rnn"):
        spelling = spelling.replace("tf.contrib.rnn.", "tf.contrib.cudnn_rnn.")
    source = """\
        import tensorflow as tf
        from {tf_module} import {name}
        from tensorflow.contrib import rnn
        from tensorflow.contrib import cudnn_rnn
        base = tf.nn.rnn_cell.GRUCell(4)

        {line}
        other = tf.nn.rnn_cell.LSTMCell(4)
        """.format(tf_module=tf_module, name=name, line=spelling.format(name=name, args=args))
    if spelling.startswith("cell = rnn.") and module.endswith("cudnn_rnn"):
        source = source.replace("cell = rnn.", "cell = cudnn_rnn.")
    result, notes = _notes(source)
    assert [(severity, line) for severity, line, _ in notes] == [("INFO", 7)], result.text
    message = notes[0][2]
    assert message.startswith(path + " differs from TF 1.15 in its numbers: ")
    assert "Sigmoid, Tanh, Softmax" in message
    assert message.endswith("(docs/rnn.rst, 'Numerics').")


def test_cells_without_a_documented_difference_get_no_note():
    _, notes = _notes(
        """\
        import tensorflow as tf
        a = tf.contrib.rnn.LSTMBlockCell(4)
        b = tf.contrib.rnn.LayerNormLSTMCell(4)
        c = tf.nn.rnn_cell.GRUCell(4)
        d = tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(4)
        """
    )
    assert notes == []


def test_the_docs_sections_named_exist():
    for _, _, docs in KNOWN_DIFFERENCES.values():
        page, section = docs.split(", ")
        with open(os.path.join(ROOT, page)) as f:
            assert "\n" + section.strip("'") + "\n" in f.read(), docs


def test_random_ops_after_gradients_are_warned_at_the_gradient_lines_only():
    result = upgrade_source(
        textwrap.dedent(
            """\
            import tensorflow as tf
            tf.set_random_seed(1)
            x = tf.placeholder(tf.float32, [None, 3])
            w = tf.get_variable("w", [3, 1])
            loss = tf.reduce_mean(tf.matmul(x, w))
            opt = tf.train.AdamOptimizer(0.1)
            grads, variables = zip(*opt.compute_gradients(loss))
            grads, _ = tf.clip_by_global_norm(grads, 5.0)
            train_op = opt.apply_gradients(zip(grads, variables))
            g = tf.random_gamma([2], 1.0)
            h = tf.layers.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3, dilation_rate=2)
            drop = tf.nn.dropout(x, 0.5)
            """
        )
    )
    warnings = [(e.line, e.message) for e in result.log if e.severity == "WARNING" and "seed=" in e.message]
    assert [line for line, _ in warnings] == [7]
    assert warnings[0][1].startswith("TensorFlow 2 builds gradients with another number of ops than TF 1.15")
    assert warnings[0][1].endswith("(docs/oracle.rst, 'Seeds').")


def test_shuffle_then_repeat_is_warned_at_its_line():
    """tests/oracle/test_seeds.py::test_documented_value_differences_still_differ shows the order TF 2 draws differs."""
    result = upgrade_source(
        textwrap.dedent(
            """\
            import tensorflow as tf
            tf.set_random_seed(1)
            ds = tf.data.Dataset.range(10)
            a = ds.shuffle(10).repeat()
            b = ds.shuffle(10, seed=3).repeat(2).batch(4)
            c = ds.apply(tf.contrib.data.shuffle_and_repeat(10, 2))
            d = ds.shuffle(10, reshuffle_each_iteration=False).repeat()
            e = ds.shuffle(10).map(lambda x: x + 1).repeat()
            f = ds.repeat().shuffle(10)
            """
        )
    )
    warnings = [(e.line, e.message) for e in result.log if "ShuffleAndRepeatDataset" in e.message]
    assert [line for line, _ in warnings] == [4, 5, 6]
    assert all(e.severity == "WARNING" for e in result.log if "ShuffleAndRepeatDataset" in e.message)
    assert warnings[0][1].startswith("tf.data's shuffle followed directly by repeat: TF 1.15 fused the two")
    assert warnings[0][1].endswith("(docs/oracle.rst, 'Seeds').")


def test_shuffle_then_repeat_without_any_seed_is_not_warned():
    """Unseeded, neither TensorFlow repeats its order: nothing to compare."""
    result = upgrade_source(
        textwrap.dedent(
            """\
            import tensorflow as tf
            ds = tf.data.Dataset.range(10)
            a = ds.shuffle(10).repeat()
            b = ds.shuffle(10, 3).repeat()
            c = ds.apply(tf.data.experimental.shuffle_and_repeat(10, 2, seed=1))
            """
        )
    )
    assert [e.line for e in result.log if "ShuffleAndRepeatDataset" in e.message] == [4, 5]


def test_no_seed_warning_when_only_deterministic_initializers_follow_the_gradients():
    source = """\
        import tensorflow as tf
        tf.set_random_seed(1)
        w = tf.get_variable("w", [3, 1])
        train_op = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(w))
        init = [tf.zeros_initializer(), tf.constant_initializer(2.0), tf.ones_initializer()]
        ready = tf.global_variables_initializer()
        {extra}
        """
    quiet = upgrade_source(textwrap.dedent(source.format(extra="")))
    loud = upgrade_source(textwrap.dedent(source.format(extra="b = tf.truncated_normal_initializer()")))
    assert [e.line for e in quiet.log if "seed=" in e.message] == []
    assert [e.line for e in loud.log if "seed=" in e.message] == [4]
