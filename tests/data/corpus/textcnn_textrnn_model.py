# -*- coding: utf-8 -*-
"""TextCNN / TextRNN classifiers trained like brightmart/text_classification (a02/a03).

tf.app.flags + tf.app.run, a Bi-LSTM from `from tensorflow.contrib import rnn`
(rnn.BasicLSTMCell, rnn.DropoutWrapper), a staircase tf.train.exponential_decay
learning-rate tensor and tf.contrib.layers.optimize_loss(self.loss_val, global_step=...,
learning_rate=..., optimizer="Adam", clip_gradients=...). Random token ids.
"""
import numpy as np
import tensorflow as tf
from tensorflow.contrib import rnn

FLAGS = tf.app.flags.FLAGS
tf.app.flags.DEFINE_float("learning_rate", 0.01, "learning rate")
tf.app.flags.DEFINE_integer("batch_size", 8, "Batch size for training/evaluating.")
tf.app.flags.DEFINE_integer("decay_steps", 2, "how many steps before decay learning rate.")
tf.app.flags.DEFINE_float("decay_rate", 0.9, "Rate of decay for learning rate.")
tf.app.flags.DEFINE_integer("sequence_length", 6, "max sentence length")
tf.app.flags.DEFINE_integer("embed_size", 8, "embedding size")
tf.app.flags.DEFINE_integer("num_epochs", 3, "number of training steps.")
tf.app.flags.DEFINE_float("clip_gradients", 3.0, "clip gradients by global norm")


class TextRNN:
  def __init__(self, num_classes, learning_rate, batch_size, decay_steps, decay_rate,
               sequence_length, vocab_size, embed_size, clip_gradients,
               initializer=tf.random_normal_initializer(stddev=0.1)):
    self.num_classes = num_classes
    self.batch_size = batch_size
    self.sequence_length = sequence_length
    self.vocab_size = vocab_size
    self.embed_size = embed_size
    self.hidden_size = embed_size
    self.learning_rate = learning_rate
    self.initializer = initializer
    self.clip_gradients = clip_gradients

    self.input_x = tf.placeholder(tf.int32, [None, self.sequence_length], name="input_x")
    self.input_y = tf.placeholder(tf.int32, [None], name="input_y")
    self.dropout_keep_prob = tf.placeholder(tf.float32, name="dropout_keep_prob")

    self.global_step = tf.Variable(0, trainable=False, name="Global_Step")
    self.decay_steps, self.decay_rate = decay_steps, decay_rate

    self.instantiate_weights()
    self.logits = self.inference()
    self.loss_val = self.loss()
    self.train_op = self.train()
    self.predictions = tf.argmax(self.logits, axis=1, name="predictions")
    correct_prediction = tf.equal(tf.cast(self.predictions, tf.int32), self.input_y)
    self.accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32), name="Accuracy")

  def instantiate_weights(self):
    with tf.name_scope("embedding"):
      self.Embedding = tf.get_variable("Embedding", shape=[self.vocab_size, self.embed_size],
                                       initializer=self.initializer)
      self.W_projection = tf.get_variable("W_projection",
                                          shape=[self.hidden_size * 2, self.num_classes],
                                          initializer=self.initializer)
      self.b_projection = tf.get_variable("b_projection", shape=[self.num_classes])

  def inference(self):
    self.embedded_words = tf.nn.embedding_lookup(self.Embedding, self.input_x)
    lstm_fw_cell = rnn.BasicLSTMCell(self.hidden_size)
    lstm_bw_cell = rnn.BasicLSTMCell(self.hidden_size)
    if self.dropout_keep_prob is not None:
      lstm_fw_cell = rnn.DropoutWrapper(lstm_fw_cell, output_keep_prob=self.dropout_keep_prob)
      lstm_bw_cell = rnn.DropoutWrapper(lstm_bw_cell, output_keep_prob=self.dropout_keep_prob)
    outputs, _ = tf.nn.bidirectional_dynamic_rnn(lstm_fw_cell, lstm_bw_cell,
                                                 self.embedded_words, dtype=tf.float32)
    output_rnn = tf.concat(outputs, axis=2)
    self.output_rnn_last = output_rnn[:, -1, :]
    with tf.name_scope("output"):
      logits = tf.matmul(self.output_rnn_last, self.W_projection) + self.b_projection
    return logits

  def loss(self, l2_lambda=0.0001):
    with tf.name_scope("loss"):
      losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.input_y,
                                                              logits=self.logits)
      loss = tf.reduce_mean(losses)
      l2_losses = tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()
                            if 'bias' not in v.name]) * l2_lambda
      loss = loss + l2_losses
    return loss

  def train(self):
    learning_rate = tf.train.exponential_decay(self.learning_rate, self.global_step,
                                               self.decay_steps, self.decay_rate,
                                               staircase=True)
    train_op = tf.contrib.layers.optimize_loss(self.loss_val, global_step=self.global_step,
                                               learning_rate=learning_rate, optimizer="Adam",
                                               clip_gradients=self.clip_gradients)
    return train_op


def main(_):
  num_classes, vocab_size = 3, 30
  rng = np.random.RandomState(13)
  text_rnn = TextRNN(num_classes, FLAGS.learning_rate, FLAGS.batch_size, FLAGS.decay_steps,
                     FLAGS.decay_rate, FLAGS.sequence_length, vocab_size, FLAGS.embed_size,
                     FLAGS.clip_gradients)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(FLAGS.num_epochs):
      input_x = rng.randint(0, vocab_size, (FLAGS.batch_size, FLAGS.sequence_length))
      input_y = rng.randint(0, num_classes, FLAGS.batch_size)
      loss, acc, _ = sess.run([text_rnn.loss_val, text_rnn.accuracy, text_rnn.train_op],
                              feed_dict={text_rnn.input_x: input_x, text_rnn.input_y: input_y,
                                         text_rnn.dropout_keep_prob: 0.5})
    step = sess.run(text_rnn.global_step)
  print("RESULT global_step=%d loss=%r" % (step, float(loss)))


if __name__ == "__main__":
  tf.app.run()
