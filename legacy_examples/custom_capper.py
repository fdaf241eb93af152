"""Recipe: your own capper (the ``MyCapper`` pattern) with plain gradient descent.

A capper is any function from ``(gradient, variable)`` pairs to pairs. This one caps
each gradient at its variable's own scale, then the global norm; ``tf1clip.chain``
composes the two and ``tf1clip.transform_gradients`` runs them inside the optimizer.
"""

import _cli  # before TensorFlow: quiets its start-up logging

if __name__ == "__main__":
    STEPS = _cli.steps_from_command_line(__doc__, 200)  # --help exits here, before TensorFlow loads

import _toy
import tensorflow as tf

import tf1clip

v1 = tf.compat.v1


def my_capper(grads_and_vars):
    """Caps every element at 10 x the RMS of its variable (at least 1)."""
    capped = []
    for grad, var in grads_and_vars:
        if grad is not None and not isinstance(grad, tf.IndexedSlices):
            limit = 10.0 * tf.maximum(tf.sqrt(tf.reduce_mean(tf.square(var))), 1.0)
            grad = tf.clip_by_value(grad, -limit, limit)
        capped.append((grad, var))
    return capped


def main(steps=200, log=print):
    _toy.introduce(__doc__, log)
    with tf.Graph().as_default():
        placeholders, loss = _toy.build_model()
        capper = tf1clip.chain(my_capper, tf1clip.clip_by_global_norm_fn(5.0))
        optimizer = tf1clip.transform_gradients(v1.train.GradientDescentOptimizer(0.05), capper)
        train_op = optimizer.minimize(loss, global_step=v1.train.get_or_create_global_step())
        losses = _toy.train(train_op, placeholders, loss, steps, log=log)
    _toy.verdict(losses, "a custom capper chained with clip_by_global_norm_fn(5.0)", log)
    return losses


if __name__ == "__main__":
    v1.disable_eager_execution()
    main(STEPS)
