"""tf.contrib.training: create_train_op with per-tensor clipping and gradient multipliers."""
from __future__ import print_function

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib import training as contrib_training


def make_data():
    rng = np.random.RandomState(0)
    x_data = rng.randn(8, 3).astype(np.float32)
    y_data = (x_data.dot(np.array([[1.0], [-2.0], [3.0]])) + 0.5).astype(np.float32)
    return x_data, y_data


def build_model():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    return x, y, w, b, loss


def train(build_train_op):
    x_data, y_data = make_data()
    with tf.Graph().as_default():
        x, y, w, b, loss = build_model()
        train_op = build_train_op(loss, w)
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                losses.append(float(sess.run(loss, {x: x_data, y: y_data})))
                sess.run(train_op, {x: x_data, y: y_data})
            w_value, b_value, step = sess.run([w, b, tf.train.get_global_step()])
    return {"losses": losses, "w": w_value.ravel().tolist(), "b": b_value.tolist(),
            "global_step": int(step)}


def clip_each(loss, w):
    return contrib_training.create_train_op(
        loss, tf.train.GradientDescentOptimizer(0.1),
        transform_grads_fn=contrib_training.clip_gradient_norms_fn(0.5),
        summarize_gradients=True,
        colocate_gradients_with_ops=True)


def multiply_then_clip(loss, w):
    def transform_grads_fn(grads_and_vars):
        grads_and_vars = tf.contrib.training.multiply_gradients(grads_and_vars, {w: 3.0})
        grads_and_vars = tf.contrib.training.clip_gradient_norms(grads_and_vars, 0.5)
        tf.contrib.training.add_gradients_summaries(grads_and_vars)
        return grads_and_vars

    return tf.contrib.training.create_train_op(
        loss, tf.train.MomentumOptimizer(0.05, momentum=0.9),
        transform_grads_fn=transform_grads_fn)


print("RESULT " + json.dumps({"clip_each": train(clip_each),
                              "multiply_then_clip": train(multiply_then_clip)}))
