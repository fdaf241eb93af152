"""tf.contrib.cudnn_rnn (tf1clip.contrib.cudnn_rnn): converted spellings, and a CudnnLSTM language model whose
checkpoint TF 1.15 restores into its cuDNN-compatible cells.

The layers themselves (TF 1.15's canonical weights, NumPy's cuDNN equations, the opaque layout, variable and
checkpoint names) are tested in TF 1 mode by tests/keras2/test_cudnn_rnn_layers.py.
"""

import os

import pytest


def test_upgrade_converts_every_spelling_without_errors():
    from tf1clip.upgrade import upgrade_source

    source = """\
import tensorflow as tf
from tensorflow.contrib import cudnn_rnn
from tensorflow.contrib.cudnn_rnn import CudnnGRU
from tensorflow.contrib.cudnn_rnn.python.layers import cudnn_rnn as layers
from tensorflow.contrib.cudnn_rnn.python.ops import cudnn_rnn_ops
a = tf.contrib.cudnn_rnn.CudnnLSTM(2, 8, direction=cudnn_rnn_ops.CUDNN_RNN_BIDIRECTION)
b = [cudnn_rnn.CudnnRNNTanh, CudnnGRU, layers.CudnnRNNRelu, cudnn_rnn_ops.CudnnLSTMSaveable]
"""
    result = upgrade_source(source, target="modern")
    assert [(e.line, e.message) for e in result.log if e.severity == "ERROR"] == []
    assert result.text.splitlines()[2:] == [
        "import tensorflow as tf",
        "import tf1clip.contrib.cudnn_rnn",
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior",
        "from tf1clip.contrib import cudnn_rnn",
        "from tf1clip.contrib.cudnn_rnn import CudnnGRU",
        "from tf1clip.contrib import cudnn_rnn as layers",
        "from tf1clip.contrib import cudnn_rnn as cudnn_rnn_ops",
        "a = tf1clip.contrib.cudnn_rnn.CudnnLSTM(2, 8, direction=cudnn_rnn_ops.CUDNN_RNN_BIDIRECTION)",
        "b = [cudnn_rnn.CudnnRNNTanh, CudnnGRU, layers.CudnnRNNRelu, cudnn_rnn_ops.CudnnLSTMSaveable]",
    ]
    assert 'os.environ["TF_USE_LEGACY_KERAS"] = "1"' in result.text.splitlines()[1]


def test_cudnn_lstm_language_model_checkpoint_restores_into_tf115_compatible_cells(tmp_path):
    """lm.py (CudnnLSTM, TF 1.x code) upgraded and trained on the CPU; its checkpoint, restored by TF 1.15 into
    CudnnCompatibleLSTMCells (lm_tf115.py), gives the held-out loss the upgraded program computed."""
    import json
    import subprocess
    import sys

    from oracle import tf115_env
    from tf1clip.upgrade import upgrade_source

    data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_cudnn")
    with open(os.path.join(data, "lm_refs.json")) as f:
        refs = json.load(f)
    upgraded = tmp_path / "lm.py"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(
        os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])
    )
    with open(os.path.join(data, "lm.py")) as f:
        result = upgrade_source(f.read(), target="modern")
    assert [e.message for e in result.log if e.severity == "ERROR"] == []
    upgraded.write_text(result.text)
    run = [sys.executable, str(upgraded), str(tmp_path / "out.json"), str(tmp_path / "ckpt")]
    proc = subprocess.run(run, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(tmp_path / "out.json") as f:
        got = json.load(f)
    assert "cudnn_lstm/opaque_kernel" in got["variables"]
    assert got["losses"] == pytest.approx(refs["tf1clip_losses"], rel=1e-5)
    assert got["held_out"] == pytest.approx(refs["tf115_held_out"], rel=1e-5)
    venv = tf115_env.venv_dir()
    if tf115_env.has_tf115(venv):  # the live check, where the oracle environment is built
        tf115 = [tf115_env.venv_python(venv), os.path.join(data, "lm_tf115.py"), str(tmp_path / "ckpt")]
        proc = subprocess.run(tf115, env=tf115_env.clean_env(), capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert json.loads(proc.stdout.splitlines()[-1])["held_out"] == pytest.approx(got["held_out"], rel=1e-5)
