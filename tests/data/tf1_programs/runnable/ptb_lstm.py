"""A small PTB-style LSTM language model, as in the TF 1.x RNN tutorial (ptb_word_lm.py).

Two BasicLSTMCell layers under MultiRNNCell, unrolled with tf.nn.dynamic_rnn; the state
is carried from one batch to the next; gradients from tf.gradients are clipped with
tf.clip_by_global_norm and applied by plain SGD.
"""
from __future__ import print_function

import json

import numpy as np
import tensorflow as tf


class SmallConfig(object):
    init_scale = 0.1
    learning_rate = 1.0
    max_grad_norm = 1.0
    num_layers = 2
    num_steps = 5
    hidden_size = 8
    batch_size = 2
    vocab_size = 10


def ptb_batches(raw_data, batch_size, num_steps):
    data_len = len(raw_data)
    batch_len = data_len // batch_size
    data = np.reshape(raw_data[:batch_size * batch_len], [batch_size, batch_len])
    for i in range((batch_len - 1) // num_steps):
        x = data[:, i * num_steps:(i + 1) * num_steps]
        y = data[:, i * num_steps + 1:(i + 1) * num_steps + 1]
        yield x, y


class PTBModel(object):
    """The PTB model."""

    def __init__(self, config):
        self._input_data = tf.placeholder(tf.int32, [config.batch_size, config.num_steps])
        self._targets = tf.placeholder(tf.int32, [config.batch_size, config.num_steps])
        size = config.hidden_size

        def lstm_cell():
            return tf.nn.rnn_cell.BasicLSTMCell(size, forget_bias=0.0, state_is_tuple=True)

        cell = tf.nn.rnn_cell.MultiRNNCell(
            [lstm_cell() for _ in range(config.num_layers)], state_is_tuple=True)
        self._initial_state = cell.zero_state(config.batch_size, tf.float32)

        with tf.device("/cpu:0"):
            embedding = tf.get_variable("embedding", [config.vocab_size, size], dtype=tf.float32)
            inputs = tf.nn.embedding_lookup(embedding, self._input_data)

        outputs, state = tf.nn.dynamic_rnn(cell, inputs, initial_state=self._initial_state)
        output = tf.reshape(outputs, [-1, size])
        softmax_w = tf.get_variable("softmax_w", [size, config.vocab_size], dtype=tf.float32)
        softmax_b = tf.get_variable("softmax_b", [config.vocab_size], dtype=tf.float32)
        logits = tf.matmul(output, softmax_w) + softmax_b
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.reshape(self._targets, [-1]), logits=logits)
        self._cost = cost = tf.reduce_sum(loss) / config.batch_size
        self._final_state = state

        self._lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, self._grad_norm = tf.clip_by_global_norm(tf.gradients(cost, tvars),
                                                        config.max_grad_norm)
        optimizer = tf.train.GradientDescentOptimizer(self._lr)
        self._train_op = optimizer.apply_gradients(
            zip(grads, tvars), global_step=tf.train.get_or_create_global_step())
        self._new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        self._lr_update = tf.assign(self._lr, self._new_lr)

    def assign_lr(self, session, lr_value):
        session.run(self._lr_update, feed_dict={self._new_lr: lr_value})


def run_epoch(session, model, batches):
    costs, norms = [], []
    state = session.run(model._initial_state)
    for x, y in batches:
        feed_dict = {model._input_data: x, model._targets: y}
        for i, (c, h) in enumerate(model._initial_state):
            feed_dict[c] = state[i].c
            feed_dict[h] = state[i].h
        cost, norm, state, _ = session.run(
            [model._cost, model._grad_norm, model._final_state, model._train_op], feed_dict)
        costs.append(float(cost))
        norms.append(float(norm))
    return costs, norms


def main():
    config = SmallConfig()
    raw_data = np.random.RandomState(0).randint(0, config.vocab_size, size=32)
    with tf.Graph().as_default():
        initializer = tf.random_uniform_initializer(-config.init_scale, config.init_scale)
        with tf.variable_scope("Model", reuse=None, initializer=initializer):
            model = PTBModel(config)
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            rng = np.random.RandomState(1234)
            for var in sorted(tf.trainable_variables(), key=lambda v: v.op.name):
                shape = var.get_shape().as_list()
                var.load(rng.uniform(-config.init_scale, config.init_scale, shape), session)
            model.assign_lr(session, config.learning_rate)
            costs, norms = run_epoch(
                session, model, ptb_batches(raw_data, config.batch_size, config.num_steps))
            values = {var.op.name: session.run(var).ravel().tolist()
                      for var in tf.trainable_variables()}
    print("RESULT " + json.dumps({"costs": costs, "norms": norms, "variables": values}))


if __name__ == "__main__":
    main()
