"""Recipe: compute_gradients -> clip each element to [-1, 1] -> apply_gradients, with Adam.

The classic TF1 answer was
``capped = [(tf.clip_by_value(g, -1., 1.), v) for g, v in grads_and_vars]``, which raises
"None values not supported" as soon as a variable does not reach the loss.
``tf1clip.clip_by_value`` passes ``None`` through and keeps sparse gradients sparse.
"""

import _cli  # before TensorFlow: quiets its start-up logging

if __name__ == "__main__":
    STEPS = _cli.steps_from_command_line(__doc__, 200)  # --help exits here, before TensorFlow loads

import _toy
import tensorflow as tf

import tf1clip

v1 = tf.compat.v1


def main(steps=200, log=print):
    _toy.introduce(__doc__, log)
    with tf.Graph().as_default():
        placeholders, loss = _toy.build_model()
        optimizer = v1.train.AdamOptimizer(learning_rate=0.05)
        grads_and_vars = optimizer.compute_gradients(loss)
        capped = tf1clip.clip_by_value(grads_and_vars, -1.0, 1.0)
        train_op = optimizer.apply_gradients(capped, global_step=v1.train.get_or_create_global_step())
        losses = _toy.train(train_op, placeholders, loss, steps, log=log)
    _toy.verdict(losses, "clip_by_value(-1, 1) with Adam", log)
    return losses


if __name__ == "__main__":
    v1.disable_eager_execution()
    main(STEPS)
