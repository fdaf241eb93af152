"""A multi-task detection training step like mtl-ssl's object_detection/trainer.py.

`slim = tf.contrib.slim`; slim.create_global_step(); losses registered with
tf.losses.add_loss; bias gradients scaled by a regex multiplier; optional freezing;
slim.learning.clip_gradient_norms; the train tensor as tf.identity of the total loss
under control_dependencies; summaries from slim.get_model_variables() and
tf.losses.get_losses(). mtl-ssl drives it with its own fork of slim's training loop;
here a plain Session loop stands in for it. Random data.
"""

import re

import numpy as np
import tensorflow as tf

slim = tf.contrib.slim


def multiply_gradients_matching_regex(grads_and_vars, regex_list, multiplier):
  regex = '|'.join(regex_list)
  return [(g * multiplier if g is not None and re.match(regex, v.op.name) else g, v)
          for g, v in grads_and_vars]


def freeze_gradients_matching_regex(grads_and_vars, regex_list):
  regex = '|'.join(regex_list)
  return [(g, v) for g, v in grads_and_vars if not re.match(regex, v.op.name)]


def _create_losses(images, labels, aux_targets):
  with slim.arg_scope([slim.conv2d, slim.fully_connected],
                      weights_regularizer=slim.l2_regularizer(1e-4)):
    net = slim.conv2d(images, 4, [3, 3], scope='backbone/conv1')
    net = slim.avg_pool2d(net, [2, 2], scope='backbone/pool1')
    net = slim.flatten(net)
    logits = slim.fully_connected(net, 3, activation_fn=None, scope='head/logits')
    aux = slim.fully_connected(net, 2, activation_fn=None, scope='aux/regression')
  losses_dict = {
      'classification': tf.losses.sparse_softmax_cross_entropy(
          labels, logits, loss_collection=None),
      'auxiliary': tf.losses.mean_squared_error(aux_targets, aux, loss_collection=None),
  }
  for loss_name, loss_tensor in losses_dict.items():
    tf.losses.add_loss(tf.identity(loss_tensor, name='Loss/' + loss_name))


def main():
  rng = np.random.RandomState(9)
  bias_grad_multiplier = 2.0
  freeze_variables = ['aux/.*']
  gradient_clipping_by_norm = 0.5
  with tf.Graph().as_default():
    global_step = slim.create_global_step()
    images = tf.constant(rng.rand(4, 8, 8, 3).astype(np.float32))
    labels = tf.constant(rng.randint(0, 3, size=4))
    aux_targets = tf.constant(rng.randn(4, 2).astype(np.float32))
    _create_losses(images, labels, aux_targets)
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    global_summaries = set([])

    training_optimizer = tf.train.RMSPropOptimizer(0.01, decay=0.9, momentum=0.9)
    total_loss = tf.losses.get_total_loss()
    total_loss = tf.check_numerics(total_loss, 'LossTensor is inf or nan.')
    grads_and_vars = training_optimizer.compute_gradients(total_loss)

    if bias_grad_multiplier:
      grads_and_vars = multiply_gradients_matching_regex(
          grads_and_vars, ['.*/biases'], multiplier=bias_grad_multiplier)
    if freeze_variables:
      grads_and_vars = freeze_gradients_matching_regex(grads_and_vars, freeze_variables)
    if gradient_clipping_by_norm > 0:
      with tf.name_scope('clip_grads'):
        grads_and_vars = slim.learning.clip_gradient_norms(
            grads_and_vars, gradient_clipping_by_norm)

    grad_updates = training_optimizer.apply_gradients(grads_and_vars,
                                                      global_step=global_step)
    update_ops.append(grad_updates)
    update_op = tf.group(*update_ops)
    with tf.control_dependencies([update_op]):
      train_tensor = tf.identity(total_loss, name='train_op')

    for model_var in slim.get_model_variables():
      global_summaries.add(tf.summary.histogram(model_var.op.name, model_var))
    for loss_tensor in tf.losses.get_losses():
      global_summaries.add(tf.summary.scalar(loss_tensor.op.name, loss_tensor))
    summary_op = tf.summary.merge(list(global_summaries), name='summary_op')

    session_config = tf.ConfigProto(allow_soft_placement=True,
                                    log_device_placement=False)
    with tf.Session(config=session_config) as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(3):
        loss_value, _ = sess.run([train_tensor, summary_op])
      step = sess.run(global_step)
  print('RESULT global_step=%d loss=%r' % (step, float(loss_value)))


if __name__ == '__main__':
  main()
