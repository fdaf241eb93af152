"""tf1clip-upgrade on notebooks: whatever a rule does to a cell's lines, each cell gets its own lines back.

Table-driven: each case is a notebook (cells) and the code-cell sources expected after
conversion. Then a small LSTM notebook is converted and its code cells are executed in
order in a fresh process; its losses are TF 1.15's (recorded below).
"""

import json
import os
import subprocess
import sys

import pytest

from tf1clip import upgrade
from tf1clip.upgrade._notebook import NotebookCode

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def keras(cell):
    """The lines tf1clip-upgrade adds before the first statement for ``tf.compat.v1.nn.rnn_cell.<cell>``."""
    why = "# tf1clip-upgrade: tf.compat.v1.nn.rnn_cell.%s needs Keras 2 (tf-keras)\n" % cell
    return ["import os\n", 'os.environ["TF_USE_LEGACY_KERAS"] = "1"  ' + why]


GRAPH_LINE = "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: placeholders and Sessions need TF 1 behavior"


def code(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


def markdown(source):
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def _notebook(cells):
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 2}


# name -> (cells, the sources of every cell after conversion, as lists of lines)
CASES = {
    "deleted_line": (
        [
            code(["import tensorflow as tf\n", "from tensorflow.contrib import rnn\n", "x = 1\n"]),
            code("c = rnn.GRUCell(2)"),
        ],
        [keras("GRUCell") + ["import tensorflow as tf\n", "x = 1\n"], ["c = tf.compat.v1.nn.rnn_cell.GRUCell(2)"]],
    ),
    "deleted_last_line_without_newline": (
        [code(["import tensorflow as tf\n", "from tensorflow.contrib import rnn"]), code(["c = rnn.GRUCell(2)\n"])],
        [keras("GRUCell") + ["import tensorflow as tf"], ["c = tf.compat.v1.nn.rnn_cell.GRUCell(2)\n"]],
    ),
    "deleted_whole_cell": (
        [code("import tensorflow as tf\n"), code("from tensorflow.contrib import rnn\n"), code("c = rnn.GRUCell(2)\n")],
        [keras("GRUCell") + ["import tensorflow as tf\n"], [], ["c = tf.compat.v1.nn.rnn_cell.GRUCell(2)\n"]],
    ),
    "comments_above_a_deleted_import_stay": (
        [code("import tensorflow as tf\n"), code("# the cells\n# of TF 1\nfrom tensorflow.contrib import rnn\n")],
        [["import tensorflow as tf\n"], ["# the cells\n", "# of TF 1\n"]],
    ),
    "added_lines": (
        [code("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"), code("c = tf.contrib.rnn.LSTMCell(2)\n")],
        [
            keras("LSTMCell")
            + ["import tensorflow as tf\n", GRAPH_LINE + "\n", "x = tf.compat.v1.placeholder(tf.float32)\n"],
            ["c = tf.compat.v1.nn.rnn_cell.LSTMCell(2)\n"],
        ],
    ),
    "split_line": (
        [
            code("import tensorflow as tf\n"),
            code("# data\nfrom tensorflow.contrib.slim.data.dataset import Dataset\nd = 1\n"),
        ],
        [
            ["import tensorflow as tf\n"],
            [
                "# data\n",
                "import tf1clip.contrib.slim\n",
                "Dataset = tf1clip.contrib.slim.data.dataset.Dataset\n",
                "d = 1\n",
            ],
        ],
    ),
    "magics": (
        [
            code(
                ["%matplotlib inline\n", "!pip install foo \\\n", "    --bar\n", "import tensorflow as tf\n", "?tf.nn"]
            ),
            code(["files = !ls\n", "for i in range(2):\n", "    !echo {i}\n", "x = tf.placeholder(tf.float32)\n"]),
            code(["%%time\n", "y = tf.placeholder(tf.float32)\n"]),
            code(["%%bash\n", "echo tf.placeholder\n"]),
        ],
        [
            ["%matplotlib inline\n", "!pip install foo \\\n", "    --bar\n", "import tensorflow as tf\n"]
            + [GRAPH_LINE + "\n", "?tf.nn"],
            ["files = !ls\n", "for i in range(2):\n", "    !echo {i}\n", "x = tf.compat.v1.placeholder(tf.float32)\n"],
            ["%%time\n", "y = tf.compat.v1.placeholder(tf.float32)\n"],
            ["%%bash\n", "echo tf.placeholder\n"],
        ],
    ),
    "magic_above_a_deleted_import_stays": (
        [code("%matplotlib inline\nfrom tensorflow.contrib import rnn\nc = rnn.GRUCell(2)\n")],
        [
            keras("GRUCell")
            + ["import tensorflow as tf\n", "%matplotlib inline\n", "c = tf.compat.v1.nn.rnn_cell.GRUCell(2)\n"]
        ],
    ),
    "empty_cells_and_markdown": (
        [
            markdown(["# tf.placeholder\n", "tf.contrib.rnn"]),
            code([]),
            code(""),
            code(["\n"]),
            {"cell_type": "raw", "metadata": {}, "source": "tf.placeholder"},
            code("import tensorflow as tf\nx = tf.placeholder(tf.float32)"),
        ],
        [
            ["# tf.placeholder\n", "tf.contrib.rnn"],
            [],
            [],
            ["\n"],
            ["tf.placeholder"],
            ["import tensorflow as tf\n", GRAPH_LINE + "\n", "x = tf.compat.v1.placeholder(tf.float32)"],
        ],
    ),
    "source_as_one_string": (
        [code("import tensorflow as tf\nfrom tensorflow.contrib import rnn\n\nc = rnn.GRUCell(2)\n")],
        [keras("GRUCell") + ["import tensorflow as tf\n", "\n", "c = tf.compat.v1.nn.rnn_cell.GRUCell(2)\n"]],
    ),
}


