"""``tf.contrib.layers``' ``input_from_feature_columns``, ``weighted_sum_from_feature_columns`` and
``infer_real_valued_columns`` (TF 1.15's ``layers/feature_column_ops.py``), for the contrib columns of
``feature_column``.

Variable names are TF 1.15's: ``weighted_sum_from_feature_columns`` makes ``<scope>/<column name>/weight`` per
column and ``<scope>/bias_weight`` (model variables, zeros), the columns taken in the order of their ``key``.
"""

from typing import Any, Dict, Iterable, List, Optional

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest
from tf1clip.contrib.layers import feature_column as fc

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


class _Transformer:
    """Transforms each column once: ``columns_to_tensors[column]`` after ``insert_transformed_feature``."""

    def __init__(self, columns_to_tensors: Dict[Any, Any]):
        self._columns_to_tensors = columns_to_tensors

    def transform(self, feature_column: Any) -> Any:
        if feature_column in self._columns_to_tensors:
            return self._columns_to_tensors[feature_column]
        feature_column.insert_transformed_feature(self._columns_to_tensors)
        if feature_column not in self._columns_to_tensors:
            raise ValueError("Column {} is not supported.".format(feature_column.name))
        return self._columns_to_tensors[feature_column]


def check_feature_columns(feature_columns: Iterable[Any]) -> None:
    """Raises ValueError for a dict of columns or two columns with one ``key``."""
    if isinstance(feature_columns, dict):
        raise ValueError("Expected feature_columns to be iterable, found dict.")
    seen = set()
    for column in feature_columns:
        if column.key in seen:
            raise ValueError(
                "Duplicate feature column key found for column: {}. This usually means that the column is almost "
                "identical to another column, and one must be discarded.".format(column.name)
            )
        seen.add(column.key)


def _with_global(weight_collections: Optional[List[str]]) -> Optional[List[str]]:
    if weight_collections:
        return list(set(list(weight_collections) + [_v1.GraphKeys.GLOBAL_VARIABLES]))
    return weight_collections


def _sorted_columns(feature_columns: Iterable[Any]) -> List[Any]:
    return sorted(set(feature_columns), key=lambda column: column.key)


def input_from_feature_columns(
    columns_to_tensors, feature_columns, weight_collections=None, trainable=True, scope=None, cols_to_outs=None
):
    """The network input: each column's dense form (rank 2), concatenated in the order of the columns' ``key``.

    ``columns_to_tensors`` maps column names (and columns) to input tensors; the transformed columns are added to
    a copy of it. ``cols_to_outs``, a dict, receives each column's output.
    """
    columns_to_tensors = columns_to_tensors.copy()
    check_feature_columns(feature_columns)
    if cols_to_outs is not None and not isinstance(cols_to_outs, dict):
        raise ValueError("cols_to_outs must be a dict unless None")
    values = list(columns_to_tensors.values())
    with _v1.variable_scope(scope, default_name="input_from_feature_columns", values=values):
        outputs = []
        transformer = _Transformer(columns_to_tensors)
        weight_collections = _with_global(weight_collections)
        for column in _sorted_columns(feature_columns):
            with _v1.variable_scope(None, default_name=column.name, values=values):
                transformed = transformer.transform(column)
                outputs.append(_dnn_input(column, transformed, weight_collections, trainable))
            if cols_to_outs is not None:
                cols_to_outs[column] = outputs[-1]
        return tf.concat(outputs, 1)


def _dnn_input(column: Any, transformed: Any, weight_collections: Any, trainable: bool) -> Any:
    try:
        column._deep_embedding_lookup_arguments(transformed)  # noqa: SLF001
    except NotImplementedError as embedding_error:
        try:
            return column._to_dnn_input_layer(transformed, weight_collections, trainable, output_rank=2)  # noqa: SLF001
        except ValueError as error:
            raise ValueError(
                "Error creating input layer for column: {}.\n{}, {}".format(column.name, error, embedding_error)
            ) from None
    raise NotImplementedError("tf1clip re-creates the dense contrib feature columns only, not {}".format(column))


