"""A small GAN trained by ``gan_train`` with ``GANTrainSteps(1, 3)`` and norm-clipped optimizers.

The same function runs on TF 1.15 (``tensorflow`` + TF-GAN 2.0.0, the TF-GAN release for TF 1.15, with
``tf.contrib.estimator.clip_gradients_by_norm``) and on TF 2 (``tf.compat.v1`` + ``tf1clip.contrib.gan`` with
``tf1clip.contrib.estimator.clip_gradients_by_norm``). Run as a script on TF 1.15 it prints the reference JSON
committed next to it::

    env -u TF2_BEHAVIOR PYTHONPATH=/work/venvs/gan-tf115-site /work/venvs/tf115/bin/python \\
        tests/oracle/gan_train_program.py > tests/oracle/gan_train_tf115.json

(``/work/venvs/gan-tf115-site``: ``pip install --target ... --no-deps tensorflow-gan==2.0.0
tensorflow-probability==0.8.0 tensorflow-hub==0.7.0 cloudpickle==1.2.2 decorator==4.4.2``.)
"""

import json
import sys

import numpy as np

NUM_STEPS = 5
TRAIN_STEPS = (1, 3)  # generator, discriminator updates per step


def run(tf, tfgan, clip_gradients_by_norm, logdir):
    """Trains the GAN for ``NUM_STEPS`` steps (checkpoints and summaries in ``logdir``); returns the final
    variables (with slots), losses and ``gan_train``'s return value (the global step)."""
    rng = np.random.RandomState(0)
    real = (rng.randn(8, 2) * 0.5 + 1.0).astype(np.float32)
    noise = rng.randn(8, 3).astype(np.float32)
    g_w0 = (rng.randn(3, 2) * 0.5).astype(np.float32)
    d_w0 = (rng.randn(2, 4) * 0.5).astype(np.float32)
    d_v0 = (rng.randn(4, 1) * 0.5).astype(np.float32)

    def generator_fn(z):
        w = tf.get_variable("w", initializer=g_w0)
        b = tf.get_variable("b", initializer=np.zeros(2, np.float32))
        return tf.matmul(z, w) + b

    def discriminator_fn(x, unused_conditioning):
        w = tf.get_variable("w", initializer=d_w0)
        v = tf.get_variable("v", initializer=d_v0)
        return tf.matmul(tf.tanh(tf.matmul(x, w)), v)

    result = {}

    class Record(tf.train.SessionRunHook):
        def end(self, session):
            variables = tf.global_variables()
            values = session.run(variables)
            result["variables"] = {v.op.name: np.asarray(x).tolist() for v, x in zip(variables, values)}
            result["generator_loss"], result["discriminator_loss"] = map(float, session.run(losses))

    with tf.Graph().as_default():
        model = tfgan.gan_model(
            generator_fn, discriminator_fn, real_data=tf.constant(real), generator_inputs=tf.constant(noise)
        )
        loss = tfgan.gan_loss(
            model,
            generator_loss_fn=tfgan.losses.modified_generator_loss,
            discriminator_loss_fn=tfgan.losses.modified_discriminator_loss,
        )
        losses = [loss.generator_loss, loss.discriminator_loss]
        g_opt = clip_gradients_by_norm(tf.train.AdamOptimizer(0.05, beta1=0.5), 0.5)
        d_opt = clip_gradients_by_norm(tf.train.MomentumOptimizer(0.1, 0.9), 0.3)
        train_ops = tfgan.gan_train_ops(model, loss, g_opt, d_opt)
        result["gan_train_returned"] = float(
            tfgan.gan_train(
                train_ops,
                logdir=logdir,
                get_hooks_fn=tfgan.get_sequential_train_hooks(tfgan.GANTrainSteps(*TRAIN_STEPS)),
                hooks=[tf.train.StopAtStepHook(num_steps=NUM_STEPS), Record()],
            )
        )
    return result


if __name__ == "__main__":
    import tempfile

    import tensorflow
    import tensorflow_gan

    tensorflow.logging.set_verbosity(tensorflow.logging.ERROR)
    out = run(tensorflow, tensorflow_gan, tensorflow.contrib.estimator.clip_gradients_by_norm, tempfile.mkdtemp())
    out["tensorflow"] = tensorflow.__version__
    out["tensorflow_gan"] = "2.0.0"
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
