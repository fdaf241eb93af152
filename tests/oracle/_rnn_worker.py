"""Runs every case of tests/data/tf115_rnn/cases.py on tf1clip.contrib (restoring TF 1.15's checkpoints).

Usage: python tests/oracle/_rnn_worker.py OUT.json. Needs Keras 2, so it sets TF_USE_LEGACY_KERAS before TensorFlow
is imported; a case that raises is recorded with its traceback.
"""

import json
import os
import sys
import traceback
import types

os.environ["TF_USE_LEGACY_KERAS"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_rnn")
sys.path.insert(0, DATA)

import cases  # noqa: E402

from tf1clip.contrib import cudnn_rnn, legacy_seq2seq, rnn  # noqa: E402


def _checks():
    """Bad inputs and what is not re-created: ``{label: "ExceptionType: message"}`` (or the value returned)."""
    v1 = tf.compat.v1
    x = v1.placeholder(tf.float32, [2, 3, 4])
    logits, target, weight = tf.zeros([2, 5]), tf.zeros([2], tf.int32), tf.ones([2])
    calls = {
        "num_units": lambda: rnn.LSTMBlockCell(0),
        "gru_sizes": lambda: rnn.GRUBlockCell(),
        "not_a_cell": lambda: rnn.InputProjectionWrapper("nope", 3),
        "output_size": lambda: rnn.OutputProjectionWrapper(rnn.GRUCell(2), 0),
        "no_fw_cells": lambda: rnn.stack_bidirectional_dynamic_rnn([], [rnn.GRUCell(2)], x, dtype=tf.float32),
        "depths": lambda: rnn.stack_bidirectional_rnn([rnn.GRUCell(2)], [rnn.GRUCell(2)] * 2, tf.unstack(x, axis=1)),
        "cudnn_lstm": lambda: (cudnn_rnn.CudnnLSTM(1, 4).num_units, cudnn_rnn.CudnnLSTM(1, 4).rnn_mode),
        "cudnn_gru": lambda: cudnn_rnn.CudnnGRU(num_layers=1, num_units=4).direction,
        "loss_lengths": lambda: legacy_seq2seq.sequence_loss_by_example([logits], [target, target], [weight]),
        "buckets": lambda: legacy_seq2seq.model_with_buckets([target], [target], [target], [weight], [(2, 1)], None),
        "no_decoder_inputs": lambda: legacy_seq2seq.attention_decoder([], None, tf.zeros([2, 3, 4]), rnn.GRUCell(2)),
        "core_alias": lambda: rnn.LSTMCell is v1.nn.rnn_cell.LSTMCell and rnn.static_rnn is v1.nn.static_rnn,
        "glstm_groups": lambda: rnn.GLSTMCell(5, number_of_groups=2),
        "grid_blocks": lambda: rnn.GridLSTMCell(2),
        "conv_shape": lambda: rnn.Conv2DLSTMCell(input_shape=[3, 2], output_channels=2, kernel_shape=[2, 2]),
        "fused_dtype": lambda: rnn.LSTMBlockFusedCell(2)(tf.zeros([3, 2, 4])),
        "fused_rank": lambda: rnn.LSTMBlockFusedCell(2)(tf.zeros([3, 4]), dtype=tf.float32),
        "adaptor_cell": lambda: rnn.FusedRNNCellAdaptor("nope"),
        "sru_rank": lambda: v1.nn.dynamic_rnn(rnn.SRUCell(2), tf.zeros([2, 3, 4, 1]), dtype=tf.float32),
        "batch_size": lambda: (
            rnn.best_effort_input_batch_size([v1.placeholder(tf.float32, None), tf.zeros([3, 5, 2])]),
            rnn.best_effort_input_batch_size([v1.placeholder(tf.float32, [3, None])]).dtype.name,
            rnn.transpose_batch_time(tf.zeros([3, 5, 2])).shape.as_list(),
            rnn.transpose_batch_time(v1.placeholder(tf.float32, [None, 4, 2, 1])).shape.as_list(),
            rnn.transpose_batch_time(tf.zeros([3])).shape.as_list(),
        ),
        "batch_rank": lambda: rnn.best_effort_input_batch_size([tf.zeros([3])]),
        "names": lambda: sorted(rnn.__all__),
        "all_resolve": lambda: sorted(
            m.__name__ + "." + n for m in (rnn, legacy_seq2seq, cudnn_rnn) for n in m.__all__ if getattr(m, n) is None
        ),
    }
    found = {}
    for label, call in calls.items():
        with tf.Graph().as_default():
            try:
                found[label] = repr(call())
            except Exception as err:  # noqa: BLE001
                found[label] = "%s: %s" % (type(err).__name__, err)
    return found


def main(out_path):
    tf.compat.v1.disable_eager_execution()
    M = types.SimpleNamespace(rnn=rnn, seq2seq=legacy_seq2seq, cudnn=cudnn_rnn)
    results = {"tensorflow": tf.__version__, "cases": {}}
    for name in cases.CASES:
        try:
            results["cases"][name] = cases.run_case(tf, M, name, os.path.join(DATA, "ckpt", name), save=False)
        except Exception:  # noqa: BLE001  (reported per case by the test)
            results["cases"][name] = {"error": traceback.format_exc()}
    results["checks"] = _checks()
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1])
