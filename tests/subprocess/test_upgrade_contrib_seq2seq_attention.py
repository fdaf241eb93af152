"""tf1clip-upgrade converts tf.contrib.seq2seq's attention names in every spelling, and the result runs.

The spellings of real 2017-2019 code: ``tf.contrib.seq2seq.X``, ``from tensorflow.contrib.seq2seq import X``,
``from tensorflow.contrib import seq2seq``, ``import tensorflow.contrib.seq2seq as s2s``, the implementation module
``tensorflow.contrib.seq2seq.python.ops.attention_wrapper`` and the private helpers Tacotron-style code subclassed
from it (``_BaseAttentionMechanism``, ``_compute_attention``).
"""

import textwrap

import pytest

from tests.helpers import run_python
from tf1clip.upgrade import upgrade_source

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

PROGRAM = textwrap.dedent("""\
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib.seq2seq import AttentionWrapper
    from tensorflow.contrib import seq2seq
    import tensorflow.contrib.seq2seq as s2s
    from tensorflow.contrib.seq2seq.python.ops import attention_wrapper
    from tensorflow.contrib.seq2seq.python.ops.attention_wrapper import _BaseAttentionMechanism, _compute_attention


    class DotAttention(_BaseAttentionMechanism):
        def __init__(self, memory):
            super(DotAttention, self).__init__(
                query_layer=None, memory_layer=tf.layers.Dense(4, use_bias=False, name="memory_layer", dtype=tf.float32),
                memory=memory, probability_fn=lambda score, _: tf.nn.softmax(score))

        def __call__(self, query, state):
            alignments = self._probability_fn(tf.reduce_sum(tf.expand_dims(query, 1) * self.keys, 2), state)
            return alignments, alignments


    memory = tf.placeholder(tf.float32, [2, 5, 3])
    inputs = tf.placeholder(tf.float32, [2, 4, 2])
    mechanisms = [
        tf.contrib.seq2seq.BahdanauAttention(4, memory, memory_sequence_length=[5, 3], normalize=True),
        seq2seq.LuongAttention(4, memory, scale=True),
        s2s.BahdanauMonotonicAttention(4, memory, mode="hard"),
        attention_wrapper.LuongMonotonicAttention(4, memory, score_bias_init=-1.0),
        DotAttention(memory),
    ]
    cell = AttentionWrapper(tf.contrib.rnn.LSTMCell(4), mechanisms, attention_layer_size=[3, 2, 2, 2, 2],
                            alignment_history=True, attention_fn=lambda *args: _compute_attention(*args))
    init = cell.zero_state(2, tf.float32)
    init = init.clone(cell_state=tf.contrib.rnn.LSTMStateTuple(init.cell_state.c + 0.5, init.cell_state.h))
    outputs, state = tf.nn.dynamic_rnn(cell, inputs, initial_state=init, dtype=tf.float32)
    extra = [s2s.hardmax(outputs), tf.contrib.seq2seq.safe_cumprod(tf.sigmoid(outputs), axis=1),
             seq2seq.monotonic_attention(tf.sigmoid(outputs[:, 0]), tf.one_hot([0, 0], 11), "parallel")]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {memory: np.ones([2, 5, 3]), inputs: np.ones([2, 4, 2])}
        out, history, values = sess.run([outputs, state.alignment_history[4].stack(), extra], feed)
    print(out.shape, history.shape, [v.shape for v in values], isinstance(state, s2s.AttentionWrapperState))
    print(sorted(v.op.name for v in tf.global_variables())[:3])
    """)


def test_every_spelling_converts_without_an_error():
    result = upgrade_source(PROGRAM, target="modern")
    assert not [(e.line, e.message) for e in result.log if e.severity == "ERROR"], result.text
    assert "contrib.seq2seq" not in result.text.replace("tf1clip.contrib.seq2seq", "")
    lines = result.text.splitlines()
    assert lines[0] == "import os"
    assert lines[1].startswith('os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf1clip-upgrade: ')
    assert lines[1].endswith(" needs Keras 2 (tf-keras)")
    for line in (
        "from tf1clip.contrib.seq2seq import AttentionWrapper",
        "from tf1clip.contrib import seq2seq",
        "import tf1clip.contrib.seq2seq as s2s",
        "from tf1clip.contrib.seq2seq import attention_wrapper",
        "from tf1clip.contrib.seq2seq.attention_wrapper import _BaseAttentionMechanism, _compute_attention",
        "    tf1clip.contrib.seq2seq.BahdanauAttention(4, memory, memory_sequence_length=[5, 3], normalize=True),",
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior",
    ):
        assert line in lines, (line, result.text)


def test_the_converted_program_runs():
    text = upgrade_source(PROGRAM, target="modern").text
    out = run_python(text).splitlines()
    assert out == [
        "(2, 4, 11) (4, 2, 5) [(2, 4, 11), (2, 4, 11), (2, 11)] True",
        "['memory_layer/kernel', 'memory_layer_1/kernel', 'memory_layer_2/kernel']",
    ]
