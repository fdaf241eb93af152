"""tf1clip.contrib.staging.StagingArea: TF 1.15's graph (node names, shared names, colocation; recorded on TF 1.15.5
with the same calls), its values in a Session, and its bad-input messages. The oracle program
tests/oracle/programs/contrib_staging_prefetch.py trains through it against TF 1.15."""

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import staging

v1 = tf.compat.v1

# TF 1.15.5, the calls of _build below: every node of the graph, in order.
TF115_NODES = [
    "input/input/StagingArea_root/NoOp",
    "StagingArea_root/NoOp",
    "Const",
    "Const_1",
    "input/StagingArea_put",
    "input/StagingArea_get",
    "NoOp",
    "input/StagingArea_peek/index",
    "input/StagingArea_peek",
    "NoOp_1",
    "input/StagingArea_size",
    "input/StagingArea_clear",
    "StagingArea_1_root/NoOp",
    "StagingArea_1_put",
    "StagingArea_1_get",
    "NoOp_2",
]


def _build():
    with tf.name_scope("input"):
        area = staging.StagingArea([tf.float32, tf.int32], shapes=[[2], []])
    other = staging.StagingArea([tf.float32])
    x, y = tf.constant([1.0, 2.0]), tf.constant(3)
    ops = {"put": area.put([x, y]), "get": area.get(), "peek": area.peek(0), "size": area.size()}
    ops["clear"] = area.clear()
    named = staging.StagingArea([tf.float32], names=["x"])
    ops["named_put"], ops["named_get"] = named.put({"x": x}), named.get()
    return area, other, named, ops


def test_graph_names_match_tf115():
    with tf.Graph().as_default() as g:
        area, other, named, ops = _build()
        assert [n.name for n in g.as_graph_def().node] == TF115_NODES
        assert (area.name, other.name, named.name) == ("input/StagingArea", "StagingArea", "StagingArea_1")
        put = ops["put"]
        assert put.type == "Stage" and put.name == "input/StagingArea_put"
        assert put.get_attr("shared_name") == b"input/StagingArea"
        assert put.colocation_groups() == [b"loc:@input/input/StagingArea_root/NoOp"]
        assert [t.name for t in ops["get"]] == ["input/StagingArea_get:0", "input/StagingArea_get:1"]
        assert [t.shape.as_list() for t in ops["get"]] == [[2], []]
        assert ops["size"].name == "input/StagingArea_size:0" and ops["size"].dtype == tf.int32
        assert ops["clear"].type == "StageClear"
        assert list(ops["named_get"]) == ["x"] and ops["named_get"]["x"].name == "StagingArea_1_get:0"
        assert ops["named_get"]["x"].shape.rank is None


def test_put_get_peek_size_clear_values():
    with tf.Graph().as_default():
        area, _, named, ops = _build()
        with v1.Session() as sess:
            sess.run(ops["put"])
            sess.run(ops["put"])
            assert sess.run(ops["size"]) == 2
            peeked = sess.run(ops["peek"])
            np.testing.assert_array_equal(peeked[0], [1.0, 2.0])
            assert sess.run(ops["size"]) == 2
            got = sess.run(ops["get"])
            np.testing.assert_array_equal(got[0], [1.0, 2.0])
            assert got[1] == 3
            assert sess.run(ops["size"]) == 1
            sess.run(ops["clear"])
            assert sess.run(ops["size"]) == 0
            sess.run(ops["named_put"])
            np.testing.assert_array_equal(sess.run(ops["named_get"])["x"], [1.0, 2.0])


def test_attributes_and_explicit_names():
    with tf.Graph().as_default():
        area = staging.StagingArea(
            (tf.float32,), shapes=[[None, 3]], shared_name="shared", capacity=4, memory_limit=1024
        )
        put = area.put(v1.placeholder(tf.float32, [5, 3]), name="my_put")
        assert (area.name, area.dtypes, area.names, area.capacity, area.memory_limit) == (
            "shared",
            (tf.float32,),
            None,
            4,
            1024,
        )
        assert area.shapes == [tf.TensorShape([None, 3])]
        assert put.name == "my_put" and put.get_attr("capacity") == 4 and put.get_attr("memory_limit") == 1024
        assert area.get(name="my_get")[0].name == "my_get:0"
        assert area.size(name="n").name == "n:0"


