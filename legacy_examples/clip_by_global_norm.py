"""Recipe: clip all gradients together by their global norm (Pascanu et al., 2013).

TF1 code wrote
``grads, norm = tf.clip_by_global_norm([g for g, _ in gvs], 5.0)`` and zipped the
variables back; that fails on float16 gradients (overflow at norm ~362) and on mixed
float16/float32 lists. ``tf1clip.clip_by_global_norm`` works on the pairs directly and
returns the pre-clip norm for logging.
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
        optimizer = v1.train.GradientDescentOptimizer(learning_rate=0.05)
        grads_and_vars = optimizer.compute_gradients(loss)
        clipped, norm = tf1clip.clip_by_global_norm(grads_and_vars, 5.0)
        train_op = optimizer.apply_gradients(clipped, global_step=v1.train.get_or_create_global_step())
        extra = [("global norm before clipping (limit 5)", norm)]
        losses = _toy.train(train_op, placeholders, loss, steps, extra=extra, log=log)
    _toy.verdict(losses, "clip_by_global_norm(5.0) with gradient descent", log)
    return losses


if __name__ == "__main__":
    v1.disable_eager_execution()
    main(STEPS)
