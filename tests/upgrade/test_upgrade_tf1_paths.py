"""tf1clip-upgrade on TF 1 import paths: tensorflow.examples.tutorials.mnist, tensorflow.python.estimator, and the
other tensorflow.python / tensorflow.examples imports, checked on the installed TensorFlow."""

import pytest
import tensorflow as tf

from tf1clip import upgrade

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

TF = "%d.%d" % tuple(int(p) for p in tf.__version__.split(".")[:2])

# (source line(s), target) -> the converted line(s)
CONVERTED = [
    (
        "from tensorflow.examples.tutorials.mnist import input_data",
        "modern",
        "from tf1clip.examples.tutorials.mnist import input_data",
    ),
    (
        "import tensorflow.examples.tutorials.mnist.input_data as input_data",
        "modern",
        "import tf1clip.examples.tutorials.mnist.input_data as input_data",
    ),
    (
        "from tensorflow.examples.tutorials.mnist.input_data import read_data_sets as rds",
        "estimator",
        "from tf1clip.examples.tutorials.mnist.input_data import read_data_sets as rds",
    ),
    (
        "import tensorflow.examples.tutorials.mnist.input_data\n"
        "d = tensorflow.examples.tutorials.mnist.input_data.read_data_sets('/tmp/m')",
        "modern",
        "import tf1clip.examples.tutorials.mnist.input_data\n"
        "d = tf1clip.examples.tutorials.mnist.input_data.read_data_sets('/tmp/m')",
    ),
    (
        "from tensorflow.python.estimator.model_fn import ModeKeys, EstimatorSpec as Spec",
        "modern",
        "from tf1clip.estimator import ModeKeys, EstimatorSpec as Spec",
    ),
    (
        "from tensorflow.python.estimator.export.export_output import PredictOutput\n"
        "from tensorflow.python.estimator.estimator import Estimator",
        "modern",
        "import tf1clip.estimator\nPredictOutput = tf1clip.estimator.export.PredictOutput\n"
        "from tf1clip.estimator import Estimator",
    ),
    (
        "from tensorflow.python.estimator import estimator as estimator_lib\n"
        "from tensorflow.python.estimator.export import export_output\n"
        "import tensorflow.python.estimator.run_config as run_config_lib\n"
        "e = estimator_lib.Estimator(model_fn, config=run_config_lib.RunConfig())\n"
        "o = export_output.PredictOutput({})",
        "modern",
        "import tf1clip.estimator\n"
        "e = tf1clip.estimator.Estimator(model_fn, config=tf1clip.estimator.RunConfig())\n"
        "o = tf1clip.estimator.export.PredictOutput({})",
    ),
    (
        "from tensorflow.python.estimator.model_fn import ModeKeys\n"
        "import tensorflow.python.estimator.run_config as rc",
        "estimator",
        "from tensorflow_estimator.python.estimator.model_fn import ModeKeys\n"
        "import tensorflow_estimator.python.estimator.run_config as rc",
    ),
    (
        "from tensorflow.python.ops import rnn_cell_impl\nfrom tensorflow.python.training import moving_averages",
        "modern",
        "from tensorflow.python.ops import rnn_cell_impl\nfrom tensorflow.python.training import moving_averages",
    ),
]


def _convert(source, target):
    return upgrade.upgrade_source("import tensorflow as tf\n" + source + "\n", target=target)


def _body(text):
    lines = text.split("\n")
    start = lines.index("import tensorflow as tf") + 1
    return "\n".join(line for line in lines[start:] if line)


@pytest.mark.parametrize("source, target, expected", CONVERTED)
def test_tf1_import_paths_are_converted(source, target, expected):
    result = _convert(source, target)
    assert [e for e in result.log if e.severity != "INFO"] == []
    assert _body(result.text) == expected


# source line -> what its ERROR says
ERRORS = {
    "from tensorflow.examples.tutorials.mnist import mnist": "from tensorflow.examples.tutorials.mnist import mnist "
    "fails on TensorFlow %s (ModuleNotFoundError: No module named 'tensorflow.examples'): tensorflow.python and "
    "tensorflow.examples are not TensorFlow's API; tf1clip re-creates only "
    "tensorflow.examples.tutorials.mnist.input_data." % TF,
    "from tensorflow.python.framework.ops import Tensor": "from tensorflow.python.framework.ops import Tensor fails "
    "on TensorFlow %s (tensorflow.python.framework.ops has no Tensor): tensorflow.python and tensorflow.examples are "
    "not TensorFlow's API; the public name is tf.compat.v1.Tensor." % TF,
    "from tensorflow.python.ops.rnn_cell_impl import _linear": "from tensorflow.python.ops.rnn_cell_impl import "
    "_linear fails on TensorFlow %s (tensorflow.python.ops.rnn_cell_impl has no _linear): tensorflow.python and "
    "tensorflow.examples are not TensorFlow's API; no public TensorFlow name is '_linear': use the public "
    "tf.compat.v1 API or port the code." % TF,
    "import tensorflow.python.no_such_module as m": "import tensorflow.python.no_such_module fails on TensorFlow %s "
    "(ModuleNotFoundError: No module named 'tensorflow.python.no_such_module'): tensorflow.python and "
    "tensorflow.examples are not TensorFlow's API; no public TensorFlow name is 'no_such_module': use the public "
    "tf.compat.v1 API or port the code." % TF,
    "from tensorflow.python.estimator.canned.head import _Head": "from tensorflow.python.estimator.canned.head import "
    "_Head fails on TensorFlow 2: tensorflow.python.estimator.canned.head was TF 1.15's copy of "
    "tensorflow_estimator.python.estimator.canned.head, a private module of tensorflow-estimator, and "
    "tf1clip.estimator (tf.compat.v1.estimator's public names) has no such name; port the code to public names",
}


@pytest.mark.parametrize("source", sorted(ERRORS))
def test_tf1_import_paths_that_fail_are_errors(source):
    result = _convert(source, "modern")
    assert [(e.severity, e.line, e.message) for e in result.log if e.severity != "INFO"] == [
        ("ERROR", 2, ERRORS[source])
    ]
    assert _body(result.text) == source


def test_a_private_use_of_an_estimator_module_keeps_the_import():
    source = (
        "from tensorflow.python.estimator.canned import head as head_lib\nh = head_lib._Head\nm = head_lib.ModeKeys"
    )
    result = _convert(source, "modern")
    errors = [(e.line, e.message.split(" fails")[0]) for e in result.log if e.severity != "INFO"]
    assert errors == [(2, "from tensorflow.python.estimator.canned import head"), (3, "head_lib._Head")]
    assert _body(result.text) == source


def test_converted_mnist_spellings_bind_tf1clips_module():
    from tf1clip.examples.tutorials.mnist import input_data

    namespace = {}
    text = _convert(CONVERTED[0][0] + "\n" + CONVERTED[1][0].replace("as input_data", "as second"), "modern").text
    exec(compile(text, "converted", "exec"), namespace)
    assert namespace["input_data"] is input_data and namespace["second"] is input_data
