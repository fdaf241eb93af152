"""The tf.contrib.opt optimizer groups, each on a small embedding + dense model for a few steps.

Every group trains its own graph (checkpoint in CKPT_DIR/<group>): an embedding (sparse
gradients where the optimizer has a sparse update) and a dense layer with a bias.

- ``adamw``, ``momentumw``: AdamWOptimizer and MomentumWOptimizer with ``decay_var_list``.
  TF 1.15 built their decay with no dependency on the gradient, so on reference variables the
  decay raced the forward pass's read of the variable and the numbers changed from run to run.
  These two groups therefore compute the gradients in one ``sess.run`` and feed them to
  ``apply_gradients`` through placeholders in the next: the decay and the update then see
  only the variable's own value (deterministic on both TensorFlows).
- ``multitask``: MultitaskOptimizerWrapper around Adam; a fed task mask zeroes one head's
  loss on alternate steps, whose all-zero gradients must leave its weights and slots alone.
- ``moving_average``: MovingAverageOptimizer around Momentum, checkpointed by its
  ``swapping_saver`` (the averages saved under the variables' names).
- ``nadam``, ``adamax``, ``lars``: NadamOptimizer, AdaMaxOptimizer, LARSOptimizer.
- ``powersign``, ``addsign``: PowerSignOptimizer and AddSignOptimizer with a ``sign_decay_fn``
  from ``sign_decay`` (linear; cosine over two periods), imported by its module path as
  ``tf.contrib.opt`` does not export it.
- ``variable_clipping``: VariableClippingOptimizer clipping the embedding's rows (sparse) and
  the dense kernel's columns. Its batches repeat rows: TF 1.15 subtracted a repeated row's
  clipping delta once per occurrence, and tf1clip does the same by default (docs/contrib_opt.rst).
"""

import os

import numpy as np
import tensorflow as tf
from tensorflow.contrib.opt.python.training import sign_decay

import oracle_io

STEPS = 6
VOCAB, DIM = 12, 3


def model():
    ids = tf.placeholder(tf.int32, [None, 2], name="ids")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    table = tf.get_variable(
        "table", initializer=tf.constant(np.linspace(-1.0, 1.0, VOCAB * DIM).reshape(VOCAB, DIM), tf.float32)
    )
    w = tf.get_variable("w", initializer=tf.constant([[0.5], [-0.5], [1.0]], tf.float32))
    b = tf.get_variable("b", initializer=tf.constant([0.1], tf.float32))
    features = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
    pred = tf.matmul(features, w) + b
    return ids, y, table, w, b, pred


def feed_of(ids, y, step):
    rng = np.random.RandomState(step)
    return {ids: rng.randint(0, VOCAB, (6, 2)), y: rng.randn(6, 1) * 2}


def fed_gradients(grads_and_vars):
    """(gradient tensors to fetch, placeholders to feed them to, pairs of placeholders and variables)."""
    fetches, holders, pairs = [], [], []
    for g, v in grads_and_vars:
        if isinstance(g, tf.IndexedSlices):
            values = tf.placeholder(g.values.dtype, g.values.shape)
            indices = tf.placeholder(g.indices.dtype, g.indices.shape)
            fetches += [g.values, g.indices]
            holders += [values, indices]
            pairs.append((tf.IndexedSlices(values, indices, tf.constant(v.shape.as_list())), v))
        else:
            holder = tf.placeholder(g.dtype, g.shape)
            fetches.append(g)
            holders.append(holder)
            pairs.append((holder, v))
    return fetches, holders, pairs


def train_decoupled(make):
    """Weight decay groups: gradients from one run, fed to apply_gradients in the next."""

    def build(ids, y, table, w, b, pred, global_step):
        loss = tf.losses.mean_squared_error(y, pred)
        optimizer = make()
        fetches, holders, pairs = fed_gradients(optimizer.compute_gradients(loss))
        train_op = optimizer.apply_gradients(pairs, global_step=global_step, decay_var_list=[table, w])

        def step(sess, feed):
            got = sess.run([loss] + fetches, feed)
            sess.run(train_op, dict(zip(holders, got[1:])))
            return got[0]

        return optimizer, step

    return build


def train_minimize(make):
    def build(ids, y, table, w, b, pred, global_step):
        loss = tf.losses.mean_squared_error(y, pred)
        optimizer = make()
        train_op = optimizer.minimize(loss, global_step=global_step)
        return optimizer, lambda sess, feed: sess.run([loss, train_op], feed)[0]

    return build


