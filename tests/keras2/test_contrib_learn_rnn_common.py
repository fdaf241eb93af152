"""tf1clip.contrib.learn.rnn_common against TF 1.15.5 (tests/data/tf115_learn/make_rnn_common_refs.py) and NumPy, in
TF 1 mode (its cells are tf.compat.v1.nn.rnn_cell's: Keras 2)."""

import json
import os

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib.learn import rnn_common

REFS_PATH = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_learn", "rnn_common_refs.json"
)
with open(REFS_PATH) as _f:
    REFS = json.load(_f)
ACTIVATIONS = np.array(REFS["activations"], dtype=np.float32)
LABELS = np.array(REFS["labels"], dtype=np.int32)


def _run(fetches):
    with tf.compat.v1.Session() as sess:
        return sess.run(fetches)


def test_select_last_activations_matches_tf115_and_numpy():
    with tf.Graph().as_default():
        acts = tf.constant(ACTIVATIONS)
        last = rnn_common.select_last_activations(acts, tf.constant(REFS["lengths"]))
        last_none = rnn_common.select_last_activations(acts, None)
        assert last.shape.as_list() == REFS["static_shapes"][0]
        got, got_none = _run([last, last_none])
    np.testing.assert_array_equal(got, REFS["last"])
    np.testing.assert_array_equal(got_none, REFS["last_none"])
    lengths = np.array(REFS["lengths"])
    np.testing.assert_array_equal(got, ACTIVATIONS[np.arange(2), lengths - 1])
    np.testing.assert_array_equal(got_none, ACTIVATIONS[:, -1])


def test_mask_activations_and_labels_matches_tf115():
    with tf.Graph().as_default():
        acts, labels = tf.constant(ACTIVATIONS), tf.constant(LABELS)
        masked = rnn_common.mask_activations_and_labels(acts, labels, tf.constant(REFS["lengths"]))
        masked_none = rnn_common.mask_activations_and_labels(acts, labels, None)
        assert [t.shape.as_list() for t in masked] == REFS["static_shapes"][1]
        got, got_none = _run([masked, masked_none])
    for value, ref in zip(got + got_none, REFS["masked"] + REFS["masked_none"]):
        np.testing.assert_array_equal(value, ref)
    np.testing.assert_array_equal(got[1], [1, 2, 3, 5])


def test_keys_are_tf115s():
    assert rnn_common.RNNKeys.SEQUENCE_LENGTH_KEY == "sequence_length"
    assert rnn_common.RNNKeys.STATE_PREFIX == "rnn_cell_state"
    assert (rnn_common.PredictionType.SINGLE_VALUE, rnn_common.PredictionType.MULTIPLE_VALUE) == (1, 2)
    assert not hasattr(rnn_common, "get_eval_metric_ops")
    assert not hasattr(rnn_common, "multi_value_predictions")


rnn_cell = tf.compat.v1.nn.rnn_cell


def _describe(cell):
    if isinstance(cell, rnn_cell.MultiRNNCell):
        return ["MultiRNNCell", [_describe(c) for c in cell._cells]]
    if isinstance(cell, rnn_cell.DropoutWrapper):
        probs = [cell._input_keep_prob, cell._output_keep_prob, cell._state_keep_prob, cell._seed]
        return ["DropoutWrapper", probs, _describe(cell.wrapped_cell)]
    return type(cell).__name__


def _cell_result(cell_type, num_units):
    with tf.Graph().as_default():
        cell = rnn_common.construct_rnn_cell(num_units, cell_type)
        with tf.compat.v1.variable_scope("rnn_model", initializer=tf.compat.v1.constant_initializer(0.1)):
            inputs = tf.constant(np.array(REFS["inputs"], np.float32))
            outputs, _ = tf.compat.v1.nn.dynamic_rnn(cell, inputs, sequence_length=[3, 2], dtype=tf.float32)
        variables = [[v.op.name, v.shape.as_list()] for v in tf.compat.v1.global_variables()]
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            return {"variables": variables, "outputs": sess.run(outputs).tolist(), "structure": _describe(cell)}


CELLS = {"basic_rnn_[4]": ("basic_rnn", [4]), "lstm_[3, 2]": ("lstm", [3, 2]), "gru_5": ("gru", 5)}


@pytest.mark.parametrize("key", sorted(REFS["cells"]))
def test_construct_rnn_cell_matches_tf115(key):
    got, ref = _cell_result(*CELLS[key]), REFS["cells"][key]
    assert got["structure"] == ref["structure"]
    assert got["variables"] == ref["variables"]
    np.testing.assert_allclose(got["outputs"], ref["outputs"], rtol=1e-6, atol=1e-6)


def _rounded(value):
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return round(value, 6) if isinstance(value, float) else value


def test_dropout_wrappers_match_tf115():
    with tf.Graph().as_default():
        dropout = _describe(rnn_common.construct_rnn_cell([4, 3], "gru", [0.9, 0.8, 0.7]))
        cells = rnn_common.apply_dropout([rnn_cell.BasicRNNCell(2) for _ in range(3)], [1.0, 0.5, 0.6, 0.7], 7)
        applied = [_describe(c) for c in cells]
    assert _rounded(dropout) == _rounded(REFS["dropout_structure"])
    assert _rounded(applied) == _rounded(REFS["apply_dropout_structure"])
    assert _rounded(REFS["apply_dropout_structure"][2]) == ["DropoutWrapper", [0.6, 0.7, 1.0, None], "BasicRNNCell"]


def test_bad_arguments_raise_value_errors_naming_them():
    with tf.Graph().as_default():
        cells = [rnn_cell.BasicRNNCell(2) for _ in range(3)]
        with pytest.raises(ValueError, match=r"^dropout_keep_probabilities: .*Got 3 cells and 1 dropout"):
            rnn_common.apply_dropout(cells, [0.5])
        with pytest.raises(ValueError, match=r"^cell_type: .*'nope'"):
            rnn_common.construct_rnn_cell(3, "nope")