def test_prefetch_loop_trains_on_the_batch_put_the_step_before():
    """The 2017 GPU-prefetch loop: a warm-up run puts batch 0; each step then trains on the batch gotten while
    putting the next one."""
    batches = [np.full([2, 1], float(i + 1), np.float32) for i in range(4)]
    with tf.Graph().as_default():
        feed = v1.placeholder(tf.float32, [2, 1])
        area = staging.StagingArea([tf.float32], shapes=[[2, 1]])
        put = area.put([feed])
        (x,) = area.get()
        w = v1.get_variable("w", initializer=1.0)
        loss = tf.reduce_mean(tf.square(w * x - 1.0))
        train = v1.train.GradientDescentOptimizer(0.01).minimize(loss)
        losses = []
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(put, {feed: batches[0]})
            for step in range(3):
                losses.append(sess.run([train, loss, put], {feed: batches[step + 1]})[1])
    want, w_value = [], 1.0
    for b in batches[:3]:
        want.append(np.mean((w_value * b - 1.0) ** 2))
        w_value -= 0.01 * np.mean(2.0 * (w_value * b - 1.0) * b)
    np.testing.assert_allclose(losses, want, rtol=1e-6)


def test_put_list_and_dict_forms():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        area = staging.StagingArea([tf.float32, tf.int32], shapes=[[2], []])
        assert area.put([x]).type == "Stage"  # the first components only, as TF 1.15 allowed
        assert len(area.put(x).inputs) == 1
        named = staging.StagingArea([tf.float32, tf.int32], names=["a", "b"])
        put = named.put({"b": tf.constant(1)})
        assert [t.dtype for t in put.inputs] == [tf.int32]


@pytest.mark.parametrize(
    "make,error,message",
    [
        (
            lambda a, b, x, y: a.put([y, x]),
            ValueError,
            "Datatypes do not match. '<dtype: 'int32'>' != '<dtype: 'float32'>'",
        ),
        (lambda a, b, x, y: a.put({"x": x}), ValueError, "Staging areas must have names to enqueue a dictionary"),
        (lambda a, b, x, y: b.put([x]), ValueError, "You must enqueue a dictionary in a staging area with names"),
        (
            lambda a, b, x, y: b.put({"z": x}),
            ValueError,
            "Keys in dictionary to put do not match names of staging area. Dictionary: (['z']), Queue: (['x'])",
        ),
        (
            lambda a, b, x, y: a.put([tf.constant([1.0, 2.0, 3.0]), y]),
            ValueError,
            "Shapes (3,) and (2,) are incompatible",
        ),
        (lambda a, b, x, y: a.put([x, y, y]), ValueError, "Unexpected number of inputs '3' vs '2'"),
        (
            lambda a, b, x, y: staging.StagingArea([tf.float32], shapes=[[1], [2]]),
            ValueError,
            "StagingArea shapes must be the same length as dtypes",
        ),
        (
            lambda a, b, x, y: staging.StagingArea([tf.float32], names=["a", "b"]),
            ValueError,
            "StagingArea names must be the same length as dtypes",
        ),
        (
            lambda a, b, x, y: staging.StagingArea([tf.float32], shared_name=3),
            ValueError,
            "shared_name must be a string",
        ),
        (
            lambda a, b, x, y: a.put([np.array([1.0, 2.0], np.float32), y]),
            TypeError,
            "StagingArea.put: values must be tensors, got array([1., 2.], dtype=float32) for component 0",
        ),
        (
            lambda a, b, x, y: a.put([1.0, 2]),
            TypeError,
            "StagingArea.put: values must be tensors, got 1.0 for component 0",
        ),
        (
            lambda a, b, x, y: staging.StagingArea(tf.float32),
            TypeError,
            "StagingArea: dtypes must be a list or tuple, got tf.float32",
        ),
    ],
)
def test_bad_inputs_raise_tf115s_messages(make, error, message):
    with tf.Graph().as_default():
        a = staging.StagingArea([tf.float32, tf.int32], shapes=[[2], []])
        b = staging.StagingArea([tf.float32], names=["x"])
        with pytest.raises(error) as info:
            make(a, b, tf.constant([1.0, 2.0]), tf.constant(3))
        assert str(info.value) == message


def test_eager_creation_is_refused():
    assert tf.executing_eagerly()
    with pytest.raises(RuntimeError, match="^StagingArea builds graph ops run by a Session: create it in a tf.Graph"):
        staging.StagingArea([tf.float32])
