"""The contrib families of the sweep that are more than aliases: TF 1.0-1.4 rnn module paths, TF 1.2-1.3's
contrib Dataset, tf.contrib.distribute's strategies, tf.contrib.summary, and tf_upgrade_v2 renames to names TF 2
dropped (the oracle programs contrib_* give the numbers; a TF 1.0-1.4 spelling converts to exactly what its TF 1.15
spelling does, whose numbers those programs and tests/oracle/test_contrib_rnn.py prove)."""

import pytest

from tf1clip import upgrade
from tf1clip.contrib import _decisions
from tf1clip.upgrade import _contrib_names

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")


def _convert(source):
    result = upgrade.upgrade_source("import tensorflow as tf\n" + source + "\n", target="modern")
    return result.text, [e.message for e in result.log if e.severity == "ERROR"]


# TF 1.0-1.4 spelling -> the same program spelled as TF 1.15 had it
HISTORICAL = {
    "cell = tf.contrib.rnn.core_rnn_cell.BasicLSTMCell(4, state_is_tuple=True)": (
        "cell = tf.contrib.rnn.BasicLSTMCell(4, state_is_tuple=True)"
    ),
    "cell = tf.contrib.rnn.core_rnn_cell.DropoutWrapper(tf.contrib.rnn.core_rnn_cell.GRUCell(3), 0.5)": (
        "cell = tf.contrib.rnn.DropoutWrapper(tf.contrib.rnn.GRUCell(3), 0.5)"
    ),
    "cell = tf.contrib.rnn.core_rnn_cell.EmbeddingWrapper(cell, 10, 4)": (
        "cell = tf.contrib.rnn.EmbeddingWrapper(cell, 10, 4)"
    ),
    "from tensorflow.contrib.rnn.python.ops.core_rnn_cell_impl import LSTMCell\ncell = LSTMCell(5)": (
        "from tensorflow.contrib.rnn import LSTMCell\ncell = LSTMCell(5)"
    ),
    "from tensorflow.contrib.rnn.python.ops import core_rnn_cell_impl as impl\ncell = impl.MultiRNNCell(cells)": (
        "from tensorflow.contrib import rnn as impl\ncell = impl.MultiRNNCell(cells)"
    ),
    "from tensorflow.contrib.rnn.python.ops.core_rnn import static_rnn\nout = static_rnn(cell, xs, dtype=tf.float32)": (
        "from tensorflow.contrib.rnn import static_rnn\nout = static_rnn(cell, xs, dtype=tf.float32)"
    ),
    "rnn = tf.contrib.rnn\ncell = rnn.rnn_cell.BasicLSTMCell(4)\nstate = rnn.rnn_cell.LSTMStateTuple(c, h)": (
        "rnn = tf.contrib.rnn\ncell = rnn.BasicLSTMCell(4)\nstate = rnn.LSTMStateTuple(c, h)"
    ),
    "import tensorflow.contrib.rnn.python.ops.core_rnn_cell_impl as cells\ncell = cells.GRUCell(2)": (
        "import tensorflow.contrib.rnn as cells\ncell = cells.GRUCell(2)"
    ),
}


@pytest.mark.parametrize("old", sorted(HISTORICAL))
def test_a_tf10_module_path_converts_as_its_tf115_spelling(old):
    text, errors = _convert(old)
    assert errors == []
    assert text == _convert(HISTORICAL[old])[0]
    assert "contrib" not in text.replace("tf1clip.contrib", "")


def test_each_historical_module_names_where_its_names_went_and_a_source():
    for path, found in _contrib_names.HISTORICAL_MODULES.items():
        assert _contrib_names.listed_module(found.moved_to) == found.moved_to, path
        assert found.versions and found.source, path
        assert _contrib_names.listed_module(path) == found.moved_to


def test_tf12_contrib_dataset_and_its_map_keywords_become_tf14s():
    text, errors = _convert(
        "from tensorflow.contrib.data import Dataset\n"
        "d = Dataset.from_tensor_slices(xs).map(parse, num_threads=4, output_buffer_size=16)\n"
        "e = tf.contrib.data.Dataset.range(3).map(f, num_threads=2).batch(2)"
    )
    assert errors == []
    assert "d = tf.compat.v1.data.Dataset.from_tensor_slices(xs).map(parse, num_parallel_calls=4).prefetch(16)" in text
    assert "e = tf.compat.v1.data.Dataset.range(3).map(f, num_parallel_calls=2).batch(2)" in text


def test_another_map_is_left_alone():
    text, _ = _convert("y = series.map(f, na_action='ignore')\nz = d.map(f, num_parallel_calls=2)")
    assert "y = series.map(f, na_action='ignore')\nz = d.map(f, num_parallel_calls=2)" in text


@pytest.mark.parametrize(
    "call,expected",
    [
        ("MirroredStrategy(num_gpus=0)", 'MirroredStrategy(devices=["/device:CPU:0"])'),
        ("MirroredStrategy(num_gpus=2)", 'MirroredStrategy(devices=["/device:GPU:0", "/device:GPU:1"])'),
        ("MirroredStrategy(num_gpus_per_worker=1)", 'MirroredStrategy(devices=["/device:GPU:0"])'),
        (
            "MirroredStrategy(num_gpus=FLAGS.num_gpus, cross_tower_ops=ops)",
            'MirroredStrategy(devices=["/device:GPU:%d" % i for i in range(FLAGS.num_gpus)] or ["/device:CPU:0"], '
            "cross_device_ops=ops)",
        ),
        ("MirroredStrategy(None, 2)", 'MirroredStrategy(devices=["/device:GPU:0", "/device:GPU:1"])'),
        ("MirroredStrategy()", "MirroredStrategy()"),
        ("OneDeviceStrategy('/gpu:0')", "OneDeviceStrategy('/gpu:0')"),
    ],
)
def test_contrib_strategies_become_tf_compat_v1_distribute_with_tf115s_devices(call, expected):
    text, errors = _convert("s = tf.contrib.distribute." + call)
    assert errors == []
    assert "s = tf.compat.v1.distribute." + expected in text


