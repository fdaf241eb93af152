"""tf1clip-upgrade converts tf.contrib.quantize's four functions to tf1clip.contrib.quantize, with no ERROR."""

import pytest
from helpers import upgrade, upgrade_issues

NAMES = (
    "create_training_graph",
    "create_eval_graph",
    "experimental_create_training_graph",
    "experimental_create_eval_graph",
)


@pytest.mark.parametrize("name", NAMES)
def test_each_function_converts_with_no_error(name):
    result = upgrade("import tensorflow as tf\ntf.contrib.quantize.%s(quant_delay=100)\n" % name)
    assert not upgrade_issues(result, "ERROR")
    assert "tf1clip.contrib.quantize.%s(quant_delay=100)" % name in result.text
    assert "tf.contrib" not in result.text


def test_a_training_program_gets_tf1_behavior():
    result = upgrade(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 4])
        y = tf.layers.dense(x, 3, activation=tf.nn.relu6)
        tf.contrib.quantize.create_training_graph(quant_delay=2000)
        train_op = tf.train.AdamOptimizer(0.01).minimize(tf.reduce_mean(y))
        """
    )
    assert not upgrade_issues(result, "ERROR")
    assert "tf.compat.v1.disable_v2_behavior()" in result.text
    assert "tf1clip.contrib.quantize.create_training_graph(quant_delay=2000)" in result.text


@pytest.mark.parametrize(
    "source",
    [
        "from tensorflow.contrib.quantize import create_eval_graph\ncreate_eval_graph()\n",
        "from tensorflow.contrib import quantize\nquantize.create_eval_graph()\n",
        "from tensorflow.contrib.quantize.python import quantize_graph\nquantize_graph.create_eval_graph()\n",
        "import tensorflow.contrib.quantize as q\nq.create_eval_graph()\n",
    ],
)
def test_import_spellings_convert(source):
    result = upgrade(source)
    assert not upgrade_issues(result, "ERROR")
    assert "tensorflow.contrib" not in result.text and "tf1clip.contrib" in result.text
