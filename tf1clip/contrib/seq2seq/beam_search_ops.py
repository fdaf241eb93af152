"""``tf.contrib.seq2seq.gather_tree``: TF 1.15's ``GatherTree`` kernel (a contrib custom op TF 2 does not have),
built from TensorFlow ops: a backward ``tf.compat.v1.while_loop`` over time.
"""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

v1 = tf.compat.v1


def _check_shapes(step_ids, parent_ids, max_sequence_lengths, end_token):
    if step_ids.shape.ndims is not None and step_ids.shape.ndims != 3:
        raise ValueError("step_ids must be a 3-tensor, saw shape: %s" % step_ids.shape)
    if not step_ids.shape.is_compatible_with(parent_ids.shape):
        raise ValueError(
            "step_ids.shape must match parent_ids.shape.  but shapes are: %s and %s"
            % (step_ids.shape, parent_ids.shape)
        )
    if max_sequence_lengths.shape.ndims is not None and max_sequence_lengths.shape.ndims != 1:
        raise ValueError("max_sequence_lengths must be a vector, saw shape: %s" % max_sequence_lengths.shape)
    if end_token.shape.ndims is not None and end_token.shape.ndims != 0:
        raise ValueError("end_token must be a scalar, saw shape: %s" % end_token.shape)
    batch = step_ids.shape.merge_with(parent_ids.shape)[1:2] if step_ids.shape.ndims else tf.TensorShape(None)
    if not batch.is_compatible_with(max_sequence_lengths.shape):
        raise ValueError(
            "batch size dimensions step_ids.shape[1] and max_sequence_lengths.shape[0] must match.  but shapes "
            "are: %s and %s" % (step_ids.shape, max_sequence_lengths.shape)
        )


def _backtrack(step_ids, parent_ids, lengths, end_token):
    """``(beams [T, B, W], bad [B, W])``: the kernel's walk from each beam's last step back to step 0."""
    shape = tf.shape(step_ids)
    max_time, batch_size, beam_width = shape[0], shape[1], shape[2]
    flat_steps = tf.reshape(step_ids, [-1])
    flat_parents = tf.reshape(parent_ids, [-1])
    own = tf.range(batch_size * beam_width)
    row = tf.reshape(tf.range(batch_size) * beam_width, [-1, 1])
    last = tf.reshape(lengths - 1, [-1, 1])

    def body(t, parent, bad, beams):
        offset = t * batch_size * beam_width
        is_last = tf.equal(t, last)
        inside = tf.less(t, last)
        invalid = tf.logical_and(inside, tf.logical_or(parent < 0, parent > beam_width))
        index = offset + tf.where(
            is_last, tf.reshape(own, tf.shape(parent)), row + tf.clip_by_value(parent, 0, beam_width)
        )
        index = tf.minimum(index, tf.size(flat_steps) - 1)
        taken = tf.logical_and(tf.logical_or(is_last, inside), tf.logical_not(tf.logical_or(bad, invalid)))
        value = tf.where(taken, tf.gather(flat_steps, index), tf.fill(tf.shape(parent), end_token))
        parent = tf.where(taken, tf.gather(flat_parents, index), parent)
        return t - 1, parent, tf.logical_or(bad, invalid), beams.write(t, value)

    zeros = tf.zeros([batch_size, beam_width], tf.int32)
    _, _, bad, beams = v1.while_loop(
        lambda t, *_: t >= 0,
        body,
        (max_time - 1, zeros, tf.cast(zeros, tf.bool), tf.TensorArray(tf.int32, size=max_time)),
    )
    return beams.stack(), bad


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
    """Beam ids of each step, traced back from the last step along ``parent_ids`` (TF 1.15's ``GatherTree``).

    Args:
      step_ids: int32 ``[max_time, batch_size, beam_width]``. parent_ids: int32, the same shape.
      max_sequence_lengths: int32 ``[batch_size]``: batch entry ``b`` is traced from step
        ``min(max_sequence_lengths[b], max_time) - 1``; later steps (and all steps where it is <= 0) are
        ``end_token``. end_token: int32 scalar; every step after the first ``end_token`` becomes ``end_token``.
      name: name scope (default ``"GatherTree"``).

    Returns:
      int32 ``[max_time, batch_size, beam_width]``.

    Raises:
      ValueError: shapes known statically not as above. ``tf.errors.InvalidArgumentError`` when run: a
      parent id (read while tracing) below 0 or above ``beam_width`` ("Saw invalid parent id"). A parent id
      equal to ``beam_width`` reads the next batch entry's beam 0, as the kernel's unchecked index did.
    """
    with v1.name_scope(name, "GatherTree", [step_ids, parent_ids, max_sequence_lengths, end_token]):
        step_ids = tf.convert_to_tensor(step_ids, dtype=tf.int32, name="step_ids")
        parent_ids = tf.convert_to_tensor(parent_ids, dtype=tf.int32, name="parent_ids")
        max_sequence_lengths = tf.convert_to_tensor(max_sequence_lengths, dtype=tf.int32, name="max_sequence_lengths")
        end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        _check_shapes(step_ids, parent_ids, max_sequence_lengths, end_token)
        max_time = tf.shape(step_ids)[0]
        lengths = tf.minimum(max_sequence_lengths, max_time)
        beams, bad = _backtrack(step_ids, parent_ids, lengths, end_token)
        in_length = tf.less(tf.reshape(tf.range(max_time), [-1, 1, 1]), tf.reshape(lengths, [1, -1, 1]))
        ended = tf.logical_and(in_length, tf.equal(beams, end_token))
        after_end = tf.cumsum(tf.cast(ended, tf.int32), axis=0, exclusive=True) > 0
        beams = tf.where(tf.logical_and(in_length, after_end), tf.fill(tf.shape(beams), end_token), beams)
        check = tf.debugging.Assert(
            tf.logical_not(tf.reduce_any(bad)), ["Saw invalid parent id", parent_ids], name="check_parent_ids"
        )
        with tf.control_dependencies([check]):
            beams = tf.identity(beams)
        beams.set_shape(step_ids.shape)
        return beams
