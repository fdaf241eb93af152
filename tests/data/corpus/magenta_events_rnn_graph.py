"""Builds and trains an event-sequence LSTM like magenta's shared/events_rnn_graph.py.

tf.contrib.rnn cells and wrappers (BasicLSTMCell, AttentionCellWrapper, ResidualWrapper,
InputProjectionWrapper, DropoutWrapper, MultiRNNCell, LSTMStateTuple),
tf.contrib.cudnn_rnn.CudnnLSTM, tf.contrib.layers.linear,
tf.contrib.slim.learning.create_train_op(clip_gradient_norm=...) and
tf.contrib.metrics.aggregate_metric_map for evaluation. Random one-hot events.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections

import numpy as np
import tensorflow as tf

HParams = collections.namedtuple(
    'HParams', ['batch_size', 'rnn_layer_sizes', 'dropout_keep_prob', 'attn_length',
                'clip_norm', 'learning_rate', 'residual_connections', 'use_cudnn'])


def make_rnn_cell(rnn_layer_sizes,
                  dropout_keep_prob=1.0,
                  attn_length=0,
                  base_cell=tf.contrib.rnn.BasicLSTMCell,
                  residual_connections=False):
  cells = []
  for i in range(len(rnn_layer_sizes)):
    cell = base_cell(rnn_layer_sizes[i])
    if attn_length and not cells:
      cell = tf.contrib.rnn.AttentionCellWrapper(
          cell, attn_length, state_is_tuple=True)
    if residual_connections:
      cell = tf.contrib.rnn.ResidualWrapper(cell)
      if i == 0 or rnn_layer_sizes[i] != rnn_layer_sizes[i - 1]:
        cell = tf.contrib.rnn.InputProjectionWrapper(cell, rnn_layer_sizes[i])
    cell = tf.contrib.rnn.DropoutWrapper(
        cell, output_keep_prob=dropout_keep_prob)
    cells.append(cell)
  return tf.contrib.rnn.MultiRNNCell(cells)


def make_cudnn(inputs, rnn_layer_sizes, batch_size, mode, dropout_keep_prob=1.0):
  cudnn_inputs = tf.transpose(inputs, [1, 0, 2])
  initial_state = tuple(
      tf.contrib.rnn.LSTMStateTuple(
          h=tf.zeros([batch_size, num_units], dtype=tf.float32),
          c=tf.zeros([batch_size, num_units], dtype=tf.float32))
      for num_units in rnn_layer_sizes)
  cell = tf.contrib.cudnn_rnn.CudnnLSTM(
      num_layers=len(rnn_layer_sizes),
      num_units=rnn_layer_sizes[0],
      direction='unidirectional',
      dropout=1.0 - dropout_keep_prob)
  h = tf.stack([s.h for s in initial_state])
  c = tf.stack([s.c for s in initial_state])
  cudnn_outputs, _ = cell(cudnn_inputs, initial_state=(h, c),
                          training=mode == 'train')
  return tf.transpose(cudnn_outputs, [1, 0, 2])


def build_graph(mode, hparams, input_size, num_classes, num_steps):
  rng = np.random.RandomState(3)
  labels_np = rng.randint(0, num_classes, size=(hparams.batch_size, num_steps))
  inputs = tf.one_hot(tf.constant(labels_np[:, :-1]), input_size)
  labels = tf.constant(labels_np[:, 1:])
  lengths = tf.fill([hparams.batch_size], num_steps - 1)

  if hparams.use_cudnn:
    outputs = make_cudnn(inputs, hparams.rnn_layer_sizes, hparams.batch_size, mode,
                         dropout_keep_prob=hparams.dropout_keep_prob)
  else:
    cell = make_rnn_cell(hparams.rnn_layer_sizes,
                         dropout_keep_prob=hparams.dropout_keep_prob,
                         attn_length=hparams.attn_length,
                         residual_connections=hparams.residual_connections)
    initial_state = cell.zero_state(hparams.batch_size, tf.float32)
    outputs, _ = tf.nn.dynamic_rnn(cell, inputs, sequence_length=lengths,
                                   initial_state=initial_state, swap_memory=True)

  outputs_flat = tf.reshape(outputs, [-1, hparams.rnn_layer_sizes[-1]])
  logits_flat = tf.contrib.layers.linear(outputs_flat, num_classes)
  labels_flat = tf.reshape(labels, [-1])
  softmax_cross_entropy = tf.nn.sparse_softmax_cross_entropy_with_logits(
      labels=labels_flat, logits=logits_flat)
  predictions_flat = tf.argmax(logits_flat, axis=1)

  if mode == 'train':
    loss = tf.reduce_mean(softmax_cross_entropy)
    optimizer = tf.train.AdamOptimizer(learning_rate=hparams.learning_rate)
    train_op = tf.contrib.slim.learning.create_train_op(
        loss, optimizer, clip_gradient_norm=hparams.clip_norm)
    tf.add_to_collection('train_op', train_op)
    tf.summary.scalar('loss', loss)
    return train_op, loss

  vars_to_summarize, update_ops = tf.contrib.metrics.aggregate_metric_map({
      'loss': tf.metrics.mean(softmax_cross_entropy),
      'metrics/accuracy': tf.metrics.accuracy(labels_flat, predictions_flat),
  })
  return update_ops, vars_to_summarize


def main():
  hparams = HParams(batch_size=4, rnn_layer_sizes=[8, 8], dropout_keep_prob=0.9,
                    attn_length=2, clip_norm=3.0, learning_rate=0.01,
                    residual_connections=True, use_cudnn=False)
  with tf.Graph().as_default():
    tf.train.create_global_step()
    train_op, loss = build_graph('train', hparams, input_size=6, num_classes=6,
                                 num_steps=5)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(3):
        value = sess.run(train_op)
      step = sess.run(tf.train.get_global_step())
    print('RESULT global_step=%d loss=%r' % (step, float(value)))


if __name__ == '__main__':
  main()
