"""Recipe: the TF2 GradientTape loop, eager and in ``tf.function``.

The tf1clip functions take the same ``(gradient, variable)`` pairs in eager mode and
inside ``tf.function``, so the training step reads like the TF1 one.
"""

import _cli  # before TensorFlow: quiets its start-up logging

if __name__ == "__main__":
    STEPS = _cli.steps_from_command_line(__doc__, 200)  # --help exits here, before TensorFlow loads

import _toy
import numpy as np
import tensorflow as tf

import tf1clip


def main(steps=200, log=print):
    _toy.introduce(__doc__, log)
    x, ids, y = (tf.constant(a) for a in _toy.make_data())
    rng = np.random.RandomState(1)
    w1 = tf.Variable(rng.uniform(-0.5, 0.5, (_toy.N_FEATURES, 16)).astype(np.float32), name="w1")
    embedding = tf.Variable(rng.uniform(-0.3, 0.3, (_toy.N_IDS, 4)).astype(np.float32), name="embedding")
    w2 = tf.Variable(rng.uniform(-0.5, 0.5, (20, 1)).astype(np.float32), name="w2")
    unused = tf.Variable(tf.zeros(3), name="unused")
    variables = [w1, embedding, w2, unused]
    optimizer = tf.compat.v1.train.AdamOptimizer(0.05)

    def loss_fn():
        features = tf.concat([tf.nn.relu(tf.matmul(x, w1)), tf.gather(embedding, ids)], axis=1)
        return tf.reduce_mean(tf.square(tf.matmul(features, w2) - y))

    @tf.function
    def train_step():
        with tf.GradientTape() as tape:
            loss = loss_fn()
        grads = tape.gradient(loss, variables)
        clipped, norm = tf1clip.clip_by_global_norm(list(zip(grads, variables)), 5.0)
        optimizer.apply_gradients(clipped)
        return loss, norm

    losses = [float(loss_fn())]
    log("step %4d  training loss %.4f" % (0, losses[0]))
    for step in range(1, steps + 1):
        loss, norm = train_step()
        losses.append(float(loss))
        if step % max(1, steps // 5) == 0:
            log("step %4d  training loss %.4f  global norm before clipping (limit 5) %.4g" % (step, loss, norm))
    _toy.verdict(losses, "clip_by_global_norm(5.0) in a tf.function GradientTape step", log)
    return losses


if __name__ == "__main__":
    main(STEPS)
