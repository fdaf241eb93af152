"""``tf.contrib.lookup``: TF 1.15's table functions and classes on TF 2.

TF 2 keeps the v1 tables behind ``tf.contrib.lookup`` but exports only some of them
(``tf.compat.v1.lookup``): ``KeyValueTensorInitializer``, ``TextFileInitializer``, ``TextFileIndex``,
``MutableHashTable`` and ``MutableDenseHashTable`` (``tf.lookup.experimental.DenseHashTable``) are TF's public
classes; ``index_table_from_file``, ``index_to_string_table_from_file``, ``IdTableWithHashBuckets``, the hasher
specs, the text-file initializers and the base classes are TF's own v1 ones (the same code TF 1.15's
contrib re-exported). Re-created with contrib's signatures (``mapping=`` where TF says ``vocabulary_list=``):
``index_table_from_tensor``, ``index_to_string_table_from_tensor``, ``index_to_string``, ``string_to_index``,
``string_to_index_table_from_file``, ``string_to_index_table_from_tensor`` and ``HashTable``.

Difference from TF 1.15: ``HashTable(..., shared_name=...)`` is TF 2's ``tf.compat.v1.lookup.StaticHashTable``,
which names the table resource itself (a unique shared name), so ``shared_name`` does not share a table between
Sessions; its ``init`` is its ``initializer``, as in TF 1.15.
"""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_ops = _tf.lookup_ops()
_v1 = tf.compat.v1

FastHashSpec = _ops.FastHashSpec
HasherSpec = _ops.HasherSpec
StrongHashSpec = _ops.StrongHashSpec
IdTableWithHashBuckets = _ops.IdTableWithHashBuckets
InitializableLookupTableBase = _ops.InitializableLookupTableBase
LookupInterface = _ops.LookupInterface
TableInitializerBase = _ops.TableInitializerBase
TextFileIdTableInitializer = _ops.TextFileIdTableInitializer
TextFileStringTableInitializer = _ops.TextFileStringTableInitializer
index_table_from_file = _ops.index_table_from_file
index_to_string_table_from_file = _ops.index_to_string_table_from_file
KeyValueTensorInitializer = _v1.lookup.KeyValueTensorInitializer
TextFileIndex = _v1.lookup.TextFileIndex
TextFileInitializer = _v1.lookup.TextFileInitializer
MutableHashTable = _v1.lookup.experimental.MutableHashTable
MutableDenseHashTable = _v1.lookup.experimental.DenseHashTable


def index_table_from_tensor(
    mapping, num_oov_buckets=0, default_value=-1, hasher_spec=FastHashSpec, dtype=tf.string, name=None
):
    """A table mapping the strings (or integers) of the 1-D ``mapping`` to their indices (TF's v1 function)."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return _ops.index_table_from_tensor(
        vocabulary_list=mapping,
        num_oov_buckets=num_oov_buckets,
        default_value=default_value,
        hasher_spec=hasher_spec,
        dtype=dtype,
        name=name,
    )


def index_to_string_table_from_tensor(mapping, default_value="UNK", name=None):
    """A table mapping indices to the strings of the 1-D ``mapping`` (v1 ``index_to_string_table_from_tensor``)."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return _ops.index_to_string_table_from_tensor(vocabulary_list=mapping, default_value=default_value, name=name)


def string_to_index(tensor, mapping, default_value=-1, name=None):
    """``index_table_from_tensor(mapping, default_value=...).lookup(tensor)``."""
    return index_table_from_tensor(mapping=mapping, default_value=default_value, name=name).lookup(tensor)


def index_to_string(tensor, mapping, default_value="UNK", name=None):
    """``index_to_string_table_from_tensor(mapping, default_value).lookup(tensor)``."""
    return index_to_string_table_from_tensor(mapping=mapping, default_value=default_value, name=name).lookup(tensor)


def string_to_index_table_from_file(
    vocabulary_file=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=FastHashSpec, name=None
):
    """``index_table_from_file`` for string keys."""
    return index_table_from_file(
        vocabulary_file, num_oov_buckets, vocab_size, default_value, hasher_spec, key_dtype=tf.string, name=name
    )


def string_to_index_table_from_tensor(
    mapping, num_oov_buckets=0, default_value=-1, hasher_spec=FastHashSpec, name=None
):
    """``index_table_from_tensor`` for a string ``mapping`` (``ValueError`` for another dtype)."""
    with _v1.name_scope(name, "string_to_index") as scope:
        mapping = tf.convert_to_tensor(mapping)
    if mapping.dtype.base_dtype != tf.string:
        raise ValueError("string_to_index_table_from_tensor requires string.")
    return index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec, name=scope)


class HashTable(_v1.lookup.StaticHashTable):  # type: ignore[name-defined]
    """TF 1.15's ``tf.contrib.lookup.HashTable``: a ``tf.compat.v1.lookup.StaticHashTable`` with ``init``."""

    def __init__(self, initializer, default_value, shared_name=None, name=None):
        del shared_name  # see the module: TF 2 names the table resource itself
        super().__init__(initializer, default_value, name=name)

    @property
    def init(self):
        return self.initializer
