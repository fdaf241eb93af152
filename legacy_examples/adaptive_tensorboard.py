"""Adaptive clipping with TensorBoard: AutoClip inside a NormRecorder, TF1 style.

The optimizer is wrapped with ``tf1clip.transform_gradients``; the capper clips each step
to the 25th percentile of the last 100 global norms (AutoClip) and records the norms
before and after, the per-variable norms and the fraction of clipped steps as
``tf.compat.v1.summary`` data, written with a ``FileWriter``. Look at them with
``tensorboard --logdir DIR`` (the directory it prints).

    python legacy_examples/adaptive_tensorboard.py [--steps 200] [--logdir DIR]
"""

import argparse
import tempfile

import _cli


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=_cli.HelpFormatter)
    parser.add_argument("--steps", type=int, default=200, help="training steps")
    parser.add_argument("--logdir", default=None, help="TensorBoard log directory; None: a new temporary directory")
    return parser.parse_args()


if __name__ == "__main__":
    ARGS = parse_args()  # --help exits here, before TensorFlow is imported

import _toy
import tensorflow as tf

import tf1clip

v1 = tf.compat.v1


def main(steps=200, logdir=None, log=print):
    _toy.introduce(__doc__, log)
    logdir = logdir or tempfile.mkdtemp(prefix="tf1clip_adaptive_")
    with tf.Graph().as_default():
        placeholders, loss = _toy.build_model()
        autoclip = tf1clip.AutoClip(percentile=25.0, history_size=100)
        recorder = tf1clip.NormRecorder(autoclip)
        optimizer = tf1clip.transform_gradients(v1.train.AdamOptimizer(0.05), recorder)
        global_step = v1.train.get_or_create_global_step()
        train_op = optimizer.minimize(loss, global_step=global_step)
        v1.summary.scalar("loss", loss)
        summaries = v1.summary.merge_all()
        feed = dict(zip(placeholders, _toy.make_data()))
        fetches = [train_op, loss, summaries, recorder.pre_clip_norm, autoclip.threshold, recorder.post_clip_norm]
        losses = []
        with v1.Session() as sess, v1.summary.FileWriter(logdir, sess.graph) as writer:
            sess.run(v1.global_variables_initializer())
            for step in range(1, steps + 1):
                _, value, summary, pre, threshold, post = sess.run(fetches, feed)
                writer.add_summary(summary, step)
                losses.append(float(value))
                if step % max(1, steps // 5) == 0:
                    verdict = "clipped to %.3g" % post if post < pre else "not clipped"
                    log(
                        "step %4d  training loss %.4f  global norm %.3g (AutoClip threshold %.3g: %s)"
                        % (step, value, pre, threshold, verdict)
                    )
            clipped, total = sess.run([recorder.clipped_steps, recorder.steps])
    log("TensorBoard log written to %s (view it with: tensorboard --logdir %s)" % (logdir, logdir))
    log(
        "Verdict: AutoClip clipped %d of %d steps (%.0f%%); training loss %.4g -> %.4g."
        % (clipped, total, 100.0 * clipped / max(total, 1), losses[0], losses[-1])
    )
    return {"losses": losses, "logdir": logdir}


if __name__ == "__main__":
    v1.disable_eager_execution()
    main(ARGS.steps, ARGS.logdir)
