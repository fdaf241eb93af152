"""tf1clip.contrib.losses and tf1clip.contrib.metrics (tf-slim's, routed) in TF 1 mode, against NumPy."""

import numpy as np
import pytest
import tensorflow as tf

pytest.importorskip("tf_slim")

from tf1clip.contrib import losses, metrics  # noqa: E402

v1 = tf.compat.v1


def test_softmax_cross_entropy_with_weights_and_the_total_loss():
    logits = np.array([[2.0, -1.0, 0.5], [0.1, 0.2, 3.0]], np.float32)
    labels = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], np.float32)
    with tf.Graph().as_default():
        loss = losses.softmax_cross_entropy(tf.constant(logits), tf.constant(labels), weights=2.0)
        v1.losses.add_loss(tf.constant(0.25), loss_collection=v1.GraphKeys.REGULARIZATION_LOSSES)
        total = losses.get_total_loss()
        with v1.Session() as sess:
            loss, total = sess.run([loss, total])
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    want = 2.0 * -(labels * logp).sum(1).mean()
    np.testing.assert_allclose(loss, want, rtol=1e-6)
    np.testing.assert_allclose(total, want + 0.25, rtol=1e-6)


def test_streaming_accuracy_accumulates_over_updates():
    batches = [([0, 1, 2, 1], [0, 1, 1, 1]), ([2, 2], [2, 0])]
    with tf.Graph().as_default():
        predictions = v1.placeholder(tf.int64, [None])
        labels = v1.placeholder(tf.int64, [None])
        accuracy, update = metrics.streaming_accuracy(predictions, labels)
        names = [v.op.name for v in v1.local_variables()]
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            for p, y in batches:
                sess.run(update, {predictions: p, labels: y})
            got = sess.run(accuracy)
    assert got == pytest.approx(4 / 6)
    assert names == ["accuracy/total", "accuracy/count"]
