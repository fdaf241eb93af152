"""A 2018 input pipeline from ``tf.contrib.data``'s transformations, as TF 1.15 still exported them.

Records go through ``tf.contrib.data.TFRecordWriter`` into a file read back with ``tf.data.TFRecordDataset``;
``tf.contrib.data.Counter``, ``enumerate_dataset``, ``unique``, ``scan``, ``group_by_window`` and
``bucket_by_sequence_length`` shape the batches, ``sample_from_datasets`` mixes two datasets with a seed, and
``tf.contrib.data.get_single_element`` reads one element; a linear model trains on the repeated batches.
(``shuffle_and_repeat(buffer_size, seed=...)`` is left out: TF 2's ``tf.data.experimental.shuffle_and_repeat``
draws another order than TF 1.15's fused op for the same seed, in TF 1.15's contrib spelling and in its core one.)
tf1clip-upgrade turns them into ``tf.data.experimental``'s (the same functions, which TF 1.15's contrib.data called).
"""

import os
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
record_file = os.path.join(tempfile.mkdtemp(), "values.tfrecord")
with tf.Graph().as_default(), tf.Session() as write_sess:
    records = tf.data.Dataset.from_tensor_slices([str(i).encode() for i in range(12)])
    write_sess.run(tf.contrib.data.TFRecordWriter(record_file).write(records))

numbers = tf.data.TFRecordDataset(record_file).map(lambda s: tf.string_to_number(s, tf.float32))
counted = tf.data.Dataset.zip((numbers, tf.contrib.data.Counter(start=1, step=2)))
indexed = counted.apply(tf.contrib.data.enumerate_dataset(start=10))
distinct = tf.data.Dataset.from_tensor_slices([3, 1, 3, 2, 1, 5]).apply(tf.contrib.data.unique())
running = distinct.apply(tf.contrib.data.scan(0, lambda state, v: (state + v, state + v)))
windows = tf.data.Dataset.range(10).apply(
    tf.contrib.data.group_by_window(lambda v: v % 2, lambda key, ds: ds.batch(3), window_size=3)
)
buckets = (
    tf.data.Dataset.range(6)
    .map(lambda v: tf.fill([v % 4 + 1], v))
    .apply(tf.contrib.data.bucket_by_sequence_length(lambda t: tf.shape(t)[0], [2, 3], [2, 2, 2]))
)
features = numbers.map(lambda v: (tf.stack([v, v * v / 10.0, 1.0]), 2.0 * v - 1.0))
train = features.repeat().batch(4)
mixed = tf.contrib.data.sample_from_datasets(
    [tf.data.Dataset.from_tensors(0).repeat(), tf.data.Dataset.from_tensors(1).repeat()], [0.3, 0.7], seed=5
)
first = tf.contrib.data.get_single_element(distinct.batch(10))

x, y = train.make_one_shot_iterator().get_next()
w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.1))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w)[:, 0] - y))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.001).minimize(loss, global_step=global_step)
saver = tf.train.Saver()


def take(dataset, n):
    element = dataset.make_one_shot_iterator().get_next()
    return [sess.run(element) for _ in range(n)]


def plain(value):
    return np.asarray(value).tolist() if not isinstance(value, tuple) else [plain(v) for v in value]


losses = []
start, stop = oracle_io.step_range(mode, STEPS)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(stop):
        if step < start:
            sess.run([x, y])
            continue
        losses.append(float(sess.run([loss, train_op])[0]))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    values.update(
        indexed=[plain(v) for v in take(indexed, 4)],
        running=[plain(v) for v in take(running, 4)],
        windows=[plain(v) for v in take(windows, 4)],
        buckets=[plain(v) for v in take(buckets, 3)],
        mixed=[plain(v) for v in take(mixed, 10)],
        first=plain(sess.run(first)),
    )
values.update(losses=losses)
oracle_io.write(out, values)
