"""``tf.contrib.learn.ops``' ``embedding_lookup`` and ``categorical_variable`` (TF 1.15's ``ops/embeddings_ops.py``)."""

from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


def embedding_lookup(params: Any, ids: Any, name: str = "embedding_lookup") -> Any:
    """The rows of ``params`` for ids of any shape: shape ``ids.shape + params.shape[1:]``."""
    with _v1.name_scope(name, "embedding_lookup", [params, ids]):
        params = tf.convert_to_tensor(params)
        ids = tf.convert_to_tensor(ids)
        shape = tf.shape(ids)
        ids_flat = tf.reshape(ids, tf.reduce_prod(shape, keepdims=True))
        # As TF 1.15: ``name`` lands in the v1 function's ``partition_strategy`` (used only for a list of params).
        embeds_flat = _v1.nn.embedding_lookup(params, ids_flat, name)
        embeds = tf.reshape(embeds_flat, tf.concat([shape, [-1]], 0))
        embeds.set_shape(ids.get_shape().concatenate(params.get_shape()[1:]))
        return embeds


def categorical_variable(tensor_in: Any, n_classes: int, embedding_size: int, name: str) -> Any:
    """Embeds the class ids ``tensor_in`` with the variable ``<name>/<name>_embeddings`` ``[n_classes,
    embedding_size]`` (the scope's default initializer)."""
    with _v1.variable_scope(name):
        embeddings = _v1.get_variable(name + "_embeddings", [n_classes, embedding_size])
        return embedding_lookup(embeddings, tensor_in)
