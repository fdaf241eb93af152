"""A DDPG update written like the TF 1.x tf_agents DdpgAgent (agents/ddpg/ddpg_agent.py).

`nest = tf.contrib.framework.nest`, tf.make_template networks, a transform_grads_fn that
calls tf.contrib.training.clip_gradient_norms_fn(...)(grads_and_vars) and writes
tf.contrib.summary histograms, two tf.contrib.training.create_train_op calls (one
with global_step=None) and variables_to_train from the templates. Random transitions.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections

import numpy as np
import tensorflow as tf

nest = tf.contrib.framework.nest

TimeStep = collections.namedtuple('TimeStep', ['observation', 'reward', 'discount'])


def actor_network(time_steps, action_size):
  net = tf.layers.dense(time_steps.observation, 8, activation=tf.nn.relu, name='hidden')
  return tf.layers.dense(net, action_size, activation=tf.nn.tanh, name='action')


def critic_network(time_steps, actions):
  net = tf.concat([time_steps.observation, actions], axis=-1)
  net = tf.layers.dense(net, 8, activation=tf.nn.relu, name='hidden')
  return tf.squeeze(tf.layers.dense(net, 1, name='q_value'), -1)


class DdpgAgent(object):

  ACTOR_NET_SCOPE = 'actor_net'
  CRITIC_NET_SCOPE = 'critic_net'
  TARGET_ACTOR_NET_SCOPE = 'target_actor_net'
  TARGET_CRITIC_NET_SCOPE = 'target_critic_net'

  def __init__(self, action_size, gradient_clipping=None, gamma=0.99,
               summarize_grads_and_vars=True):
    self._action_size = action_size
    self._critic_net = tf.make_template(
        self.CRITIC_NET_SCOPE, critic_network, create_scope_now_=True)
    self._target_critic_net = tf.make_template(
        self.TARGET_CRITIC_NET_SCOPE, critic_network, create_scope_now_=True)
    self._actor_net = tf.make_template(
        self.ACTOR_NET_SCOPE, actor_network, create_scope_now_=True)
    self._target_actor_net = tf.make_template(
        self.TARGET_ACTOR_NET_SCOPE, actor_network, create_scope_now_=True)
    self._gradient_clipping = gradient_clipping
    self._gamma = gamma
    self._summarize_grads_and_vars = summarize_grads_and_vars

  def critic_loss(self, time_steps, actions, next_time_steps):
    with tf.name_scope('critic_loss'):
      target_actions = self._target_actor_net(next_time_steps, self._action_size)
      target_q_values = self._target_critic_net(next_time_steps, target_actions)
      td_targets = tf.stop_gradient(
          next_time_steps.reward + self._gamma * next_time_steps.discount * target_q_values)
      q_values = self._critic_net(time_steps, actions)
      return tf.losses.huber_loss(td_targets, q_values)

  def actor_loss(self, time_steps):
    with tf.name_scope('actor_loss'):
      actions = self._actor_net(time_steps, self._action_size)
      q_values = self._critic_net(time_steps, actions)
      actions = nest.flatten(actions)
      dqdas = tf.gradients([q_values], actions)
      actor_losses = []
      for dqda, action in zip(dqdas, actions):
        target = tf.stop_gradient(dqda + action)
        actor_losses.append(
            tf.losses.mean_squared_error(target, action))
      return tf.add_n(actor_losses)

  def train_from_experience(self, experience, actor_optimizer, critic_optimizer,
                            train_step_counter=None):
    time_steps, actions, next_time_steps = experience
    critic_loss = self.critic_loss(time_steps, actions, next_time_steps)
    actor_loss = self.actor_loss(time_steps)

    def clip_and_summarize_gradients(grads_and_vars):
      if self._gradient_clipping is not None:
        grads_and_vars = tf.contrib.training.clip_gradient_norms_fn(
            self._gradient_clipping)(grads_and_vars)
      if self._summarize_grads_and_vars:
        for grad, var in grads_and_vars:
          with tf.name_scope('Gradients/'):
            if grad is not None:
              tf.contrib.summary.histogram(grad.op.name, grad)
          with tf.name_scope('Variables/'):
            if var is not None:
              tf.contrib.summary.histogram(var.op.name, var)
      return grads_and_vars

    critic_train_op = tf.contrib.training.create_train_op(
        critic_loss,
        critic_optimizer,
        global_step=train_step_counter,
        transform_grads_fn=clip_and_summarize_gradients,
        variables_to_train=self._critic_net.trainable_variables,
    )
    actor_train_op = tf.contrib.training.create_train_op(
        actor_loss,
        actor_optimizer,
        global_step=None,
        transform_grads_fn=clip_and_summarize_gradients,
        variables_to_train=self._actor_net.trainable_variables,
    )
    return critic_train_op + actor_train_op


def main():
  rng = np.random.RandomState(4)
  batch, obs_size, action_size = 6, 3, 2

  def time_step():
    return TimeStep(observation=tf.constant(rng.randn(batch, obs_size).astype(np.float32)),
                    reward=tf.constant(rng.randn(batch).astype(np.float32)),
                    discount=tf.ones([batch]))

  with tf.Graph().as_default():
    agent = DdpgAgent(action_size, gradient_clipping=0.5)
    actions = tf.constant(rng.uniform(-1, 1, (batch, action_size)).astype(np.float32))
    train_step_counter = tf.train.get_or_create_global_step()
    train_op = agent.train_from_experience(
        (time_step(), actions, time_step()),
        actor_optimizer=tf.train.AdamOptimizer(1e-3),
        critic_optimizer=tf.train.AdamOptimizer(1e-3),
        train_step_counter=train_step_counter)
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(3):
        value = sess.run(train_op)
      step = sess.run(train_step_counter)
  print('RESULT global_step=%d loss=%r' % (step, float(value)))


if __name__ == '__main__':
  main()
