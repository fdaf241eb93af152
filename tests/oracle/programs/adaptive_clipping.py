"""optimize_loss with clip_gradients=adaptive_clipping_fn (tf.contrib.layers' optimizers module) (stateful moving averages).

The capper keeps moving averages of the log gradient norm in variables; they are checkpointed
and resumed like any other variable.
"""

import os

import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers.python.layers import optimizers as optimizers_lib

import oracle_io

STEPS = 8
FORMS = [
    ("defaults", dict()),
    ("static_max_norm_summary", dict(std_factor=1.0, decay=0.9, static_max_norm=2.0, report_summary=True)),
    ("own_global_step", dict(decay=0.5, std_factor=0.5, global_step="train_step")),
]

out, ckpt_dir, mode = oracle_io.parse_args()
values = {}
for name, kwargs in FORMS:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.get_variable("w", initializer=tf.constant(np.linspace(-1.0, 1.0, 4).reshape(4, 1), tf.float32))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        global_step = tf.train.get_or_create_global_step()
        if kwargs.get("global_step") == "train_step":
            kwargs = dict(kwargs, global_step=global_step)
        train_op = tf.contrib.layers.optimize_loss(
            loss,
            global_step,
            learning_rate=0.05,
            optimizer="SGD",
            clip_gradients=optimizers_lib.adaptive_clipping_fn(**kwargs),
            summaries=[],
        )
        summaries = tf.summary.merge_all()
        saver = tf.train.Saver()
        losses, summary_log = [], []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if mode == "resume":
                saver.restore(sess, tf.train.latest_checkpoint(os.path.join(ckpt_dir, name)))
            for step in range(*oracle_io.step_range(mode, STEPS)):
                x_data, y_data = oracle_io.batch(step)
                scale = 30.0 if step % 3 == 2 else 1.0  # a gradient spike every third step
                fetches = [train_op] + ([summaries] if summaries is not None else [])
                results = sess.run(fetches, {x: x_data, y: scale * y_data})
                losses.append(float(results[0]))
                if summaries is not None:
                    summary_log.append(oracle_io.summary_values(results[1]))
            if mode == "save":
                oracle_io.save(saver, sess, os.path.join(ckpt_dir, name), global_step)
            form_values = oracle_io.variables(sess)
        form_values.update(losses=losses, summaries=summary_log)
        values[name] = form_values
oracle_io.write(out, values)
