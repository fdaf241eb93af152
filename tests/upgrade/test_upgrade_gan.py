"""tf1clip-upgrade routes tf.contrib.gan (to TF-GAN), HParams and tfprof in every spelling; contrib.learn.models
and quantize stay ERRORs (the rest of contrib.learn is tf1clip.contrib.learn's: tests/subprocess/test_contrib_learn.py)."""

import importlib
import importlib.util

import pytest

from helpers import upgrade
from helpers import upgrade_issues
from tf1clip.upgrade import _gan_names
from tf1clip.upgrade import _tables
from tf1clip.upgrade import upgrade_source

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

GAN_INFO = "pip install 'tf1clip[gan]'"


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "import tensorflow as tf\ntfgan = tf.contrib.gan\nm = tfgan.gan_model(g, d, x, z)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\n"
            "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior\n"
            "tfgan = tf1clip.contrib.gan\nm = tfgan.gan_model(g, d, x, z)\n",
        ),
        (
            "import tensorflow as tf\nl = tf.contrib.gan.losses.wargs.wasserstein_generator_loss(x)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\n"
            "l = tf1clip.contrib.gan.losses.wargs.wasserstein_generator_loss(x)\n",
        ),
        (
            "import tensorflow.contrib.gan as tfgan\ns = tfgan.GANTrainSteps(1, 3)\n",
            "import tf1clip.contrib.gan as tfgan\ns = tfgan.GANTrainSteps(1, 3)\n",
        ),
        (
            "from tensorflow.contrib.gan import gan_train, get_sequential_train_hooks\n",
            "from tf1clip.contrib.gan import gan_train, get_sequential_train_hooks\n",
        ),
        (
            "from tensorflow.contrib.gan.python.losses.python import losses_impl as tfgan_losses\n",
            "from tf1clip.contrib.gan.losses import wargs as tfgan_losses\n",
        ),
        (
            "from tensorflow.contrib.gan.python.eval.python import summaries\n",
            "from tf1clip.contrib.gan import eval as summaries\n",
        ),
        (
            "from tensorflow.contrib.gan.python.train import RunTrainOpsHook\n",
            "from tf1clip.contrib.gan import RunTrainOpsHook\n",
        ),
    ],
)
def test_gan_every_spelling_with_one_info_line(before, after):
    result = upgrade_source(before)
    assert result.text == after
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert sum(GAN_INFO in e.message for e in result.log) == 1


def test_gan_name_table_targets_exist_and_match_installed_tf_gan():
    for contrib, namespace in _tables.GAN_MODULES.items():
        assert namespace in _gan_names.NAMES, contrib
    if importlib.util.find_spec("tensorflow_gan") is None:
        pytest.skip("tensorflow-gan is not installed")
    from tf1clip.compat import _gan

    _gan.apply()
    assert set(_gan_names.NAMES) == set(_gan.DELEGATES)
    for namespace, names in _gan_names.NAMES.items():
        module = importlib.import_module(_gan.DELEGATES[namespace])
        assert set(names) == {n for n in getattr(module, "__all__", dir(module)) if not n.startswith("_")}, namespace


def test_unknown_gan_name_is_an_error_saying_tf_gan_lacks_it():
    errors = upgrade_issues(upgrade("import tensorflow as tf\nx = tf.contrib.gan.no_such_thing(1)\n"))
    assert len(errors) == 1 and "TF-GAN 2.1.0 (tensorflow_gan)" in errors[0][1]


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "import tensorflow as tf\nhp = tf.contrib.training.HParams(lr=0.1)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nhp = tf1clip.contrib.training.HParams(lr=0.1)\n",
        ),
        (
            "from tensorflow.contrib.training import HParams\n",
            "from tf1clip.contrib.training import HParams\n",
        ),
        (
            "from tensorflow.contrib.training.python.training.hparam import HParams\n",
            "from tf1clip.contrib.training import HParams\n",
        ),
        (
            "from tensorflow.contrib import training as contrib_training\nhp = contrib_training.HParams(a=1)\n",
            "from tf1clip.contrib import training as contrib_training\nhp = contrib_training.HParams(a=1)\n",
        ),
        (
            "import tensorflow as tf\ns = tf.contrib.tfprof.model_analyzer.print_model_analysis(\n"
            "    tf.get_default_graph(), tfprof_options=tf.contrib.tfprof.model_analyzer.FLOAT_OPS_OPTIONS)\n",
            "import tensorflow as tf\nimport tf1clip.contrib.tfprof\n"
            "s = tf1clip.contrib.tfprof.model_analyzer.print_model_analysis(\n"
            "    tf.compat.v1.get_default_graph(), tfprof_options=tf1clip.contrib.tfprof.model_analyzer.FLOAT_OPS_OPTIONS)\n",
        ),
        (
            "from tensorflow.contrib.tfprof import model_analyzer\n",
            "from tf1clip.contrib.tfprof import model_analyzer\n",
        ),
        (
            "from tensorflow.contrib import tfprof as contrib_tfprof\n"
            "contrib_tfprof.tfprof_logger.write_op_log(g, d)\n",
            "from tf1clip.contrib import tfprof as contrib_tfprof\ncontrib_tfprof.tfprof_logger.write_op_log(g, d)\n",
        ),
    ],
)
def test_hparams_and_tfprof_every_spelling_without_issues(before, after):
    result = upgrade_source(before)
    assert result.text == after
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert not any("pip install" in e.message for e in result.log)


def test_upgraded_tfprof_and_hparams_targets_import():
    for module in ("tf1clip.contrib.tfprof.model_analyzer", "tf1clip.contrib.tfprof.tfprof_logger"):
        importlib.import_module(module)
    for contrib in ("tf.contrib.tfprof", "tf.contrib.tfprof.model_analyzer", "tf.contrib.tfprof.tfprof_logger"):
        module, names = _tables.own()[contrib]
        target = importlib.import_module(module)
        assert all(hasattr(target, n) for n in names), contrib


def test_learn_models_stay_errors_naming_the_replacement_and_quantize_converts():
    # tf.contrib.learn's Estimator, canned estimators and models.logistic_regression are tf1clip.contrib.learn's
    # (tests/subprocess/test_contrib_learn.py); get_rnn_model is not.
    result = upgrade(
        """\
        import tensorflow as tf
        m = tf.contrib.learn.models.get_rnn_model(8, "lstm", 1, f, False, g, None, None, None, None, None)
        tf.contrib.quantize.create_training_graph(quant_delay=100)
        """
    )
    errors = upgrade_issues(result)
    assert [line for line, _ in errors] == [2]
    assert "re-creates linear_regression and logistic_regression" in errors[0][1]
    assert "get_rnn_model's network with tf.compat.v1.nn.rnn_cell or tf.keras" in errors[0][1]
    assert "tf1clip.contrib.quantize.create_training_graph(quant_delay=100)" in result.text