def test_a_strategy_argument_without_counterpart_is_an_error():
    text, errors = _convert("s = tf.contrib.distribute.MirroredStrategy(num_gpus=2, auto_shard_dataset=True)")
    assert len(errors) == 1 and "auto_shard_dataset" in errors[0] and "(install: nothing" in errors[0]
    assert "tf.contrib.distribute.MirroredStrategy(num_gpus=2, auto_shard_dataset=True)" in text


_RAW = "tf.compat.v2.summary.experimental.write_raw_pb(tf.compat.v1.summary."
_GLOBAL_STEP = "step=tf.compat.v1.train.get_or_create_global_step())"


def test_contrib_summary_writers_become_tf115s_ops_written_to_the_default_writer():
    text, errors = _convert(
        "w = tf.contrib.summary.create_file_writer('logs')\n"
        "with w.as_default(), tf.contrib.summary.record_summaries_every_n_global_steps(10, step):\n"
        "    tf.contrib.summary.scalar('loss', loss)\n"
        "    tf.contrib.summary.histogram('w', weights, 'params', step)\n"
        "    tf.contrib.summary.image('x', images, max_images=2, family='input')\n"
        "    tf.contrib.summary.audio('a', wav, 16000, 1)\n"
        "ops = tf.contrib.summary.all_summary_ops()"
    )
    assert errors == []
    assert "tf.compat.v2.summary.create_file_writer(logdir='logs')" in text
    assert "tf.compat.v2.summary.record_if(tf.math.equal(step % 10, 0))" in text
    assert _RAW + "scalar('loss', loss, collections=[]), " + _GLOBAL_STEP in text
    assert _RAW + "histogram('w', weights, family='params', collections=[]), step=step)" in text
    assert _RAW + "image('x', images, max_outputs=2, family='input', collections=[]), " + _GLOBAL_STEP in text
    assert _RAW + "audio('a', wav, 16000, max_outputs=1, collections=[]), " + _GLOBAL_STEP in text
    assert "ops = tf.compat.v1.summary.all_v2_summary_ops()" in text


def test_contrib_summary_without_an_equivalent_is_an_error_naming_why():
    text, errors = _convert(
        "tf.contrib.summary.generic('g', t, metadata=m)\ntf.contrib.summary.image('x', images, bad_color=red)"
    )
    assert "tf.contrib.summary.generic('g', t, metadata=m)" in text
    assert len(errors) == 2
    assert "takes the tag as given" in errors[0] and "(install: nothing, it is part of TensorFlow 2)" in errors[0]
    assert "no bad_color" in errors[1]


def test_record_every_n_without_a_step_uses_the_global_step():
    text, errors = _convert("with tf.contrib.summary.record_summaries_every_n_global_steps(n=5):\n    pass")
    assert errors == []
    assert (
        "with tf.compat.v2.summary.record_if(tf.math.equal(tf.compat.v1.train.get_or_create_global_step() % 5, 0)):"
        in text
    )


def test_a_rename_to_a_name_tensorflow_2_dropped_goes_to_the_listings_core_name_or_is_an_error():
    text, errors = _convert("r = tf.contrib.cluster_resolver.UnionClusterResolver(a, b)")
    assert errors == [] and "r = tf.distribute.cluster_resolver.UnionResolver(a, b)" in text  # TF 1.15's object
    text, errors = _convert("tf.contrib.saved_model.save_keras_model(model, path)")
    assert "tf.contrib.saved_model.save_keras_model(model, path)" in text
    assert len(errors) == 1
    assert "tf.keras.models.save_model / load_model (install: nothing, it is part of TensorFlow 2)" in errors[0]
    assert "tf_upgrade_v2's name for it, tf.compat.v1.keras.experimental.export_saved_model, is not in" in errors[0]


@pytest.mark.parametrize(
    "path,clause",
    [
        ("tf.contrib.distributions.Autoregressive", "(install: python3 -m pip install tensorflow-probability)"),
        ("tf.contrib.timeseries.ARRegressor", "has no maintained successor: keep this program on TensorFlow 1.15"),
        ("tf.contrib.timeseries.ARRegressor", "(install: python3.7 -m pip install tensorflow==1.15.5 keeps"),
        ("tf.contrib.tensor_forest.python.tensor_forest.ForestHParams", "tensorflow-decision-forests"),
        ("tf.contrib.factorization.WALSModel", "'tf1clip[estimator]'"),
        ("tf.contrib.graph_editor.reroute_ts", "no maintained successor"),
        ("tf.contrib.image.single_image_random_dot_stereograms", "no maintained successor"),
        (
            "tf.contrib.model_pruning.apply_mask",
            "(install: python3 -m pip install tensorflow-model-optimization)",
        ),
    ],
)
def test_an_unconverted_name_names_its_modules_successor_and_install_line(path, clause):
    _, errors = _convert("x = " + path)
    assert len(errors) == 1 and clause in errors[0], errors
    assert _decisions.successor(path) in errors[0]
