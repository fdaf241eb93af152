"""Optimization the way tensor2tensor's utils/optimize.py does it (TF 1.x era).

A ConditionalOptimizer (a tf.train.Optimizer subclass) picking LazyAdam / Momentum /
tf.contrib.layers.OPTIMIZER_CLS_NAMES, optionally wrapped in
tf.contrib.mixed_precision.LossScaleOptimizer with an
ExponentialUpdateLossScaleManager, passed to tf.contrib.layers.optimize_loss with
name="training", clip_gradients=hparams.clip_grad_norm or None and
colocate_gradients_with_ops=True. Synthetic regression data.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf


class HParams(object):
  optimizer = "Momentum"
  optimizer_adam_beta1 = 0.9
  optimizer_adam_beta2 = 0.997
  optimizer_adam_epsilon = 1e-9
  optimizer_momentum_momentum = 0.9
  clip_grad_norm = 1.0
  grad_noise_scale = 0.0
  summarize_grads = True
  mixed_precision_loss_scaler = "exponential"
  mixed_precision_init_loss_scale = 2.0 ** 10
  activation_dtype = "float16"


def optimize(loss, learning_rate, hparams):
  """Minimize loss."""
  loss = tf.identity(loss, name="total_loss")
  opt = ConditionalOptimizer(hparams.optimizer, learning_rate, hparams)
  tf.summary.scalar("learning_rate", learning_rate)
  opt_summaries = ["loss"]
  if hparams.summarize_grads:
    opt_summaries.extend(["gradients", "gradient_norm", "global_gradient_norm"])

  train_op = tf.contrib.layers.optimize_loss(
      name="training",
      loss=loss,
      global_step=tf.train.get_or_create_global_step(),
      learning_rate=learning_rate,
      clip_gradients=hparams.clip_grad_norm or None,
      gradient_noise_scale=hparams.grad_noise_scale or None,
      optimizer=opt,
      summaries=opt_summaries,
      colocate_gradients_with_ops=True)
  return train_op


class ConditionalOptimizer(tf.train.Optimizer):
  """Conditional optimizer."""

  def __init__(self, optimizer_name, lr, hparams):  # pylint: disable=super-init-not-called
    if optimizer_name == "Adam":
      self._opt = tf.contrib.opt.LazyAdamOptimizer(
          lr / 500.0,
          beta1=hparams.optimizer_adam_beta1,
          beta2=hparams.optimizer_adam_beta2,
          epsilon=hparams.optimizer_adam_epsilon)
    elif optimizer_name == "Momentum":
      self._opt = tf.train.MomentumOptimizer(
          lr, momentum=hparams.optimizer_momentum_momentum)
    else:
      self._opt = tf.contrib.layers.OPTIMIZER_CLS_NAMES[optimizer_name](lr)

    if hparams.activation_dtype == "float16":
      if hparams.mixed_precision_loss_scaler == "exponential":
        manager = tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(
            init_loss_scale=hparams.mixed_precision_init_loss_scale,
            incr_every_n_steps=2000,
            decr_every_n_nan_or_inf=2,
            incr_ratio=2,
            decr_ratio=0.5)
      else:
        manager = tf.contrib.mixed_precision.FixedLossScaleManager(128.0)
      self._opt = tf.contrib.mixed_precision.LossScaleOptimizer(self._opt, manager)

  def compute_gradients(self, loss, var_list=None, **kwargs):
    gradients = self._opt.compute_gradients(loss, var_list, **kwargs)

    def cast_grad(g, v):
      if v is not None and g is not None:
        g = tf.cast(g, v.dtype.base_dtype)
      return (g, v)
    return [cast_grad(g, v) for g, v in gradients]

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    return self._opt.apply_gradients(
        grads_and_vars, global_step=global_step, name=name)


def main():
  rng = np.random.RandomState(11)
  x = tf.constant(rng.randn(16, 5).astype(np.float32))
  y = tf.constant(rng.randn(16, 1).astype(np.float32))
  with tf.variable_scope("body"):
    w = tf.get_variable("w", [5, 1], initializer=tf.zeros_initializer())
  loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
  train_op = optimize(loss, tf.constant(0.1), HParams())
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
      value = sess.run(train_op)
    step = sess.run(tf.train.get_global_step())
  print("RESULT global_step=%d loss=%r" % (step, float(value)))


if __name__ == "__main__":
  main()
