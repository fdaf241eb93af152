"""QANet-style train op as in tensorflow/tpu models/experimental/qanet/model.py.

Already-compat code: `import tensorflow.compat.v1 as tf` next to
`from tensorflow.contrib import layers as contrib_layers` and
`from tensorflow.contrib import tpu as contrib_tpu`; contrib_layers.optimize_loss with
a learning_rate_decay_fn (linear warm-up), clip_gradients, an optimizer *function* of
the learning rate, variables= and gradient_noise_scale=None. Random spans.
"""
import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.contrib import layers as contrib_layers
from tensorflow.contrib import tpu as contrib_tpu


class Config(dict):
  __getattr__ = dict.__getitem__


def build_train_op(loss, is_tpu, opt_cfg, trainable_vars=None):
  """Build the optimizer, compute gradients, and build training op."""
  trainable_vars = trainable_vars or tf.trainable_variables()

  def decay_fn(learning_rate, global_step):
    lr_decay = tf.minimum(1.0, tf.to_float(global_step) / opt_cfg.warmup_steps)
    return lr_decay * learning_rate

  def optimizer(lr):
    opt = tf.train.AdamOptimizer(
        learning_rate=lr,
        beta1=opt_cfg.beta1,
        beta2=opt_cfg.beta2,
        epsilon=opt_cfg.epsilon)
    if is_tpu:
      opt = contrib_tpu.CrossShardOptimizer(opt)
    return opt

  if opt_cfg.l2_reg:
    decay_costs = []
    for var in trainable_vars:
      decay_costs.append(tf.nn.l2_loss(var))
    loss += tf.multiply(opt_cfg.l2_reg, tf.add_n(decay_costs))

  train_op = contrib_layers.optimize_loss(
      loss=loss,
      global_step=tf.train.get_global_step(),
      learning_rate=opt_cfg.lr,
      learning_rate_decay_fn=decay_fn,
      clip_gradients=opt_cfg.grad_clip_norm,
      optimizer=optimizer,
      variables=trainable_vars,
      gradient_noise_scale=None,
      summaries=[] if is_tpu else ['learning_rate', 'global_gradient_norm'],
      colocate_gradients_with_ops=True)
  return train_op


def get_loss(answer_start, answer_end, logits_start, logits_end):
  length = logits_start.shape.as_list()[1]
  start = tf.one_hot(answer_start, length)
  end = tf.one_hot(answer_end, length)
  loss_start = tf.losses.softmax_cross_entropy(onehot_labels=start, logits=logits_start)
  loss_end = tf.losses.softmax_cross_entropy(onehot_labels=end, logits=logits_end)
  return tf.reduce_mean(loss_start) + tf.reduce_mean(loss_end)


def main():
  opt_cfg = Config(lr=0.001, warmup_steps=10, beta1=0.9, beta2=0.999, epsilon=1e-7,
                   grad_clip_norm=10.0, l2_reg=5e-8)
  rng = np.random.RandomState(10)
  with tf.Graph().as_default():
    global_step = tf.train.get_or_create_global_step()
    context = tf.constant(rng.randn(4, 12, 6).astype(np.float32))
    net = tf.layers.dense(context, 8, activation=tf.nn.relu)
    logits_start = tf.squeeze(tf.layers.dense(net, 1), -1)
    logits_end = tf.squeeze(tf.layers.dense(net, 1), -1)
    loss = get_loss(tf.constant([1, 2, 3, 4]), tf.constant([2, 3, 5, 6]),
                    logits_start, logits_end)
    train_op = build_train_op(loss, is_tpu=False, opt_cfg=opt_cfg)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(3):
        value = sess.run(train_op)
      step = sess.run(global_step)
  print('RESULT global_step=%d loss=%r' % (step, float(value)))


if __name__ == '__main__':
  main()
