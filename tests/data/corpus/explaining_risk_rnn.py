"""An observation-sequence RNN risk model like google-research's
explaining_risk_increase/observation_sequence_model.py.

Import-alias spellings (`from tensorflow.contrib import estimator as contrib_estimator`,
`rnn as contrib_rnn`, `training as contrib_training`), contrib_rnn.LSTMCell inside a
variational tf.nn.rnn_cell.DropoutWrapper, rnn_common.select_last_activations from
contrib.learn, contrib_training.HParams, and a model_fn whose train op is
contrib_training.create_train_op(total_loss=..., optimizer=
contrib_estimator.clip_gradients_by_norm(optimizer, 6.0), summarize_gradients=False)
returned in a tf.estimator.EstimatorSpec. Random lab values.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf

from tensorflow.contrib import estimator as contrib_estimator
from tensorflow.contrib import rnn as contrib_rnn
from tensorflow.contrib import training as contrib_training
from tensorflow.contrib.learn.python.learn.estimators import rnn_common


def construct_rnn_logits(sequence_data, sequence_length, rnn_size,
                         variational_recurrent_keep_prob, reuse):
  with tf.variable_scope('logits/rnn', reuse=reuse) as sc:
    cell = contrib_rnn.LSTMCell(rnn_size, state_is_tuple=True)
    if variational_recurrent_keep_prob < 1:
      cell = tf.nn.rnn_cell.DropoutWrapper(
          cell, state_keep_prob=variational_recurrent_keep_prob,
          variational_recurrent=True, input_size=tf.shape(sequence_data)[2],
          seed=12345678)
    output, _ = tf.nn.dynamic_rnn(
        cell, sequence_data, sequence_length=sequence_length,
        dtype=tf.float32, swap_memory=True, scope='rnn')
    return tf.layers.dense(output, 1, name=sc, reuse=reuse, activation=None)


def create_model_hparams():
  return contrib_training.HParams(
      learning_rate=0.002,
      rnn_size=8,
      variational_recurrent_keep_prob=0.99,
      label_key='label.in_hospital_death')


def create_model_fn(hparams):

  def model_fn(features, labels, mode):
    sequence_length = tf.squeeze(features['sequenceLength'], axis=1)
    tf.summary.scalar('sequence_length', tf.reduce_mean(sequence_length))
    logits = construct_rnn_logits(features['observations'], sequence_length,
                                  hparams.rnn_size,
                                  hparams.variational_recurrent_keep_prob, reuse=False)
    logits = rnn_common.select_last_activations(logits, tf.to_int32(sequence_length))
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(
        labels=labels[hparams.label_key], logits=logits))
    tf.summary.scalar('loss', loss)

    train_op = None
    if mode == tf.estimator.ModeKeys.TRAIN:
      optimizer = tf.train.AdamOptimizer(
          learning_rate=hparams.learning_rate, beta1=0.9, beta2=0.999,
          epsilon=1e-8)
      optimizer = contrib_estimator.clip_gradients_by_norm(optimizer, 6.0)
      train_op = contrib_training.create_train_op(
          total_loss=loss, optimizer=optimizer,
          summarize_gradients=False)
    return tf.estimator.EstimatorSpec(mode, predictions={'logits': logits},
                                      loss=loss, train_op=train_op)

  return model_fn


def main():
  rng = np.random.RandomState(15)
  hparams = create_model_hparams()
  with tf.Graph().as_default():
    tf.train.get_or_create_global_step()
    features = {'observations': tf.constant(rng.randn(4, 6, 3).astype(np.float32)),
                'sequenceLength': tf.constant([[6], [4], [5], [3]], dtype=tf.int64)}
    labels = {hparams.label_key: tf.constant(rng.randint(0, 2, (4, 1)).astype(np.float32))}
    spec = create_model_fn(hparams)(features, labels, tf.estimator.ModeKeys.TRAIN)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(3):
        value = sess.run(spec.train_op)
  print('RESULT loss=%r' % float(value))


if __name__ == '__main__':
  main()
