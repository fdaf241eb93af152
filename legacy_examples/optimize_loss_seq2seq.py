"""A seq2seq training script of the tensor2tensor era, ported from tf.contrib to tf1clip.

The model learns to reverse sequences of digits: an embedding shared by an
unrolled tanh-RNN encoder and decoder (teacher forcing), placeholders, a
``tf.compat.v1.Session`` loop and TensorBoard summaries. The port changed one
name; everything else is the TF 1.x code::

    # TF 1.x
    train_op = tf.contrib.layers.optimize_loss(loss, global_step, ...)
    # TF 2.x
    train_op = tf1clip.contrib.layers.optimize_loss(loss, global_step, ...)

Run::

    python legacy_examples/optimize_loss_seq2seq.py --steps 300 --logdir /tmp/seq2seq
    tensorboard --logdir /tmp/seq2seq

The event file holds ``OptimizeLoss/loss``, ``OptimizeLoss/learning_rate_1``
(the decayed rate; the variable ``OptimizeLoss/learning_rate`` holds the plain
name, as in TF 1.x), ``OptimizeLoss/global_norm/gradient_norm`` (before
clipping), ``OptimizeLoss/global_norm/clipped_gradient_norm`` and one
``OptimizeLoss/gradient_norm/<variable>`` per variable.
"""

import argparse
import sys
import tempfile

try:
    import _cli  # noqa: F401  (before TensorFlow: quiets its start-up logging; see _cli.py)
except ImportError:  # loaded from elsewhere (legacy_examples/ not on sys.path): TensorFlow logs as usual
    pass


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=300, help="training steps")
    parser.add_argument("--logdir", default=None, help="TensorBoard directory; None: a new temporary directory")
    parser.add_argument("--batch-size", type=int, default=64, help="sequences per step")
    parser.add_argument("--seq-len", type=int, default=5, help="digits per sequence")
    parser.add_argument("--vocab", type=int, default=10, help="vocabulary size (symbol 0 is the start symbol)")
    parser.add_argument("--hidden", type=int, default=64, help="RNN state size")
    parser.add_argument("--learning-rate", type=float, default=0.01, help="Adam's initial learning rate")
    parser.add_argument("--decay-steps", type=int, default=100, help="the rate is multiplied by 0.9 every N steps")
    parser.add_argument("--clip-gradients", type=float, default=5.0, help="global-norm limit (clip_gradients)")
    parser.add_argument("--summary-every", type=int, default=10, help="write summaries every N steps")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    return parser.parse_args(argv)


if __name__ == "__main__":
    parse_args(sys.argv[1:])  # --help and bad arguments exit here, before TensorFlow is imported

import numpy as np
import tensorflow as tf

import tf1clip.contrib

v1 = tf.compat.v1

GO = 0  # the decoder's start symbol; digits are 1..VOCAB-1


def make_batch(rng, batch_size, seq_len, vocab):
    """Random digit sequences and their reversals."""
    source = rng.randint(1, vocab, size=(batch_size, seq_len)).astype(np.int32)
    return source, source[:, ::-1].copy()


def _cell(inputs, state, kernel, bias):
    return tf.tanh(tf.matmul(tf.concat([inputs, state], 1), kernel) + bias)


