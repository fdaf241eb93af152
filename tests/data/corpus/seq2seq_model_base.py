"""A miniature encoder-decoder trained like google/seq2seq's models/model_base.py.

tf.contrib.layers.optimize_loss with a learning_rate_decay_fn, clip_gradients,
an optimizer name and a summaries list; tf.contrib.framework.get_global_step();
tf.contrib.learn.ModeKeys to pick the graph. Embedding gradients are sparse
(IndexedSlices). Random token ids.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import numpy as np
import tensorflow as tf


def create_learning_rate_decay_fn(decay_type, decay_steps, decay_rate,
                                  start_decay_at=0, stop_decay_at=1e9,
                                  min_learning_rate=None, staircase=False):
  if decay_type is None or decay_type == "":
    return None

  start_decay_at = tf.to_int32(start_decay_at)
  stop_decay_at = tf.to_int32(stop_decay_at)

  def decay_fn(learning_rate, global_step):
    global_step = tf.to_int32(global_step)
    decay_type_fn = getattr(tf.train, decay_type)
    decayed_learning_rate = decay_type_fn(
        learning_rate=learning_rate,
        global_step=tf.minimum(global_step, stop_decay_at) - start_decay_at,
        decay_steps=decay_steps,
        decay_rate=decay_rate,
        staircase=staircase,
        name="decayed_learning_rate")
    final_lr = tf.train.piecewise_constant(
        x=global_step,
        boundaries=[start_decay_at],
        values=[learning_rate, decayed_learning_rate])
    if min_learning_rate:
      final_lr = tf.maximum(final_lr, min_learning_rate)
    return final_lr

  return decay_fn


class BasicSeq2Seq(object):

  def __init__(self, params, name="basic_seq2seq"):
    self.params = self.default_params()
    self.params.update(params)
    self.name = name

  @staticmethod
  def default_params():
    return {
        "vocab_size": 12,
        "embedding.dim": 6,
        "num_units": 8,
        "optimizer.name": "Adam",
        "optimizer.learning_rate": 1e-2,
        "optimizer.lr_decay_type": "exponential_decay",
        "optimizer.lr_decay_steps": 2,
        "optimizer.lr_decay_rate": 0.9,
        "optimizer.lr_start_decay_at": 0,
        "optimizer.lr_stop_decay_at": 1000,
        "optimizer.lr_min_learning_rate": 1e-5,
        "optimizer.lr_staircase": True,
        "optimizer.clip_gradients": 5.0,
    }

  def __call__(self, features, labels, mode):
    with tf.variable_scope("model"):
      with tf.variable_scope(self.name):
        return self._build(features, labels, mode)

  def _build(self, features, labels, mode):
    embedding = tf.get_variable(
        "source_embedding", [self.params["vocab_size"], self.params["embedding.dim"]])
    source_embedded = tf.nn.embedding_lookup(embedding, features["source_ids"])
    target_embedded = tf.nn.embedding_lookup(embedding, labels["target_ids"][:, :-1])

    cell = tf.nn.rnn_cell.GRUCell(self.params["num_units"])
    _, encoder_state = tf.nn.dynamic_rnn(cell, source_embedded, dtype=tf.float32,
                                         scope="encoder")
    decoder_outputs, _ = tf.nn.dynamic_rnn(cell, target_embedded,
                                           initial_state=encoder_state, scope="decoder")
    logits = tf.layers.dense(decoder_outputs, self.params["vocab_size"])
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels["target_ids"][:, 1:], logits=logits)
    loss = tf.reduce_sum(losses) / tf.to_float(tf.size(losses))

    if mode == tf.contrib.learn.ModeKeys.INFER:
      return {"logits": logits}, None, None

    learning_rate_decay_fn = create_learning_rate_decay_fn(
        decay_type=self.params["optimizer.lr_decay_type"] or None,
        decay_steps=self.params["optimizer.lr_decay_steps"],
        decay_rate=self.params["optimizer.lr_decay_rate"],
        start_decay_at=self.params["optimizer.lr_start_decay_at"],
        stop_decay_at=self.params["optimizer.lr_stop_decay_at"],
        min_learning_rate=self.params["optimizer.lr_min_learning_rate"],
        staircase=self.params["optimizer.lr_staircase"])

    train_op = tf.contrib.layers.optimize_loss(
        loss=loss,
        global_step=tf.contrib.framework.get_global_step(),
        learning_rate=self.params["optimizer.learning_rate"],
        learning_rate_decay_fn=learning_rate_decay_fn,
        clip_gradients=self.params["optimizer.clip_gradients"],
        optimizer=self.params["optimizer.name"],
        summaries=["learning_rate", "loss", "gradients", "gradient_norm"])

    if mode == tf.contrib.learn.ModeKeys.EVAL:
      train_op = None
    return {"logits": logits}, loss, train_op


def main():
  rng = np.random.RandomState(5)
  with tf.Graph().as_default():
    global_step = tf.contrib.framework.get_or_create_global_step()
    features = {"source_ids": tf.constant(rng.randint(0, 12, size=(4, 5)))}
    labels = {"target_ids": tf.constant(rng.randint(0, 12, size=(4, 6)))}
    model = BasicSeq2Seq({})
    _, loss, train_op = model(features, labels, tf.contrib.learn.ModeKeys.TRAIN)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(3):
        value, _ = sess.run([loss, train_op])
      step = sess.run(global_step)
    print("RESULT global_step=%d loss=%r" % (step, float(value)))


if __name__ == "__main__":
  main()