def _convert(tmp_path, cells, name="in"):
    source = tmp_path / (name + ".ipynb")
    source.write_text(json.dumps(_notebook(cells), indent=1))
    out = tmp_path / (name + "_out.ipynb")
    result = upgrade.upgrade_file(str(source), str(out), target="modern")
    return result, json.loads(out.read_text()), out


@pytest.mark.parametrize("name", sorted(CASES))
def test_cells_get_their_converted_lines(tmp_path, name):
    cells, expected = CASES[name]
    result, after, out = _convert(tmp_path, cells)
    assert result.status == "converted" and not result.errors, (result.status, result.log)
    assert [cell["source"] for cell in after["cells"]] == expected
    assert [cell["cell_type"] for cell in after["cells"]] == [cell["cell_type"] for cell in cells]
    assert after["metadata"] == {"kernelspec": {"name": "python3"}}
    again = tmp_path / "again.ipynb"
    assert upgrade.upgrade_file(str(out), str(again), target="modern").status == "unchanged"
    assert again.read_bytes() == out.read_bytes()


def test_unchanged_notebook_is_left_byte_for_byte(tmp_path):
    result, _, out = _convert(tmp_path, [code("%matplotlib inline\nimport numpy as np\n"), code("")])
    assert result.status == "unchanged"
    assert out.read_bytes() == (tmp_path / "in.ipynb").read_bytes()


def test_log_lines_count_the_code_cells_lines(tmp_path):
    cells = [
        markdown("text\n"),
        code("import tensorflow as tf\nfrom tensorflow.contrib import rnn\n"),
        code("%matplotlib inline\nq = tf.contrib.model_pruning.get_masks()\n"),
    ]
    result, _, _ = _convert(tmp_path, cells)
    assert [(e.line, e.col) for e in result.errors] == [(4, 4)]
    assert "tensorflow-model-optimization" in result.errors[0].message


def test_a_cell_that_is_not_python_is_named(tmp_path):
    cells = [code("import tensorflow as tf\n"), markdown("m"), code("x = 1\ny = = 2\n")]
    result, after, _ = _convert(tmp_path, cells)
    assert result.status == "unchanged"  # the cell is kept as it is; the others convert (to themselves here)
    assert [(e.line, e.message) for e in result.errors] == [
        (
            3,
            "Could not parse cell 3 (its line 2, SyntaxError: invalid syntax), left unchanged: 'y = = 2'; the other "
            "cells were converted.",
        )
    ]
    assert after == _notebook(cells)


def test_code_that_pasta_cannot_read_is_an_error_not_a_crash(tmp_path):
    cells = [code("import tensorflow as tf\n"), code("a = [[0]]\nb = a[(1 - 1) * 2:3, 0]\n")]
    result, after, _ = _convert(tmp_path, cells)
    assert result.status == "unchanged" and after == _notebook(cells)  # the statement is kept, the rest converts
    assert [(e.line, e.message) for e in result.errors] == [
        (
            3,
            "Could not parse this line, left unchanged (pasta, the parser that keeps the formatting, cannot read "
            "it; rewrite it, e.g. a[(n - 1) * 2:n] as a[2 * (n - 1):n]): 'b = a[(1 - 1) * 2:3, 0]'; the rest of "
            "the file was converted.",
        )
    ]


def test_a_moved_cell_boundary_is_an_error_not_a_crash(monkeypatch, tmp_path):
    def drop_markers(text, *args, **kwargs):
        lines = [line for line in text.split("\n") if "_tf1clip_cell_" not in line]
        return upgrade.SourceResult("\n".join(lines), [], [])

    monkeypatch.setattr("tf1clip.upgrade._convert.upgrade_source", drop_markers)
    result, _, _ = _convert(tmp_path, [code("x = 1\n"), code("y = 2\n")])
    assert result.status == "failed"
    assert "did not keep the cells apart (0 of 2 cell boundaries were found)" in result.errors[0].message


