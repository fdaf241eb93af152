"""scripts/port_tf115_tests.py: each mechanical edit of its table on sample lines of TF 1.15's contrib.opt tests."""

import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("port_tf115_tests", os.path.join(ROOT, "scripts", "port_tf115_tests.py"))
port_tf115_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(port_tf115_tests)

HEADER = "import tensorflow as _tf1clip_tf\n_tf1clip_tf.compat.v1.disable_v2_behavior()\n"


@pytest.mark.parametrize(
    "line, ported",
    [
        (
            "from tensorflow.contrib.opt.python.training import lazy_adam_optimizer as lazy",
            "from tf1clip.contrib import opt as lazy",
        ),
        (
            "from tensorflow.contrib.opt.python.training import shampoo",
            "from tf1clip.contrib import opt as shampoo",
        ),
        (
            "from tensorflow.contrib.opt.python.training.nadam_optimizer import NadamOptimizer",
            "from tf1clip.contrib.opt import NadamOptimizer",
        ),
        (
            "from tensorflow.contrib.opt.python.training.agn_optimizer import GLOBAL_VARIABLE_NAME",
            "from tf1clip.contrib.opt.agn_optimizer import GLOBAL_VARIABLE_NAME",
        ),
        ("from tensorflow.contrib.opt import AdamWOptimizer", "from tf1clip.contrib.opt import AdamWOptimizer"),
        ("import tensorflow as tf", "import tensorflow.compat.v1 as tf"),
        ("g = ops.IndexedSlices(v, [0])", "g = _tf1clip_tf.IndexedSlices(v, [0])"),
        ("v = variables.VariableV1([1.0])", "v = _tf1clip_tf.compat.v1.Variable([1.0])"),
        ("v = variables.RefVariable([1.0])", "v = _tf1clip_tf.compat.v1.Variable([1.0])"),
        ("v = variables.Variable([1.0])", "v = variables.Variable([1.0])"),
        (
            "@test_util.run_in_graph_and_eager_modes(reset_test=True)",
            "@test_util.run_in_graph_and_eager_modes()",
        ),
        ("bounds = (-np.infty, np.infty_x)", "bounds = (-np.inf, np.infty_x)"),
    ],
)
def test_edit_table_rewrites_line(line, ported):
    text, report = port_tf115_tests.port("import os\n" + line + "\n")
    assert text == HEADER + "import os\n" + ported + "\n", text
    assert report[0] == ("header: disable_v2_behavior before the first import", 1)


def test_tf_contrib_opt_attribute_gets_import_after_header():
    source = '"""Doc."""\nfrom __future__ import division\nimport tensorflow as tf\nopt = tf.contrib.opt.VariableClippingOptimizer(sgd, {}, 2.0)\nx = tf.contrib.opt.X\n'
    text, report = port_tf115_tests.port(source)
    assert text == (
        '"""Doc."""\nfrom __future__ import division\n'
        + HEADER
        + "from tf1clip.contrib import opt as _tf1clip_contrib_opt\n"
        + "import tensorflow.compat.v1 as tf\n"
        + "opt = _tf1clip_contrib_opt.VariableClippingOptimizer(sgd, {}, 2.0)\nx = _tf1clip_contrib_opt.X\n"
    )
    assert report == [
        ("header: disable_v2_behavior before the first import", 1),
        ("tf -> tf.compat.v1", 1),
        ("tf.contrib.opt. -> tf1clip.contrib.opt", 2),
        ("header: import tf1clip.contrib.opt as _tf1clip_contrib_opt", 1),
    ]


def test_no_contrib_opt_attribute_no_extra_import():
    text, _ = port_tf115_tests.port("import numpy as np\nx = np.inf\n")
    assert text == HEADER + "import numpy as np\nx = np.inf\n"


def test_source_without_import_is_refused():
    with pytest.raises(ValueError, match="no import statement"):
        port_tf115_tests.port("x = 1\n")


def test_main_writes_ported_files_and_prints_edits(tmp_path, capsys):
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (src / "a_test.py").write_text("import numpy as np\nx = np.infty\n")
    (src / "helper.py").write_text("import os\n")
    assert port_tf115_tests.main([str(src), str(out)]) == 0
    assert sorted(os.listdir(out)) == ["a_test.py"]
    assert (out / "a_test.py").read_text() == HEADER + "import numpy as np\nx = np.inf\n"
    assert capsys.readouterr().out == (
        "a_test.py\n"
        "    1 x header: disable_v2_behavior before the first import\n"
        "    1 x np.infty -> np.inf (removed in NumPy 2)\n"
    )
