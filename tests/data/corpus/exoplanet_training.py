"""AstroNet-style training ops, as in google-research/exoplanet-ml astronet/ops/training.py.

tf.train.polynomial_decay schedule via functools.partial,
tf.contrib.opt.extend_with_decoupled_weight_decay on the optimizer class,
tf.contrib.tpu.CrossShardOptimizer when on TPU, and
tf.contrib.training.create_train_op with
transform_grads_fn=tf.contrib.training.clip_gradient_norms_fn(...).
A 1-D conv net on random light curves.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import functools

import numpy as np
import tensorflow as tf


class ConfigDict(dict):
  __getattr__ = dict.__getitem__

  def get(self, key, default=None):
    return dict.get(self, key, default)


def _polynomial_decay(initial_value, global_step, decay_steps, end_factor, power):
  return tf.train.polynomial_decay(
      learning_rate=initial_value,
      global_step=global_step,
      decay_steps=decay_steps,
      end_learning_rate=end_factor * initial_value,
      power=power)


def create_learning_rate_and_weight_decay(hparams, global_step):
  learning_rate = hparams.learning_rate
  weight_decay = hparams.get("weight_decay", 0.0)
  if hparams.get("learning_rate_decay_steps"):
    decay_schedule = functools.partial(
        _polynomial_decay,
        global_step=global_step,
        decay_steps=hparams.learning_rate_decay_steps,
        end_factor=hparams.learning_rate_end_factor,
        power=hparams.learning_rate_decay_power)
    learning_rate = decay_schedule(learning_rate)
    if weight_decay:
      weight_decay = decay_schedule(weight_decay)
  return learning_rate, weight_decay


def create_optimizer(hparams, global_step, use_tpu=False):
  optimizer_name = hparams.optimizer.lower()
  optimizer_params = {}
  if optimizer_name == "momentum":
    optimizer_class = tf.train.MomentumOptimizer
    optimizer_params["momentum"] = hparams.get("momentum", 0.9)
    optimizer_params["use_nesterov"] = hparams.get("use_nesterov", False)
  elif optimizer_name == "sgd":
    optimizer_class = tf.train.GradientDescentOptimizer
  elif optimizer_name == "adam":
    optimizer_class = tf.train.AdamOptimizer
  else:
    raise ValueError("Unknown optimizer: {}".format(hparams.optimizer))

  optimizer_class = (
      tf.contrib.opt.extend_with_decoupled_weight_decay(optimizer_class))

  learning_rate, weight_decay = create_learning_rate_and_weight_decay(
      hparams, global_step)
  optimizer = optimizer_class(
      weight_decay=weight_decay,
      learning_rate=learning_rate,
      **optimizer_params)

  if use_tpu:
    optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
  return optimizer


def create_train_op(total_loss, global_step, hparams, optimizer):
  transform_grads_fn = None
  if hparams.get("clip_gradient_norm"):
    transform_grads_fn = tf.contrib.training.clip_gradient_norms_fn(
        hparams.clip_gradient_norm)
  return tf.contrib.training.create_train_op(
      total_loss=total_loss,
      optimizer=optimizer,
      global_step=global_step,
      transform_grads_fn=transform_grads_fn)


def main():
  hparams = ConfigDict(optimizer="adam", learning_rate=1e-3, weight_decay=1e-4,
                       learning_rate_decay_steps=10, learning_rate_end_factor=0.1,
                       learning_rate_decay_power=1.0, clip_gradient_norm=1.0)
  rng = np.random.RandomState(2)
  views = tf.constant(rng.randn(8, 32, 1).astype(np.float32))
  labels = tf.constant(rng.randint(0, 2, size=(8, 1)).astype(np.float32))
  net = tf.layers.conv1d(views, filters=4, kernel_size=5, activation=tf.nn.relu)
  net = tf.layers.max_pooling1d(net, pool_size=2, strides=2)
  logits = tf.layers.dense(tf.layers.flatten(net), 1)
  total_loss = tf.losses.sigmoid_cross_entropy(labels, logits)
  global_step = tf.train.get_or_create_global_step()
  optimizer = create_optimizer(hparams, global_step)
  train_op = create_train_op(total_loss, global_step, hparams, optimizer)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
      value = sess.run(train_op)
  print("RESULT loss=%r" % float(value))


if __name__ == "__main__":
  main()
