"""tf1clip-upgrade adds ``tf1clip.use_tf1_shapes()`` where a size argument holds a ``/`` quotient (a float under
Python 3, which TF 1.15 took as a size and TensorFlow 2 refuses): tests/unit/test_shapes.py checks the call, the
oracle program seq2seq_estimator_feed (attention_layer_size=UNITS / 2) its numbers against TF 1.15."""

import pytest

from helpers import upgrade
from helpers import upgrade_issues

LINE = "tf1clip.use_tf1_shapes()  # tf1clip-upgrade: TF 1.15 took whole-number floats (n / 2) as sizes"


@pytest.mark.parametrize(
    "call",
    [
        "tf.nn.rnn_cell.GRUCell(units / 2)",
        "tf.contrib.rnn.LSTMCell(num_units=units / 2 + 1)",
        "tf.contrib.seq2seq.AttentionWrapper(cell, mechanism, attention_layer_size=units / 2)",
        "tf.contrib.seq2seq.BahdanauAttention(units / 2, memory)",
        "tf.get_variable('w', [units / 2, 3])",
        "tf.layers.dense(x, units / 4)",
        "tf.placeholder(tf.float32, (None, -units / 2))",
        "cell.zero_state(batch / 2, tf.float32)",
    ],
)
def test_added_once_with_an_info_at_the_first_such_call(call):
    result = upgrade(
        """\
        import tensorflow as tf
        units = 16
        y = tf.reduce_mean(tf.ones([4]) / 2.0)
        a = {call}
        b = tf.nn.rnn_cell.GRUCell(units / 4)
        """.format(call=call)
    )
    assert result.text.count(LINE) == 1, result.text
    assert result.text.index(LINE) < result.text.index("units = 16")
    [(line, message)] = [i for i in upgrade_issues(result, "INFO") if "use_tf1_shapes" in i[1]]
    assert line == 4
    assert message.endswith(
        "takes a quotient (/) as an argument: added 'tf1clip.use_tf1_shapes()', with which TensorFlow 2 takes a "
        "whole-number float (num_units / 2 is 8.0 in Python 3) as a size, as TF 1.15 did (docs/upgrade.rst, "
        "'Whole-number floats as sizes')."
    )


@pytest.mark.parametrize(
    "call",
    [
        "tf.nn.rnn_cell.GRUCell(units // 2)",
        "tf.nn.rnn_cell.GRUCell(int(units / 2))",
        "tf.reduce_mean(x / 2.0)",
        "tf.train.AdamOptimizer(0.1 / 2)",
        "tf.nn.dropout(x, keep_prob=1 / 2)",
        "tf.get_variable('w', [units, 3], initializer=tf.random_normal_initializer(stddev=1 / units))",
    ],
)
def test_not_added_without_a_quotient_in_a_size_argument(call):
    result = upgrade(
        """\
        import tensorflow as tf
        units = 16
        x = tf.placeholder(tf.float32, [None, 3])
        a = {call}
        """.format(call=call)
    )
    assert "use_tf1_shapes" not in result.text
    assert [i for i in upgrade_issues(result, "INFO") if "use_tf1_shapes" in i[1]] == []


def test_not_added_twice():
    source = """\
        import tensorflow as tf
        import tf1clip
        tf1clip.use_tf1_shapes()
        cell = tf.nn.rnn_cell.GRUCell(16 / 2)
        """
    assert upgrade(source).text.count("use_tf1_shapes()") == 1
