"""Recipe: the ML Crash Course decorator, ``tf.contrib.estimator.clip_gradients_by_norm``.

TF1 code::

    my_optimizer = tf.train.AdamOptimizer(learning_rate=0.05)
    my_optimizer = tf.contrib.estimator.clip_gradients_by_norm(my_optimizer, 5.0)

becomes the code below. As in contrib, the clipping is by the GLOBAL norm of all
gradients, and checkpoints keep the unwrapped optimizer's variable names.
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
        my_optimizer = v1.train.AdamOptimizer(learning_rate=0.05)
        my_optimizer = tf1clip.clip_gradients_by_norm(my_optimizer, 5.0)
        train_op = my_optimizer.minimize(loss, global_step=v1.train.get_or_create_global_step())
        log(
            "Wrapper name %s; slot names %s, the unwrapped Adam's (checkpoints stay compatible)."
            % (my_optimizer.get_name(), my_optimizer.get_slot_names())
        )
        losses = _toy.train(train_op, placeholders, loss, steps, log=log)
    _toy.verdict(losses, "clip_gradients_by_norm(AdamOptimizer, 5.0)", log)
    return losses


if __name__ == "__main__":
    v1.disable_eager_execution()
    main(STEPS)
