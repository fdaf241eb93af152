"""``tf1clip.contrib.layers.embed_sequence``: TF 1.15's ``tf.contrib.layers.embed_sequence``.

Values against ``table[ids]`` in NumPy; the variable ``<scope>/embeddings`` and its collections;
reuse, the regularizer, ``unique=True``, ``trainable=False``, sparse gradients; the upgrader's
conversion. Both ways of making the variable are tested: ``get_variable`` (tf-slim not imported)
and tf-slim's ``model_variable``. tests/oracle/programs/embed_sequence.py compares with TF 1.15.
"""

import sys

import numpy as np
import pytest
import tensorflow as tf

import tf1clip.contrib
from tf1clip.contrib.layers import embed_sequence
from tf1clip.upgrade import upgrade_source

v1 = tf.compat.v1
TABLE = np.arange(15.0, dtype=np.float32).reshape(5, 3) / 4.0


@pytest.fixture(params=["get_variable", "tf_slim"])
def variable_maker(request, monkeypatch):
    """Runs the test with tf-slim not imported, then imported (its ``model_variable`` makes the table)."""
    if request.param == "tf_slim":
        pytest.importorskip("tf_slim")
        assert tf1clip.contrib.framework.model_variable is not None
    else:
        monkeypatch.delitem(sys.modules, "tf_slim", raising=False)
    return request.param


def embed(ids, **kwargs):
    kwargs.setdefault("initializer", v1.constant_initializer(TABLE))
    return embed_sequence(ids, 5, 3, **kwargs)


def run(sess, *tensors):
    sess.run(v1.global_variables_initializer())
    return sess.run(list(tensors))


@pytest.mark.parametrize("ids", [[4, 0, 4], [[1, 1], [2, 3]], [[[0, 4], [3, 3]], [[2, 1], [1, 0]]]])
def test_values_and_shapes_are_table_rows(sess, variable_maker, ids):
    out = embed(tf.constant(ids))
    (value,) = run(sess, out)
    np.testing.assert_array_equal(value, TABLE[np.array(ids)])
    assert out.shape.as_list() == list(np.shape(ids)) + [3]
    assert out.dtype == tf.float32


def test_unknown_batch_size_keeps_static_dims(graph, variable_maker):
    ids = v1.placeholder(tf.int64, [None, 7])
    assert embed(ids).shape.as_list() == [None, 7, 3]
    assert embed(ids, unique=True).shape.as_list() == [None, 7, 3]


def test_variable_name_scope_and_collections(graph, variable_maker):
    out = embed(tf.constant([[1]]))
    second = embed(tf.constant([[1]]))
    named = embed(tf.constant([[1]]), scope="enc")
    names = ["EmbedSequence/embeddings", "EmbedSequence_1/embeddings", "enc/embeddings"]
    for key in ("variables", "model_variables", "trainable_variables"):
        assert [v.op.name for v in v1.get_collection(key)] == names, key
    var = v1.global_variables()[0]
    assert var.shape.as_list() == [5, 3] and var.dtype.base_dtype == tf.float32
    assert out.name.startswith("EmbedSequence/") and second.name.startswith("EmbedSequence_1/")
    assert named.name.startswith("enc/")


def test_default_initializer_is_the_scopes(sess, variable_maker):
    with v1.variable_scope("outer", initializer=v1.constant_initializer(2.5)):
        out = embed_sequence(tf.constant([0, 3]), vocab_size=4, embed_dim=2)
    (value,) = run(sess, out)
    np.testing.assert_array_equal(value, np.full((2, 2), 2.5, np.float32))
    assert v1.global_variables()[0].op.name == "outer/EmbedSequence/embeddings"


@pytest.mark.parametrize(
    "reuse_kwargs",
    [
        dict(reuse=True),
        dict(reuse=True, vocab_size=5),
        dict(reuse=True, vocab_size=5, embed_dim=3),
        dict(reuse=v1.AUTO_REUSE, vocab_size=5, embed_dim=3),
    ],
    ids=["no_sizes", "vocab_size_only", "both_sizes", "auto_reuse"],
)
def test_reuse_shares_the_variable(sess, variable_maker, reuse_kwargs):
    first = embed(tf.constant([[0, 1]]), scope="shared")
    kwargs = dict(reuse_kwargs)
    shared = embed_sequence(tf.constant([[4, 2, 2]]), scope="shared", **kwargs)
    assert [v.op.name for v in v1.global_variables()] == ["shared/embeddings"]
    assert len(v1.model_variables()) == 1
    a, b = run(sess, first, shared)
    np.testing.assert_array_equal(a, TABLE[[[0, 1]]])
    np.testing.assert_array_equal(b, TABLE[[[4, 2, 2]]])


