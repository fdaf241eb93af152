"""Runs every case of tests/data/tf115_seq2seq_decode/cases.py on tf1clip.contrib.seq2seq (restoring TF 1.15's
checkpoints), the clipped training steps, and the error checks.

Usage: python tests/oracle/_seq2seq_decode_worker.py OUT.json MODE. MODE ``v1`` calls
``tf.compat.v1.disable_v2_behavior()`` (what tf1clip-upgrade adds: v1 control flow, reference variables), ``v2``
only ``disable_eager_execution()`` (control flow v2, resource variables). Needs Keras 2, so it sets
TF_USE_LEGACY_KERAS before TensorFlow is imported; a case that raises is recorded with its traceback.
"""

import json
import os
import sys
import traceback

os.environ["TF_USE_LEGACY_KERAS"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_seq2seq_decode")
sys.path.insert(0, DATA)

import cases  # noqa: E402

import tf1clip  # noqa: E402
from tf1clip.contrib import seq2seq  # noqa: E402


def _checks():
    """Bad inputs: ``{label: "ExceptionType: message"}`` (or the value returned)."""
    v1 = tf.compat.v1

    def cell():
        return v1.nn.rnn_cell.LSTMCell(3)

    def x3():
        return tf.zeros([2, 3, 4])

    def x2():
        return tf.zeros([2, 3])

    def ints():
        return tf.zeros([2, 3], tf.int32)

    def emb():
        return tf.zeros([5, 2])

    def helper():
        return seq2seq.TrainingHelper(x3(), [3, 2])

    def beam(batch, **kw):
        c = cell()
        return seq2seq.BeamSearchDecoder(c, emb(), [1, 1], 2, c.zero_state(batch, tf.float32), 3, **kw)

    calls = {
        "logits_rank": lambda: seq2seq.sequence_loss(x2(), ints(), x2()),
        "targets_rank": lambda: seq2seq.sequence_loss(x3(), tf.zeros([2], tf.int32), x2()),
        "weights_rank": lambda: seq2seq.sequence_loss(x3(), ints(), x3()),
        "avg_and_sum_t": lambda: seq2seq.sequence_loss(x3(), ints(), x2(), sum_over_timesteps=True),
        "avg_and_sum_b": lambda: seq2seq.sequence_loss(
            x3(), ints(), x2(), average_across_timesteps=False, sum_over_batch=True
        ),
        "not_a_decoder": lambda: seq2seq.dynamic_decode("decoder"),
        "max_iter_vector": lambda: seq2seq.dynamic_decode(
            seq2seq.BasicDecoder(cell(), helper(), cell().zero_state(2, tf.float32)), maximum_iterations=[3]
        ),
        "not_a_cell": lambda: seq2seq.BasicDecoder("cell", helper(), None),
        "not_a_helper": lambda: seq2seq.BasicDecoder(cell(), "helper", None),
        "not_a_layer": lambda: seq2seq.BasicDecoder(cell(), helper(), None, output_layer="dense"),
        "length_matrix": lambda: seq2seq.TrainingHelper(x3(), [[3, 2]]),
        "start_scalar": lambda: seq2seq.GreedyEmbeddingHelper(emb(), 1, 2),
        "end_vector": lambda: seq2seq.GreedyEmbeddingHelper(emb(), [1, 1], [2]),
        "probability_matrix": lambda: seq2seq.ScheduledOutputTrainingHelper(x3(), [3, 2], [[0.5]]),
        "custom_batch": lambda: seq2seq.CustomHelper(None, None, None).batch_size,
        "beam_start": lambda: seq2seq.BeamSearchDecoder(cell(), emb(), 1, 2, cell().zero_state(6, tf.float32), 3),
        "beam_state": lambda: beam(5),
        "coverage_no_attention": lambda: seq2seq.dynamic_decode(beam(6, coverage_penalty_weight=0.5)),
        "tile_scalar": lambda: seq2seq.tile_batch(tf.constant(1.0), 2),
        "gather_tree_rank": lambda: seq2seq.gather_tree(ints(), ints(), [3, 3], 1),
        "all_resolve_but_attention": lambda: sorted(
            n for n in seq2seq.__all__ if "ttention" not in n and n not in _ATTENTION and getattr(seq2seq, n) is None
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


_ATTENTION = ("hardmax", "safe_cumprod", "monotonic_attention")


def _wrapped_adam(optimizer, loss):
    return tf1clip.clip_gradients_by_norm(optimizer, 0.5).minimize(loss)


def main(out_path, mode):
    if mode == "v1":
        tf.compat.v1.disable_v2_behavior()
    else:
        tf.compat.v1.disable_eager_execution()
    results = {"tensorflow": tf.__version__, "cases": {}, "train": {}}
    for name in cases.CASES:
        try:
            results["cases"][name] = cases.run_case(tf, seq2seq, name, os.path.join(DATA, "ckpt", name), save=False)
        except Exception:  # noqa: BLE001  (reported per case by the test)
            results["cases"][name] = {"error": traceback.format_exc()}
    checkpoint = os.path.join(DATA, "ckpt", "train")
    for label, clip in (("clip_by_global_norm", cases.clip_global_norm(tf)), ("clip_gradients_by_norm", _wrapped_adam)):
        try:
            results["train"][label] = cases.run_training(tf, seq2seq, clip, checkpoint, save=False)
        except Exception:  # noqa: BLE001
            results["train"][label] = {"error": traceback.format_exc()}
    results["checks"] = _checks()
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
