"""tf1clip-upgrade keeps TF 1.15's numbers where tf_upgrade_v2's TF 2 target computes others (docs/upgrade.rst).

The numbers themselves: tests/oracle/programs/upgrade_numeric_rules.py runs every rule on TF 1.15 and upgraded
(tests/oracle/test_oracle.py).
"""

import os

import pytest

import tf1clip.upgrade
from tf1clip.upgrade import _tables

PROGRAM = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "oracle", "programs", "upgrade_numeric_rules.py"
)


def convert(line):
    result = tf1clip.upgrade.upgrade_source("import tensorflow as tf\n" + line + "\n")
    body = [l for l in result.text.splitlines() if not l.startswith(("import", "tf.compat.v1.disable_v2", "os."))]
    return "\n".join(body), result.log


@pytest.mark.parametrize(
    "line,expected",
    [
        ("e = tf.nn.embedding_lookup(table, ids)", "e = tf.compat.v1.nn.embedding_lookup(table, ids)"),
        (
            "e = tf.nn.embedding_lookup(table, ids, validate_indices=False)",
            "e = tf.compat.v1.nn.embedding_lookup(table, ids, validate_indices=False)",
        ),
        ("e = tf.nn.embedding_lookup_sparse(t, i, w)", "e = tf.compat.v1.nn.embedding_lookup_sparse(t, i, w)"),
        ("e = tf.nn.safe_embedding_lookup_sparse(t, i)", "e = tf.compat.v1.nn.safe_embedding_lookup_sparse(t, i)"),
        ("l = tf.nn.nce_loss(w, b, y, x, 2, 5)", "l = tf.compat.v1.nn.nce_loss(w, b, y, x, 2, 5)"),
        (
            "l = tf.nn.sampled_softmax_loss(w, b, y, x, 2, 5)",
            "l = tf.compat.v1.nn.sampled_softmax_loss(w, b, y, x, 2, 5)",
        ),
        (
            "r = tf.image.resize_bilinear(x, [5, 7], align_corners=True)",
            "r = tf.compat.v1.image.resize_bilinear(x, [5, 7], align_corners=True)",
        ),
        ("r = tf.image.resize_nearest_neighbor(x, s)", "r = tf.compat.v1.image.resize_nearest_neighbor(x, s)"),
        ("r = tf.image.resize_bicubic(x, s)", "r = tf.compat.v1.image.resize_bicubic(x, s)"),
        ("r = tf.image.resize_area(x, s)", "r = tf.compat.v1.image.resize_area(x, s)"),
        ("r = tf.image.resize_images(x, s)", "r = tf.compat.v1.image.resize_images(x, s)"),
        ("f = tf.nn.embedding_lookup", "f = tf.compat.v1.nn.embedding_lookup"),
        ("v = tf.Variable(0, trainable=False)", "v = tf.compat.v1.Variable(0, trainable=False)"),
        # Not a call: every variable kind is a tf.Variable, not every one a tf.compat.v1.Variable.
        ("ok = isinstance(v, tf.Variable)", "ok = isinstance(v, tf.Variable)"),
        # tf_upgrade_v2's own conversions that keep the numbers (tests/oracle/programs/upgrade_numeric_rules.py).
        ("s = tf.multinomial(l, 6, seed=5)", "s = tf.random.categorical(l, 6, seed=5)"),
        (
            "x = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)",
            "x = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(y), logits=z)",
        ),
        ("i = tf.glorot_uniform_initializer(seed=1)", "i = tf.compat.v1.glorot_uniform_initializer(seed=1)"),
    ],
)
def test_conversions_keep_tf115_functions(line, expected):
    text, log = convert(line)
    assert text == expected
    assert not [e for e in log if e.severity != "INFO"], log


def test_no_partition_strategy_warning_for_the_kept_functions():
    _, log = convert("e = tf.nn.embedding_lookup_sparse(t, i, w)\nl = tf.nn.nce_loss(w, b, y, x, 2, 5)")
    assert not [e for e in log if "partition_strategy" in e.message]


def test_a_called_tf_variable_is_reported_as_tf115s_kind():
    _, log = convert("v = tf.Variable(0)")
    assert [(e.severity, e.line, e.message.split(":")[0]) for e in log if "Variable" in e.message] == [
        ("INFO", 2, "Changed tf.Variable to tf.compat.v1.Variable")
    ]


def test_every_rule_has_a_section_in_the_oracle_program():
    with open(PROGRAM) as f:
        text = f.read()
    for name in list(_tables.NUMERIC_V1) + [_tables.V1_VARIABLE, "tf.multinomial", "softmax_cross_entropy_with_logits"]:
        assert name + "(" in text, name


# The report: no warning that the converted file makes moot.

SAVER = """\
import tensorflow as tf
{mode}w = tf.get_variable("w", [2])
saver = tf.train.Saver()
with tf.Session() as sess:
    saver.save(sess, "model")
"""


def warnings_of(text):
    return [(e.line, e.message) for e in tf1clip.upgrade.upgrade_source(text).log if e.severity == "WARNING"]


def test_no_resource_variable_or_keras_save_warning_for_a_tf1_graph_file():
    assert warnings_of(SAVER.format(mode="")) == []


def test_the_warnings_stay_where_they_apply():
    # The file chose graph mode with resource variables: tf.get_variable makes resource variables.
    eager_off = warnings_of(SAVER.format(mode="tf.compat.v1.disable_eager_execution()\n"))
    assert [line for line, m in eager_off if "returns ResourceVariables" in m] == [3]
    # A file that uses Keras may save a Keras model.
    keras = warnings_of(SAVER.format(mode="model = tf.keras.Sequential()\n") + "model.save('m')\n")
    assert [line for line, m in keras if "Keras model.save" in m] == [6, 7]