def train_multitask(ids, y, table, w, b, pred, global_step):
    mask = tf.placeholder(tf.float32, [], name="mask")
    w2 = tf.get_variable("w2", initializer=tf.constant([[-0.3], [0.2], [0.4]], tf.float32))
    features = tf.reduce_mean(tf.nn.embedding_lookup(table, ids), axis=1)
    second = tf.reduce_mean(tf.square(tf.matmul(features, w2) + 1.0 - y))
    loss = tf.losses.mean_squared_error(y, pred) + mask * second
    optimizer = tf.contrib.opt.MultitaskOptimizerWrapper(tf.train.AdamOptimizer(0.05))
    train_op = optimizer.minimize(loss, global_step=global_step)

    def step(sess, feed):
        feed = dict(feed)
        feed[mask] = float(sess.run(global_step) % 2)
        return sess.run([loss, train_op], feed)[0]

    return optimizer, step


def train_moving_average(ids, y, table, w, b, pred, global_step):
    loss = tf.losses.mean_squared_error(y, pred)
    optimizer = tf.contrib.opt.MovingAverageOptimizer(tf.train.MomentumOptimizer(0.1, 0.9), average_decay=0.5)
    train_op = optimizer.minimize(loss, global_step=global_step)
    return optimizer, lambda sess, feed: sess.run([loss, train_op], feed)[0]


def train_variable_clipping(ids, y, table, w, b, pred, global_step):
    loss = tf.losses.mean_squared_error(y, pred)
    optimizer = tf.contrib.opt.VariableClippingOptimizer(
        tf.train.GradientDescentOptimizer(0.5), {table: [1], w: [0]}, max_norm=0.9
    )
    train_op = optimizer.minimize(loss, global_step=global_step)
    return optimizer, lambda sess, feed: sess.run([loss, train_op], feed)[0]


GROUPS = [
    ("adamw", train_decoupled(lambda: tf.contrib.opt.AdamWOptimizer(0.05, learning_rate=0.1))),
    (
        "momentumw",
        train_decoupled(lambda: tf.contrib.opt.MomentumWOptimizer(0.05, 0.1, 0.9, use_nesterov=True)),
    ),
    ("multitask", train_multitask),
    ("moving_average", train_moving_average),
    ("nadam", train_minimize(lambda: tf.contrib.opt.NadamOptimizer(0.1))),
    ("adamax", train_minimize(lambda: tf.contrib.opt.AdaMaxOptimizer(0.1))),
    ("lars", train_minimize(lambda: tf.contrib.opt.LARSOptimizer(0.5, momentum=0.9, weight_decay=0.01, eeta=0.1))),
    (
        "powersign",
        train_minimize(
            lambda: tf.contrib.opt.PowerSignOptimizer(0.05, sign_decay_fn=sign_decay.get_linear_decay_fn(STEPS))
        ),
    ),
    (
        "addsign",
        train_minimize(
            lambda: tf.contrib.opt.AddSignOptimizer(
                0.05, alpha=1.0, sign_decay_fn=sign_decay.get_cosine_decay_fn(4, num_periods=2)
            )
        ),
    ),
    ("variable_clipping", train_variable_clipping),
]

out, ckpt_dir, mode = oracle_io.parse_args()
values = {}


def run_group(name, build):
    with tf.Graph().as_default():
        ids, y, table, w, b, pred = model()
        global_step = tf.train.get_or_create_global_step()
        optimizer, step = build(ids, y, table, w, b, pred, global_step)
        swapping = name == "moving_average"
        saver = optimizer.swapping_saver() if swapping else tf.train.Saver()
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if mode == "resume":
                saver.restore(sess, tf.train.latest_checkpoint(os.path.join(ckpt_dir, name)))
            for i in range(*oracle_io.step_range(mode, STEPS)):
                losses.append(float(step(sess, feed_of(ids, y, i))))
            group_values = oracle_io.variables(sess)
            if mode == "save":
                oracle_io.save(saver, sess, os.path.join(ckpt_dir, name), global_step)
                if swapping:
                    group_values["checkpoint"] = oracle_io.checkpoint_values(os.path.join(ckpt_dir, name))
        group_values["losses"] = losses
        if not swapping:  # MovingAverageOptimizer has no name in TF 1.15 (get_name raises)
            group_values["optimizer_name"] = optimizer.get_name()
        values[name] = group_values


for group_name, group_build in GROUPS:
    run_group(group_name, group_build)

oracle_io.write(out, values)