def weighted_sum_from_feature_columns(
    columns_to_tensors, feature_columns, num_outputs, weight_collections=None, trainable=True, scope=None
):
    """A linear model ``sum_c dense(c) @ weight_c + bias_weight``: returns ``(predictions, {column: [weight]},
    bias)``, the variables zeros-initialized model variables under ``scope``."""
    columns_to_tensors = columns_to_tensors.copy()
    check_feature_columns(feature_columns)
    values = list(columns_to_tensors.values())
    with _v1.variable_scope(scope, default_name="weighted_sum_from_feature_columns", values=values):
        outputs, column_to_variable = [], {}
        transformer = _Transformer(columns_to_tensors)
        for column in _sorted_columns(feature_columns):
            transformed = transformer.transform(column)
            try:
                column._wide_embedding_lookup_arguments(transformed)  # noqa: SLF001
            except NotImplementedError:
                variable, predictions = _dense_weighted(
                    column, transformed, values, num_outputs, trainable, weight_collections
                )
            else:
                raise NotImplementedError(
                    "tf1clip re-creates the dense contrib feature columns only, not {}".format(column)
                )
            outputs.append(tf.reshape(predictions, shape=(-1, num_outputs)))
            column_to_variable[column] = variable
        bias = _model_variable("bias_weight", [num_outputs], trainable, _with_global(weight_collections))
        predictions = tf.nn.bias_add(tf.add_n(outputs), bias)
        return predictions, column_to_variable, bias


def _dense_weighted(column, transformed, values, num_outputs, trainable, weight_collections):
    with _v1.variable_scope(None, default_name=column.name, values=values):
        try:
            tensor = column._to_dense_tensor(transformed)  # noqa: SLF001
            tensor = _to_rank_2(tensor, column.name)
        except ValueError as error:
            raise ValueError("Error creating weighted sum for column: {}.\n{}".format(column.name, error)) from None
        variable = [_model_variable("weight", [tensor.get_shape()[1], num_outputs], trainable, weight_collections)]
        return variable, tf.matmul(tensor, variable[0], name="matmul")


def _to_rank_2(tensor: Any, column_name: str) -> Any:
    rank = tensor.get_shape().ndims
    if rank is None:
        raise ValueError("Error while processing column {}. Rank of input Tensor can not be None.".format(column_name))
    if rank == 1:
        reshaped = tf.expand_dims(tensor, -1)
        reshaped.set_shape(tensor.get_shape().as_list() + [1])
        return reshaped
    if rank > 2:
        return fc.inner_flatten(tensor, 2)
    return tensor


def _model_variable(name: str, shape: list, trainable: bool, collections: Any) -> Any:
    from tf1clip.contrib import framework

    return framework.model_variable(
        name,
        shape=shape,
        initializer=_v1.zeros_initializer(),
        trainable=trainable,
        collections=collections,
    )


def _infer_column(name: str, tensor: Any) -> Any:
    if isinstance(tensor, tf.SparseTensor):
        raise ValueError(
            "SparseTensor is not supported for auto detection. Please define corresponding FeatureColumn for tensor "
            "{} {}.".format(name, tensor)
        )
    if not (tensor.dtype.is_integer or tensor.dtype.is_floating):
        raise ValueError(
            "Non integer or non floating types are not supported for auto detection. Please define corresponding "
            "FeatureColumn for tensor {} {}.".format(name, tensor)
        )
    shape = tensor.get_shape().as_list()
    dimension = 1
    for size in shape[1:]:
        dimension *= size
    return fc.real_valued_column(name, dimension=dimension, dtype=tensor.dtype)


def infer_real_valued_columns(features: Any) -> List[Any]:
    """A ``real_valued_column`` per feature (``""`` for a lone tensor) of its dtype and flattened size."""
    if not isinstance(features, dict):
        return [_infer_column("", features)]
    return [_infer_column(key, value) for key, value in features.items()]
