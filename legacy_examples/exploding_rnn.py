"""Headline example: a recurrent net whose gradients explode, trained with and without clipping.

TF1 style (placeholders, tf.compat.v1.Session, a v1 optimizer), ported to TensorFlow 2
with tf1clip. The task: read a sequence of numbers and output their running mean. The ReLU
RNN starts with recurrent weights slightly above identity, so its gradients grow
geometrically with the sequence length (Pascanu et al., 2013). The same model, data and
optimizer are trained twice: the unclipped run blows up, the run whose optimizer is
wrapped in ``tf1clip.clip_gradients_by_norm`` learns.

    python legacy_examples/exploding_rnn.py [--steps 300] [--clip-norm 1.0]
"""

import argparse
import math
import sys

import numpy as np
import tensorflow as tf

import tf1clip

v1 = tf.compat.v1

SEQ_LEN = 40
HIDDEN = 32


def make_data(rng, batch):
    x = rng.uniform(0.0, 1.0, size=(batch, SEQ_LEN, 1)).astype(np.float32)
    y = x.mean(axis=1)
    return x, y


def build_model(clip_norm, learning_rate):
    x = v1.placeholder(tf.float32, [None, SEQ_LEN, 1], name="x")
    y = v1.placeholder(tf.float32, [None, 1], name="y")
    init = np.eye(HIDDEN, dtype=np.float32) * 1.1
    w_hh = v1.get_variable("w_hh", initializer=init)
    w_xh = v1.get_variable("w_xh", [1, HIDDEN], initializer=v1.random_normal_initializer(stddev=0.5, seed=1))
    b_h = v1.get_variable("b_h", [HIDDEN], initializer=v1.zeros_initializer())
    w_out = v1.get_variable("w_out", [HIDDEN, 1], initializer=v1.random_normal_initializer(stddev=0.1, seed=2))
    h = tf.zeros([tf.shape(x)[0], HIDDEN])
    for t in range(SEQ_LEN):
        h = tf.nn.relu(tf.matmul(h, w_hh) + tf.matmul(x[:, t, :], w_xh) + b_h)
    prediction = tf.matmul(h, w_out)
    loss = tf.reduce_mean(tf.square(prediction - y))

    optimizer = v1.train.MomentumOptimizer(learning_rate, momentum=0.9)
    if clip_norm is not None:
        optimizer = tf1clip.clip_gradients_by_norm(optimizer, clip_norm)
    grads_and_vars = optimizer.compute_gradients(loss)
    grad_norm = tf1clip.global_norm(grads_and_vars)
    global_step = v1.train.get_or_create_global_step()
    train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
    return x, y, loss, grad_norm, train_op


def train(clip_norm, steps, learning_rate=0.01, seed=0, log_every=50, out=sys.stdout):
    """Trains one model; returns a dict with the loss history and what happened."""
    label = "clipped (global norm %g)" % clip_norm if clip_norm is not None else "unclipped"
    rng = np.random.RandomState(seed)
    eval_x, eval_y = make_data(np.random.RandomState(1234), 256)
    history, max_grad_norm = [], 0.0
    with tf.Graph().as_default():
        v1.set_random_seed(seed)
        x, y, loss, grad_norm, train_op = build_model(clip_norm, learning_rate)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            initial = float(sess.run(loss, {x: eval_x, y: eval_y}))
            for step in range(1, steps + 1):
                bx, by = make_data(rng, 32)
                _, norm = sess.run([train_op, grad_norm], {x: bx, y: by})
                max_grad_norm = max(max_grad_norm, float(norm)) if math.isfinite(norm) else math.inf
                current = float(sess.run(loss, {x: eval_x, y: eval_y}))
                history.append(current)
                if step % log_every == 0 or not math.isfinite(current):
                    print("  %-28s step %4d  eval loss %-12.6g grad norm %.3g" % (label, step, current, norm), file=out)
                if not math.isfinite(current) or current > 1e6:
                    break
    final = history[-1] if history else initial
    return {
        "label": label,
        "initial_loss": initial,
        "final_loss": final,
        "history": history,
        "steps_run": len(history),
        "max_grad_norm": max_grad_norm,
        "diverged": not math.isfinite(final) or final > 1e6,
    }


def main(argv=None, out=sys.stdout):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--clip-norm", type=float, default=1.0)
    parser.add_argument("--learning-rate", type=float, default=0.01)
    args = parser.parse_args(argv)

    print("Training a ReLU RNN (sequence length %d) on the running-mean task." % SEQ_LEN, file=out)
    plain = train(None, args.steps, args.learning_rate, out=out)
    clipped = train(args.clip_norm, args.steps, args.learning_rate, out=out)
    print("\nResult", file=out)
    for run in (plain, clipped):
        outcome = "DIVERGED after %d steps" % run["steps_run"] if run["diverged"] else "learned"
        print(
            "  %-28s initial loss %-10.4g final loss %-10.4g largest grad norm %-10.3g %s"
            % (run["label"], run["initial_loss"], run["final_loss"], run["max_grad_norm"], outcome),
            file=out,
        )
    return {"unclipped": plain, "clipped": clipped}


if __name__ == "__main__":
    v1.disable_eager_execution()
    main()