def test_markers_never_collide_with_the_notebook():
    cells = _notebook([code(["_tf1clip_cell_0 = _tf1clip_magic_1 = 1\n"]), code(["%time y = 2"])])
    joined = _notebook_code(cells)
    assert "_tf1clip_cell_2(1)" in joined.code.split("\n")
    assert joined.apply(joined.code)["cells"] == cells["cells"]


def _notebook_code(notebook):
    return NotebookCode(json.loads(json.dumps(notebook)))


# An LSTM trained two steps, in the cell layout of a 2018 tutorial notebook.
LSTM_NOTEBOOK = [
    markdown(["# An LSTM in a notebook (TF 1.15)\n", "Two steps of gradient descent."]),
    code(["%matplotlib inline\n", "import json\n", "import numpy as np\n", "import tensorflow as tf\n"]),
    code(["from tensorflow.contrib import rnn"]),
    code(["!pip install --quiet nothing-at-all \\\n", "    --no-deps\n"]),
    code([]),
    code(
        [
            "x = tf.placeholder(tf.float32, [None, 4, 3])\n",
            "y = tf.placeholder(tf.float32, [None, 2])\n",
            "kernel = np.linspace(-0.3, 0.3, 8 * 20).reshape(8, 20).astype(np.float32)\n",
            "with tf.variable_scope('lstm', initializer=tf.constant_initializer(kernel)):\n",
            "    outputs, state = tf.nn.dynamic_rnn(rnn.BasicLSTMCell(5), x, dtype=tf.float32)\n",
            "w = tf.get_variable('w', [5, 2], initializer=tf.constant_initializer(0.1))\n",
            "loss = tf.reduce_mean(tf.square(tf.matmul(outputs[:, -1], w) - y))\n",
            "train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)\n",
        ]
    ),
    code(
        [
            "rng = np.random.RandomState(0)\n",
            "xs, ys = rng.randn(6, 4, 3).astype(np.float32), rng.randn(6, 2).astype(np.float32)\n",
            "losses = []\n",
            "with tf.Session() as sess:\n",
            "    sess.run(tf.global_variables_initializer())\n",
            "    for step in range(2):\n",
            "        !echo step {step}\n",
            "        losses.append(float(sess.run([train_op, loss], {x: xs, y: ys})[1]))\n",
            "    names = sorted(v.op.name for v in tf.global_variables())\n",
        ]
    ),
    code(["%%time\n", "print('RESULT ' + json.dumps({'losses': losses, 'names': names}))"]),
]
# The notebook's cells run in order on TensorFlow 1.15.5 (by RUNNER, magic lines as ``pass``).
TF115_LOSSES = [0.8314244151115417, 0.8062291741371155]
TF115_NAMES = ["lstm/rnn/basic_lstm_cell/bias", "lstm/rnn/basic_lstm_cell/kernel", "w"]

# Runs a notebook's code cells in order in one namespace, as a kernel would; IPython lines become ``pass``.
RUNNER = r"""
import json, os, re, sys
os.environ.pop("TF_USE_LEGACY_KERAS", None)
magic = re.compile(r"^(\s*)(?:[%!?]|[A-Za-z_][\w.]*\s*=\s*[!%])")
namespace = {"__name__": "__main__"}
for cell in json.load(open(sys.argv[1]))["cells"]:
    source = "".join(cell["source"])
    if cell["cell_type"] != "code" or source.startswith("%%bash"):
        continue
    lines, continued, indent = [], False, ""
    for line in source.split("\n"):
        if line.startswith("%%"):
            line = ""
        elif continued or magic.match(line):
            indent = indent if continued else re.match(r"\s*", line).group(0)
            continued = line.rstrip().endswith("\\")
            line = indent + "pass"
        lines.append(line)
    exec(compile("\n".join(lines), "cell", "exec"), namespace)
"""


def _run_cells(path):
    env = {k: v for k, v in os.environ.items() if k not in ("TF_USE_LEGACY_KERAS",)}
    env.update(PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(path)], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    return json.loads(lines[-1][len("RESULT ") :])


def test_converted_lstm_notebook_runs_and_gives_tf115_numbers(tmp_path):
    result, after, out = _convert(tmp_path, LSTM_NOTEBOOK, "lstm")
    assert result.status == "converted" and not result.errors, result.log
    assert after["cells"][2]["source"] == []  # the deleted import
    assert after["cells"][3]["source"] == LSTM_NOTEBOOK[3]["source"]
    values = _run_cells(out)
    assert values["names"] == TF115_NAMES
    assert values["losses"] == pytest.approx(TF115_LOSSES, rel=1e-5)
