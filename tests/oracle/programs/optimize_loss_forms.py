"""tf.contrib.layers.optimize_loss in the forms 2016-2018 code used it, one graph per form.

clip_gradients as a float and as a function, learning_rate_decay_fn, every optimizer summary,
gradient_noise_scale=None, gradient_multipliers, UPDATE_OPS (a hand-written moving mean, as
custom batch norms did), optimizer as a name, a class, a callable and an instance.
"""

import os

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6


def per_tensor_clip(grads_and_vars):
    return [(tf.clip_by_norm(g, 0.3), v) for g, v in grads_and_vars]


def decay(lr, global_step):
    return tf.train.exponential_decay(lr, global_step, decay_steps=2, decay_rate=0.5, staircase=True)


FORMS = [
    (
        "adam_clip_float_summaries",
        dict(optimizer="Adam", learning_rate=0.1, clip_gradients=1.0, summaries=tf.contrib.layers.OPTIMIZER_SUMMARIES),
    ),
    (
        "momentum_clip_fn_decay",
        dict(
            optimizer=lambda lr: tf.train.MomentumOptimizer(lr, momentum=0.9),
            learning_rate=0.2,
            clip_gradients=per_tensor_clip,
            learning_rate_decay_fn=decay,
            summaries=["loss", "learning_rate"],
        ),
    ),
    (
        "sgd_multipliers_update_ops",
        dict(
            optimizer="SGD",
            learning_rate=0.05,
            clip_gradients=2.0,
            gradient_noise_scale=None,
            gradient_multipliers={"w": 2.0},
            summaries=["gradient_norm", "global_gradient_norm"],
        ),
    ),
    ("adagrad_class", dict(optimizer=tf.train.AdagradOptimizer, learning_rate=0.3, clip_gradients=0.5)),
    (
        "rmsprop_instance",
        dict(
            optimizer=tf.train.RMSPropOptimizer(0.01),
            learning_rate=None,
            clip_gradients=0.8,
            summaries=["loss", "gradients"],
        ),
    ),
]

out, ckpt_dir, mode = oracle_io.parse_args()
values = {}
for name, kwargs in FORMS:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.get_variable("w", initializer=tf.constant(np.linspace(-1.0, 1.0, 4).reshape(4, 1), tf.float32))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        moving_mean = tf.get_variable("moving_mean", [4], initializer=tf.zeros_initializer(), trainable=False)
        update = tf.assign(moving_mean, 0.9 * moving_mean + 0.1 * tf.reduce_mean(x, axis=0))
        tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, update)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        global_step = tf.train.get_or_create_global_step()
        if isinstance(kwargs["optimizer"], tf.train.Optimizer):
            kwargs = dict(kwargs, optimizer=tf.train.RMSPropOptimizer(0.01))  # created in this graph
        if "gradient_multipliers" in kwargs:
            kwargs = dict(kwargs, gradient_multipliers={w: 2.0})
        train_op = tf.contrib.layers.optimize_loss(loss, global_step, **kwargs)
        summaries = tf.summary.merge_all()
        saver = tf.train.Saver()
        losses, summary_log = [], []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if mode == "resume":
                saver.restore(sess, tf.train.latest_checkpoint(os.path.join(ckpt_dir, name)))
            for step in range(*oracle_io.step_range(mode, STEPS)):
                x_data, y_data = oracle_io.batch(step)
                fetches = [train_op] + ([summaries] if summaries is not None else [])
                results = sess.run(fetches, {x: x_data, y: 10 * y_data})
                losses.append(float(results[0]))
                if summaries is not None:
                    summary_log.append(oracle_io.summary_values(results[1]))
            if mode == "save":
                oracle_io.save(saver, sess, os.path.join(ckpt_dir, name), global_step)
            form_values = oracle_io.variables(sess)
        form_values.update(losses=losses, summaries=summary_log)
        values[name] = form_values
oracle_io.write(out, values)