def build_model(seq_len, vocab, hidden):
    """Returns placeholders, loss and accuracy of a tiny encoder-decoder."""
    source = v1.placeholder(tf.int32, [None, seq_len], name="source")
    target = v1.placeholder(tf.int32, [None, seq_len], name="target")
    with v1.variable_scope("seq2seq"):
        embedding = v1.get_variable("embedding", [vocab, hidden])
        enc_kernel = v1.get_variable("encoder/kernel", [2 * hidden, hidden])
        enc_bias = v1.get_variable("encoder/bias", [hidden], initializer=v1.zeros_initializer())
        dec_kernel = v1.get_variable("decoder/kernel", [2 * hidden, hidden])
        dec_bias = v1.get_variable("decoder/bias", [hidden], initializer=v1.zeros_initializer())
        out_kernel = v1.get_variable("output/kernel", [hidden, vocab])
        out_bias = v1.get_variable("output/bias", [vocab], initializer=v1.zeros_initializer())

    state = tf.zeros([tf.shape(source)[0], hidden])
    source_emb = tf.nn.embedding_lookup(embedding, source)
    for t in range(seq_len):
        state = _cell(source_emb[:, t], state, enc_kernel, enc_bias)

    decoder_inputs = tf.concat([tf.fill([tf.shape(target)[0], 1], GO), target[:, :-1]], 1)
    decoder_emb = tf.nn.embedding_lookup(embedding, decoder_inputs)
    logits = []
    for t in range(seq_len):
        state = _cell(decoder_emb[:, t], state, dec_kernel, dec_bias)
        logits.append(tf.matmul(state, out_kernel) + out_bias)
    logits = tf.stack(logits, 1)

    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logits))
    correct = tf.equal(tf.argmax(logits, -1, output_type=tf.int32), target)
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    return source, target, loss, accuracy


def build_train_op(loss, args):
    """The contrib call as legacy code wrote it: string optimizer, float clip, decay, summaries."""
    global_step = v1.train.get_or_create_global_step()

    def decay(lr, step):
        return v1.train.exponential_decay(lr, step, args.decay_steps, 0.9, staircase=True)

    train_op = tf1clip.contrib.layers.optimize_loss(
        loss,
        global_step,
        learning_rate=args.learning_rate,
        optimizer="Adam",
        clip_gradients=args.clip_gradients,
        learning_rate_decay_fn=decay,
        summaries=["loss", "learning_rate", "global_gradient_norm", "gradient_norm"],
    )
    return train_op, global_step


def main(argv=None):
    """Trains; returns a dict with the first and last loss, the last accuracy and the logdir."""
    args = parse_args(argv)
    logdir = args.logdir or tempfile.mkdtemp(prefix="optimize_loss_seq2seq_")
    rng = np.random.RandomState(args.seed)
    print(
        "Shows: tf1clip.contrib.layers.optimize_loss(clip_gradients=%g) training an RNN encoder-decoder to "
        "reverse %d-digit sequences." % (args.clip_gradients, args.seq_len)
    )
    with tf.Graph().as_default():
        v1.set_random_seed(args.seed)
        source, target, loss, accuracy = build_model(args.seq_len, args.vocab, args.hidden)
        train_op, global_step = build_train_op(loss, args)
        summary_op = v1.summary.merge_all()
        with v1.Session() as sess, v1.summary.FileWriter(logdir, sess.graph) as writer:
            sess.run(v1.global_variables_initializer())
            first_loss = None
            for step in range(args.steps):
                src, tgt = make_batch(rng, args.batch_size, args.seq_len, args.vocab)
                feed = {source: src, target: tgt}
                if step % args.summary_every == 0 or step == args.steps - 1:
                    loss_value, acc, summary = sess.run([train_op, accuracy, summary_op], feed)
                    writer.add_summary(summary, step)
                else:
                    loss_value, acc = sess.run([train_op, accuracy], feed)
                if first_loss is None:
                    first_loss = float(loss_value)
                if step % 100 == 0 or step == args.steps - 1:
                    print("step %4d  training loss (cross-entropy) %.4f  batch accuracy %.3f" % (step, loss_value, acc))
            final_step = int(sess.run(global_step))
    print("trained %d steps; summaries in %s (view them with: tensorboard --logdir %s)" % (final_step, logdir, logdir))
    print(
        "Verdict: optimize_loss with clip_gradients=%g %s: training loss %.4g -> %.4g, batch accuracy %.3f."
        % (
            args.clip_gradients,
            "learns" if loss_value < 0.5 * first_loss else "does NOT learn",
            first_loss,
            loss_value,
            acc,
        )
    )
    return {
        "first_loss": first_loss,
        "final_loss": float(loss_value),
        "accuracy": float(acc),
        "global_step": final_step,
        "logdir": logdir,
    }


if __name__ == "__main__":
    main(sys.argv[1:])
