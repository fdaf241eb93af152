"""tf1clip-upgrade on files it can read only in part, and on statements a rule removes from a line shared with others.

A statement that does not parse (a Python 2 leftover 2to3 cannot read either, an IPython line in a .py export, a
merge-conflict marker, syntax pasta cannot read) is kept as it is and reported as an ERROR at its line; everything
else in the file is converted, with the report's line numbers the input's. A notebook cell that does not parse is
kept as it is and reported; the other cells are converted.
"""

import json
import textwrap

import pytest

from tf1clip import upgrade

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

KERAS = (
    'import os\nos.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf1clip-upgrade: tf.compat.v1.nn.rnn_cell.LSTMCell needs '
    "Keras 2 (tf-keras)\n"
)


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
