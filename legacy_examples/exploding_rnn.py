"""Headline example: a recurrent net whose gradients explode, trained with and without clipping.

TF1 style (placeholders, tf.compat.v1.Session, a v1 optimizer), ported to TensorFlow 2
with tf1clip. The task: read a sequence of 40 numbers and output their mean. The ReLU
RNN starts with recurrent weights slightly above identity, so its gradients grow
geometrically with the sequence length (Pascanu et al., 2013). The same model, data and
optimizer are trained twice: the unclipped run blows up, the run whose optimizer is
wrapped in ``tf1clip.clip_gradients_by_norm`` learns.

Each run logs its eval loss (mean squared error on 256 held-out sequences) and the
global norm of its gradients as computed and as applied (after clipping; the same
number in the unclipped run). ``--plot FILE.png`` draws both per step (needs
matplotlib, e.g. ``pip install 'tf1clip[plot]'``).

    python legacy_examples/exploding_rnn.py [--steps 300] [--clip-norm 1.0] [--plot rnn.png]
"""

import argparse
import math
import sys

import _cli


def _parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=_cli.HelpFormatter)
    parser.add_argument("--steps", type=int, default=300, help="training steps per run")
    parser.add_argument("--clip-norm", type=float, default=1.0, help="global-norm limit of the clipped run")
    parser.add_argument("--learning-rate", type=float, default=0.01, help="MomentumOptimizer learning rate")
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        default=None,
        help="also write a plot of loss and gradient norms per step to this PNG file",
    )
    return parser


if __name__ == "__main__":
    _parser().parse_args()  # --help and bad arguments exit here, before TensorFlow is imported

import numpy as np
import tensorflow as tf

import tf1clip

v1 = tf.compat.v1

SEQ_LEN = 40
HIDDEN = 32
DIVERGED_LOSS = 1e6


def make_data(rng, batch):
    x = rng.uniform(0.0, 1.0, size=(batch, SEQ_LEN, 1)).astype(np.float32)
    y = x.mean(axis=1)
    return x, y


def build_model(clip_norm, learning_rate):
    """Returns ``x, y, loss, (computed norm, applied norm), train_op``."""
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
    global_step = v1.train.get_or_create_global_step()
    if clip_norm is None:
        grads_and_vars = optimizer.compute_gradients(loss)
        norm = tf1clip.global_norm(grads_and_vars)
        train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
        return x, y, loss, (norm, norm), train_op
    optimizer = tf1clip.clip_gradients_by_norm(optimizer, clip_norm, report_norms=True)
    train_op = optimizer.minimize(loss, global_step=global_step)
    return x, y, loss, tuple(optimizer.norms), train_op


def train(clip_norm, steps, learning_rate=0.01, seed=0, log_every=50, out=sys.stdout):
    """Trains one model; returns a dict with the per-step history and what happened.

    ``history``, ``computed_norms`` and ``applied_norms`` hold one value per step run:
    the eval loss after the step and the gradients' global norm before and after
    clipping. A run stops when its eval loss is not finite or above 1e6 (diverged).
    """
    label = "clipped (global norm %g)" % clip_norm if clip_norm is not None else "unclipped"
    rng = np.random.RandomState(seed)
    eval_x, eval_y = make_data(np.random.RandomState(1234), 256)
    history, computed, applied = [], [], []
    with tf.Graph().as_default():
        v1.set_random_seed(seed)
        x, y, loss, norms, train_op = build_model(clip_norm, learning_rate)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            initial = float(sess.run(loss, {x: eval_x, y: eval_y}))
            for step in range(1, steps + 1):
                bx, by = make_data(rng, 32)
                _, before, after = sess.run([train_op, norms[0], norms[1]], {x: bx, y: by})
                current = float(sess.run(loss, {x: eval_x, y: eval_y}))
                history.append(current)
                computed.append(float(before))
                applied.append(float(after))
                diverged = not math.isfinite(current) or current > DIVERGED_LOSS
                if step % log_every == 0 or diverged:
                    print(
                        "  %-25s step %4d  eval loss %-10.4g global grad norm: computed %-9.3g applied %.3g"
                        % (label, step, current, before, after),
                        file=out,
                    )
                if diverged:
                    break
    final = history[-1] if history else initial
    diverged = not math.isfinite(final) or final > DIVERGED_LOSS
    return {
        "label": label,
        "clip_norm": clip_norm,
        "initial_loss": initial,
        "final_loss": final,
        "history": history,
        "computed_norms": computed,
        "applied_norms": applied,
        "steps_run": len(history),
        "max_grad_norm": _max(computed),
        "max_applied_norm": _max(applied),
        "diverged": diverged,
    }


