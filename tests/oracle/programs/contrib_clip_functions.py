"""The contrib gradient functions between compute_gradients and apply_gradients, one graph each:
tf.contrib.opt.clip_gradients_by_global_norm, slim.learning's clip_gradient_norms and
multiply_gradients, tf.contrib.training.clip_gradient_norms_fn and add_gradients_summaries.
"""

import os

import numpy as np
import tensorflow as tf

import oracle_io

slim = tf.contrib.slim
STEPS = 6


def opt_global_norm(grads_and_vars):
    clipped, _ = tf.contrib.opt.clip_gradients_by_global_norm(grads_and_vars, clip_norm=1.0)
    return clipped


def slim_multiply_then_clip(grads_and_vars):
    multipliers = dict((v, 0.5) for _, v in grads_and_vars if "bias" in v.op.name)
    return slim.learning.clip_gradient_norms(slim.learning.multiply_gradients(grads_and_vars, multipliers), 0.2)


def training_clip_fn(grads_and_vars):
    return tf.contrib.training.clip_gradient_norms_fn(0.3)(grads_and_vars)


FORMS = [
    ("opt_clip_gradients_by_global_norm", opt_global_norm),
    ("slim_multiply_and_clip_gradient_norms", slim_multiply_then_clip),
    ("training_clip_gradient_norms_fn", training_clip_fn),
]

out, ckpt_dir, mode = oracle_io.parse_args()
values = {}
for name, transform in FORMS:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4])
        y = tf.placeholder(tf.float32, [None, 1])
        with tf.variable_scope("linear"):
            w = tf.get_variable("weights", initializer=tf.constant(np.linspace(1.0, -1.0, 4).reshape(4, 1), tf.float32))
            b = tf.get_variable("bias", [1], initializer=tf.constant_initializer(0.2))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        global_step = tf.train.get_or_create_global_step()
        optimizer = tf.train.MomentumOptimizer(0.05, momentum=0.9, use_nesterov=True)
        grads_and_vars = transform(optimizer.compute_gradients(loss))
        summaries = tf.summary.merge(tf.contrib.training.add_gradients_summaries(grads_and_vars))
        train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
        saver = tf.train.Saver()
        losses, summary_log = [], []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if mode == "resume":
                saver.restore(sess, tf.train.latest_checkpoint(os.path.join(ckpt_dir, name)))
            for step in range(*oracle_io.step_range(mode, STEPS)):
                x_data, y_data = oracle_io.batch(step)
                loss_value, summary, _ = sess.run([loss, summaries, train_op], {x: x_data, y: 10 * y_data})
                losses.append(float(loss_value))
                summary_log.append(oracle_io.summary_values(summary))
            if mode == "save":
                oracle_io.save(saver, sess, os.path.join(ckpt_dir, name), global_step)
            form_values = oracle_io.variables(sess)
        form_values.update(losses=losses, summaries=summary_log)
        values[name] = form_values
oracle_io.write(out, values)
