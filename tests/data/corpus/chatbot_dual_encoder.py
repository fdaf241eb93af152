"""A dual-encoder response ranker trained like dennybritz/chatbot-retrieval (udc_model.py).

tf.flags definitions read through tf.flags.FLAGS, tf.contrib.layers.optimize_loss with
global_step=tf.contrib.framework.get_global_step(), clip_gradients=10.0 and an
optimizer name, tf.contrib.learn.ModeKeys in the model_fn, and evaluation metrics
built with functools.partial(tf.contrib.metrics.streaming_sparse_recall_at_k, k=k).
Random token ids.
"""

import functools
from collections import namedtuple

import numpy as np
import tensorflow as tf

tf.flags.DEFINE_integer("vocab_size", 20, "The size of the vocabulary.")
tf.flags.DEFINE_integer("embedding_dim", 6, "Dimensionality of the embeddings")
tf.flags.DEFINE_integer("rnn_dim", 8, "Dimensionality of the RNN cell")
tf.flags.DEFINE_integer("max_context_len", 7, "Truncate contexts to this length")
tf.flags.DEFINE_integer("max_utterance_len", 5, "Truncate utterance to this length")
tf.flags.DEFINE_float("learning_rate", 0.01, "Learning rate")
tf.flags.DEFINE_integer("batch_size", 4, "Batch size during training")
tf.flags.DEFINE_string("optimizer", "Adam", "Optimizer Name (Adam, Adagrad, etc)")

FLAGS = tf.flags.FLAGS

HParams = namedtuple(
    "HParams",
    ["batch_size", "embedding_dim", "learning_rate", "max_context_len",
     "max_utterance_len", "optimizer", "rnn_dim", "vocab_size"])


def create_hparams():
  return HParams(
      batch_size=FLAGS.batch_size,
      vocab_size=FLAGS.vocab_size,
      optimizer=FLAGS.optimizer,
      learning_rate=FLAGS.learning_rate,
      embedding_dim=FLAGS.embedding_dim,
      max_context_len=FLAGS.max_context_len,
      max_utterance_len=FLAGS.max_utterance_len,
      rnn_dim=FLAGS.rnn_dim)


def create_evaluation_metrics():
  eval_metrics = {}
  for k in [1, 2]:
    eval_metrics["recall_at_%d" % k] = functools.partial(
        tf.contrib.metrics.streaming_sparse_recall_at_k, k=k)
  return eval_metrics


def get_id_feature(features, key, len_key, max_len):
  ids = features[key]
  ids_len = tf.squeeze(features[len_key], [1])
  ids_len = tf.minimum(ids_len, tf.constant(max_len, dtype=tf.int64))
  return ids, ids_len


def create_train_op(loss, hparams):
  train_op = tf.contrib.layers.optimize_loss(
      loss=loss,
      global_step=tf.contrib.framework.get_global_step(),
      learning_rate=hparams.learning_rate,
      clip_gradients=10.0,
      optimizer=hparams.optimizer)
  return train_op


def dual_encoder_model(hparams, mode, context, context_len, utterance, utterance_len, targets):
  embeddings_W = tf.get_variable(
      "word_embeddings", shape=[hparams.vocab_size, hparams.embedding_dim],
      initializer=tf.random_uniform_initializer(-0.25, 0.25))
  context_embedded = tf.nn.embedding_lookup(embeddings_W, context, name="embed_context")
  utterance_embedded = tf.nn.embedding_lookup(embeddings_W, utterance, name="embed_utterance")
  with tf.variable_scope("rnn") as vs:
    cell = tf.nn.rnn_cell.LSTMCell(hparams.rnn_dim, forget_bias=2.0, state_is_tuple=True)
    _, context_state = tf.nn.dynamic_rnn(
        cell, context_embedded, sequence_length=context_len, dtype=tf.float32)
    vs.reuse_variables()
    _, utterance_state = tf.nn.dynamic_rnn(
        cell, utterance_embedded, sequence_length=utterance_len, dtype=tf.float32)
  with tf.variable_scope("prediction"):
    M = tf.get_variable("M", shape=[hparams.rnn_dim, hparams.rnn_dim],
                        initializer=tf.truncated_normal_initializer())
    generated_response = tf.matmul(context_state.h, M)
    logits = tf.reduce_sum(generated_response * utterance_state.h, axis=1, keepdims=True)
    probs = tf.sigmoid(logits)
    if mode == tf.contrib.learn.ModeKeys.INFER:
      return probs, None
    losses = tf.nn.sigmoid_cross_entropy_with_logits(logits=logits, labels=tf.to_float(targets))
  return probs, tf.reduce_mean(losses, name="mean_loss")


def create_model_fn(hparams, model_impl):

  def model_fn(features, targets, mode):
    context, context_len = get_id_feature(
        features, "context", "context_len", hparams.max_context_len)
    utterance, utterance_len = get_id_feature(
        features, "utterance", "utterance_len", hparams.max_utterance_len)
    if mode == tf.contrib.learn.ModeKeys.TRAIN:
      probs, loss = model_impl(hparams, mode, context, context_len,
                               utterance, utterance_len, targets)
      train_op = create_train_op(loss, hparams)
      return probs, loss, train_op
    probs, loss = model_impl(hparams, mode, context, context_len,
                             utterance, utterance_len, None)
    return probs, 0.0, None

  return model_fn


def main(unused_argv):
  hparams = create_hparams()
  rng = np.random.RandomState(12)
  batch = hparams.batch_size
  features = {
      "context": tf.constant(rng.randint(0, hparams.vocab_size, (batch, 7)), tf.int64),
      "context_len": tf.constant(rng.randint(2, 8, (batch, 1)), tf.int64),
      "utterance": tf.constant(rng.randint(0, hparams.vocab_size, (batch, 5)), tf.int64),
      "utterance_len": tf.constant(rng.randint(2, 6, (batch, 1)), tf.int64),
  }
  targets = tf.constant(rng.randint(0, 2, (batch, 1)), tf.int64)
  global_step = tf.contrib.framework.get_or_create_global_step()
  model_fn = create_model_fn(hparams, dual_encoder_model)
  probs, loss, train_op = model_fn(features, targets, tf.contrib.learn.ModeKeys.TRAIN)
  metric_fns = create_evaluation_metrics()
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
      value = sess.run(train_op)
    step = sess.run(global_step)
  print("RESULT global_step=%d loss=%r metrics=%s" % (step, float(value), sorted(metric_fns)))


if __name__ == "__main__":
  tf.app.run()
