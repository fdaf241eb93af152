"""tf1clip.contrib.lookup and tf1clip.contrib.data at run time: the values TF 1.15's tf.contrib gave (recorded on
TF 1.15.5 with the same calls; the oracle program tests/oracle/programs/contrib_lookup_data.py trains on them)."""

import pytest
import tensorflow as tf

from tf1clip.contrib import data as contrib_data
from tf1clip.contrib import lookup

v1 = tf.compat.v1


def _elements(dataset):
    next_element = v1.data.make_one_shot_iterator(dataset).get_next()
    out = []
    with v1.Session() as sess:
        while True:
            try:
                out.append(sess.run(next_element))
            except tf.errors.OutOfRangeError:
                return out


def test_sliding_window_batch_gives_tf115s_windows():
    with tf.Graph().as_default():
        shifted = tf.data.Dataset.range(7).apply(contrib_data.sliding_window_batch(3, window_shift=2))
        strided = tf.data.Dataset.range(8).apply(contrib_data.sliding_window_batch(2, stride=3, window_stride=2))
        pairs = tf.data.Dataset.from_tensor_slices(({"a": tf.range(5)}, tf.range(5) * 10))
        nested = pairs.apply(contrib_data.sliding_window_batch(4))
        assert v1.data.get_output_shapes(shifted).as_list() == [None]
        assert [x.tolist() for x in _elements(shifted)] == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
        assert [x.tolist() for x in _elements(strided)] == [[0, 2], [3, 5]]
        assert [(d["a"].tolist(), y.tolist()) for d, y in _elements(nested)] == [
            ([0, 1, 2, 3], [0, 10, 20, 30]),
            ([1, 2, 3, 4], [10, 20, 30, 40]),
        ]


def test_sliding_window_batch_refuses_stride_and_window_shift():
    with pytest.raises(ValueError, match="Cannot specify both `stride` and `window_shift`"):
        contrib_data.sliding_window_batch(2, stride=1, window_shift=1)


def test_batch_and_drop_remainder_has_a_static_batch():
    with tf.Graph().as_default():
        batched = tf.data.Dataset.range(7).apply(contrib_data.batch_and_drop_remainder(3))
        padded = tf.data.Dataset.range(5).map(lambda x: tf.fill([x], x))
        padded = padded.apply(contrib_data.padded_batch_and_drop_remainder(2, [3]))
        assert v1.data.get_output_shapes(batched).as_list() == [3]
        assert [x.tolist() for x in _elements(batched)] == [[0, 1, 2], [3, 4, 5]]
        assert [x.tolist() for x in _elements(padded)] == [[[0, 0, 0], [1, 0, 0]], [[2, 2, 0], [3, 3, 3]]]


def test_routed_data_names_are_tf_datas():
    assert contrib_data.map_and_batch is tf.data.experimental.map_and_batch
    assert contrib_data.Iterator is v1.data.Iterator


def test_lookup_tables_give_tf115s_values():
    with tf.Graph().as_default(), v1.Session() as sess:
        table = lookup.HashTable(lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1, shared_name="ignored")
        sess.run(table.init)
        ids = lookup.string_to_index(tf.constant(["x", "y", "z"]), mapping=tf.constant(["y", "x"]))
        words = lookup.index_to_string(tf.constant([1, 0, 5], tf.int64), mapping=tf.constant(["y", "x"]))
        sess.run(v1.tables_initializer())
        assert sess.run(table.lookup(tf.constant(["a", "c", "b"]))).tolist() == [1, -1, 2]
        assert table.name == "hash_table"
        assert sess.run(ids).tolist() == [1, 0, -1]
        assert sess.run(words).tolist() == [b"x", b"y", b"UNK"]


def test_lookup_functions_name_the_missing_mapping():
    with pytest.raises(ValueError, match="mapping must be specified"):
        lookup.index_table_from_tensor(None)
    with tf.Graph().as_default(), pytest.raises(ValueError, match="requires string"):
        lookup.string_to_index_table_from_tensor([1, 2])
