"""Trains a toy sequence classifier the way attention_ocr's python/train.py does.

Modelled on the Chinese-OCR variant: `from tensorflow.contrib import slim`,
`from tensorflow import app`, `from tensorflow.python.platform import flags`,
slim.learning.create_train_op(summarize_gradients=True, clip_gradient_norm=FLAGS...)
and slim.learning.train with graph=, master=, is_chief=, startup_delay_steps=,
sync_optimizer= and init_fn=. Random images and character ids.
"""

import collections
import logging

import tensorflow as tf
from tensorflow.contrib import slim
from tensorflow import app
from tensorflow.python.platform import flags

FLAGS = flags.FLAGS

flags.DEFINE_string('train_log_dir', '/tmp/attention_ocr/train', 'Training directory.')
flags.DEFINE_string('master', '', 'BNS name of the TensorFlow master to use.')
flags.DEFINE_integer('task', 0, 'The Task ID.')
flags.DEFINE_integer('ps_tasks', 0, 'The number of parameter servers.')
flags.DEFINE_integer('save_summaries_secs', 60, 'Summary frequency in seconds.')
flags.DEFINE_integer('save_interval_secs', 600, 'Checkpoint frequency in seconds.')
flags.DEFINE_integer('max_number_of_steps', 3, 'The maximum number of gradient steps.')
flags.DEFINE_float('clip_gradient_norm', 2.0,
                   'If greater than 0 then the gradients would be clipped by it.')
flags.DEFINE_bool('sync_replicas', False,
                  'If True will synchronize replicas during training.')
flags.DEFINE_integer('replicas_to_aggregate', 1, 'Gradients to aggregate.')
flags.DEFINE_integer('total_num_replicas', 1, 'Total number of worker replicas.')
flags.DEFINE_boolean('reset_train_dir', False,
                     'If true will delete all files in the train_log_dir')
flags.DEFINE_float('learning_rate', 0.004, 'learning rate')
flags.DEFINE_string('optimizer', 'momentum', 'the optimizer to use')
flags.DEFINE_float('momentum', 0.9, 'momentum value for the momentum optimizer')
flags.DEFINE_integer('batch_size', 4, 'Batch size.')

TrainingHParams = collections.namedtuple('TrainingHParams', [
    'learning_rate',
    'optimizer',
    'momentum',
])

NUM_CHAR_CLASSES = 5
SEQ_LENGTH = 3


def get_training_hparams():
  return TrainingHParams(
      learning_rate=FLAGS.learning_rate,
      optimizer=FLAGS.optimizer,
      momentum=FLAGS.momentum)


def create_optimizer(hparams):
  if hparams.optimizer == 'momentum':
    optimizer = tf.train.MomentumOptimizer(
        hparams.learning_rate, momentum=hparams.momentum)
  elif hparams.optimizer == 'adam':
    optimizer = tf.train.AdamOptimizer(hparams.learning_rate)
  elif hparams.optimizer == 'adadelta':
    optimizer = tf.train.AdadeltaOptimizer(hparams.learning_rate)
  elif hparams.optimizer == 'rmsprop':
    optimizer = tf.train.RMSPropOptimizer(
        hparams.learning_rate, momentum=hparams.momentum)
  return optimizer


def create_model(images, labels_one_hot):
  with slim.arg_scope([slim.conv2d, slim.fully_connected],
                      weights_regularizer=slim.l2_regularizer(1e-5)):
    net = slim.conv2d(images, 4, [3, 3], scope='conv1')
    net = slim.max_pool2d(net, [2, 2], scope='pool1')
    net = slim.flatten(net)
    logits = slim.fully_connected(net, SEQ_LENGTH * NUM_CHAR_CLASSES,
                                  activation_fn=None, scope='logits')
  logits = tf.reshape(logits, [-1, NUM_CHAR_CLASSES])
  labels_one_hot = tf.reshape(labels_one_hot, [-1, NUM_CHAR_CLASSES])
  slim.losses.softmax_cross_entropy(logits, labels_one_hot, label_smoothing=0.1)
  return slim.losses.get_total_loss()


def train(loss, init_fn, hparams):
  optimizer = create_optimizer(hparams)

  if FLAGS.sync_replicas:
    optimizer = tf.train.SyncReplicasOptimizer(
        opt=optimizer,
        replicas_to_aggregate=FLAGS.replicas_to_aggregate,
        total_num_replicas=FLAGS.total_num_replicas)
    sync_optimizer = optimizer
    startup_delay_steps = 0
  else:
    startup_delay_steps = 0
    sync_optimizer = None

  train_op = slim.learning.create_train_op(
      loss,
      optimizer,
      summarize_gradients=True,
      clip_gradient_norm=FLAGS.clip_gradient_norm)

  return slim.learning.train(
      train_op=train_op,
      logdir=FLAGS.train_log_dir,
      graph=loss.graph,
      master=FLAGS.master,
      is_chief=(FLAGS.task == 0),
      number_of_steps=FLAGS.max_number_of_steps,
      save_summaries_secs=FLAGS.save_summaries_secs,
      save_interval_secs=FLAGS.save_interval_secs,
      startup_delay_steps=startup_delay_steps,
      sync_optimizer=sync_optimizer,
      init_fn=init_fn)


def prepare_training_dir():
  if not tf.gfile.Exists(FLAGS.train_log_dir):
    logging.info('Create a new training directory %s', FLAGS.train_log_dir)
    tf.gfile.MakeDirs(FLAGS.train_log_dir)
  elif FLAGS.reset_train_dir:
    logging.info('Reset the training directory %s', FLAGS.train_log_dir)
    tf.gfile.DeleteRecursively(FLAGS.train_log_dir)
    tf.gfile.MakeDirs(FLAGS.train_log_dir)


def main(_):
  prepare_training_dir()
  hparams = get_training_hparams()
  device_setter = tf.train.replica_device_setter(FLAGS.ps_tasks, merge_devices=True)
  with tf.device(device_setter):
    images = tf.random_uniform([FLAGS.batch_size, 8, 16, 1], seed=3)
    labels = tf.random_uniform([FLAGS.batch_size, SEQ_LENGTH], maxval=NUM_CHAR_CLASSES,
                               dtype=tf.int32, seed=4)
    total_loss = create_model(images, slim.one_hot_encoding(labels, NUM_CHAR_CLASSES))
    final_loss = train(total_loss, None, hparams)
  # The newest checkpoint's step. Not latest_checkpoint(): the Supervisor's timed
  # checkpoint thread can finish a save begun at step 0 after the final one.
  state = tf.train.get_checkpoint_state(FLAGS.train_log_dir)
  step = max(int(p.rsplit('-', 1)[1]) for p in state.all_model_checkpoint_paths)
  print('RESULT global_step=%d final_loss=%r' % (step, float(final_loss)))


if __name__ == '__main__':
  app.run()
