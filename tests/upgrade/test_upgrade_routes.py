"""tf1clip-upgrade's routes for tf.contrib.lookup, data, distribute, framework.python.ops and a run-time
getattr on tf.contrib.opt, in every spelling; and the report's install line."""

import pytest

from tf1clip import upgrade
from tf1clip.upgrade import _results

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

# (TF 1 source lines after ``import tensorflow as tf``) -> the converted lines
CONVERTED = [
    (
        "t = tf.contrib.lookup.index_table_from_tensor(mapping=['a'], num_oov_buckets=1)",
        "t = tf1clip.contrib.lookup.index_table_from_tensor(mapping=['a'], num_oov_buckets=1)",
    ),
    (
        "from tensorflow.contrib.lookup import index_to_string_table_from_file as f\nt = f('v.txt')",
        "from tf1clip.contrib.lookup import index_to_string_table_from_file as f\nt = f('v.txt')",
    ),
    (
        "from tensorflow.contrib import lookup\nh = lookup.HashTable(lookup.KeyValueTensorInitializer(['a'], [1]), -1)",
        "from tf1clip.contrib import lookup\nh = lookup.HashTable(lookup.KeyValueTensorInitializer(['a'], [1]), -1)",
    ),
    (
        "from tensorflow.contrib.lookup.lookup_ops import MutableHashTable",
        "from tf1clip.contrib.lookup import MutableHashTable",
    ),
    (
        "d = tf.data.Dataset.range(5).apply(tf.contrib.data.batch_and_drop_remainder(2))\n"
        "d = d.apply(tf.contrib.data.map_and_batch(f, 2)).apply(tf.contrib.data.shuffle_and_repeat(3))",
        "d = tf.data.Dataset.range(5).apply(tf1clip.contrib.data.batch_and_drop_remainder(2))\n"
        "d = d.apply(tf.data.experimental.map_and_batch(f, 2)).apply(tf.data.experimental.shuffle_and_repeat(3))",
    ),
    (
        "from tensorflow.contrib.data import Iterator, map_and_batch, sliding_window_batch\n"
        "it = Iterator.from_structure(d.output_types)\nd = d.apply(map_and_batch(f, 2)).apply(sliding_window_batch(2))",
        "from tf1clip.contrib.data import sliding_window_batch\n"
        "it = tf.compat.v1.data.Iterator.from_structure(tf.compat.v1.data.get_output_types(d))\n"
        "d = d.apply(tf.data.experimental.map_and_batch(f, 2)).apply(sliding_window_batch(2))",
    ),
    (
        "from tensorflow.contrib.data.python.ops import batching\n"
        "from tensorflow.contrib.data.python.ops.interleave_ops import parallel_interleave\n"
        "d = d.apply(batching.map_and_batch(f, 2)).apply(parallel_interleave(g, 2))\n"
        "d = d.apply(tf.contrib.data.prefetch_to_device('/cpu:0'))",
        "from tf1clip.contrib import data as batching\n"
        "d = d.apply(tf.data.experimental.map_and_batch(f, 2)).apply(tf.data.experimental.parallel_interleave(g, 2))\n"
        "d = d.apply(tf.data.experimental.prefetch_to_device('/cpu:0'))",
    ),
    (
        "from tensorflow.contrib.framework.python.ops import arg_scope, add_arg_scope\n"
        "from tensorflow.contrib.framework.python.ops.arg_scope import arg_scoped_arguments\n"
        "from tensorflow.contrib.framework.python.ops import variables as variables_lib",
        "from tf1clip.contrib.framework import arg_scope, add_arg_scope\n"
        "from tf1clip.contrib.framework import arg_scoped_arguments\n"
        "from tf1clip.contrib import framework as variables_lib",
    ),
    (
        "def make(name):\n    return getattr(tf.contrib.opt, name)(0.1)",
        "def make(name):\n    return getattr(tf1clip.contrib.opt, name)(0.1)",
    ),
]


def _body(text):
    lines = [line for line in text.split("\n") if line]
    return "\n".join(lines[lines.index("import tensorflow as tf") + 1 :]).replace(
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior\n", ""
    )


@pytest.mark.parametrize("source, expected", CONVERTED)
def test_routes_convert_every_spelling(source, expected):
    result = upgrade.upgrade_source("import tensorflow as tf\n" + source + "\n", target="modern")
    assert [e for e in result.log if e.severity != "INFO"] == []
    assert _body(result.text).replace("import tf1clip.contrib\n", "") == expected


