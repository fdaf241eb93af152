"""tf1clip-upgrade rewrites every spelling of the contrib.opt wrappers, distributed and SciPy names."""

import importlib

import pytest

from helpers import upgrade_issues
from tf1clip.contrib import _manifest
from tf1clip.upgrade import upgrade_source

MODULES = {
    "multitask_optimizer_wrapper": "MultitaskOptimizerWrapper",
    "moving_average_optimizer": "MovingAverageOptimizer",
    "variable_clipping_optimizer": "VariableClippingOptimizer",
    "drop_stale_gradient_optimizer": "DropStaleGradientOptimizer",
    "elastic_average_optimizer": "ElasticAverageOptimizer",
    "model_average_optimizer": "ModelAverageOptimizer",
    "external_optimizer": "ScipyOptimizerInterface",
}

# The wrappers, distributed and SciPy names: the manifest's tf1clip.contrib.opt names from those modules.
WRAPPER_NAMES = tuple(
    name
    for row in _manifest.rows("tf1clip.contrib.opt")
    if row.impl.rsplit(".", 1)[1]
    in (
        "multitask_optimizer_wrapper",
        "variable_clipping_optimizer",
        "drop_stale_gradient_optimizer",
        "moving_average_optimizer",
        "elastic_average_optimizer",
        "model_average_optimizer",
        "external_optimizer",
    )
    for name in row.names
)


def test_every_name_exists_in_tf1clip_contrib_opt():
    module = importlib.import_module("tf1clip.contrib.opt")
    for name in WRAPPER_NAMES:
        assert name in module.__all__ and hasattr(module, name), name


@pytest.mark.parametrize("name", WRAPPER_NAMES)
def test_attribute_and_from_import_spellings(name):
    result = upgrade_source("import tensorflow as tf\nx = tf.contrib.opt.%s\n" % name)
    assert result.text == "import tensorflow as tf\nimport tf1clip.contrib\nx = tf1clip.contrib.opt.%s\n" % name
    assert not upgrade_issues(result, "ERROR", "WARNING")
    result = upgrade_source("from tensorflow.contrib.opt import %s\n" % name)
    assert result.text == "from tf1clip.contrib.opt import %s\n" % name
    assert not upgrade_issues(result, "ERROR", "WARNING")


@pytest.mark.parametrize("module, name", sorted(MODULES.items()))
def test_implementation_module_spellings(module, name):
    path = "tensorflow.contrib.opt.python.training"
    cases = [
        (
            "from %s import %s\nx = %s.%s\n" % (path, module, module, name),
            "from tf1clip.contrib import opt as %s\nx = %s.%s\n" % (module, module, name),
        ),
        (
            "from %s import %s as m\nx = m.%s\n" % (path, module, name),
            "from tf1clip.contrib import opt as m\nx = m.%s\n" % name,
        ),
        ("from %s.%s import %s\n" % (path, module, name), "from tf1clip.contrib.opt import %s\n" % name),
        (
            "import %s.%s as m\nx = m.%s\n" % (path, module, name),
            "import tf1clip.contrib.opt as m\nx = m.%s\n" % name,
        ),
    ]
    for before, after in cases:
        result = upgrade_source(before)
        assert result.text == after
        assert not upgrade_issues(result, "ERROR", "WARNING")


def test_a_name_tf1clip_lacks_stays_an_error_naming_a_successor():
    result = upgrade_source("import tensorflow as tf\nx = tf.contrib.opt.NoSuchOptimizer(0.1)\n")
    assert "tf.contrib.opt.NoSuchOptimizer" in result.text
    ((_, message),) = upgrade_issues(result, "ERROR", "WARNING")
    assert "cannot be converted automatically" in message and "tf.compat.v1.train optimizer" in message