def test_reuse_of_a_get_variable_table(sess, variable_maker):
    """TF 1.15's own test: a table made with get_variable, looked up with reuse=True."""
    with v1.variable_scope("test"):
        v1.get_variable("embeddings", (4, 3), initializer=v1.constant_initializer(np.arange(12.0).reshape(4, 3)))
    out = embed_sequence([[1, 1], [2, 3]], 4, 3, scope="test", reuse=True)
    (value,) = run(sess, out)
    np.testing.assert_array_equal(value, [[[3, 4, 5], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]])


def test_reuse_with_another_shape_raises(graph, variable_maker):
    embed(tf.constant([0]), scope="s")
    with pytest.raises(ValueError, match=r"shape"):
        embed_sequence(tf.constant([0]), 6, 3, scope="s", reuse=True)


@pytest.mark.parametrize(
    "vocab_size, embed_dim", [(None, 3), (5, None), (None, None)], ids=["no_vocab", "no_dim", "neither"]
)
def test_missing_sizes_without_reuse_raise_contribs_error(graph, vocab_size, embed_dim):
    message = "Must specify vocab size and embedding dimension when not reusing. Got vocab_size=%s and embed_dim=%s" % (
        vocab_size,
        embed_dim,
    )
    with pytest.raises(ValueError, match="^%s$" % message):
        embed_sequence(tf.constant([0]), vocab_size, embed_dim)
    assert not v1.global_variables()


def test_regularizer_loss(sess, variable_maker):
    embed(tf.constant([0]), regularizer=lambda t: 0.5 * tf.reduce_sum(tf.square(t)), scope="reg")
    (loss,) = v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES)
    assert loss.op.name.startswith("reg/embeddings/Regularizer/")
    (value,) = run(sess, loss)
    np.testing.assert_allclose(value, 0.5 * np.sum(TABLE.astype(np.float64) ** 2), rtol=1e-6)


def test_unique_equals_plain_lookup(sess, variable_maker):
    ids = v1.placeholder(tf.int32, [None, None, 2])
    plain = embed(ids, scope="e")
    unique = embed_sequence(ids, scope="e", reuse=True, unique=True)
    assert (plain.name, unique.name) == ("e/embedding_lookup/Identity:0", "e_1/EmbeddingLookupUnique/Reshape_1:0")
    data = np.array([[[3, 3], [0, 3]], [[4, 4], [3, 0]], [[1, 1], [1, 1]]])
    sess.run(v1.global_variables_initializer())
    a, b = sess.run([plain, unique], {ids: data})
    np.testing.assert_array_equal(a, TABLE[data])
    np.testing.assert_array_equal(b, TABLE[data])


def test_not_trainable(graph, variable_maker):
    embed(tf.constant([0]), trainable=False)
    assert [v.op.name for v in v1.model_variables()] == ["EmbedSequence/embeddings"]
    assert v1.trainable_variables() == []


