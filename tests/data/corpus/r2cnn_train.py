# -*- coding:utf-8 -*-
"""A rotated-box detector training loop in the style of R2CNN_Faster-RCNN_Tensorflow tools/train.py.

`import tensorflow.contrib.slim as slim`, tf.contrib.layers.l2_regularizer and
tf.no_regularizer in a slim.arg_scope over five layer types,
slim.losses.get_regularization_losses(), slim.get_or_create_global_step(),
tf.train.piecewise_constant, slim.learning.clip_gradient_norms and a hand-written
Session loop with a Saver. Random images and boxes.
"""

from __future__ import absolute_import
from __future__ import print_function
from __future__ import division

import os
import sys

import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim


class cfgs(object):
  WEIGHT_DECAY = 1e-4
  LR = 0.01
  DECAY_STEP = [2, 4]
  MOMENTUM = 0.9
  GRADIENT_CLIPPING_BY_NORM = 1.0
  MUTILPY_BIAS_GRADIENT = 2.0
  MAX_ITERATION = 3
  BATCH_SIZE = 2


def build_whole_detection_network(img_batch, gtboxes):
  net = slim.conv2d(img_batch, 4, [3, 3], scope='conv1')
  net = slim.conv2d_in_plane(net, [3, 3], scope='conv1_in_plane')
  net = slim.separable_conv2d(net, 4, [3, 3], depth_multiplier=1, scope='conv2_sep')
  net = slim.conv2d_transpose(net, 4, [2, 2], stride=2, scope='deconv')
  net = tf.reduce_mean(net, axis=[1, 2])
  boxes = slim.fully_connected(net, 5, activation_fn=None, scope='rotate_boxes')
  return {'fastrcnn_loc_loss_r': tf.reduce_mean(tf.abs(boxes - gtboxes))}


def enlarge_gradients_for_bias(gradients):
  final_gradients = []
  with tf.variable_scope("Gradient_Mult"):
    for grad, var in gradients:
      scale = 1.0
      if cfgs.MUTILPY_BIAS_GRADIENT and '/biases' in var.name:
        scale = scale * cfgs.MUTILPY_BIAS_GRADIENT
      if not np.allclose(scale, 1.0):
        grad = tf.multiply(grad, scale)
      final_gradients.append((grad, var))
  return final_gradients


def train(save_dir):
  rng = np.random.RandomState(6)
  img_batch = tf.constant(rng.rand(cfgs.BATCH_SIZE, 8, 8, 3).astype(np.float32))
  gtboxes = tf.constant(rng.rand(cfgs.BATCH_SIZE, 5).astype(np.float32))

  biases_regularizer = tf.no_regularizer
  weights_regularizer = tf.contrib.layers.l2_regularizer(cfgs.WEIGHT_DECAY)

  with slim.arg_scope([slim.conv2d, slim.conv2d_in_plane,
                       slim.conv2d_transpose, slim.separable_conv2d, slim.fully_connected],
                      weights_regularizer=weights_regularizer,
                      biases_regularizer=biases_regularizer,
                      biases_initializer=tf.constant_initializer(0.0)):
    loss_dict = build_whole_detection_network(img_batch, gtboxes)

  weight_decay_loss = tf.add_n(slim.losses.get_regularization_losses())
  fastrcnn_loc_loss_r = loss_dict['fastrcnn_loc_loss_r']
  total_loss = fastrcnn_loc_loss_r + weight_decay_loss

  tf.summary.scalar('LOSS/total_loss', total_loss)
  tf.summary.scalar('LOSS/regular_weights', weight_decay_loss)

  global_step = slim.get_or_create_global_step()
  lr = tf.train.piecewise_constant(global_step,
                                   boundaries=[np.int64(cfgs.DECAY_STEP[0]), np.int64(cfgs.DECAY_STEP[1])],
                                   values=[cfgs.LR, cfgs.LR / 10., cfgs.LR / 100.])
  tf.summary.scalar('lr', lr)
  optimizer = tf.train.MomentumOptimizer(lr, momentum=cfgs.MOMENTUM)

  gradients = optimizer.compute_gradients(total_loss)
  if cfgs.MUTILPY_BIAS_GRADIENT:
    gradients = enlarge_gradients_for_bias(gradients)

  if cfgs.GRADIENT_CLIPPING_BY_NORM:
    with tf.name_scope('clip_gradients'):
      gradients = slim.learning.clip_gradient_norms(gradients,
                                                    cfgs.GRADIENT_CLIPPING_BY_NORM)

  train_op = optimizer.apply_gradients(grads_and_vars=gradients,
                                       global_step=global_step)
  summary_op = tf.summary.merge_all()
  init_op = tf.group(
      tf.global_variables_initializer(),
      tf.local_variables_initializer()
  )
  saver = tf.train.Saver(max_to_keep=10)

  config = tf.ConfigProto()
  config.gpu_options.allow_growth = True

  with tf.Session(config=config) as sess:
    sess.run(init_op)
    for step in range(cfgs.MAX_ITERATION):
      _, global_stepnp, total_loss_np, _ = sess.run(
          [train_op, global_step, total_loss, summary_op])
    if not os.path.exists(save_dir):
      os.makedirs(save_dir)
    saver.save(sess, os.path.join(save_dir, 'voc_' + str(global_stepnp) + 'model.ckpt'))
    final_step = sess.run(global_step)
  print('RESULT global_step=%d loss=%r' % (final_step, float(total_loss_np)))


if __name__ == '__main__':
  train(sys.argv[1] if len(sys.argv) > 1 else '/tmp/r2cnn_weights')
