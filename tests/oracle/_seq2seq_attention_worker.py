"""Runs every case of tests/data/tf115_seq2seq/attention/attention_cases.py on tf1clip.contrib.seq2seq.

Usage: python tests/oracle/_seq2seq_attention_worker.py OUT.json. Restores TF 1.15's checkpoints; needs Keras 2, so it
sets TF_USE_LEGACY_KERAS before TensorFlow is imported; a case that raises is recorded with its traceback.
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
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_seq2seq", "attention")
sys.path.insert(0, DATA)

import attention_cases as cases  # noqa: E402

from tf1clip.contrib import seq2seq  # noqa: E402


def _extra():
    """tf1clip's own checks and what it leaves out: ``{label: "ExceptionType: message"}`` (or a value)."""
    v1 = tf.compat.v1
    memory = tf.zeros([2, 5, 3])

    def state_size():
        cell = seq2seq.AttentionWrapper(
            v1.nn.rnn_cell.GRUCell(3),
            seq2seq.BahdanauAttention(4, memory),
            attention_layer_size=4,
            alignment_history=True,
        )
        return "%s %s" % (cell.state_size, cell.output_size)

    calls = {
        "probability_fn": lambda: seq2seq.LuongAttention(3, memory, probability_fn=3),
        "monotonic_mode": lambda: seq2seq.BahdanauMonotonicAttention(3, memory, mode="soft"),
        "v2_not_recreated": lambda: seq2seq.BahdanauAttentionV2,
        "query_layer": lambda: seq2seq.attention_wrapper._BaseAttentionMechanism("q", memory, tf.nn.softmax),
        "all_resolve": lambda: [n for n in seq2seq.__all__ if getattr(seq2seq, n) is None],
        "state_size": state_size,
    }
    found = {}
    for label, call in calls.items():
        with tf.Graph().as_default():
            try:
                value = call()
                found[label] = value if isinstance(value, str) else repr(value)
            except Exception as err:  # noqa: BLE001
                found[label] = "%s: %s" % (type(err).__name__, err)
    return found


INITIALIZED = ("attention_g", "attention_b", "attention_score_bias")
INITIAL_CASES = ("bahdanau_normalize", "bahdanau_monotonic_recursive", "luong_scale", "luong_monotonic_parallel")


def _initial_values(M):
    """The initial values of the variables TF 1.15 initialized to constants, by case (nothing restored)."""
    v1 = tf.compat.v1
    found = {}
    for name in INITIAL_CASES:
        with tf.Graph().as_default():
            getattr(cases, name)(tf, M)
            variables = [v for v in v1.global_variables() if v.op.name.rsplit("/", 1)[-1] in INITIALIZED]
            with v1.Session() as sess:
                sess.run(v1.variables_initializer(variables))
                found[name] = {v.op.name: sess.run(v).tolist() for v in variables}
    return found


def main(out_path):
    tf.compat.v1.disable_eager_execution()
    M = types.SimpleNamespace(s2s=seq2seq)
    results = {"tensorflow": tf.__version__, "cases": {}}
    for name in cases.CASES:
        try:
            results["cases"][name] = cases.run_case(tf, M, name, os.path.join(DATA, "ckpt", name), save=False)
        except Exception:  # noqa: BLE001  (reported per case by the test)
            results["cases"][name] = {"error": traceback.format_exc()}
    results["checks"] = cases.run_checks(tf, M)
    results["extra"] = _extra()
    results["initial"] = _initial_values(M)
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1])
