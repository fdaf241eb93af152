"""Recipe: clip each gradient tensor to norm 1 on its own (``tf.clip_by_norm`` per tensor).

The TF1 list comprehension ``[(tf.clip_by_norm(g, 1.), v) for g, v in gvs]`` breaks on
``None`` gradients and runs about eight graph nodes per variable;
``tf1clip.clip_by_norm`` gives the same numbers with one reduction and one multiply per
tensor. Per-tensor clipping changes the direction of the update; prefer the global
norm unless you rely on these numbers.
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
        optimizer = v1.train.MomentumOptimizer(learning_rate=0.01, momentum=0.9)
        grads_and_vars = optimizer.compute_gradients(loss)
        clipped = tf1clip.clip_by_norm(grads_and_vars, 1.0)
        train_op = optimizer.apply_gradients(clipped, global_step=v1.train.get_or_create_global_step())
        losses = _toy.train(train_op, placeholders, loss, steps, log=log)
    _toy.verdict(losses, "clip_by_norm(1.0) per tensor with momentum", log)
    return losses


if __name__ == "__main__":
    v1.disable_eager_execution()
    main(STEPS)
