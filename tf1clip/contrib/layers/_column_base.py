"""The base class of ``tf.contrib.layers``' feature columns (TF 1.15's ``feature_column._FeatureColumn``).

``feature_column`` keeps TF 1.15's name ``_FeatureColumn`` for it; ``learn``'s canned estimators test for it.
"""

from typing import Any, Dict, List, Optional


class FeatureColumn:
    """TF 1.15's contrib ``_FeatureColumn``: ``name``, ``config``, ``key`` and the input transformations."""

    def _key_without_properties(self, properties: List[str]) -> str:
        fields = ("{}={}".format(k, v) for k, v in zip(self._fields, self) if k not in properties)  # type: ignore
        return "{}({})".format(type(self).__name__, ", ".join(fields))

    def insert_transformed_feature(self, columns_to_tensors: Dict[Any, Any]) -> None:
        raise NotImplementedError("Transform is not implemented for {}.".format(self))

    def _to_dnn_input_layer(self, input_tensor, weight_collections=None, trainable=True, output_rank=2):
        raise ValueError("Calling an abstract method.")

    def _deep_embedding_lookup_arguments(self, input_tensor: Any) -> Any:
        raise NotImplementedError("No deep embedding lookup arguments for column {}.".format(self))

    def _wide_embedding_lookup_arguments(self, input_tensor: Any) -> Any:
        raise NotImplementedError("No wide embedding lookup arguments for column {}.".format(self))

    def _to_dense_tensor(self, input_tensor: Any) -> Any:
        raise NotImplementedError("No dense tensor representation for column {}.".format(self))

    def _checkpoint_path(self) -> Optional[str]:
        return None