@pytest.mark.parametrize("unique", [False, True])
def test_sparse_gradient_and_training_step_change_only_looked_up_rows(sess, variable_maker, unique):
    ids = tf.constant([[1, 3], [3, 3]])
    out = embed(ids, unique=unique)
    loss = tf.reduce_sum(out * tf.constant([1.0, 2.0, 3.0]))
    var = v1.trainable_variables()[0]
    (grad,) = tf.gradients(loss, [var])
    assert isinstance(grad, tf.IndexedSlices)
    train = v1.train.GradientDescentOptimizer(0.1).apply_gradients([(grad, var)])
    sess.run(v1.global_variables_initializer())
    dense_grad = sess.run(tf.convert_to_tensor(grad))
    sess.run(train)
    after = sess.run(var)
    counts = np.bincount([1, 3, 3, 3], minlength=5)[:, None]
    np.testing.assert_allclose(dense_grad, counts * np.array([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(after, TABLE - 0.1 * dense_grad, rtol=1e-6)
    np.testing.assert_array_equal(after[[0, 2, 4]], TABLE[[0, 2, 4]])


def test_slim_arg_scope_device_reaches_the_variable(graph):
    """With tf-slim, ``arg_scope([model_variable], device=...)`` places the table, as contrib's did."""
    slim = tf1clip.contrib.slim
    with slim.arg_scope([slim.model_variable], device="/cpu:0"):
        embed(tf.constant([0]))
    assert v1.global_variables()[0].device.endswith("device:CPU:0")


def test_sizes_as_tf1_took_them(graph, variable_maker):
    """Integral floats, NumPy integers and ``Dimension`` are sizes, as on TF 1.15."""
    embed_sequence(tf.constant([0]), np.int64(5), 3.0, scope="a")
    embed_sequence(tf.constant([0]), v1.Dimension(5), np.float32(3), scope="b")
    assert [v.shape.as_list() for v in v1.global_variables()] == [[5, 3], [5, 3]]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(vocab_size="5", embed_dim=3), TypeError, "`vocab_size` must be an int; received str '5'."),
        (dict(vocab_size=5, embed_dim=2.5), TypeError, "`embed_dim` must be an int; received float 2.5."),
        (dict(vocab_size=True, embed_dim=3), TypeError, "`vocab_size` must be an int; received bool True."),
        (dict(vocab_size=0, embed_dim=3), ValueError, "`vocab_size` must be >= 1; received 0."),
        (dict(vocab_size=5, embed_dim=-2), ValueError, "`embed_dim` must be >= 1; received -2."),
        (dict(vocab_size=0, embed_dim=3, reuse=True), ValueError, "`vocab_size` must be >= 1; received 0."),
    ],
)
def test_bad_sizes_name_the_argument(graph, kwargs, error, message):
    with pytest.raises(error) as info:
        embed_sequence(tf.constant([0]), **kwargs)
    assert str(info.value) == message
    assert not v1.global_variables()


@pytest.mark.parametrize(
    "make_ids, message",
    [
        (
            lambda: tf.constant([0.0, 1.0], name="fids"),
            "`ids` must be of an integer dtype (int32, int64); received a float32 tensor 'fids:0'.",
        ),
        (
            lambda: [0.5, 1.0],
            "`ids` must be of an integer dtype (int32, int64); received list [0.5, 1.0] of dtype float64.",
        ),
        (
            lambda: tf.sparse.from_dense([[1, 2]]),
            "`ids` must be a dense integer Tensor; received a SparseTensor (use tf.sparse.to_dense first).",
        ),
        (
            lambda: tf.ragged.constant([[1], [2, 3]]),
            "`ids` must be a dense integer Tensor; received a RaggedTensor (use tf.sparse.to_dense first).",
        ),
    ],
    ids=["float_tensor", "float_list", "sparse", "ragged"],
)
def test_bad_ids_name_the_argument(graph, make_ids, message):
    with pytest.raises(TypeError) as info:
        embed_sequence(make_ids(), 5, 3)
    assert str(info.value) == message
    assert not v1.global_variables()


def test_upgraded_program_runs():
    """``tf.contrib.layers.embed_sequence`` (every import spelling) converts without ERROR and runs."""
    source = (
        "import numpy as np\n"
        "import tensorflow as tf\n"
        "from tensorflow.contrib.layers import embed_sequence\n"
        "from tensorflow.contrib.layers.python.layers import encoders\n"
        "ids = tf.placeholder(tf.int32, [None, 2])\n"
        "init = tf.constant_initializer(np.arange(8.0).reshape(4, 2))\n"
        "enc = tf.contrib.layers.embed_sequence(ids, vocab_size=4, embed_dim=2, initializer=init, scope='emb')\n"
        "dec = embed_sequence(ids, scope='emb', reuse=True, unique=True)\n"
        "other = encoders.embed_sequence(ids, 4, 2, initializer=init)\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    values = sess.run([enc, dec, other], {ids: [[3, 0]]})\n"
        "names = [v.op.name for v in tf.model_variables()]\n"
    )
    result = upgrade_source(source, target="modern")
    assert not [e for e in result.log if e.severity == "ERROR"], (result.log, result.text)
    assert "tf1clip.contrib.layers.embed_sequence(ids, vocab_size=4" in result.text
    assert "from tf1clip.contrib.layers import embed_sequence" in result.text
    assert "tf.contrib" not in result.text and "tensorflow.contrib" not in result.text
    assert "tf.compat.v1.disable_v2_behavior()" in result.text
    runnable = "\n".join(line for line in result.text.splitlines() if "disable_v2_behavior" not in line)
    namespace = {}
    with tf.Graph().as_default():
        exec(compile(runnable, "converted", "exec"), namespace)
    for value in namespace["values"]:
        np.testing.assert_array_equal(value, [[[6.0, 7.0], [0.0, 1.0]]])
    assert namespace["names"] == ["emb/embeddings", "EmbedSequence/embeddings"]
