"""``tf.contrib.layers``' dense feature column ``real_valued_column`` (TF 1.15's ``layers/feature_column.py``).

The contrib feature columns are what ``tf.contrib.learn``'s canned estimators (``DNNClassifier``,
``LinearRegressor`` ...) and ``infer_real_valued_columns_from_input`` built on; ``feature_column_ops`` turns them
into a network's input (``input_from_feature_columns``) or a linear model (``weighted_sum_from_feature_columns``)
with TF 1.15's variable names. Only the real-valued column is re-created: the sparse, embedding, bucketized and
crossed columns are ``tf.compat.v1.feature_column``'s (``categorical_column_with_hash_bucket``, ...), which the
learn estimators also take.
"""

import collections
from typing import Any, Dict, List, Optional

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.layers._column_base import FeatureColumn

__all__ = _manifest.names_of(__name__)

_FeatureColumn = FeatureColumn  # TF 1.15's name of the contrib columns' base class


class _RealValuedColumn(
    _FeatureColumn,
    collections.namedtuple("_RealValuedColumn", ["column_name", "dimension", "default_value", "dtype", "normalizer"]),
):
    """A dense float column of ``dimension`` values (``real_valued_column``)."""

    def __new__(cls, column_name, dimension, default_value, dtype, normalizer):
        if default_value is not None:
            default_value = tuple(default_value)
        return super().__new__(cls, column_name, dimension, default_value, dtype, normalizer)

    @property
    def name(self) -> str:
        return self.column_name

    @property
    def config(self) -> Dict[str, Any]:
        default = None if self.default_value is None else list(self.default_value)
        return {self.column_name: tf.io.FixedLenFeature([self.dimension], self.dtype, default)}

    @property
    def key(self) -> str:
        """The sort and identity key: every field but ``normalizer``."""
        return self._key_without_properties(["normalizer"])

    @property
    def normalizer_fn(self) -> Any:
        return self.normalizer

    def _normalized_input_tensor(self, input_tensor: Any) -> Any:
        return self.normalizer(input_tensor) if self.normalizer is not None else input_tensor

    def insert_transformed_feature(self, columns_to_tensors: Dict[Any, Any]) -> None:
        """Adds ``columns_to_tensors[self]``: the (normalized) input cast to float32."""
        tensor = self._normalized_input_tensor(columns_to_tensors[self.name])
        columns_to_tensors[self] = tf.cast(tensor, tf.float32)

    def _to_dnn_input_layer(self, input_tensor, weight_collections=None, trainable=True, output_rank=2):
        input_tensor = self._to_dense_tensor(input_tensor)
        if input_tensor.dtype != tf.float32:
            input_tensor = tf.cast(input_tensor, tf.float32)
        return _reshape_real_valued_tensor(input_tensor, output_rank, self.name)

    def _to_dense_tensor(self, input_tensor: Any) -> Any:
        return input_tensor


def _reshape_real_valued_tensor(input_tensor: Any, output_rank: int, column_name: Optional[str] = None) -> Any:
    """Rank ``output_rank``: one more dimension at the end, or the inner dimensions flattened (TF 1.15)."""
    input_rank = input_tensor.get_shape().ndims
    if input_rank is not None:
        if output_rank > input_rank + 1:
            message = (
                "Rank of input Tensor ({}) should be the same as output_rank ({}). For example, sequence data should "
                "typically be 3 dimensional (rank 3) while non-sequence data is typically 2 dimensional (rank 2)."
            ).format(input_rank, output_rank)
            if column_name is not None:
                message = "Error while processing column {}.".format(column_name) + message
            raise ValueError(message)
        if output_rank == input_rank + 1:
            return tf.expand_dims(input_tensor, -1, name="expand_dims")
        if output_rank == input_rank:
            return input_tensor
    return inner_flatten(input_tensor, output_rank)


def inner_flatten(inputs: Any, new_rank: int) -> Any:
    """``inputs`` with its dimensions from ``new_rank - 1`` on flattened into one (contrib's ``_inner_flatten``)."""
    with tf.name_scope("InnerFlatten"):
        inputs = tf.convert_to_tensor(inputs)
        check = tf.compat.v1.assert_rank_at_least(inputs, new_rank, message="inputs has rank less than new_rank")
        with tf.control_dependencies([check]):
            outer = tf.strided_slice(tf.shape(inputs), [0], [new_rank - 1])
            reshaped = tf.reshape(inputs, tf.concat((outer, [-1]), 0))
    static = inputs.get_shape()
    if static.dims is not None:
        dims = static.as_list()
        inner = dims[new_rank - 1 :]
        flat = None if None in inner else int(_product(inner))
        reshaped.set_shape(dims[: new_rank - 1] + [flat])
    return reshaped


def _product(values: List[int]) -> int:
    result = 1
    for value in values:
        result *= value
    return result


def _default_value(column_name: str, dimension: int, default_value: Any, dtype: Any) -> Any:
    """TF 1.15's checks and conversions of ``default_value`` against ``dtype``; None when it is incompatible."""
    if isinstance(default_value, int) and (dtype.is_integer or dtype.is_floating):
        value = default_value if dtype.is_integer else float(default_value)
        return [value] * dimension
    if isinstance(default_value, float) and dtype.is_floating:
        return [default_value] * dimension
    if isinstance(default_value, list):
        if len(default_value) != dimension:
            raise ValueError(
                "The length of default_value must be equal to dimension. default_value: {}, dimension: {}, "
                "column_name: {}".format(default_value, dimension, column_name)
            )
        if all(isinstance(v, int) for v in default_value) and dtype.is_integer:
            return default_value
        if all(isinstance(v, int) or isinstance(v, float) for v in default_value) and dtype.is_floating:
            return [float(v) for v in default_value]
    return None


def real_valued_column(column_name, dimension=1, default_value=None, dtype=tf.float32, normalizer=None):
    """A real-valued column of ``dimension`` values per example, as ``tf.contrib.layers.real_valued_column``.

    ``default_value`` (an int, a float or a list of ``dimension`` of them) fills missing values when parsing
    examples; ``normalizer`` is applied to the input before it is cast to float32.

    Raises:
      TypeError: ``dimension`` is not an int, or ``default_value`` does not fit ``dtype``.
      ValueError: ``dimension`` < 1, ``dtype`` is neither integer nor floating, or the length of a list
        ``default_value`` is not ``dimension``.
    """
    if dimension is None:
        raise TypeError(
            "dimension must be an integer. Use the _real_valued_var_len_column for variable length features."
            "dimension: {}, column_name: {}".format(dimension, column_name)
        )
    if not isinstance(dimension, int):
        raise TypeError("dimension must be an integer. dimension: {}, column_name: {}".format(dimension, column_name))
    if dimension < 1:
        raise ValueError(
            "dimension must be greater than 0. dimension: {}, column_name: {}".format(dimension, column_name)
        )
    dtype = tf.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError("dtype must be convertible to float. dtype: {}, column_name: {}".format(dtype, column_name))
    if default_value is None:
        return _RealValuedColumn(column_name, dimension, None, dtype, normalizer)
    converted = _default_value(column_name, dimension, default_value, dtype)
    if converted is None:
        raise TypeError(
            "default_value must be compatible with dtype. default_value: {}, dtype: {}, column_name: {}".format(
                default_value, dtype, column_name
            )
        )
    return _RealValuedColumn(column_name, dimension, converted, dtype, normalizer)
