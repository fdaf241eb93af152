"""A small slim CNN trained by slim.learning.create_train_op + slim.learning.train (2017 slim style).

arg_scope, conv2d with batch_norm (UPDATE_OPS), max_pool2d, fully_connected, seeded initializers,
tf.losses, clip_gradient_norm and gradient_multipliers, gradient summaries, a Saver, and a
train_step_fn that records each step's loss. Resuming needs no code: the Supervisor restores the
newest checkpoint in the logdir.
"""

import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

import oracle_io

slim = tf.contrib.slim
STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
start, stop = oracle_io.step_range(mode, STEPS)
logdir = ckpt_dir or tempfile.mkdtemp()
tf.set_random_seed(1234)

rng = np.random.RandomState(0)
all_images = tf.constant(rng.rand(4, 8, 6, 6, 1).astype(np.float32))
all_labels = tf.constant(rng.randint(0, 3, (4, 8)).astype(np.int32))
global_step = tf.train.get_or_create_global_step()
index = tf.mod(global_step, 4)
images, labels = tf.gather(all_images, index), tf.gather(all_labels, index)

with slim.arg_scope(
    [slim.conv2d, slim.fully_connected],
    weights_initializer=tf.truncated_normal_initializer(stddev=0.3, seed=1),
    weights_regularizer=slim.l2_regularizer(0.001),
):
    with slim.arg_scope([slim.conv2d], normalizer_fn=slim.batch_norm, normalizer_params={"decay": 0.9}):
        net = slim.conv2d(images, 4, [3, 3], scope="conv1")
    net = slim.max_pool2d(net, [2, 2], scope="pool1")
    net = slim.flatten(net)
    logits = slim.fully_connected(net, 3, activation_fn=None, scope="logits")
tf.losses.sparse_softmax_cross_entropy(labels, logits)
total_loss = tf.losses.get_total_loss()
tf.summary.scalar("losses/total_loss", total_loss)

optimizer = tf.train.MomentumOptimizer(0.1, momentum=0.9)
train_op = slim.learning.create_train_op(
    total_loss,
    optimizer,
    clip_gradient_norm=2.0,
    gradient_multipliers={"logits/biases": 2.0},
    summarize_gradients=True,
)

losses = []


def train_step_fn(sess, train_op, global_step, train_step_kwargs):
    loss, should_stop = slim.learning.train_step(sess, train_op, global_step, train_step_kwargs)
    losses.append(float(loss))
    return loss, should_stop


final_loss = slim.learning.train(
    train_op,
    logdir,
    train_step_fn=train_step_fn,
    number_of_steps=stop,
    save_summaries_secs=3600,
    save_interval_secs=3600,
    saver=tf.train.Saver(max_to_keep=3),
)
values = oracle_io.checkpoint_values(logdir)
# The Supervisor's summary threads write on a timer (the tags in its event files depend on timing):
# compare the summaries the graph defines, and that an event file was written.
summary_ops = sorted(op.name for op in tf.get_collection(tf.GraphKeys.SUMMARIES))
values.update(
    losses=losses,
    final_loss=float(final_loss),
    summary_ops=summary_ops,
    event_file=bool(tf.gfile.Glob(os.path.join(logdir, "events.out.tfevents.*"))),
)
if ckpt_dir is None:
    shutil.rmtree(logdir)
oracle_io.write(out, values)
