"""tf.contrib.estimator.clip_gradients_by_norm around Adagrad and Adam, minimize() with a global step.

The optimizer wrapper canned-Estimator users passed as ``optimizer=``; here in a plain Session
loop, with a dense layer and a sparse embedding so both gradient kinds are clipped together.
"""

import os

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
values = {}
for name, make in [("adagrad", lambda: tf.train.AdagradOptimizer(0.5)), ("adam", lambda: tf.train.AdamOptimizer(0.05))]:
    with tf.Graph().as_default():
        ids = tf.placeholder(tf.int32, [None, 2])
        y = tf.placeholder(tf.float32, [None, 1])
        table = tf.get_variable("table", initializer=tf.constant(np.linspace(0.0, 1.0, 30).reshape(10, 3), tf.float32))
        w = tf.get_variable("w", initializer=tf.constant([[0.5], [-0.5], [1.0]], tf.float32))
        features = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
        loss = tf.losses.mean_squared_error(y, tf.matmul(features, w))
        global_step = tf.train.get_or_create_global_step()
        optimizer = tf.contrib.estimator.clip_gradients_by_norm(make(), clip_norm=0.5)
        train_op = optimizer.minimize(loss, global_step=global_step)
        saver = tf.train.Saver()
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if mode == "resume":
                saver.restore(sess, tf.train.latest_checkpoint(os.path.join(ckpt_dir, name)))
            for step in range(*oracle_io.step_range(mode, STEPS)):
                rng = np.random.RandomState(step)
                feed = {ids: rng.randint(0, 10, (6, 2)), y: rng.randn(6, 1) * 4}
                losses.append(float(sess.run([loss, train_op], feed)[0]))
            if mode == "save":
                oracle_io.save(saver, sess, os.path.join(ckpt_dir, name), global_step)
            form_values = oracle_io.variables(sess)
        form_values.update(losses=losses, optimizer_name=optimizer.get_name())
        values[name] = form_values
oracle_io.write(out, values)