def test_contrib_distribute_strategies_go_to_tf_compat_v1_distribute():
    """TF 1.15's contrib strategies were v1 strategies (make_dataset_iterator, experimental_run): tf.compat.v1's
    keep those methods, so no manual check is left (tests/subprocess/test_upgrade_distribute.py runs them)."""
    result = upgrade.upgrade_source(
        "import tensorflow as tf\ns = tf.contrib.distribute.MirroredStrategy(['/cpu:0'])\n"
        "o = tf.contrib.distribute.OneDeviceStrategy('/cpu:0')\n",
        target="modern",
    )
    assert "s = tf.compat.v1.distribute.MirroredStrategy(devices=['/cpu:0'])" in result.text
    assert "o = tf.compat.v1.distribute.OneDeviceStrategy('/cpu:0')" in result.text
    assert [e for e in result.log if e.severity == "ERROR"] == []


def test_unknown_contrib_data_name_names_the_successor():
    result = upgrade.upgrade_source("import tensorflow as tf\nx = tf.contrib.data.LMDBDataset(f)\n", target="modern")
    assert [e.message for e in result.log if e.severity == "ERROR"] == [
        "tf.contrib.data.LMDBDataset cannot be converted automatically: tf.contrib is not part of TensorFlow 2 and "
        "tf1clip does not provide it; tf.data.experimental and tf1clip.contrib.data have no such name; use tf.data "
        "(install: nothing; tf1clip has no such name)."
    ]


def test_a_name_a_tf1clip_module_lacks_asks_for_no_install():
    slim = upgrade.upgrade_source("import tensorflow as tf\nx = tf.contrib.slim.no_such_layer\n", target="modern")
    rnn = upgrade.upgrade_source("import tensorflow as tf\nx = tf.contrib.rnn.NTMCell(3)\n", target="modern")
    (slim_error,) = [e.message for e in slim.log if e.severity == "ERROR"]
    (rnn_error,) = [e.message for e in rnn.log if e.severity == "ERROR"]
    assert slim_error.endswith("(install: nothing; neither tf1clip nor tf1clip[slim] adds this name).")
    assert rnn_error.endswith("(install: nothing; tf1clip has no such name).")


# converted text, log, added lines -> what it needs installed
NEEDS = [
    ("import numpy\n", [], [], []),
    ("import tf1clip.contrib\nx = tf1clip.contrib.lookup.HashTable\n", [], [], ["tf1clip"]),
    ("from tf1clip.contrib import rnn\n", [], ['os.environ["TF_USE_LEGACY_KERAS"] = "1"'], ["tf-keras", "tf1clip"]),
    ("import tf1clip.estimator\n", [], [], ["estimator", "tf1clip"]),
    ("h = tf1clip.contrib.estimator.regression_head()\n", [], [], ["estimator", "tf1clip"]),
    (
        "from tf1clip.contrib import slim\n",
        [_results.LogEntry("INFO", 1, 0, "... pip install 'tf1clip[slim]'.")],
        [],
        ["slim", "tf1clip"],
    ),
]


@pytest.mark.parametrize("text, log, added, expected", NEEDS)
def test_needs_of_converted_code(text, log, added, expected):
    assert _results.needs_of(text, log, added) == expected


def test_report_ends_with_the_install_line(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.py").write_text(
        "import tensorflow as tf\nfrom tensorflow.contrib import slim\nn = slim.fully_connected(x, 2)\nc = tf.contrib.rnn.GRUCell(2)\n"
    )
    (tmp_path / "in" / "b.py").write_text("import tensorflow as tf\ne = tf.estimator.Estimator(model_fn)\n")
    upgrade.main(
        [
            "--intree",
            str(tmp_path / "in"),
            "--outtree",
            str(tmp_path / "out"),
            "--reportfile",
            str(tmp_path / "r.txt"),
            "--target",
            "modern",
        ]
    )
    printed = capsys.readouterr().out
    report = printed.split("Make sure to read the detailed log")[0].rstrip("\n-").split("\n")
    assert report[-2:] == [
        "Install what the converted code needs:",
        "  python3 -m pip install 'tf1clip[estimator,slim]' && python3 -m tf1clip.install_extras legacy-keras",
    ]


def test_dataset_properties_become_tf_compat_v1_data_functions():
    source = (
        "import tensorflow as tf\nds = tf.data.Dataset.range(3)\n"
        "it = tf.data.Iterator.from_structure(ds.output_types, ds.apply(f).output_shapes)\nc = it.output_classes\n"
    )
    text = upgrade.upgrade_source(source, target="modern").text
    assert (
        "it = tf.compat.v1.data.Iterator.from_structure(tf.compat.v1.data.get_output_types(ds), "
        "tf.compat.v1.data.get_output_shapes(ds.apply(f)))\nc = tf.compat.v1.data.get_output_classes(it)\n"
    ) in text
    unrelated = "import numpy as np\nshape = model.output_shapes\n"
    assert upgrade.upgrade_source(unrelated, target="modern").text == unrelated
