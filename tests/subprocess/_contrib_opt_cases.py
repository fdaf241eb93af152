"""The contrib.opt optimizers and wrappers of tests/subprocess/test_contrib_opt_matrix.py, and their tiny model.

Shared by the test module and its MirroredStrategy worker (tests/subprocess/_contrib_opt_mirrored_worker.py);
importing it does not start the TensorFlow runtime.
"""

import re

import numpy as np
import tensorflow as tf

from tf1clip.contrib import opt

v1 = tf.compat.v1

# Replica r of the mirrored run trains on X[r], IDS[r]; one device on the sum of both losses.
X = [
    np.array([[1.0, -2.0, 0.5], [0.3, 1.0, -1.0]], np.float32),
    np.array([[2.0, 0.5, -1.0], [-1.0, 0.0, 3.0]], np.float32),
]
IDS = [np.array([1, 3, 1], np.int32), np.array([3, 4], np.int32)]
W0 = np.array([[0.2, -0.4], [1.0, 0.5], [-0.3, 0.8]], np.float32)
EMB0 = np.arange(10.0, dtype=np.float32).reshape(5, 2) / 10.0
CLIP = 1.5


def _sgd():
    return v1.train.GradientDescentOptimizer(0.1)


# name -> (make(step, variables) -> optimizer, uses the embedding (sparse gradients)?)
OPTIMIZERS = {
    "LazyAdam": (lambda step, var: opt.LazyAdamOptimizer(0.1), True),
    "Nadam": (lambda step, var: opt.NadamOptimizer(0.1), True),
    "AdaMax": (lambda step, var: opt.AdaMaxOptimizer(0.1), True),
    "AdamGS": (lambda step, var: opt.AdamGSOptimizer(global_step=step, learning_rate=0.1), True),
    "LazyAdamGS": (lambda step, var: opt.LazyAdamGSOptimizer(global_step=step, learning_rate=0.1), True),
    "AdamW": (lambda step, var: opt.AdamWOptimizer(0.01, learning_rate=0.1), True),
    "MomentumW": (lambda step, var: opt.MomentumWOptimizer(0.01, 0.1, 0.9), True),
    "PowerSign": (lambda step, var: opt.PowerSignOptimizer(0.1), True),
    "AddSign": (lambda step, var: opt.AddSignOptimizer(0.1), True),
    "LARS": (lambda step, var: opt.LARSOptimizer(0.1), True),
    "RegAdagrad": (lambda step, var: opt.RegAdagradOptimizer(0.1), True),
    "AGN": (lambda step, var: opt.AGNOptimizer(_sgd(), 1, var["getter"], communication_period=2), True),
    # eps=1e3 leaves out the term divided by sqrt(smallest singular value) ~ sqrt(svd_eps) while the window
    # is not full: it magnifies float32 rounding (of a clip computed in another order) 1000-fold.
    "GGT": (lambda step, var: opt.GGTOptimizer(0.1, window=3, eps=1e3), False),
    "Shampoo": (lambda step, var: opt.ShampooOptimizer(global_step=step, learning_rate=0.1), True),
    "MultitaskOptimizerWrapper": (lambda step, var: opt.MultitaskOptimizerWrapper(v1.train.AdamOptimizer(0.1)), True),
    "MovingAverageOptimizer": (
        lambda step, var: opt.MovingAverageOptimizer(v1.train.AdamOptimizer(0.1), average_decay=0.5),
        True,
    ),
    "VariableClippingOptimizer": (lambda step, var: opt.VariableClippingOptimizer(_sgd(), {var["w"]: [0]}, 1.0), True),
    "DropStaleGradientOptimizer": (lambda step, var: opt.DropStaleGradientOptimizer(_sgd(), 0), True),
}
NAMES = sorted(OPTIMIZERS)


def variables(name, step=None):
    """The case's variables (in the current variable scope): w, emb (if sparse), step, getter (AGN).

    ``step`` (None: a new one, one replica's update counts) is the case's step counter.
    """
    getter = opt.AGNCustomGetter("/cpu:0") if name == "AGN" else None
    out = {"getter": getter}
    with v1.variable_scope("model", custom_getter=getter):
        out["w"] = v1.get_variable("w", initializer=W0)
        if OPTIMIZERS[name][1]:
            out["emb"] = v1.get_variable("emb", initializer=EMB0)
    if step is None:
        step = v1.get_variable(
            "step",
            [],
            tf.int64,
            initializer=v1.zeros_initializer(),
            trainable=False,
            aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA,
        )
    out["step"] = step
    return out


def loss(var, r):
    """Replica ``r``'s loss (``r`` None: the sum over both replicas)."""
    if r is None:
        return loss(var, 0) + loss(var, 1)
    out = tf.reduce_sum(tf.square(tf.matmul(tf.constant(X[r]), var["w"]) - 0.5))
    if "emb" in var:
        weights = tf.constant(np.linspace(-1.0, 2.0, 2 * len(IDS[r])).reshape(-1, 2), tf.float32)
        out += tf.reduce_sum(tf.square(tf.nn.embedding_lookup(var["emb"], IDS[r])) * weights)
    return out


def trained(var):
    return [var[k] for k in ("w", "emb") if k in var]


def state(sess, scope):
    """{name without ``scope/``: value} of the global and local variables with ``scope/`` in their name."""
    pattern = "(^|/)%s/" % scope
    found = [v for v in v1.global_variables() + v1.local_variables() if re.search(pattern, v.op.name)]
    return {re.sub(pattern, r"\1", v.op.name): value for v, value in zip(found, sess.run(found))}
