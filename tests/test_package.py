"""The public API and the import-time TensorFlow check."""

import os
import re
import subprocess
import sys

import tf1clip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PUBLIC = {
    "global_norm",
    "clip_by_value",
    "clip_by_norm",
    "clip_by_average_norm",
    "clip_by_global_norm",
    "clip_by_value_fn",
    "clip_by_norm_fn",
    "clip_by_average_norm_fn",
    "clip_by_global_norm_fn",
    "chain",
    "sum_duplicate_indices",
    "transform_gradients",
    "clip_gradients_by_norm",
    "TransformGradientsOptimizer",
    "GradientNorms",
    "AutoClip",
    "AGC",
    "ZClip",
    "NormRecorder",
    "attach_state_updates",
    "STATE_UPDATES",
}


def test_all_lists_every_public_name_and_each_exists():
    assert PUBLIC <= set(tf1clip.__all__)
    for name in tf1clip.__all__:
        assert hasattr(tf1clip, name), name
    assert not any(name.startswith("_") and name != "__version__" for name in tf1clip.__all__)


def test_version_matches_setup():
    assert re.fullmatch(r"\d+\.\d+\.\d+", tf1clip.__version__)
    with open(os.path.join(ROOT, "setup.py")) as f:
        assert "tf1clip" in f.read()


def test_every_public_name_is_in_the_docs():
    docs = os.path.join(ROOT, "docs")
    text = ""
    for name in sorted(os.listdir(docs)):
        if name.endswith(".rst"):
            with open(os.path.join(docs, name)) as f:
                text += f.read()
    missing = [name for name in PUBLIC if name not in text]
    assert not missing


def _import_with_fake_tensorflow(tmp_path, body):
    fake = tmp_path / "tensorflow"
    fake.mkdir()
    (fake / "__init__.py").write_text(body)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    return subprocess.run(
        [sys.executable, "-c", "import tf1clip"], env=env, capture_output=True, text=True, timeout=60
    )


def test_missing_tensorflow_gives_a_clear_message(tmp_path):
    proc = _import_with_fake_tensorflow(tmp_path, "raise ImportError('No module named tensorflow')\n")
    assert proc.returncode != 0
    assert "ImportError: tf1clip needs TensorFlow >= 2.15, which is not installed" in proc.stderr
    assert "python3 -m pip install 'tensorflow-cpu>=2.15'" in proc.stderr


def test_old_tensorflow_gives_a_clear_message(tmp_path):
    proc = _import_with_fake_tensorflow(tmp_path, "__version__ = '2.14.1'\n")
    assert proc.returncode != 0
    assert "ImportError: tf1clip needs TensorFlow >= 2.15; found 2.14.1." in proc.stderr
