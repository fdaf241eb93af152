"""``tf.contrib.layers.embed_sequence`` (TF 1.15's ``encoders.py``).

Same variable (``EmbedSequence/embeddings``) and numbers as TensorFlow 1.15; the fixes to contrib's breakage are
listed in its docstring.
"""

import sys

import numpy as np

from tf1clip.core import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib import framework
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


def embed_sequence(
    ids,
    vocab_size=None,
    embed_dim=None,
    unique=False,
    initializer=None,
    regularizer=None,
    trainable=True,
    scope=None,
    reuse=None,
):
    """Maps integer ids to their rows of an embedding matrix: ``tf.contrib.layers.embed_sequence`` of TF 1.15.

    Inside ``variable_scope(scope, "EmbedSequence", [ids], reuse=reuse)``, gets
    the float32 model variable ``embeddings`` of shape ``[vocab_size,
    embed_dim]`` (collections ``GLOBAL_VARIABLES`` and ``MODEL_VARIABLES``, and
    ``TRAINABLE_VARIABLES`` when ``trainable``; a regularizer's loss goes to
    ``REGULARIZATION_LOSSES``) and returns ``embedding_lookup(embeddings,
    ids)``. When tf-slim is imported, the variable comes from its
    ``model_variable``, so ``arg_scope([slim.model_variable], device=...)``
    applies, as contrib's ``arg_scope`` did.

    Typical use: an encoder and a decoder sharing one embedding::

        src = tf1clip.contrib.layers.embed_sequence(src_ids, vocab_size=1000, embed_dim=64, scope="embed")
        tgt = tf1clip.contrib.layers.embed_sequence(tgt_ids, scope="embed", reuse=True)

    Args:
      ids: integer ``Tensor`` (or array) of symbol ids, any shape; typically
        ``[batch_size, doc_length]``.
      vocab_size: number of rows, a positive integer; may be ``None`` when
        reusing.
      embed_dim: number of columns, a positive integer; may be ``None`` when
        reusing.
      unique: look up each distinct id once and repeat the rows as needed
        (contrib's ``embedding_lookup_unique``); same values.
      initializer: initializer of the embeddings; ``None`` uses the variable
        scope's default (Glorot uniform).
      regularizer: function ``embeddings -> scalar loss``, or ``None``.
      trainable: add the variable to ``TRAINABLE_VARIABLES``.
      scope: variable scope name (default ``"EmbedSequence"``, uniquified).
      reuse: ``True`` or ``tf.compat.v1.AUTO_REUSE`` to reuse ``<scope>/embeddings``.

    Returns:
      A float32 ``Tensor`` of shape ``ids.shape + [embed_dim]``.

    Raises:
      ValueError: ``vocab_size`` or ``embed_dim`` missing and ``reuse`` not
        set (contrib's message); a value < 1.
      TypeError: ``vocab_size`` or ``embed_dim`` is not an integer; ``ids``
        is sparse, ragged or not of an integer dtype.
    """
    vocab_size = _embedding_dim(vocab_size, "vocab_size")
    embed_dim = _embedding_dim(embed_dim, "embed_dim")
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError(
            "Must specify vocab size and embedding dimension when not reusing. "
            "Got vocab_size=%s and embed_dim=%s" % (vocab_size, embed_dim)
        )
    _check_ids(ids)
    with _v1.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        shape = None if vocab_size is None or embed_dim is None else [vocab_size, embed_dim]
        embeddings = _model_variable(
            "embeddings", shape=shape, initializer=initializer, regularizer=regularizer, trainable=trainable
        )
        if unique:
            return _embedding_lookup_unique(embeddings, ids)
        return _v1.nn.embedding_lookup(embeddings, ids)


def _embedding_dim(value, arg):
    """``value`` as a positive int (integral floats and ``Dimension`` as TF 1.15 took them), or ``None``."""
    if value is None:
        return None
    if isinstance(value, _v1.Dimension):
        value = value.value
    elif isinstance(value, (float, np.floating)) and float(value).is_integer():
        value = int(value)
    return None if value is None else _validate.check_int(value, arg, 1)


def _check_ids(ids):
    if isinstance(ids, (tf.SparseTensor, _v1.SparseTensorValue, tf.RaggedTensor)):
        raise TypeError(
            "`ids` must be a dense integer Tensor; received a %s (use tf.sparse.to_dense first)." % type(ids).__name__
        )
    if isinstance(ids, (tf.Tensor, tf.Variable)):
        dtype = ids.dtype.base_dtype
    else:
        try:
            dtype = tf.as_dtype(np.asarray(ids).dtype)
        except (TypeError, ValueError):
            return
    if not dtype.is_integer:
        raise TypeError("`ids` must be of an integer dtype (int32, int64); received %s." % _describe_ids(ids, dtype))


def _describe_ids(ids, dtype):
    if isinstance(ids, (tf.Tensor, tf.Variable)):
        return "a %s tensor %r" % (dtype.name, ids.name)
    return "%s of dtype %s" % (_validate.describe(ids), dtype.name)


def _model_variable(name, shape, initializer, regularizer, trainable):
    """contrib's ``model_variable``: tf-slim's when tf-slim is imported (for its ``arg_scope``), else the same call."""
    if "tf_slim" in sys.modules:
        return framework.model_variable(
            name, shape=shape, initializer=initializer, regularizer=regularizer, trainable=trainable
        )
    return _v1.get_variable(
        name,
        shape=shape,
        dtype=tf.float32,
        initializer=initializer,
        regularizer=regularizer,
        trainable=trainable,
        collections=[_v1.GraphKeys.GLOBAL_VARIABLES, _v1.GraphKeys.MODEL_VARIABLES],
    )


def _embedding_lookup_unique(params, ids):
    """``embedding_lookup`` of the distinct ids of ``ids``, gathered back to ``ids``' shape."""
    with tf.name_scope("EmbeddingLookupUnique"):
        ids = tf.convert_to_tensor(ids)
        shape = tf.shape(ids)
        unique_ids, positions = tf.unique(tf.reshape(ids, [-1]))
        rows = _v1.nn.embedding_lookup(params, unique_ids)
        embeds = tf.reshape(tf.gather(rows, positions), tf.concat([shape, tf.shape(rows)[1:]], 0))
        embeds.set_shape(ids.shape.concatenate(rows.shape[1:]))
        return embeds
