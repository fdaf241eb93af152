"""DNN regression in the style of the Machine Learning Crash Course exercises (google/eng-edu).

tf.contrib.estimator.clip_gradients_by_norm(my_optimizer, 5.0) wrapped around a
GradientDescentOptimizer and handed to tf.estimator.DNNRegressor, fed from a
tf.data Dataset through make_one_shot_iterator(). Synthetic "housing" columns
instead of the California CSV.
"""
from __future__ import print_function

import numpy as np
import tensorflow as tf
from tensorflow.python.data import Dataset

tf.logging.set_verbosity(tf.logging.ERROR)


def my_input_fn(features, targets, batch_size=1, shuffle=True, num_epochs=None):
  features = {key: np.array(value) for key, value in dict(features).items()}
  ds = Dataset.from_tensor_slices((features, targets))
  ds = ds.batch(batch_size).repeat(num_epochs)
  if shuffle:
    ds = ds.shuffle(100)
  features, labels = ds.make_one_shot_iterator().get_next()
  return features, labels


def construct_feature_columns(input_features):
  return set([tf.feature_column.numeric_column(my_feature)
              for my_feature in input_features])


def train_nn_regression_model(my_optimizer, steps, batch_size, hidden_units,
                              training_examples, training_targets):
  my_optimizer = tf.contrib.estimator.clip_gradients_by_norm(my_optimizer, 5.0)
  dnn_regressor = tf.estimator.DNNRegressor(
      feature_columns=construct_feature_columns(training_examples),
      hidden_units=hidden_units,
      optimizer=my_optimizer
  )
  training_input_fn = lambda: my_input_fn(training_examples, training_targets,
                                          batch_size=batch_size)
  dnn_regressor.train(input_fn=training_input_fn, steps=steps)
  return dnn_regressor


def main():
  rng = np.random.RandomState(14)
  examples = {"median_income": rng.rand(32).astype(np.float32),
              "rooms_per_person": rng.rand(32).astype(np.float32)}
  targets = (3.0 * examples["median_income"] + rng.rand(32)).astype(np.float32)
  train_nn_regression_model(
      my_optimizer=tf.train.GradientDescentOptimizer(learning_rate=0.005),
      steps=3,
      batch_size=8,
      hidden_units=[4, 4],
      training_examples=examples,
      training_targets=targets)
  print("RESULT trained")


if __name__ == "__main__":
  main()
