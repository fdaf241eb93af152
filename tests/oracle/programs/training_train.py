"""tf.contrib.training: create_train_op with a transform_grads_fn built from clip_gradient_norms and
multiply_gradients, gradient summaries, and training.train (MonitoredTrainingSession: checkpoints,
summaries, StopAtStepHook), as TF-GAN-era and tensorflow/models code used them.

Resuming needs no code: training.train restores the newest checkpoint in its logdir.
"""

import shutil
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
logdir = ckpt_dir or tempfile.mkdtemp()

x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
with tf.variable_scope("regression"):
    w = tf.get_variable("weights", initializer=tf.constant(np.linspace(-1.0, 1.0, 4).reshape(4, 1), tf.float32))
    b = tf.get_variable("biases", [1], initializer=tf.zeros_initializer())
tf.losses.mean_squared_error(y, tf.matmul(x, w) + b)
total_loss = tf.losses.get_total_loss()


def transform_grads_fn(grads_and_vars):
    grads_and_vars = tf.contrib.training.multiply_gradients(grads_and_vars, {b: 3.0})
    return tf.contrib.training.clip_gradient_norms(grads_and_vars, max_norm=1.0)


train_op = tf.contrib.training.create_train_op(
    total_loss, tf.train.AdamOptimizer(0.05), transform_grads_fn=transform_grads_fn, summarize_gradients=True
)
tf.summary.scalar("total_loss", total_loss)

losses = []


class FeedAndRecord(tf.train.SessionRunHook):
    """Feeds the step's batch and records the loss create_train_op's op returns."""

    def __init__(self):
        self.step = start

    def before_run(self, run_context):
        x_data, y_data = oracle_io.batch(self.step)
        return tf.train.SessionRunArgs(total_loss, feed_dict={x: x_data, y: 10 * y_data})

    def after_run(self, run_context, run_values):
        losses.append(float(run_values.results))
        self.step += 1


final_loss = tf.contrib.training.train(
    train_op,
    logdir,
    hooks=[FeedAndRecord(), tf.train.StopAtStepHook(last_step=stop)],
    save_checkpoint_secs=3600,
    save_summaries_steps=1,
)
values = oracle_io.checkpoint_values(logdir)
values.update(losses=losses, final_loss=float(final_loss), summary_tags=oracle_io.event_tags(logdir))
if ckpt_dir is None:
    shutil.rmtree(logdir)
oracle_io.write(out, values)
