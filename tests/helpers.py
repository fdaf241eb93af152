"""Shared test helpers."""

import numpy as np
import tensorflow as tf


def evaluate(sess, grads):
    """Evaluates gradients (Tensor, IndexedSlices or None) to NumPy values."""
    fetches = []
    for g in grads:
        if g is None:
            fetches.append(tf.no_op())
        elif isinstance(g, tf.IndexedSlices):
            fetches.append((g.values, g.indices))
        else:
            fetches.append(g)
    out = sess.run(fetches)
    return [None if g is None else out[i] for i, g in enumerate(grads)]


def np_global_norm(arrays):
    return float(np.sqrt(sum(np.sum(np.square(np.asarray(a, np.float64))) for a in arrays)))
