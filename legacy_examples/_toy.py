"""The small TF1-style regression model the recipe examples share.

It has the three kinds of gradient real models produce: dense (the layers), sparse
(``IndexedSlices`` from an embedding lookup) and ``None`` (a variable the loss does
not reach, which breaks the hand-written recipes that call ``tf.clip_by_*`` on it).
"""

import _cli  # noqa: F401  (before TensorFlow: quiets its start-up logging)
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1

N_FEATURES = 8
N_IDS = 50


def make_data(seed=0, n=256):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, N_FEATURES).astype(np.float32)
    ids = rng.randint(0, N_IDS, size=n).astype(np.int32)
    id_effect = np.linspace(-2.0, 2.0, N_IDS).astype(np.float32)
    y = x @ np.linspace(-3.0, 3.0, N_FEATURES) + id_effect[ids] + 0.1 * rng.randn(n)
    return x, ids, (y * 10.0).astype(np.float32)[:, None]


def build_model():
    """Returns ``(placeholders, loss)`` for a one-hidden-layer regression net."""
    x = v1.placeholder(tf.float32, [None, N_FEATURES], name="x")
    ids = v1.placeholder(tf.int32, [None], name="ids")
    y = v1.placeholder(tf.float32, [None, 1], name="y")
    init = v1.glorot_uniform_initializer(seed=1)
    w1 = v1.get_variable("w1", [N_FEATURES, 16], initializer=init)
    b1 = v1.get_variable("b1", [16], initializer=v1.zeros_initializer())
    embedding = v1.get_variable("embedding", [N_IDS, 4], initializer=init)
    w2 = v1.get_variable("w2", [20, 1], initializer=init)
    v1.get_variable("unused", [3], initializer=v1.zeros_initializer())
    hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
    features = tf.concat([hidden, tf.nn.embedding_lookup(embedding, ids)], axis=1)
    loss = tf.reduce_mean(tf.square(tf.matmul(features, w2) - y))
    return (x, ids, y), loss


def train(train_op, placeholders, loss, steps, extra=(), log=print):
    """Runs ``steps`` full-batch steps in a new Session; returns the loss history.

    ``extra`` is a sequence of ``(label, tensor)`` pairs logged with the loss.
    """
    feed = dict(zip(placeholders, make_data()))
    losses = []
    labels = [label for label, _ in extra]
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        losses.append(float(sess.run(loss, feed)))
        log("step %4d  training loss %.4f" % (0, losses[0]))
        for step in range(1, steps + 1):
            fetched = sess.run([train_op, loss] + [tensor for _, tensor in extra], feed)
            losses.append(float(fetched[1]))
            if step % max(1, steps // 5) == 0:
                shown = "".join("  %s %.4g" % pair for pair in zip(labels, fetched[2:]))
                log("step %4d  training loss %.4f%s" % (step, fetched[1], shown))
    return losses


def verdict(losses, recipe, log=print):
    """Logs the one-line verdict: did the loss fall by at least half?"""
    outcome = "learns" if losses[-1] < 0.5 * losses[0] else "does NOT learn"
    log(
        "Verdict: %s %s: training loss %.4g -> %.4g in %d steps."
        % (recipe, outcome, losses[0], losses[-1], len(losses) - 1)
    )


def introduce(doc, log=print):
    """Logs what the example shows (the first line of its docstring) and the model."""
    log(doc.strip().splitlines()[0].replace("``", ""))
    log(
        "Model: a small regression net whose gradients are dense (layers), sparse "
        "(embedding lookup) and None (an unused variable); loss: mean squared error."
    )
