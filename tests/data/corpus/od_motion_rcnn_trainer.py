"""A detection-style trainer like motion-rcnn's object_detection/trainer.py.

`slim = tf.contrib.slim`, slim.create_global_step(), losses gathered with
tf.losses.add_loss, compute_gradients + slim.learning.clip_gradient_norms inside
tf.name_scope('clip_grads') + apply_gradients, a train tensor that depends on the
update ops, summaries over slim.get_model_variables(), and slim.learning.train with
summary_op, session_config, saver and startup_delay_steps. Random boxes.
"""

import functools

import numpy as np
import tensorflow as tf

slim = tf.contrib.slim

flags = tf.app.flags
flags.DEFINE_string('train_dir', '', 'Directory to save the checkpoints and training summaries.')
flags.DEFINE_integer('num_steps', 3, 'Number of training steps.')
FLAGS = flags.FLAGS


class TrainConfig(object):
  batch_size = 4
  gradient_clipping_by_norm = 1.0
  keep_checkpoint_every_n_hours = 1000.0
  startup_delay_steps = 0
  save_summaries_secs = 120
  save_interval_secs = 600
  sync_replicas = False


def _create_losses(images, boxes, classes):
  with slim.arg_scope([slim.conv2d], normalizer_fn=slim.batch_norm,
                      normalizer_params={'is_training': True, 'decay': 0.9}):
    net = slim.conv2d(images, 4, [3, 3], scope='feature_extractor')
  net = slim.flatten(net)
  box_predictions = slim.fully_connected(net, 4, activation_fn=None, scope='box_predictor')
  class_predictions = slim.fully_connected(net, 3, activation_fn=None, scope='class_predictor')
  losses_dict = {
      'localization_loss': tf.reduce_mean(tf.abs(box_predictions - boxes)),
      'classification_loss': tf.losses.softmax_cross_entropy(
          classes, class_predictions, loss_collection=None),
  }
  for loss_key, loss_tensor in losses_dict.items():
    tf.losses.add_loss(tf.identity(loss_tensor, name='Losses/' + loss_key))


def train(train_config, master, is_chief, train_dir):
  rng = np.random.RandomState(8)
  with tf.Graph().as_default():
    global_step = slim.create_global_step()

    images = tf.constant(rng.rand(train_config.batch_size, 8, 8, 3).astype(np.float32))
    boxes = tf.constant(rng.rand(train_config.batch_size, 4).astype(np.float32))
    classes = tf.one_hot(rng.randint(0, 3, size=train_config.batch_size), 3)

    summaries = set(tf.get_collection(tf.GraphKeys.SUMMARIES))
    global_summaries = set([])
    model_fn = functools.partial(_create_losses, images, boxes)
    model_fn(classes)
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)

    training_optimizer = tf.train.MomentumOptimizer(0.01, momentum=0.9)
    sync_optimizer = None
    if train_config.sync_replicas:
      training_optimizer = tf.train.SyncReplicasOptimizer(
          training_optimizer, replicas_to_aggregate=1, total_num_replicas=1)
      sync_optimizer = training_optimizer

    init_fn = None

    total_loss = tf.losses.get_total_loss()
    total_loss = tf.check_numerics(total_loss, 'LossTensor is inf or nan.')
    grads_and_vars = training_optimizer.compute_gradients(total_loss)

    if train_config.gradient_clipping_by_norm > 0:
      with tf.name_scope('clip_grads'):
        grads_and_vars = slim.learning.clip_gradient_norms(
            grads_and_vars, train_config.gradient_clipping_by_norm)

    grad_updates = training_optimizer.apply_gradients(grads_and_vars,
                                                      global_step=global_step)
    update_ops.append(grad_updates)
    update_op = tf.group(*update_ops)
    with tf.control_dependencies([update_op]):
      train_tensor = tf.identity(total_loss, name='train_op')

    for model_var in slim.get_model_variables():
      global_summaries.add(tf.summary.histogram(model_var.op.name, model_var))
    for loss_tensor in tf.losses.get_losses():
      global_summaries.add(tf.summary.scalar(loss_tensor.op.name, loss_tensor))
    global_summaries.add(
        tf.summary.scalar('TotalLoss', tf.losses.get_total_loss()))
    summaries |= global_summaries
    summary_op = tf.summary.merge(list(summaries), name='summary_op')

    session_config = tf.ConfigProto(allow_soft_placement=True,
                                    log_device_placement=False)
    saver = tf.train.Saver(
        keep_checkpoint_every_n_hours=train_config.keep_checkpoint_every_n_hours)

    final_loss = slim.learning.train(
        train_tensor,
        logdir=train_dir,
        master=master,
        is_chief=is_chief,
        session_config=session_config,
        startup_delay_steps=train_config.startup_delay_steps,
        init_fn=init_fn,
        summary_op=summary_op,
        number_of_steps=FLAGS.num_steps,
        save_summaries_secs=train_config.save_summaries_secs,
        save_interval_secs=train_config.save_interval_secs,
        sync_optimizer=sync_optimizer,
        saver=saver)
  return final_loss


def main(_):
  assert FLAGS.train_dir, '`train_dir` is missing.'
  final_loss = train(TrainConfig(), master='', is_chief=True, train_dir=FLAGS.train_dir)
  # The newest checkpoint's step. Not latest_checkpoint(): the Supervisor's timed
  # checkpoint thread can finish a save begun at step 0 after the final one.
  state = tf.train.get_checkpoint_state(FLAGS.train_dir)
  step = max(int(p.rsplit('-', 1)[1]) for p in state.all_model_checkpoint_paths)
  print('RESULT global_step=%d final_loss=%r' % (step, float(final_loss)))


if __name__ == '__main__':
  tf.app.run()
