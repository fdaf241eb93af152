"""Using tf1clip where TensorFlow cannot be imported: the install hint comes first, not a chained traceback.

TensorFlow is hidden by a meta-path finder installed from a ``sitecustomize`` module (the package stays installed,
as when a user's environment lacks it).
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HIDE = """
import sys


class HideTensorFlow:
    def find_spec(self, name, path=None, target=None):
        if name == "tensorflow" or name.startswith("tensorflow."):
            raise ModuleNotFoundError("No module named %r" % name, name=name)
        return None


sys.meta_path.insert(0, HideTensorFlow())
"""


def _run(tmp_path, code):
    (tmp_path / "sitecustomize.py").write_text(HIDE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_first_use_without_tensorflow_prints_the_install_hint_first(tmp_path):
    proc = _run(tmp_path, "import tf1clip\nfrom tf1clip.contrib import lookup\n")
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert lines[0].startswith(
        "tf1clip needs TensorFlow >= 2.15, which is not installed (No module named 'tensorflow')"
    )
    assert "python3 -m pip install 'tensorflow-cpu>=2.15'" in lines[0]
    assert lines[1:3] == ["", "Traceback (most recent call last):"]
    assert "The above exception was the direct cause" not in proc.stderr
    assert len(lines) < 20


def test_a_caught_error_prints_nothing(tmp_path):
    proc = _run(
        tmp_path,
        "import tf1clip\ntry:\n    tf1clip.global_norm\nexcept ImportError as e:\n    print(type(e).__name__)\n",
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "ImportError\n", "")
