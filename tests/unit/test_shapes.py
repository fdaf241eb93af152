"""tf1clip.use_tf1_shapes: TF 1.15's rule that a whole-number float is a dimension (docs/upgrade.rst)."""

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import shapes

v1 = tf.compat.v1


@pytest.fixture
def tf1_shapes():
    tf1clip.use_tf1_shapes()
    yield
    tf1clip.use_tf1_shapes(False)


def test_tensorflow_2_refuses_floats_without_the_call():
    assert not shapes.tf1_shapes_enabled()
    with pytest.raises(TypeError, match="Dimension value must be integer or None"):
        tf.TensorShape([8.0, 2])


@pytest.mark.usefixtures("tf1_shapes")
@pytest.mark.parametrize("value", [8.0, np.float32(8.0), np.float64(8.0)])
def test_a_whole_number_float_is_a_dimension(value):
    shape = tf.TensorShape([value, 2])
    assert shape.as_list() == [8, 2] and all(type(d) is int for d in shape.as_list())
    assert tf.compat.v1.Dimension(value).value == 8
    with tf.Graph().as_default():
        assert v1.get_variable("w", [value, 3]).shape.as_list() == [8, 3]
        assert v1.placeholder(tf.float32, [None, value]).shape.as_list() == [None, 8]


@pytest.mark.usefixtures("tf1_shapes")
def test_other_values_keep_their_errors():
    with pytest.raises(ValueError, match=r"^Ambiguous dimension: 7\.5$"):
        tf.TensorShape([7.5])
    with pytest.raises(ValueError, match="NaN"):
        tf.TensorShape([float("nan")])
    with pytest.raises(TypeError, match="Dimension value must be integer or None"):
        tf.TensorShape(["8"])
    with pytest.raises(ValueError, match="must be >= 0"):
        tf.TensorShape([-2.0])
    assert tf.TensorShape([None, 3, True]).as_list() == [None, 3, 1]


def test_idempotent_and_reversible():
    tf1clip.use_tf1_shapes()
    tf1clip.use_tf1_shapes()
    try:
        assert shapes.tf1_shapes_enabled()
        assert tf.TensorShape([4.0]).as_list() == [4]
    finally:
        tf1clip.use_tf1_shapes(False)
    tf1clip.use_tf1_shapes(False)
    assert not shapes.tf1_shapes_enabled()
    with pytest.raises(TypeError):
        tf.TensorShape([4.0])


def test_enabled_must_be_a_bool():
    with pytest.raises(TypeError, match=r"use_tf1_shapes: enabled must be True or False, got 'yes'"):
        tf1clip.use_tf1_shapes("yes")
