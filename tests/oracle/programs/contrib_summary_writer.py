"""A 2018 graph training loop writing ``tf.contrib.summary`` summaries, and the event files read back.

A ``create_file_writer`` writer is the default inside ``always_record_summaries`` (a scalar with the default step,
the global step, one with an explicit step and a family, a histogram of the weights and an image, inside a name
scope), ``record_summaries_every_n_global_steps(2)`` (recorded on even steps only) and ``never_record_summaries``
(nothing recorded); ``all_summary_ops`` run with each step after ``initialize``, and ``flush`` writes them out. The
program then reads its event files back (tag, step and value of each summary: a scalar's number, a histogram's
min, max, count, sum, sum of squares and buckets, an image's size and encoded bytes) into the values compared with
TF 1.15's.
"""

import glob
import os
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
logdir = tempfile.mkdtemp()
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.get_variable("w", initializer=tf.constant(np.linspace(0.5, -0.5, 4).reshape(4, 1), tf.float32))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)

writer = tf.contrib.summary.create_file_writer(logdir, flush_millis=10000)
with writer.as_default(), tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.scalar("loss", loss)
    tf.contrib.summary.scalar("weight_norm", tf.norm(w), family="weights", step=global_step * 10)
    with tf.name_scope("diagnostics"):
        tf.contrib.summary.histogram("w", w)
        tf.contrib.summary.image("w_image", tf.reshape(w * 100.0, [1, 2, 2, 1]), max_images=1)
with writer.as_default(), tf.contrib.summary.record_summaries_every_n_global_steps(2):
    tf.contrib.summary.scalar("every_other_loss", loss)
with writer.as_default(), tf.contrib.summary.never_record_summaries():
    tf.contrib.summary.scalar("never", loss)
summary_ops = tf.contrib.summary.all_summary_ops()
saver = tf.train.Saver()


def _value(value):
    if value.HasField("histo"):
        h = value.histo
        return [h.min, h.max, h.num, h.sum, h.sum_squares, list(h.bucket_limit), list(h.bucket)]
    if value.HasField("image"):
        return [
            value.image.height,
            value.image.width,
            value.image.colorspace,
            list(bytearray(value.image.encoded_image_string)),
        ]
    if value.HasField("simple_value"):
        return value.simple_value
    return tf.make_ndarray(value.tensor).tolist()


def recorded(directory):
    """[step, tag, value] of every summary in the event files of ``directory``."""
    found = []
    for path in sorted(glob.glob(os.path.join(directory, "events.out.tfevents.*"))):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                found.append([int(event.step), value.tag, _value(value)])
    return sorted(found, key=lambda item: (item[0], item[1]))


losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    with writer.as_default():
        tf.contrib.summary.initialize(graph=tf.get_default_graph(), session=sess)
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        bx, by = oracle_io.batch(step)
        sess.run(summary_ops, {x: bx, y: by})  # before the step: a summary reading the global step races the update
        loss_value, _ = sess.run([loss, train_op], {x: bx, y: by})
        losses.append(float(loss_value))
    sess.run(tf.contrib.summary.flush(writer))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(losses=losses, events=recorded(logdir))
oracle_io.write(out, values)
