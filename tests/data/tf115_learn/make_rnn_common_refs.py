"""Records TF 1.15.5's tf.contrib.learn rnn_common results for tests/keras2/test_contrib_learn_rnn_common.py.

Run with the oracle's TensorFlow 1.15 (tests/oracle/tf115_env.py) from this directory:
    env -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python make_rnn_common_refs.py
Writes rnn_common_refs.json.
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn.estimators import rnn_common

ACTIVATIONS = np.arange(2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3) * 0.5 - 3.0
LABELS = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=np.int32)
LENGTHS = [3, 1]
CELLS = [("basic_rnn", [4]), ("lstm", [3, 2]), ("gru", 5)]
INPUTS = np.linspace(-1.0, 1.0, 2 * 3 * 2, dtype=np.float32).reshape(2, 3, 2)


def describe(cell):
    if isinstance(cell, tf.nn.rnn_cell.MultiRNNCell):
        return ["MultiRNNCell", [describe(c) for c in cell._cells]]
    if isinstance(cell, tf.nn.rnn_cell.DropoutWrapper):
        probs = [cell._input_keep_prob, cell._output_keep_prob, cell._state_keep_prob, cell._seed]
        return ["DropoutWrapper", probs, describe(cell.wrapped_cell)]
    return type(cell).__name__


def cell_refs(cell_type, num_units):
    with tf.Graph().as_default():
        cell = rnn_common.construct_rnn_cell(num_units, cell_type)
        with tf.variable_scope("rnn_model", initializer=tf.constant_initializer(0.1)):
            outputs, _ = tf.nn.dynamic_rnn(cell, tf.constant(INPUTS), sequence_length=[3, 2], dtype=tf.float32)
        variables = [[v.op.name, v.shape.as_list()] for v in tf.global_variables()]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return {"variables": variables, "outputs": sess.run(outputs).tolist(), "structure": describe(cell)}


def main():
    refs = {"activations": ACTIVATIONS.tolist(), "labels": LABELS.tolist(), "lengths": LENGTHS}
    refs["inputs"] = INPUTS.tolist()
    with tf.Graph().as_default():
        acts, labels = tf.constant(ACTIVATIONS), tf.constant(LABELS)
        last = rnn_common.select_last_activations(acts, tf.constant(LENGTHS))
        last_none = rnn_common.select_last_activations(acts, None)
        masked = rnn_common.mask_activations_and_labels(acts, labels, tf.constant(LENGTHS))
        masked_none = rnn_common.mask_activations_and_labels(acts, labels, None)
        refs["static_shapes"] = [last.shape.as_list(), [t.shape.as_list() for t in masked]]
        with tf.Session() as sess:
            values = sess.run([last, last_none, masked, masked_none])
    refs["last"], refs["last_none"] = values[0].tolist(), values[1].tolist()
    refs["masked"] = [t.tolist() for t in values[2]]
    refs["masked_none"] = [t.tolist() for t in values[3]]
    refs["cells"] = {"%s_%s" % (t, n): cell_refs(t, n) for t, n in CELLS}
    with tf.Graph().as_default():
        cell = rnn_common.construct_rnn_cell([4, 3], "gru", [0.9, 0.8, 0.7])
        refs["dropout_structure"] = describe(cell)
        cells = rnn_common.apply_dropout([tf.nn.rnn_cell.BasicRNNCell(2) for _ in range(3)], [1.0, 0.5, 0.6, 0.7], 7)
        refs["apply_dropout_structure"] = [describe(c) for c in cells]
    with open("rnn_common_refs.json", "w") as f:
        json.dump(refs, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
