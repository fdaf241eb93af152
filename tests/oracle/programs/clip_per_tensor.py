"""Per-tensor clipping between compute and apply: tf.clip_by_norm on each gradient, tf.clip_by_value (RMSProp).

The 2017 GAN/RL style: ``[(tf.clip_by_norm(g, c), v) for g, v in grads_and_vars if g is not None]``,
and value clipping for a second loss. Reads a static shape as ``shape[i].value`` (TF 1's Dimension).
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
with tf.variable_scope("net"):
    w1 = tf.get_variable("w1", initializer=tf.constant(np.linspace(-0.5, 0.5, 12).reshape(4, 3), tf.float32))
    b1 = tf.get_variable("b1", [3], initializer=tf.constant_initializer(0.1))
    w2 = tf.get_variable("w2", initializer=tf.constant(np.linspace(0.2, 0.8, 3).reshape(3, 1), tf.float32))
    unused = tf.get_variable("unused", [2], initializer=tf.ones_initializer())
n_hidden = w1.get_shape()[1].value  # TF 1's Dimension: 2016-2019 code read shapes this way
hidden = tf.reshape(tf.nn.tanh(tf.matmul(x, w1) + b1), [-1, n_hidden])
prediction = tf.matmul(hidden, w2)
loss = tf.reduce_mean(tf.square(prediction - y))
aux_loss = tf.reduce_mean(tf.abs(prediction - 2.0 * y))

global_step = tf.train.get_or_create_global_step()
optimizer = tf.train.RMSPropOptimizer(0.01, decay=0.9, momentum=0.5)
grads_and_vars = optimizer.compute_gradients(loss)
capped = [(tf.clip_by_norm(g, 0.5), v) for g, v in grads_and_vars if g is not None]
train_op = optimizer.apply_gradients(capped, global_step=global_step)
aux_optimizer = tf.train.GradientDescentOptimizer(0.05)
aux_grads = aux_optimizer.compute_gradients(aux_loss, var_list=[w2])
aux_op = aux_optimizer.apply_gradients([(tf.clip_by_value(g, -0.1, 0.1), v) for g, v in aux_grads])
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        x_data, y_data = oracle_io.batch(step)
        losses.append(float(sess.run(loss, {x: x_data, y: 5 * y_data})))
        sess.run(train_op, {x: x_data, y: 5 * y_data})
        sess.run(aux_op, {x: x_data, y: y_data})
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(losses=losses)
oracle_io.write(out, values)