def _max(values):
    return max((v if math.isfinite(v) else math.inf for v in values), default=0.0)


def _outcome(run):
    if run["diverged"]:
        return "diverged at step %d (eval loss %.3g)" % (run["steps_run"], run["final_loss"])
    return "learned" if run["final_loss"] < run["initial_loss"] / 100 else "did not learn"


def _pyplot():
    """matplotlib.pyplot on the file-only Agg backend, or None if matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(runs, path, plt=None):
    """Writes a PNG: eval loss and global gradient norms per step, one line per run."""
    plt = plt or _pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True, constrained_layout=True)
    colors = {"unclipped": "tab:red"}
    for run in runs:
        color = colors.get(run["label"], "tab:blue")
        steps = list(range(len(run["history"]) + 1))
        losses = [run["initial_loss"]] + run["history"]
        marker = "o" if len(steps) < 10 else None  # a run that stopped early is a few points
        top.plot(steps, losses, color=color, marker=marker, label=run["label"])
        norm_steps = steps[1:]
        bottom.plot(
            norm_steps,
            run["computed_norms"],
            color=color,
            marker=marker,
            label="%s: computed (before clipping)" % run["label"],
        )
        if run["clip_norm"] is not None:
            bottom.plot(
                norm_steps,
                run["applied_norms"],
                color="tab:orange",
                linestyle="--",
                label="%s: applied (after clipping)" % run["label"],
            )
        if run["diverged"]:
            for axis in (top, bottom):
                axis.axvline(run["steps_run"], color=color, linestyle=":", linewidth=1)
            top.annotate(
                "%s: %s" % (run["label"], _outcome(run)),
                xy=(run["steps_run"], run["initial_loss"]),
                xytext=(0.12, 0.88),
                textcoords="axes fraction",
                color=color,
                arrowprops={"arrowstyle": "->", "color": color},
            )
    top.set_yscale("log")
    top.set_ylabel("eval loss (MSE, log scale)")
    top.set_title("ReLU RNN, sequence length %d: exploding gradients with and without clipping" % SEQ_LEN)
    top.legend(loc="lower left")
    bottom.set_yscale("log")
    bottom.set_ylabel("global gradient norm (log scale)")
    bottom.set_xlabel("training step")
    bottom.legend(loc="upper right", fontsize="small")
    for axis in (top, bottom):
        axis.grid(True, which="major", alpha=0.3)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None, out=sys.stdout):
    parser = _parser()
    args = parser.parse_args(argv)
    plt = None
    if args.plot:
        plt = _pyplot()
        if plt is None:
            parser.error(
                "--plot needs matplotlib, which is not installed: pip install 'tf1clip[plot]' "
                "(or pip install matplotlib)"
            )

    print(
        "Shows: the same ReLU RNN (sequence length %d) trained twice to output the mean of its inputs, with\n"
        "MomentumOptimizer(%g, 0.9): unclipped, then wrapped in tf1clip.clip_gradients_by_norm(optimizer, %g)\n"
        "(GLOBAL norm). eval loss: mean squared error on 256 held-out sequences."
        % (SEQ_LEN, args.learning_rate, args.clip_norm),
        file=out,
    )
    plain = train(None, args.steps, args.learning_rate, out=out)
    clipped = train(args.clip_norm, args.steps, args.learning_rate, out=out)
    print("\nResult", file=out)
    print("  %-25s %-21s %-6s %-20s" % ("", "eval loss", "steps", "largest global norm"), file=out)
    print(
        "  %-25s %-10s %-10s %-6s %-9s %-10s %s" % ("run", "start", "end", "run", "computed", "applied", "outcome"),
        file=out,
    )
    for run in (plain, clipped):
        print(
            "  %-25s %-10.4g %-10.4g %-6d %-9.3g %-10.3g %s"
            % (
                run["label"],
                run["initial_loss"],
                run["final_loss"],
                run["steps_run"],
                run["max_grad_norm"],
                run["max_applied_norm"],
                _outcome(run),
            ),
            file=out,
        )
    if args.plot:
        plot([plain, clipped], args.plot, plt)
        print("Plot written to %s" % args.plot, file=out)
    print(
        "Verdict: unclipped, the RNN %s; with clip_gradients_by_norm(optimizer, %g) it %s "
        "(eval loss %.4g -> %.2g in %d steps)."
        % (
            _outcome(plain),
            args.clip_norm,
            _outcome(clipped),
            clipped["initial_loss"],
            clipped["final_loss"],
            clipped["steps_run"],
        ),
        file=out,
    )
    return {"unclipped": plain, "clipped": clipped}


if __name__ == "__main__":
    v1.disable_eager_execution()
    main()
