"""``tf.contrib.data``'s transformations that TF 2 dropped, re-created on ``tf.data``.

TF 1.15's other ``tf.contrib.data`` names are ``tf.data.experimental``'s (and ``Dataset``, ``Iterator``,
``TextLineDataset``, ``TFRecordDataset``, ``FixedLengthRecordDataset`` ``tf.compat.v1.data``'s): tf1clip-upgrade
rewrites them there. These four have no TF 2 name:

* ``batch_and_drop_remainder(n)`` is ``dataset.batch(n, drop_remainder=True)`` and
  ``padded_batch_and_drop_remainder`` the ``padded_batch`` form, as in TF 1.15 (static batch dimension ``n``);
* ``sliding_window_batch(window_size, stride=None, window_shift=None, window_stride=1)``: windows of
  ``window_size`` consecutive elements (every ``window_stride``-th), one every ``window_shift`` elements, stacked;
  a last incomplete window is dropped. TF 1.15 ran its own kernel; this is ``Dataset.window`` + ``batch``, with
  the same elements and an unknown window dimension, as TF 1.15 gave;
* ``sloppy_interleave(map_func, cycle_length, block_length=1)`` is
  ``tf.data.experimental.parallel_interleave(..., sloppy=True)``.
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


_experimental = tf.compat.v1.data.experimental
AUTOTUNE = _experimental.AUTOTUNE
Counter = _experimental.Counter
CsvDataset = _experimental.CsvDataset
Optional = _experimental.Optional
RandomDataset = _experimental.RandomDataset
Reducer = _experimental.Reducer
SqlDataset = _experimental.SqlDataset
TFRecordWriter = _experimental.TFRecordWriter
bucket_by_sequence_length = _experimental.bucket_by_sequence_length
choose_from_datasets = _experimental.choose_from_datasets
copy_to_device = _experimental.copy_to_device
dense_to_sparse_batch = _experimental.dense_to_sparse_batch
enumerate_dataset = _experimental.enumerate_dataset
get_next_as_optional = _experimental.get_next_as_optional
get_single_element = _experimental.get_single_element
group_by_reducer = _experimental.group_by_reducer
group_by_window = _experimental.group_by_window
ignore_errors = _experimental.ignore_errors
make_batched_features_dataset = _experimental.make_batched_features_dataset
make_csv_dataset = _experimental.make_csv_dataset
make_saveable_from_iterator = _experimental.make_saveable_from_iterator
map_and_batch = _experimental.map_and_batch
parallel_interleave = _experimental.parallel_interleave
parse_example_dataset = _experimental.parse_example_dataset
prefetch_to_device = _experimental.prefetch_to_device
rejection_resample = _experimental.rejection_resample
sample_from_datasets = _experimental.sample_from_datasets
scan = _experimental.scan
shuffle_and_repeat = _experimental.shuffle_and_repeat
unbatch = _experimental.unbatch
unique = _experimental.unique
Dataset = tf.compat.v1.data.Dataset
Iterator = tf.compat.v1.data.Iterator
TextLineDataset = tf.compat.v1.data.TextLineDataset
TFRecordDataset = tf.compat.v1.data.TFRecordDataset
FixedLengthRecordDataset = tf.compat.v1.data.FixedLengthRecordDataset


def batch_and_drop_remainder(batch_size):
    """A transformation batching ``batch_size`` elements and dropping a last smaller batch."""

    def _apply_fn(dataset):
        return dataset.batch(batch_size, drop_remainder=True)

    return _apply_fn


def padded_batch_and_drop_remainder(batch_size, padded_shapes, padding_values=None):
    """A transformation padding and batching ``batch_size`` elements and dropping a last smaller batch."""

    def _apply_fn(dataset):
        return dataset.padded_batch(batch_size, padded_shapes, padding_values=padding_values, drop_remainder=True)

    return _apply_fn


def sliding_window_batch(window_size, stride=None, window_shift=None, window_stride=1):
    """A transformation stacking sliding windows of ``window_size`` elements (TF 1.15's, see the module)."""
    if stride is not None and window_shift is not None:
        raise ValueError("Cannot specify both `stride` and `window_shift`")
    shift = window_shift if window_shift is not None else (stride if stride is not None else 1)

    def _stack(*windows):
        return tf.data.Dataset.zip(windows[0] if len(windows) == 1 else windows).batch(window_size)

    def _apply_fn(dataset):
        windows = dataset.window(window_size, shift=shift, stride=window_stride, drop_remainder=True)
        return windows.flat_map(_stack)

    return _apply_fn


def sloppy_interleave(map_func, cycle_length, block_length=1):
    """``tf.data.experimental.parallel_interleave(map_func, cycle_length, block_length, sloppy=True)``."""
    return tf.data.experimental.parallel_interleave(map_func, cycle_length, block_length=block_length, sloppy=True)
