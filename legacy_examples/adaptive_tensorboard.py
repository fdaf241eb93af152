"""Adaptive clipping with TensorBoard: AutoClip inside a NormRecorder, TF1 style.

The optimizer is wrapped with ``tf1clip.transform_gradients``; the capper clips each step
to the 25th percentile of the last 100 global norms (AutoClip) and records the norms
before and after, the per-variable norms and the fraction of clipped steps as
``tf.compat.v1.summary`` data, written with a ``FileWriter``. Look at them with
``tensorboard --logdir /tmp/tf1clip_adaptive``.

    python legacy_examples/adaptive_tensorboard.py [--steps 200] [--logdir DIR]
"""

import argparse
import tempfile

import tensorflow as tf

import _toy
import tf1clip

v1 = tf.compat.v1


def main(steps=200, logdir=None, log=print):
    logdir = logdir or tempfile.mkdtemp(prefix="tf1clip_adaptive_")
    with tf.Graph().as_default():
        placeholders, loss = _toy.build_model()
        recorder = tf1clip.NormRecorder(tf1clip.AutoClip(percentile=25.0, history_size=100))
        optimizer = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.05), recorder)
        global_step = v1.train.get_or_create_global_step()
        train_op = optimizer.minimize(loss, global_step=global_step)
        v1.summary.scalar("loss", loss)
        summaries = v1.summary.merge_all()
        feed = dict(zip(placeholders, _toy.make_data()))
        losses = []
        with v1.Session() as sess, v1.summary.FileWriter(logdir, sess.graph) as writer:
            sess.run(v1.global_variables_initializer())
            for step in range(1, steps + 1):
                _, value, summary = sess.run([train_op, loss, summaries], feed)
                writer.add_summary(summary, step)
                losses.append(float(value))
                if step % max(1, steps // 5) == 0:
                    pre, post, fraction = sess.run(
                        [recorder.pre_clip_norm, recorder.post_clip_norm, recorder.clip_fraction], feed
                    )
                    log("step %4d  loss %.4f  norm %.3g -> %.3g  clipped %.0f%% of steps"
                        % (step, value, pre, post, 100 * fraction))
    log("TensorBoard log written to %s" % logdir)
    return {"losses": losses, "logdir": logdir}


if __name__ == "__main__":
    v1.disable_eager_execution()
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--logdir", default=None)
    args = parser.parse_args()
    main(args.steps, args.logdir)
