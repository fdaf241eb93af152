"""A BERT-style optimizer (google-research/bert optimization.py, 2018): hand-written AdamWeightDecay,
polynomial learning-rate decay with warmup read from the global step, global-norm clipping, and the
global step assigned in the same group as the updates.

Every value this program computes reads variables that other ops of the same step assign: TF 1.15's
reference variables and TF 2's resource variables order those reads differently.
"""

import re

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
# The learning rate reads the global step that the same group assigns: on TF 1.15 the read usually
# sees the assignment, not always (the runs cached on one machine held three values of
# bert/dense/bias/adam_v). Every value after the first update depends on it; first_loss does not.
RACY = ("losses", "learning_rates", "bert/dense/*")


class AdamWeightDecayOptimizer(tf.train.Optimizer):
    def __init__(
        self,
        learning_rate,
        weight_decay_rate=0.0,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-6,
        exclude_from_weight_decay=None,
        name="AdamWeightDecayOptimizer",
    ):
        super(AdamWeightDecayOptimizer, self).__init__(False, name)
        self.learning_rate = learning_rate
        self.weight_decay_rate = weight_decay_rate
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.exclude_from_weight_decay = exclude_from_weight_decay

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        assignments = []
        for grad, param in grads_and_vars:
            if grad is None or param is None:
                continue
            param_name = re.match("^(.*):\\d+$", param.name).group(1)
            m = tf.get_variable(
                name=param_name + "/adam_m",
                shape=param.shape.as_list(),
                dtype=tf.float32,
                trainable=False,
                initializer=tf.zeros_initializer(),
            )
            v = tf.get_variable(
                name=param_name + "/adam_v",
                shape=param.shape.as_list(),
                dtype=tf.float32,
                trainable=False,
                initializer=tf.zeros_initializer(),
            )
            next_m = tf.multiply(self.beta_1, m) + tf.multiply(1.0 - self.beta_1, grad)
            next_v = tf.multiply(self.beta_2, v) + tf.multiply(1.0 - self.beta_2, tf.square(grad))
            update = next_m / (tf.sqrt(next_v) + self.epsilon)
            if self._do_use_weight_decay(param_name):
                update += self.weight_decay_rate * param
            next_param = param - self.learning_rate * update
            assignments.extend([param.assign(next_param), m.assign(next_m), v.assign(next_v)])
        return tf.group(*assignments, name=name)

    def _do_use_weight_decay(self, param_name):
        for r in self.exclude_from_weight_decay or []:
            if re.search(r, param_name) is not None:
                return False
        return True


out, ckpt_dir, mode = oracle_io.parse_args()
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
with tf.variable_scope("bert/dense"):
    w = tf.get_variable("kernel", initializer=tf.constant(np.linspace(-1.0, 1.0, 4).reshape(4, 1), tf.float32))
    b = tf.get_variable("bias", [1], initializer=tf.zeros_initializer())
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))

global_step = tf.train.get_or_create_global_step()
learning_rate = tf.train.polynomial_decay(tf.constant(0.1), global_step, STEPS, end_learning_rate=0.0, power=1.0)
warmup = tf.cast(global_step, tf.float32) / 2.0 * 0.1
learning_rate = tf.where(tf.cast(global_step, tf.float32) < 2.0, warmup, learning_rate)
optimizer = AdamWeightDecayOptimizer(learning_rate, weight_decay_rate=0.01, exclude_from_weight_decay=["bias"])
tvars = tf.trainable_variables()
grads = tf.gradients(loss, tvars)
(grads, _) = tf.clip_by_global_norm(grads, clip_norm=1.0)
train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)
new_global_step = global_step + 1
train_op = tf.group(train_op, [global_step.assign(new_global_step)])
saver = tf.train.Saver()

losses, rates = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        x_data, y_data = oracle_io.batch(step)
        loss_value, rate, _ = sess.run([loss, learning_rate, train_op], {x: x_data, y: 10 * y_data})
        losses.append(float(loss_value))
        rates.append(float(rate))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(losses=losses, learning_rates=rates, first_loss=losses[0])
oracle_io.write(out, values)
