"""Trains a tiny ResNet-like CIFAR model the way tensorflow/models' research/resnet/resnet_main.py does.

tf.contrib.tfprof.model_analyzer.print_model_analysis with TRAINABLE_VARS_PARAMS_STAT_OPTIONS
(its total_parameters written to stdout) and FLOAT_OPS_OPTIONS on tf.get_default_graph();
tf.app.flags; a MonitoredTrainingSession with LoggingTensorHook, SummarySaverHook and a
SessionRunHook that feeds the learning rate. Random images.
"""

import sys

import numpy as np
import tensorflow as tf

FLAGS = tf.app.flags.FLAGS
tf.app.flags.DEFINE_string('dataset', 'cifar10', 'cifar10 or cifar100.')
tf.app.flags.DEFINE_string('mode', 'train', 'train or eval.')
tf.app.flags.DEFINE_integer('image_size', 8, 'Image side length.')
tf.app.flags.DEFINE_string('train_dir', '/tmp/resnet_train', 'Directory to keep training outputs.')
tf.app.flags.DEFINE_string('log_root', '/tmp/resnet', 'Directory to keep the checkpoints.')
tf.app.flags.DEFINE_integer('num_steps', 3, 'Training steps.')


class ResNet(object):

  def __init__(self, batch_size, num_classes, images, labels):
    self.batch_size = batch_size
    self.num_classes = num_classes
    self._images = images
    self.labels = labels

  def build_graph(self):
    self.global_step = tf.train.get_or_create_global_step()
    self.lrn_rate = tf.placeholder_with_default(0.1, [], name='learning_rate')
    with tf.variable_scope('init'):
      x = self._conv('init_conv', self._images, 3, 3, 8, [1, 1, 1, 1])
    with tf.variable_scope('unit_1_0'):
      orig_x = x
      x = self._conv('conv1', tf.nn.relu(x), 3, 8, 8, [1, 1, 1, 1])
      x += orig_x
    with tf.variable_scope('logit'):
      x = tf.reduce_mean(tf.nn.relu(x), [1, 2])
      w = tf.get_variable('DW', [8, self.num_classes],
                          initializer=tf.uniform_unit_scaling_initializer(factor=1.0))
      b = tf.get_variable('biases', [self.num_classes], initializer=tf.constant_initializer())
      logits = tf.nn.xw_plus_b(x, w, b)
      self.predictions = tf.nn.softmax(logits)
    xent = tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=self.labels)
    self.cost = tf.reduce_mean(xent, name='xent')
    tf.summary.scalar('cost', self.cost)
    trainable_variables = tf.trainable_variables()
    grads = tf.gradients(self.cost, trainable_variables)
    optimizer = tf.train.MomentumOptimizer(self.lrn_rate, 0.9)
    self.train_op = optimizer.apply_gradients(
        zip(grads, trainable_variables), global_step=self.global_step, name='train_step')
    self.summaries = tf.summary.merge_all()

  def _conv(self, name, x, filter_size, in_filters, out_filters, strides):
    with tf.variable_scope(name):
      n = filter_size * filter_size * out_filters
      kernel = tf.get_variable(
          'DW', [filter_size, filter_size, in_filters, out_filters],
          tf.float32, initializer=tf.random_normal_initializer(stddev=np.sqrt(2.0 / n)))
      return tf.nn.conv2d(x, kernel, strides, padding='SAME')


def train(batch_size, num_classes):
  rng = np.random.RandomState(0)
  images = tf.constant(rng.rand(batch_size, FLAGS.image_size, FLAGS.image_size, 3).astype(np.float32))
  labels = tf.one_hot(rng.randint(0, num_classes, batch_size), num_classes)
  model = ResNet(batch_size, num_classes, images, labels)
  model.build_graph()

  param_stats = tf.contrib.tfprof.model_analyzer.print_model_analysis(
      tf.get_default_graph(),
      tfprof_options=tf.contrib.tfprof.model_analyzer.
          TRAINABLE_VARS_PARAMS_STAT_OPTIONS)
  sys.stdout.write('total_params: %d\n' % param_stats.total_parameters)

  tf.contrib.tfprof.model_analyzer.print_model_analysis(
      tf.get_default_graph(),
      tfprof_options=tf.contrib.tfprof.model_analyzer.FLOAT_OPS_OPTIONS)

  truth = tf.argmax(model.labels, axis=1)
  predictions = tf.argmax(model.predictions, axis=1)
  precision = tf.reduce_mean(tf.to_float(tf.equal(predictions, truth)))

  summary_hook = tf.train.SummarySaverHook(
      save_steps=100,
      output_dir=FLAGS.train_dir,
      summary_op=tf.summary.merge([model.summaries,
                                   tf.summary.scalar('Precision', precision)]))

  logging_hook = tf.train.LoggingTensorHook(
      tensors={'step': model.global_step, 'loss': model.cost, 'precision': precision},
      every_n_iter=100)

  class _LearningRateSetterHook(tf.train.SessionRunHook):
    """Sets learning_rate based on global step."""

    def begin(self):
      self._lrn_rate = 0.1

    def before_run(self, run_context):
      return tf.train.SessionRunArgs(model.global_step, feed_dict={model.lrn_rate: self._lrn_rate})

    def after_run(self, run_context, run_values):
      self._lrn_rate = 0.1 if run_values.results < 40000 else 0.01

  with tf.train.MonitoredTrainingSession(
      checkpoint_dir=FLAGS.log_root,
      hooks=[logging_hook, _LearningRateSetterHook(),
             tf.train.StopAtStepHook(last_step=FLAGS.num_steps)],
      chief_only_hooks=[summary_hook],
      save_summaries_steps=0,
      config=tf.ConfigProto(allow_soft_placement=True)) as mon_sess:
    while not mon_sess.should_stop():
      _, loss = mon_sess.run([model.train_op, model.cost])
  step = tf.train.load_variable(FLAGS.log_root, 'global_step')
  print('RESULT global_step=%d loss=%f total_params=%d' % (step, loss, param_stats.total_parameters))


def main(_):
  with tf.device('/cpu:0'):
    train(batch_size=4, num_classes=10)


if __name__ == '__main__':
  tf.logging.set_verbosity(tf.logging.INFO)
  tf.app.run()
