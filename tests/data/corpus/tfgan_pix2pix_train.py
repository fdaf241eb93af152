"""Trains a tiny image-to-image GAN the way tensorflow/models' research/gan/pix2pix/train.py does.

`from absl import flags` next to tf.app.run(), `tfgan = tf.contrib.gan`,
tfgan.gan_model / gan_loss / losses.combine_adversarial_loss, and
tfgan.gan_train_ops(..., summarize_gradients=True, colocate_gradients_with_ops=True,
aggregation_method=tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N,
transform_grads_fn=tf.contrib.training.clip_gradient_norms_fn(1e3)) run by
tfgan.gan_train with StopAtStepHook / LoggingTensorHook. Random patches.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

from absl import flags
import tensorflow as tf

tfgan = tf.contrib.gan

flags.DEFINE_integer('batch_size', 4, 'The number of images in each batch.')
flags.DEFINE_integer('patch_size', 8, 'The size of the patches to train on.')
flags.DEFINE_string('master', '', 'Name of the TensorFlow master to use.')
flags.DEFINE_string('train_log_dir', '/tmp/pix2pix/', 'Directory where to write event logs.')
flags.DEFINE_float('generator_lr', 0.00001, 'The compression model learning rate.')
flags.DEFINE_float('discriminator_lr', 0.00001, 'The discriminator learning rate.')
flags.DEFINE_integer('max_number_of_steps', 3, 'The maximum number of gradient steps.')
flags.DEFINE_integer('ps_tasks', 0, 'The number of parameter servers.')
flags.DEFINE_integer('task', 0, 'The Task ID.')
flags.DEFINE_float('weight_factor', 0.5,
                   'How much to weight the adversarial loss relative to pixel loss.')

FLAGS = flags.FLAGS


def generator(inputs):
  net = tf.layers.conv2d(inputs, 8, 3, padding='same', activation=tf.nn.relu)
  return tf.layers.conv2d(net, 3, 3, padding='same', activation=tf.tanh)


def discriminator(image, unused_conditioning):
  net = tf.layers.conv2d(image, 8, 3, strides=2, padding='same', activation=tf.nn.leaky_relu)
  return tf.layers.dense(tf.layers.flatten(net), 1)


def main(_):
  if not tf.gfile.Exists(FLAGS.train_log_dir):
    tf.gfile.MakeDirs(FLAGS.train_log_dir)

  with tf.device(tf.train.replica_device_setter(FLAGS.ps_tasks)):
    with tf.name_scope('inputs'):
      real_images = tf.random_uniform(
          [FLAGS.batch_size, FLAGS.patch_size, FLAGS.patch_size, 3], -1.0, 1.0, seed=5)
    distorted_images = _distort_images(
        real_images, downscale_size=int(FLAGS.patch_size / 2),
        upscale_size=FLAGS.patch_size)

    gan_model = tfgan.gan_model(
        generator_fn=generator,
        discriminator_fn=discriminator,
        real_data=real_images,
        generator_inputs=distorted_images)

    with tf.name_scope('losses'):
      gan_loss = tfgan.gan_loss(
          gan_model,
          generator_loss_fn=tfgan.losses.least_squares_generator_loss,
          discriminator_loss_fn=tfgan.losses.least_squares_discriminator_loss)
      l1_pixel_loss = tf.norm(gan_model.real_data - gan_model.generated_data,
                              ord=1) / FLAGS.patch_size ** 2
      gan_loss = tfgan.losses.combine_adversarial_loss(
          gan_loss, gan_model, l1_pixel_loss, weight_factor=FLAGS.weight_factor)

    with tf.name_scope('train_ops'):
      gen_lr, dis_lr = _lr(FLAGS.generator_lr, FLAGS.discriminator_lr)
      gen_opt, dis_opt = _optimizer(gen_lr, dis_lr)
      train_ops = tfgan.gan_train_ops(
          gan_model,
          gan_loss,
          generator_optimizer=gen_opt,
          discriminator_optimizer=dis_opt,
          summarize_gradients=True,
          colocate_gradients_with_ops=True,
          aggregation_method=tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N,
          transform_grads_fn=tf.contrib.training.clip_gradient_norms_fn(1e3))
      tf.summary.scalar('generator_lr', gen_lr)
      tf.summary.scalar('discriminator_lr', dis_lr)

    train_steps = tfgan.GANTrainSteps(
        generator_train_steps=1,
        discriminator_train_steps=int(FLAGS.weight_factor > 0))
    status_message = tf.string_join(
        ['Starting train step: ',
         tf.as_string(tf.train.get_or_create_global_step())],
        name='status_message')
    if FLAGS.max_number_of_steps == 0:
      return
    final = tfgan.gan_train(
        train_ops,
        FLAGS.train_log_dir,
        get_hooks_fn=tfgan.get_sequential_train_hooks(train_steps),
        hooks=[tf.train.StopAtStepHook(num_steps=FLAGS.max_number_of_steps),
               tf.train.LoggingTensorHook([status_message], every_n_iter=1)],
        master=FLAGS.master,
        is_chief=FLAGS.task == 0)
  step = tf.train.load_variable(FLAGS.train_log_dir, 'global_step')
  print('RESULT global_step=%d loss=%f' % (step, final))


def _optimizer(gen_lr, dis_lr):
  kwargs = {'beta1': 0.5, 'beta2': 0.999}
  return tf.train.AdamOptimizer(gen_lr, **kwargs), tf.train.AdamOptimizer(dis_lr, **kwargs)


def _lr(gen_lr_base, dis_lr_base):
  gen_lr = tf.train.exponential_decay(
      learning_rate=gen_lr_base,
      global_step=tf.train.get_or_create_global_step(),
      decay_steps=100000,
      decay_rate=0.8,
      staircase=True,)
  return gen_lr, dis_lr_base


def _distort_images(images, downscale_size, upscale_size):
  downscaled = tf.image.resize_area(images, [downscale_size] * 2)
  return tf.image.resize_area(downscaled, [upscale_size] * 2)


if __name__ == '__main__':
  tf.app.run()
