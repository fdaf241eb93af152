import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import companion  # noqa: E402

if companion.is_companion():  # tests/keras2's process: Keras 2, chosen before TensorFlow is imported
    os.environ["TF_USE_LEGACY_KERAS"] = "1"

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402

# Why tf1clip.estimator is missing in the companion (its tests skip, or fail under TF1CLIP_REQUIRE_ESTIMATOR=1).
ESTIMATOR_MISSING = companion.enter_tf1_mode(tf) if companion.is_companion() else None


def _behavior():
    """TensorFlow's process-wide v1/v2 switches (``disable_v2_behavior()`` flips them all, for good)."""
    from tensorflow.python import tf2
    from tensorflow.python.framework import tensor_shape

    return {
        "tf2": tf2.enabled(),
        "eager": tf.executing_eagerly(),
        "resource_variables": tf.compat.v1.resource_variables_enabled(),
        "control_flow_v2": tf.compat.v1.control_flow_v2_enabled(),
        "tensorshape_v2": tensor_shape._TENSORSHAPE_V2_OVERRIDE,
        "tensor_equality": tf.Tensor._USE_EQUALITY,
        # Estimators run in the companion or in subprocesses: tf1clip.estimator patches TF and may set
        # TF_USE_LEGACY_KERAS.
        "tf1clip.estimator imported": "tf1clip.estimator" in sys.modules,
        "TF_USE_LEGACY_KERAS": os.environ.get("TF_USE_LEGACY_KERAS"),
    }


@pytest.fixture(autouse=True)
def _keeps_tf_behavior():
    """Fails a test that changes TF's process-wide behavior or imports tf1clip.estimator: every later test in the
    process would run under it (eager execution cannot be turned back on). Run such code in a subprocess
    (tests/keras2, helpers.run_python)."""
    before = _behavior()
    yield
    after = _behavior()
    if after != before:
        changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        pytest.fail("the test changed TensorFlow's process-wide behavior (before, after): %s" % changed, pytrace=False)


@pytest.fixture
def graph():
    """A fresh default graph (TF1 graph mode) for one test."""
    with tf.Graph().as_default() as g:
        yield g


@pytest.fixture
def sess(graph):
    with tf.compat.v1.Session(graph=graph) as s:
        yield s


# The folder of a test module gives its markers. tests/unit, tests/upgrade and tests/keras2 (in the companion
# process, tests/companion.py) are the quick loop (python3 -m pytest tests -m "not slow"): their tests may not
# start processes (_quick_tests_start_no_process); a test there marked slow explicitly is left out of it.
FOLDERS = {
    "unit": (),
    "upgrade": (),
    "keras2": ("keras2",),
    "subprocess": ("subprocess", "slow"),
    "oracle": ("oracle", "slow"),
}
MARKERS = {
    "keras2": "in tests/keras2: runs in the companion process in TF 1 mode (Keras 2, v1 behavior, tf1clip.estimator)",
    "subprocess": "in tests/subprocess: starts other processes (Keras 2 workers, clusters, Estimators, the CLI)",
    "oracle": "in tests/oracle: compares with TensorFlow 1.15 (runs it, or its recorded numbers)",
    "slow": "subprocess or oracle, or marked: left out of the quick loop, python3 -m pytest tests -m 'not slow'",
}
TESTS = os.path.dirname(os.path.abspath(__file__))


def pytest_configure(config):
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", "%s: %s" % (name, text))
    companion.configure(config)


def folder_markers(path):
    """The markers every test of the module at ``path`` gets, from its folder under tests/ (FOLDERS); none elsewhere
    (tests/unit/test_test_layout.py fails for a test module outside the folders)."""
    folder = os.path.relpath(os.path.abspath(str(path)), TESTS).split(os.sep)[0]
    return FOLDERS.get(folder, ())


def pytest_collection_modifyitems(config, items):
    found = {}
    for item in items:
        path = str(item.fspath)
        if path not in found:
            found[path] = folder_markers(path)
        for name in found[path]:
            item.add_marker(name)


@pytest.fixture(autouse=True)
def _quick_tests_start_no_process(request):
    """Fails a test of the quick loop (tests/unit, tests/upgrade, tests/keras2) that starts a process: the quick loop
    would be slow. Such a test belongs in tests/subprocess (or tests/oracle). The companion process is started by
    the session (tests/companion.py), not by a test."""
    if request.node.get_closest_marker("slow"):
        yield
        return
    started, original = [], subprocess.Popen.__init__

    def recording(self, args, *rest, **kwargs):
        started.append(args)
        original(self, args, *rest, **kwargs)

    subprocess.Popen.__init__ = recording
    try:
        yield
    finally:
        subprocess.Popen.__init__ = original
    if started:
        pytest.fail(
            "the test started %r from a quick-loop module: move it to tests/subprocess" % (started[0],), pytrace=False
        )
