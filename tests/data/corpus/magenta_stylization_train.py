"""Trains a tiny style-transfer network like magenta's image_stylization_train.py.

`slim = contrib_slim` alias, tf.app.flags, slim.learning.create_train_op with
clip_gradient_norm, a frozen feature extractor restored with
slim.assign_from_checkpoint_fn(slim.get_variables(...)) and slim.learning.train.
Random images stand in for ImageNet; the "pretrained" extractor checkpoint is
written by the program itself.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os

import tensorflow as tf
from tensorflow.contrib import slim as contrib_slim

slim = contrib_slim

flags = tf.app.flags
flags.DEFINE_float('clip_gradient_norm', 0.5, 'Clip gradients to this norm')
flags.DEFINE_float('learning_rate', 1e-2, 'Learning rate')
flags.DEFINE_integer('batch_size', 2, 'Batch size.')
flags.DEFINE_integer('image_size', 8, 'Image size.')
flags.DEFINE_integer('save_summaries_secs', 15,
                     'Frequency at which summaries are saved, in seconds.')
flags.DEFINE_integer('save_interval_secs', 15,
                     'Frequency at which the model is saved, in seconds.')
flags.DEFINE_integer('task', 0, 'Task ID.')
flags.DEFINE_integer('train_steps', 3, 'Number of training steps.')
flags.DEFINE_string('master', '', 'Name of the TensorFlow master to use.')
flags.DEFINE_string('train_dir', None,
                    'Directory for checkpoints and summaries.')
FLAGS = flags.FLAGS


def feature_extractor(images, reuse=None):
  """A two-layer stand-in for vgg_16; returns its end points."""
  end_points = {}
  with tf.variable_scope('vgg_16', values=[images], reuse=reuse):
    with slim.arg_scope([slim.conv2d], padding='SAME', trainable=False):
      net = slim.conv2d(images, 4, [3, 3], scope='conv1')
      end_points['vgg_16/conv1'] = net
      net = slim.max_pool2d(net, [2, 2], scope='pool1')
      net = slim.conv2d(net, 4, [3, 3], scope='conv2')
      end_points['vgg_16/conv2'] = net
  return end_points


def write_extractor_checkpoint(path):
  with tf.Graph().as_default():
    feature_extractor(tf.zeros([1, FLAGS.image_size, FLAGS.image_size, 3]))
    saver = tf.train.Saver(slim.get_variables('vgg_16'))
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      return saver.save(sess, path)


def transform(inputs, alpha=1.0):
  with tf.variable_scope('transformer'):
    with slim.arg_scope([slim.conv2d], activation_fn=tf.nn.relu,
                        weights_initializer=tf.random_normal_initializer(0.0, 0.1, seed=1)):
      net = slim.conv2d(inputs, int(alpha * 4), [3, 3], scope='contract')
      net = slim.conv2d(net, 3, [3, 3], activation_fn=tf.nn.sigmoid, scope='expand')
  return net


def gram_matrix(feature_maps):
  batch_size, height, width, channels = tf.unstack(tf.shape(feature_maps))
  denominator = tf.to_float(height * width)
  feature_maps = tf.reshape(feature_maps, tf.stack([batch_size, height * width, channels]))
  return tf.matmul(feature_maps, feature_maps, adjoint_a=True) / denominator


def total_loss(inputs, stylized_inputs, content_weights, style_weights):
  input_end_points = feature_extractor(inputs)
  stylized_end_points = feature_extractor(stylized_inputs, reuse=True)
  loss_dict = {}
  for name, weight in content_weights.items():
    loss_dict['content_loss/' + name] = weight * tf.reduce_mean(
        tf.square(stylized_end_points[name] - input_end_points[name]))
  for name, weight in style_weights.items():
    loss_dict['style_loss/' + name] = weight * tf.reduce_mean(
        tf.square(gram_matrix(stylized_end_points[name]) - 1.0))
  return tf.add_n(list(loss_dict.values())), loss_dict


def main(unused_argv=None):
  train_dir = os.path.expanduser(FLAGS.train_dir)
  if not tf.gfile.Exists(train_dir):
    tf.gfile.MakeDirs(train_dir)
  pretrained_dir = os.path.join(train_dir, 'pretrained')
  tf.gfile.MakeDirs(pretrained_dir)
  checkpoint_file = write_extractor_checkpoint(os.path.join(pretrained_dir, 'vgg_16.ckpt'))

  with tf.Graph().as_default():
    inputs = tf.random_uniform(
        [FLAGS.batch_size, FLAGS.image_size, FLAGS.image_size, 3], seed=7)
    stylized_inputs = transform(inputs)
    loss, loss_dict = total_loss(inputs, stylized_inputs,
                                 {'vgg_16/conv1': 1.0},
                                 {'vgg_16/conv2': 1e-1})
    for key in loss_dict:
      tf.summary.scalar(key, loss_dict[key])
    tf.summary.image('image/0_inputs', inputs, 3)
    tf.summary.image('image/2_styled_inputs', stylized_inputs, 3)

    optimizer = tf.train.AdamOptimizer(FLAGS.learning_rate)
    train_op = slim.learning.create_train_op(
        loss, optimizer, clip_gradient_norm=FLAGS.clip_gradient_norm,
        summarize_gradients=False)

    init_fn_vgg = slim.assign_from_checkpoint_fn(checkpoint_file,
                                                 slim.get_variables('vgg_16'))

    final_loss = slim.learning.train(
        train_op=train_op,
        logdir=train_dir,
        master=FLAGS.master,
        is_chief=FLAGS.task == 0,
        number_of_steps=FLAGS.train_steps,
        init_fn=init_fn_vgg,
        save_summaries_secs=FLAGS.save_summaries_secs,
        save_interval_secs=FLAGS.save_interval_secs)
  # The newest checkpoint's step. Not latest_checkpoint(): the Supervisor's timed
  # checkpoint thread can finish a save begun at step 0 after the final one.
  state = tf.train.get_checkpoint_state(train_dir)
  step = max(int(p.rsplit('-', 1)[1]) for p in state.all_model_checkpoint_paths)
  print('RESULT global_step=%d final_loss=%r' % (step, float(final_loss)))


def console_entry_point():
  tf.app.run(main)


if __name__ == '__main__':
  console_entry_point()
