"""A bucketed attention translation model trained like tensorflow/models' 2016 translate tutorial.

tutorials/rnn/translate/seq2seq_model.py built its model from tf.contrib.rnn cells and
tf.contrib.legacy_seq2seq: embedding_attention_seq2seq with an output projection and a sampled
softmax loss, model_with_buckets over (encoder, decoder) length buckets, then per bucket
tf.gradients -> tf.clip_by_global_norm -> GradientDescentOptimizer.apply_gradients, a learning
rate variable with a decay op and a tf.train.Saver. Here: tiny vocabularies, synthetic batches,
three steps (cells deep-copied per bucket, as the tutorial's users had to on TF >= 1.2).
"""

import copy

import numpy as np
import tensorflow as tf

PAD_ID, GO_ID = 0, 1


class Seq2SeqModel(object):

  def __init__(self, source_vocab_size, target_vocab_size, buckets, size, num_layers,
               max_gradient_norm, batch_size, learning_rate, learning_rate_decay_factor,
               num_samples=6, forward_only=False, dtype=tf.float32):
    self.buckets = buckets
    self.batch_size = batch_size
    self.learning_rate = tf.Variable(float(learning_rate), trainable=False, dtype=dtype)
    self.learning_rate_decay_op = self.learning_rate.assign(
        self.learning_rate * learning_rate_decay_factor)
    self.global_step = tf.Variable(0, trainable=False)

    w_t = tf.get_variable("proj_w", [target_vocab_size, size], dtype=dtype)
    w = tf.transpose(w_t)
    b = tf.get_variable("proj_b", [target_vocab_size], dtype=dtype)
    output_projection = (w, b)

    def sampled_loss(labels, logits):
      labels = tf.reshape(labels, [-1, 1])
      return tf.nn.sampled_softmax_loss(
          weights=w_t, biases=b, labels=labels, inputs=logits,
          num_sampled=num_samples, num_classes=target_vocab_size)

    def single_cell():
      return tf.contrib.rnn.GRUCell(size)
    cell = tf.contrib.rnn.MultiRNNCell([single_cell() for _ in range(num_layers)])

    def seq2seq_f(encoder_inputs, decoder_inputs, do_decode):
      return tf.contrib.legacy_seq2seq.embedding_attention_seq2seq(
          encoder_inputs, decoder_inputs, copy.deepcopy(cell),
          num_encoder_symbols=source_vocab_size,
          num_decoder_symbols=target_vocab_size,
          embedding_size=size,
          output_projection=output_projection,
          feed_previous=do_decode,
          dtype=dtype)

    self.encoder_inputs, self.decoder_inputs, self.target_weights = [], [], []
    for i in range(buckets[-1][0]):
      self.encoder_inputs.append(tf.placeholder(tf.int32, shape=[None], name="encoder{0}".format(i)))
    for i in range(buckets[-1][1] + 1):
      self.decoder_inputs.append(tf.placeholder(tf.int32, shape=[None], name="decoder{0}".format(i)))
      self.target_weights.append(tf.placeholder(dtype, shape=[None], name="weight{0}".format(i)))
    targets = [self.decoder_inputs[i + 1] for i in range(len(self.decoder_inputs) - 1)]

    self.outputs, self.losses = tf.contrib.legacy_seq2seq.model_with_buckets(
        self.encoder_inputs, self.decoder_inputs, targets, self.target_weights, buckets,
        lambda x, y: seq2seq_f(x, y, forward_only), softmax_loss_function=sampled_loss)

    params = tf.trainable_variables()
    if not forward_only:
      self.gradient_norms, self.updates = [], []
      opt = tf.train.GradientDescentOptimizer(self.learning_rate)
      for bucket in range(len(buckets)):
        gradients = tf.gradients(self.losses[bucket], params)
        clipped_gradients, norm = tf.clip_by_global_norm(gradients, max_gradient_norm)
        self.gradient_norms.append(norm)
        self.updates.append(opt.apply_gradients(zip(clipped_gradients, params),
                                                global_step=self.global_step))
    self.saver = tf.train.Saver(tf.global_variables())

  def step(self, session, encoder_inputs, decoder_inputs, target_weights, bucket_id):
    encoder_size, decoder_size = self.buckets[bucket_id]
    input_feed = {}
    for l in range(encoder_size):
      input_feed[self.encoder_inputs[l].name] = encoder_inputs[l]
    for l in range(decoder_size):
      input_feed[self.decoder_inputs[l].name] = decoder_inputs[l]
      input_feed[self.target_weights[l].name] = target_weights[l]
    input_feed[self.decoder_inputs[decoder_size].name] = np.zeros([self.batch_size], np.int32)
    _, norm, loss = session.run(
        [self.updates[bucket_id], self.gradient_norms[bucket_id], self.losses[bucket_id]], input_feed)
    return norm, loss


def synthetic_batch(rng, bucket, batch_size, vocab):
  encoder_size, decoder_size = bucket
  encoder = [rng.randint(2, vocab, size=batch_size).astype(np.int32) for _ in range(encoder_size)]
  decoder = [np.full([batch_size], GO_ID, np.int32)]
  decoder += [rng.randint(2, vocab, size=batch_size).astype(np.int32) for _ in range(decoder_size - 1)]
  weights = [np.ones([batch_size], np.float32) for _ in range(decoder_size - 1)]
  weights.append(np.zeros([batch_size], np.float32))
  return encoder, decoder, weights


def main():
  rng = np.random.RandomState(3)
  buckets = [(3, 4), (5, 6)]
  tf.set_random_seed(1)
  model = Seq2SeqModel(12, 10, buckets, size=8, num_layers=2, max_gradient_norm=5.0,
                       batch_size=4, learning_rate=0.5, learning_rate_decay_factor=0.99)
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
      bucket_id = step % len(buckets)
      norm, loss = model.step(sess, *synthetic_batch(rng, buckets[bucket_id], 4, 10), bucket_id=bucket_id)
    sess.run(model.learning_rate_decay_op)
    print("RESULT global_step=%d loss=%r norm=%r" % (sess.run(model.global_step), float(loss), float(norm)))


if __name__ == "__main__":
  main()
