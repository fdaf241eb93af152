"""tf1clip-upgrade on files it can read only in part, and on statements a rule removes from a line shared with others.

A statement that does not parse (a Python 2 leftover 2to3 cannot read either, an IPython line in a .py export, a
merge-conflict marker, syntax pasta cannot read) is kept as it is and reported as an ERROR at its line; everything
else in the file is converted, with the report's line numbers the input's. A notebook cell that does not parse is
kept as it is and reported; the other cells are converted.
"""

import json
import sys

import pytest

from tf1clip import upgrade

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

KERAS = (
    'import os\nos.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf1clip-upgrade: tf.compat.v1.nn.rnn_cell.LSTMCell needs '
    "Keras 2 (tf-keras)\n"
)

GRAPH_LINE = "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: placeholders and Sessions need TF 1 behavior"


def _code(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


def _markdown(source):
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def _notebook(cells, kernel="python3"):
    return {"cells": cells, "metadata": {"kernelspec": {"name": kernel}}, "nbformat": 4, "nbformat_minor": 2}


def _convert_notebook(tmp_path, cells, kernel="python3"):
    source, out = tmp_path / "in.ipynb", tmp_path / "out.ipynb"
    source.write_text(json.dumps(_notebook(cells, kernel), indent=1))
    result = upgrade.upgrade_file(str(source), str(out), target="modern")
    return result, ["".join(cell["source"]) for cell in json.loads(out.read_text())["cells"]]


def _errors(result):
    return [(e.line, e.message) for e in result.log if e.severity == "ERROR"]


# A removed import that shared its line with another statement (``a; b``).
SEMICOLONS = {
    "removed_after_a_semicolon": (
        "import tensorflow as tf; from tensorflow.contrib import rnn\nc = rnn.LSTMCell(3)\n",
        "import tensorflow as tf\nc = tf.compat.v1.nn.rnn_cell.LSTMCell(3)\n",
    ),
    "removed_before_a_semicolon": (
        "import tensorflow as tf\nfrom tensorflow.contrib import rnn; import numpy as np\nc = rnn.LSTMCell(3)\n",
        "import tensorflow as tf\nimport numpy as np\nc = tf.compat.v1.nn.rnn_cell.LSTMCell(3)\n",
    ),
    "removed_between_semicolons": (
        "import tensorflow as tf\nx = 1; from tensorflow.contrib import rnn; y = 2  # c\nc = rnn.LSTMCell(3)\n",
        "import tensorflow as tf\nx = 1; y = 2  # c\nc = tf.compat.v1.nn.rnn_cell.LSTMCell(3)\n",
    ),
    "removed_last_keeps_its_comment": (
        "import tensorflow as tf\nx = 1; from tensorflow.contrib import rnn  # cells\n# k\nc = rnn.LSTMCell(3)\n",
        "import tensorflow as tf\nx = 1  # cells\n# k\nc = tf.compat.v1.nn.rnn_cell.LSTMCell(3)\n",
    ),
    "removed_in_a_block": (
        "import tensorflow as tf\nif True:\n    from tensorflow.contrib import rnn; import numpy as np\n"
        "    c = rnn.LSTMCell(3)\n",
        "import tensorflow as tf\nif True:\n    import numpy as np\n    c = tf.compat.v1.nn.rnn_cell.LSTMCell(3)\n",
    ),
}


@pytest.mark.parametrize("name", sorted(SEMICOLONS))
def test_a_removed_statement_leaves_its_line_neighbours_valid(name):
    before, after = SEMICOLONS[name]
    result = upgrade.upgrade_source(before, target="modern")
    assert result.text == KERAS + after
    compile(result.text, name, "exec")


def test_a_removed_import_at_the_end_of_a_cell_after_a_semicolon_keeps_the_cells_apart(tmp_path):
    cells = [_code("import tensorflow as tf; from tensorflow.contrib import rnn\n"), _code("c = rnn.LSTMCell(3)")]
    result, sources = _convert_notebook(tmp_path, cells)
    assert result.status == "converted" and not result.errors, result.log
    assert sources == [KERAS + "import tensorflow as tf\n", "c = tf.compat.v1.nn.rnn_cell.LSTMCell(3)"]


# A TF 1 training script of 2016-2017 (Python 2: print statements, xrange; tf.contrib.layers, tf.app.flags) with a
# line half edited in main(): neither Python 3 nor 2to3 reads it.
TRAIN_PY2 = '''\
"""Trains a small MLP on random data (TF 1.x)."""
import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_integer("steps", 100, "training steps")
FLAGS = flags.FLAGS


def model(x):
    net = tf.contrib.layers.fully_connected(x, 32)
    return tf.contrib.layers.fully_connected(net, 1, activation_fn=None)


def main(_):
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.float32, [None, 1])
    loss = tf.losses.mean_squared_error(y, model(x))
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
    print "loss:" %
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in xrange(FLAGS.steps):
            _, value = sess.run([train_op, loss], {x: np.ones((8, 4)), y: np.ones((8, 1))})
            if step % 10 == 0:
                print "step %d: %f" % (step, value)
    q = tf.contrib.model_pruning.get_masks()


if __name__ == "__main__":
    tf.app.run()
'''


def test_a_training_script_with_one_unparsable_line_converts_around_it(tmp_path):
    source, out = tmp_path / "train.py", tmp_path / "out.py"
    source.write_text(TRAIN_PY2)
    result = upgrade.upgrade_file(str(source), str(out), target="modern")
    new = out.read_text()
    assert result.status == "converted"
    bad = TRAIN_PY2.split("\n").index('    print "loss:" %') + 1
    errors = _errors(result)
    assert errors[0][0] == bad and errors[0][1].startswith("Could not parse this line, left unchanged (SyntaxError: ")
    assert errors[0][1].endswith(": 'print \"loss:\" %'; the rest of the file was converted.")
    # The other ERROR (tf.contrib.model_pruning has no TF 2 home) is at its own line, as in the input.
    assert [line for line, _ in errors[1:]] == [
        TRAIN_PY2.split("\n").index("    q = tf.contrib.model_pruning.get_masks()") + 1
    ]
    assert '\n    print "loss:" %\n' in new
    for converted in (
        "net = tf1clip.contrib.layers.fully_connected(x, 32)",  # before the line
        "x = tf.compat.v1.placeholder(tf.float32, [None, 4])",
        "train_op = tf.compat.v1.train.AdamOptimizer(0.01).minimize(loss)",
        "with tf.compat.v1.Session() as sess:",  # after it
        "for step in range(FLAGS.steps):",  # the Python 2 pass still ran
        'print("step %d: %f" % (step, value))',
        "tf.compat.v1.app.run()",
    ):
        assert converted in new, converted
    assert "xrange" not in new and "tf.placeholder" not in new


def test_the_command_exits_1_and_reports_the_line(tmp_path, capsys):
    source = tmp_path / "train.py"
    source.write_text(TRAIN_PY2)
    report = tmp_path / "report.txt"
    status = upgrade.main(["--infile", str(source), "--outfile", str(tmp_path / "o.py"), "--reportfile", str(report)])
    assert status == 1
    bad = TRAIN_PY2.split("\n").index('    print "loss:" %') + 1
    assert "%s:%d:4: ERROR: Could not parse this line, left unchanged" % (source, bad) in capsys.readouterr().out


# A notebook exported as .py by hand (IPython lines kept), then a merge-conflict left in (2018-2019 style: tf.data,
# tf.layers, tf.contrib.slim).
EXPORT = """\
import tensorflow as tf
%matplotlib inline
!pip install tensorflow==1.13.1
slim = tf.contrib.slim
<<<<<<< HEAD
net = slim.conv2d(images, 32, [3, 3])
=======
net = slim.conv2d(images, 64, [3, 3])
>>>>>>> tuning
logits = tf.layers.dense(tf.contrib.layers.flatten(net), 10)
"""


def test_ipython_lines_and_conflict_markers_in_a_py_file_are_kept_and_reported():
    result = upgrade.upgrade_source(EXPORT, target="modern")
    lines = result.text.split("\n")
    assert lines[:2] == KERAS.replace("LSTMCell", "layers.dense").replace("nn.rnn_cell.", "").split("\n")[:2]
    assert lines[2:7] == [
        "import tensorflow as tf",
        "import tf1clip.contrib",
        "%matplotlib inline",
        "!pip install tensorflow==1.13.1",
        "slim = tf1clip.contrib.slim",
    ]
    assert lines[7:12] == [
        "<<<<<<< HEAD",
        "net = slim.conv2d(images, 32, [3, 3])",
        "=======",
        "net = slim.conv2d(images, 64, [3, 3])",
        ">>>>>>> tuning",
    ]
    assert "logits = tf.compat.v1.layers.dense(tf1clip.contrib.layers.flatten(net), 10)" in result.text
    errors = _errors(result)
    assert [line for line, _ in errors] == [2, 3, 5, 7, 9]
    assert all("IPython line" in message for _, message in errors[:2])
    assert all("merge-conflict marker" in message for _, message in errors[2:])


def test_a_block_header_that_does_not_parse_takes_its_block_and_nothing_else():
    source = "import tensorflow as tf\nfor i in xrange(3) if i:\n    y = tf.random_normal([2])\n\nz = tf.random_uniform([3])\n"
    result = upgrade.upgrade_source(source, target="modern")
    assert result.text == (
        "import tensorflow as tf\nfor i in xrange(3) if i:\n    y = tf.random_normal([2])\n\nz = tf.random.uniform([3])\n"
    )
    assert [(line, message.split(",")[0]) for line, message in _errors(result)] == [
        (2, "Could not parse these 2 lines")
    ]


def test_a_statement_split_over_lines_is_masked_whole():
    source = "import tensorflow as tf\nx = foo(a,\n        b c)\ny = tf.random_normal([2])\n"
    result = upgrade.upgrade_source(source, target="modern")
    assert result.text == "import tensorflow as tf\nx = foo(a,\n        b c)\ny = tf.random.normal([2])\n"
    assert [line for line, _ in _errors(result)] == [2]


def test_a_statement_pasta_cannot_read_is_kept_and_the_rest_converted():
    source = (
        "import tensorflow as tf\n\ndef crop(a, n):\n    b = a[(n - 1) * 2:n, 0]\n    return tf.random_crop(b, [2])\n"
    )
    result = upgrade.upgrade_source(source, target="modern")
    assert "    b = a[(n - 1) * 2:n, 0]\n    return tf.image.random_crop(b, [2])\n" in result.text
    errors = _errors(result)
    assert [line for line, _ in errors] == [4] and "pasta" in errors[0][1]


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="Python 3.14 reads template strings")
def test_a_line_newer_than_the_parser_is_kept():
    source = 'import tensorflow as tf\nmessage = t"step {step}"\nx = tf.random_normal([2])\n'
    result = upgrade.upgrade_source(source, target="modern")
    assert result.text.split("\n")[1:3] == ['message = t"step {step}"', "x = tf.random.normal([2])"]
    assert [line for line, _ in _errors(result)] == [2]


