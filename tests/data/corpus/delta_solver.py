"""A config-driven training solver like Delta-ML/delta's delta/utils/solver/base_solver.py.

Learning-rate schedules (exponential_decay / piecewise_constant / polynomial warm-up),
tf.contrib.opt.LazyAdamOptimizer / AdamWOptimizer, tf.contrib.opt.MultitaskOptimizerWrapper
with tf.contrib.opt.clip_gradients_by_global_norm (tf.clip_by_global_norm otherwise),
tf.contrib.summary in eager mode and tf.summary in graphs,
tf.contrib.quantize.create_training_graph(quant_delay=...), and a variable moving average
grouped into the train op. Synthetic regression data.
"""

import math

from absl import logging
import numpy as np
import tensorflow as tf


class Solver(object):

  def __init__(self, config):
    self.config = config

  def get_learning_rate(self):
    lrconf = self.config['solver']['optimizer']['learning_rate']
    learning_rate = lrconf['rate']
    learning_type = lrconf['type']
    if learning_type == 'exp_decay':
      lr = tf.train.exponential_decay(
          learning_rate, tf.train.get_or_create_global_step(),
          lrconf['decay_steps'], lrconf['decay_rate'], staircase=True)
    elif learning_type == 'piecewise':
      lr = tf.train.piecewise_constant(
          tf.train.get_or_create_global_step(),
          boundaries=lrconf['boundaries'], values=lrconf['values'])
    elif learning_type == 'warmup':
      learning_rate = tf.constant(value=learning_rate, shape=[], dtype=tf.float32)
      global_step = tf.train.get_or_create_global_step()
      num_batch = int(math.ceil(self.config['data']['train_data_size'] /
                                self.config['data']['batch_size']))
      learning_rate = tf.train.polynomial_decay(
          learning_rate, global_step, num_batch, end_learning_rate=0.0, power=1.0,
          cycle=False)
      warmup_steps = tf.constant(lrconf['num_warmup_steps'], dtype=tf.float32)
      global_steps_float = tf.cast(global_step, tf.float32)
      is_warmup = tf.cast(global_steps_float < warmup_steps, tf.float32)
      lr = ((1.0 - is_warmup) * learning_rate +
            is_warmup * learning_rate * global_steps_float / warmup_steps)
    elif learning_type == 'const':
      lr = learning_rate
    else:
      raise ValueError('Not support learning rate type: {}'.format(learning_type))
    tf.summary.scalar('lr', lr)
    return lr

  def get_optimizer(self, multitask):
    optconf = self.config['solver']['optimizer']
    method = optconf['name']
    learning_rate = self.get_learning_rate()
    if method == 'adam':
      opt = tf.train.AdamOptimizer(learning_rate)
    elif method == 'momentum':
      opt = tf.train.MomentumOptimizer(learning_rate, momentum=0.9)
    elif method == 'lazyadam':
      opt = tf.contrib.opt.LazyAdamOptimizer(learning_rate)
    elif method == 'weightedadam':
      opt = tf.contrib.opt.AdamWOptimizer(
          weight_decay=optconf['weight_decay'], learning_rate=learning_rate)
    else:
      raise ValueError('Not support optimizer: {}'.format(method))
    if multitask:
      opt = tf.contrib.opt.MultitaskOptimizerWrapper(opt)
      logging.info('Using multi-task optimizer')
    return opt

  def clip_gradients(self, grads_and_vars, clip_ratio, multitask=False):
    with tf.variable_scope('grad'):
      for grad, var in grads_and_vars:
        if grad is not None:
          if tf.executing_eagerly():
            tf.contrib.summary.histogram(var.name[:-2], grad)
          else:
            tf.summary.histogram(var.name[:-2], grad)
    if not clip_ratio:
      return grads_and_vars
    if multitask:
      grad_and_var_clipped, global_norm = tf.contrib.opt.clip_gradients_by_global_norm(
          grads_and_vars, clip_ratio)
    else:
      gradients, variables = zip(*grads_and_vars)
      clipped, global_norm = tf.clip_by_global_norm(gradients, clip_ratio)
      grad_and_var_clipped = zip(clipped, variables)
    if tf.executing_eagerly():
      tf.contrib.summary.scalar('gradient/global_norm', global_norm)
    else:
      tf.summary.scalar('gradient/global_norm', global_norm)
    return grad_and_var_clipped

  def get_train_op(self, loss, multitask, global_step=None):
    quantconf = self.config['solver']['quantization']
    if quantconf['enable']:
      tf.contrib.quantize.create_training_graph(quant_delay=quantconf['quant_delay'])
    opt = self.get_optimizer(multitask)
    grads_and_vars = opt.compute_gradients(loss)
    grads_and_vars = self.clip_gradients(
        grads_and_vars, self.config['solver']['optimizer']['clip_global_norm'], multitask)
    apply_gradient_op = opt.apply_gradients(
        grads_and_vars, global_step=global_step or tf.train.get_or_create_global_step())
    variable_averages = tf.train.ExponentialMovingAverage(
        0.99, global_step or tf.train.get_or_create_global_step())
    tf.add_to_collection(tf.GraphKeys.UPDATE_OPS,
                         variable_averages.apply(tf.trainable_variables()))
    with tf.control_dependencies([apply_gradient_op]):
      return tf.group(*tf.get_collection(tf.GraphKeys.UPDATE_OPS))


def main():
  config = {
      'data': {'train_data_size': 64, 'batch_size': 8},
      'solver': {
          'optimizer': {'name': 'adam', 'clip_global_norm': 1.0, 'weight_decay': 1e-4,
                        'learning_rate': {'rate': 0.01, 'type': 'warmup',
                                          'num_warmup_steps': 2}},
          'quantization': {'enable': False, 'quant_delay': 0},
      },
  }
  rng = np.random.RandomState(16)
  x = tf.constant(rng.randn(8, 4).astype(np.float32))
  y = tf.constant(rng.randn(8, 2).astype(np.float32))
  loss = tf.losses.mean_squared_error(y, tf.layers.dense(x, 2))
  train_op = Solver(config).get_train_op(loss, multitask=True)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
      sess.run(train_op)
    print('RESULT loss=%r' % float(sess.run(loss)))


if __name__ == '__main__':
  main()
