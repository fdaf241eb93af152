"""tf.contrib.mixed_precision.LossScaleOptimizer with a fixed and an exponential-update loss scale.

float16 compute with float32 master weights (the NVIDIA 2018 recipe: cast the variables, keep
the loss in float32); one step overflows float16 and must be skipped. Only the weights and the
global step are checkpointed: TF 2's loss scale variables have other names than contrib's.
"""

import os

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
FORMS = [
    ("fixed", lambda: tf.contrib.mixed_precision.FixedLossScaleManager(128.0)),
    ("exponential_defaults", lambda: tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(2.0**10, 2)),
    (
        "exponential_doubling",
        lambda: tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(
            2.0**10, 2, decr_every_n_nan_or_inf=1, incr_ratio=2.0, decr_ratio=0.5
        ),
    ),
]

out, ckpt_dir, mode = oracle_io.parse_args()
values = {}
for name, make_manager in FORMS:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float16, [None, 4])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.get_variable("w", initializer=tf.constant(np.linspace(-1.0, 1.0, 4).reshape(4, 1), tf.float32))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        prediction = tf.cast(tf.matmul(x, tf.cast(w, tf.float16)) + tf.cast(b, tf.float16), tf.float32)
        loss = tf.reduce_mean(tf.square(prediction - y))
        global_step = tf.train.get_or_create_global_step()
        optimizer = tf.contrib.mixed_precision.LossScaleOptimizer(
            tf.train.GradientDescentOptimizer(0.01), make_manager()
        )
        train_op = optimizer.minimize(loss, global_step=global_step)
        saver = tf.train.Saver(tf.trainable_variables() + [global_step])
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if mode == "resume":
                saver.restore(sess, tf.train.latest_checkpoint(os.path.join(ckpt_dir, name)))
            for step in range(*oracle_io.step_range(mode, STEPS)):
                x_data, y_data = oracle_io.batch(step)
                if step in (1, 4):
                    x_data = x_data * 3000.0  # float16 gradients overflow: the step is skipped
                losses.append(float(sess.run([loss, train_op], {x: x_data, y: y_data})[0]))
            if mode == "save":
                oracle_io.save(saver, sess, os.path.join(ckpt_dir, name), global_step)
            form_values = oracle_io.variables(sess, tf.trainable_variables() + [global_step])
        form_values.update(losses=losses)
        values[name] = form_values
oracle_io.write(out, values)
