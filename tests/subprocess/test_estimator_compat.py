"""tf1clip.compat._estimator: each patch is still needed on this TensorFlow, and the Keras 2 switch.

The checks here read TensorFlow as it is (this process never imports ``tf1clip.estimator``): a TensorFlow
release that brings back what a patch supplies fails ``test_patch_is_still_needed``, and the patch can go.
Applying the patches, their idempotence and the errors of what cannot work are tested in
tests/subprocess/_estimator_cases.py (a fresh interpreter, see tests/subprocess/test_estimator.py).
"""

import importlib.util
import os
import subprocess
import sys
from importlib import metadata

import pytest
import tensorflow as tf
from helpers import run_python

from tf1clip.compat import _estimator, _tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NEW_TF = _tf.version_tuple(tf.__version__) >= (2, 16)


def _missing(module):
    try:
        return importlib.util.find_spec(module) is None
    except ImportError:
        return True


def _keras_major():
    return int(metadata.version("keras").split(".")[0]) if importlib.util.find_spec("keras") else None


# patch -> whether TensorFlow as installed lacks what the patch supplies (True on TF 2.16-2.21, False on 2.15).
NEEDED = {
    "tf_export_estimator_api": lambda: (
        not hasattr(_tf.tf_export_module(), "ESTIMATOR_API_NAME")
        and "estimator" not in _tf.tf_export_module().API_ATTRS
        and "estimator" not in _tf.tf_export_module().API_ATTRS_V1
    ),
    "distribute_estimator_training": lambda: _missing(_estimator.ESTIMATOR_TRAINING),
    "tpu_removed_modules": lambda: all(_missing(name) for name in _estimator.TPU_MODULES),
    "legacy_keras": lambda: _keras_major() != 2,
    "session_threads": lambda: _graph_building_starts_the_runtime(),
}
# patch -> on which TensorFlow it is needed: session_threads restores a TF 1.x behaviour on every TF 2.x.
EXPECTED = {name: NEW_TF for name in NEEDED}
EXPECTED["session_threads"] = True

_RUNTIME_PROBE = """
import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.training import training_util
graph = tf.Graph()
with graph.as_default():
    tf.compat.v1.train.get_or_create_global_step()
    training_util._get_or_create_global_step_read(graph)  # what Estimator.train builds first
print("runtime started:", context.context()._initialized)
"""


def _graph_building_starts_the_runtime():
    """Whether building the Estimator's global-step read, in a graph, starts the eager runtime."""
    out = run_python(_RUNTIME_PROBE)
    assert "runtime started:" in out, out
    return "runtime started: True" in out


def test_every_patch_has_a_need_check():
    assert set(NEEDED) == set(_estimator.PATCHES)
    assert set(_estimator.TPU_MODULES) == {
        "tensorflow.python.tpu.tpu_embedding",
        "tensorflow.python.tpu.tpu_embedding_gradient",
        "tensorflow.python.tpu.session_support",
    }


@pytest.mark.parametrize("patch", sorted(NEEDED))
def test_patch_is_still_needed(patch):
    """Needed where EXPECTED says (checked 2.15.1, 2.16.2, 2.21.0). Fails when a release changes that."""
    assert NEEDED[patch]() is EXPECTED[patch], "%s: needed=%s on TensorFlow %s; update tf1clip.compat._estimator" % (
        patch,
        not EXPECTED[patch],
        tf.__version__,
    )


_KERAS_PROBE = """
import os, sys
import tensorflow as tf
if sys.argv[1] == "keras3-first":
    tf.keras.layers.Dense  # tf.keras resolves (to Keras 3 on TF 2.16+) before tf1clip.estimator
try:
    from tf1clip import estimator
except ImportError as err:
    print("ImportError:", err)
else:
    print("imported", estimator.DNNRegressor.__name__)
print("TF_USE_LEGACY_KERAS=%s" % os.environ.get("TF_USE_LEGACY_KERAS"))
print("keras module:", tf.keras.Model.__module__)
"""


def _probe(mode):
    env = {k: v for k, v in os.environ.items() if k != "TF_USE_LEGACY_KERAS"}
    env.update(TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-c", _KERAS_PROBE, mode], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@pytest.mark.skipif(_missing("tensorflow_estimator"), reason="tensorflow-estimator is not installed")
@pytest.mark.skipif(not NEW_TF or _missing("tf_keras"), reason="Keras 3 and tf-keras: TensorFlow 2.16+ only")
def test_legacy_keras_is_switched_on_only_before_keras_3_is_used():
    fresh = _probe("fresh")
    assert "imported DNNRegressor" in fresh and "TF_USE_LEGACY_KERAS=1" in fresh
    assert "keras module: tf_keras." in fresh
    late = _probe("keras3-first")
    assert "ImportError: tf1clip.estimator needs Keras 2 as tf.keras on TensorFlow %s" % tf.__version__ in late
    assert "tf.keras was already Keras 3 when tf1clip.estimator was imported; set TF_USE_LEGACY_KERAS=1" in late
    assert "python3 -m tf1clip.install_extras legacy-keras" in late
    assert "TF_USE_LEGACY_KERAS=None" in late and "keras module: keras.src." in late  # left as it was
