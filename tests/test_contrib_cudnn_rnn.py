"""tf.contrib.cudnn_rnn's layers (tf1clip.contrib.cudnn_rnn): CudnnLSTM, CudnnGRU, CudnnRNNTanh, CudnnRNNRelu.

They need Keras 2 (tf.compat.v1.layers): the cases in tests/_contrib_cudnn_rnn_cases.py run in one subprocess
with ``TF_USE_LEGACY_KERAS=1`` and each is reported here. They compare the layers with TF 1.15.5's
cuDNN-compatible cells restored from the same canonical checkpoint (tests/data/tf115_cudnn/refs.json), with
NumPy's cuDNN equations (two bias vectors), with a NumPy model of cuDNN's opaque layout, and check TF 1.15's
variable and checkpoint names; a GPU case compares TF's cuDNN kernels with the CPU path where a GPU exists.
"""

import os

import pytest

from helpers import case_names
from helpers import report_case
from helpers import run_cases

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_contrib_cudnn_rnn_cases.py")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_cases(CASES, str(tmp_path_factory.mktemp("cudnn") / "cases.xml"))


@pytest.mark.parametrize("case", case_names(CASES))
def test_cudnn_rnn_case(results, case):
    report_case(results, case)


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
        "from tf1clip.contrib import cudnn_rnn",
        "from tf1clip.contrib.cudnn_rnn import CudnnGRU",
        "from tf1clip.contrib import cudnn_rnn as layers",
        "from tf1clip.contrib import cudnn_rnn as cudnn_rnn_ops",
        "a = tf1clip.contrib.cudnn_rnn.CudnnLSTM(2, 8, direction=cudnn_rnn_ops.CUDNN_RNN_BIDIRECTION)",
        "b = [cudnn_rnn.CudnnRNNTanh, CudnnGRU, layers.CudnnRNNRelu, cudnn_rnn_ops.CudnnLSTMSaveable]",
    ]
    assert 'os.environ["TF_USE_LEGACY_KERAS"] = "1"' in result.text.splitlines()[1]
