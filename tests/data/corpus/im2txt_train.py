"""Trains a tiny image-to-embedding regressor the way im2txt's train.py trains Show and Tell.

tf.contrib.layers.optimize_loss with a constant-tensor learning rate, a staircase
exponential decay function and clip_gradients, then tf.contrib.slim.learning.train
with number_of_steps, a Saver and init_fn. Synthetic data only.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf

FLAGS = tf.app.flags.FLAGS

tf.flags.DEFINE_string("train_dir", "", "Directory for saving and loading model checkpoints.")
tf.flags.DEFINE_integer("number_of_steps", 5, "Number of training steps.")
tf.flags.DEFINE_integer("log_every_n_steps", 1, "Frequency at which loss and global step are logged.")

tf.logging.set_verbosity(tf.logging.INFO)


class TrainingConfig(object):
  """Training hyperparameters (im2txt keeps these in configuration.py)."""

  def __init__(self):
    self.num_examples_per_epoch = 8
    self.optimizer = "SGD"
    self.initial_learning_rate = 0.5
    self.learning_rate_decay_factor = 0.5
    self.num_epochs_per_decay = 2.0
    self.clip_gradients = 5.0
    self.max_checkpoints_to_keep = 5


class ModelConfig(object):

  def __init__(self):
    self.batch_size = 8
    self.image_feature_size = 4
    self.embedding_size = 3


def synthetic_batch(config):
  rng = np.random.RandomState(0)
  images = 3.0 * rng.randn(config.batch_size, config.image_feature_size)
  targets = 10.0 * rng.randn(config.batch_size, config.embedding_size)
  return images.astype(np.float32), targets.astype(np.float32)


def initial_weights(config):
  size = config.image_feature_size * config.embedding_size
  weights = np.linspace(-1.0, 1.0, size).reshape(
      config.image_feature_size, config.embedding_size)
  biases = np.arange(config.embedding_size) * 0.1 - 0.1
  return weights.astype(np.float32), biases.astype(np.float32)


class TinyShowAndTellModel(object):
  """Linear image embedding with a mean squared error, built like ShowAndTellModel."""

  def __init__(self, config, mode):
    self.config = config
    self.mode = mode
    self.total_loss = None
    self.global_step = None
    self.init_fn = None

  def build_inputs(self):
    images, targets = synthetic_batch(self.config)
    self.images = tf.constant(images, name="images")
    self.targets = tf.constant(targets, name="targets")

  def build_image_embeddings(self):
    weights, biases = initial_weights(self.config)
    with tf.variable_scope("image_embedding"):
      w = tf.get_variable("weights", initializer=tf.constant(weights))
      b = tf.get_variable("biases", initializer=tf.constant(biases))
    self.image_embeddings = tf.matmul(self.images, w) + b

  def build_model(self):
    tf.losses.mean_squared_error(self.targets, self.image_embeddings)
    self.total_loss = tf.losses.get_total_loss()

  def setup_global_step(self):
    self.global_step = tf.Variable(
        initial_value=0,
        name="global_step",
        trainable=False,
        collections=[tf.GraphKeys.GLOBAL_STEP, tf.GraphKeys.GLOBAL_VARIABLES])

  def build(self):
    self.build_inputs()
    self.build_image_embeddings()
    self.build_model()
    self.setup_global_step()


def main(unused_argv):
  assert FLAGS.train_dir, "--train_dir is required"

  model_config = ModelConfig()
  training_config = TrainingConfig()

  train_dir = FLAGS.train_dir
  if not tf.gfile.IsDirectory(train_dir):
    tf.logging.info("Creating training directory: %s", train_dir)
    tf.gfile.MakeDirs(train_dir)

  g = tf.Graph()
  with g.as_default():
    model = TinyShowAndTellModel(model_config, mode="train")
    model.build()

    learning_rate_decay_fn = None
    learning_rate = tf.constant(training_config.initial_learning_rate)
    if training_config.learning_rate_decay_factor > 0:
      num_batches_per_epoch = (training_config.num_examples_per_epoch /
                               model_config.batch_size)
      decay_steps = int(num_batches_per_epoch *
                        training_config.num_epochs_per_decay)

      def _learning_rate_decay_fn(learning_rate, global_step):
        return tf.train.exponential_decay(
            learning_rate,
            global_step,
            decay_steps=decay_steps,
            decay_rate=training_config.learning_rate_decay_factor,
            staircase=True)

      learning_rate_decay_fn = _learning_rate_decay_fn

    train_op = tf.contrib.layers.optimize_loss(
        loss=model.total_loss,
        global_step=model.global_step,
        learning_rate=learning_rate,
        optimizer=training_config.optimizer,
        clip_gradients=training_config.clip_gradients,
        learning_rate_decay_fn=learning_rate_decay_fn)

    saver = tf.train.Saver(max_to_keep=training_config.max_checkpoints_to_keep)

  final_loss = tf.contrib.slim.learning.train(
      train_op,
      train_dir,
      log_every_n_steps=FLAGS.log_every_n_steps,
      graph=g,
      global_step=model.global_step,
      number_of_steps=FLAGS.number_of_steps,
      init_fn=model.init_fn,
      saver=saver)
  print("RESULT final_loss=%r" % float(final_loss))


if __name__ == "__main__":
  tf.app.run()