def test_a_file_with_nothing_that_parses_still_fails_whole(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text("print 'a' +\n%magic\n")
    result = upgrade.upgrade_file(str(source), str(tmp_path / "out.py"), target="modern")
    assert result.status == "failed" and len(result.errors) == 1
    assert result.errors[0].line == 0 and "left unchanged" in result.errors[0].message


def test_masking_and_restoring_gives_the_input_back():
    from tf1clip.upgrade import _partial

    for text in (TRAIN_PY2, EXPORT, "def f():\n\tif x:\n\t\t%time g()\n\treturn 1\n"):
        masked = _partial.Masked(text)
        masked.mask_unparsable(python2=True)
        assert masked.spans
        if text is not TRAIN_PY2:  # (Python 2 still)
            compile(masked.text, "masked", "exec")
        assert len(masked.text.split("\n")) == len(text.split("\n"))
        assert masked.restore(masked.text) == text


# A notebook of 2018: a !pip install cell, a magic, a cell left half edited, and TF 1 code before and after.
def test_a_notebook_cell_that_does_not_parse_is_kept_and_the_others_convert(tmp_path):
    cells = [
        _markdown("# MNIST softmax\n"),
        _code("!pip install -q tensorflow==1.12.0\n"),
        _code("%matplotlib inline\nimport tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 784])\n"),
        _code("tf.nn.softmax?\n"),
        _code("W = tf.Variable(tf.zeros([784, 10]))\nprint 'weights' W\n"),
        _code("y = tf.contrib.layers.fully_connected(x, 10)\nsess = tf.InteractiveSession()\n"),
    ]
    result, sources = _convert_notebook(tmp_path, cells)
    assert result.status == "converted"
    assert sources[1] == "!pip install -q tensorflow==1.12.0\n"
    assert sources[2] == (
        "%matplotlib inline\nimport tensorflow as tf\nimport tf1clip.contrib\n" + GRAPH_LINE + "\n"
        "x = tf.compat.v1.placeholder(tf.float32, [None, 784])\n"
    )
    assert sources[3] == "tf.nn.softmax?\n"
    assert sources[4] == "W = tf.Variable(tf.zeros([784, 10]))\nprint 'weights' W\n"  # left as it is
    assert sources[5] == "y = tf1clip.contrib.layers.fully_connected(x, 10)\nsess = tf.compat.v1.InteractiveSession()\n"
    # Code-cell lines counted one after another: the !pip cell 1, the next 2-4, the help line 5, the bad cell 6-7.
    [(line, message)] = _errors(result)
    assert line == 7 and message.startswith("Could not parse cell 5 (its line 2, SyntaxError: ")
    assert message.endswith("), left unchanged: \"print 'weights' W\"; the other cells were converted.")


def test_a_python_2_notebook_skips_only_the_cell_2to3_cannot_read(tmp_path):
    cells = [
        _code("import tensorflow as tf\nprint 'start'\n"),
        _code("print 'loss' +\n"),
        _code("for i in xrange(3):\n    x = tf.contrib.layers.flatten(y)\n"),
    ]
    result, sources = _convert_notebook(tmp_path, cells, kernel="python2")
    assert sources == [
        "import tensorflow as tf\nimport tf1clip.contrib\nprint('start')\n",
        "print 'loss' +\n",
        "for i in range(3):\n    x = tf1clip.contrib.layers.flatten(y)\n",
    ]
    assert [line for line, _ in _errors(result)] == [3]


SCRIPT = """\
import tensorflow as tf
from tensorflow.contrib import rnn

def model(x, units):
    cell = rnn.LSTMCell(units)
    outputs, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    return tf.contrib.layers.fully_connected(outputs[:, -1], 1)

def main(_):
    x = tf.placeholder(tf.float32, [None, 5, 3])
    loss = tf.reduce_mean(tf.square(model(x, 8)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(10):
            sess.run(tf.train.GradientDescentOptimizer(0.1).minimize(loss))

tf.app.run()
"""


@pytest.mark.parametrize("bad", ["%matplotlib inline", "<<<<<<< HEAD", "print 'x' +", "x = = 1"])
def test_a_bad_line_anywhere_changes_nothing_else(bad):
    clean = upgrade.upgrade_source(SCRIPT, target="modern").text.split("\n")
    lines = SCRIPT.split("\n")
    for index in range(1, len(lines) - 1):
        indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
        source = "\n".join(lines[:index] + [indent + bad] + lines[index:])
        result = upgrade.upgrade_source(source, target="modern")
        out = result.text.split("\n")
        assert out.count(indent + bad) == 1, (index, result.text)
        out.remove(indent + bad)
        assert out == clean, (index, result.text)
        assert [e.line for e in result.log if e.severity == "ERROR"] == [index + 1], (index, result.log)
