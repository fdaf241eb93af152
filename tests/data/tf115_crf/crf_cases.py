"""Small graphs over tf.contrib.crf, built the same way on TF 1.15 and on tf1clip.contrib.crf.

Each builder takes ``tf`` and ``crf`` (TF 1.15's ``tf.contrib.crf`` or ``tf1clip.contrib.crf``) and returns
``(outputs, feeds, wrt)``: a dict of output tensors, a feed dict (or a list of them, each run in turn) and a dict
of float tensors to differentiate a fixed weighted sum of the float outputs against. ``run_case`` builds one case in a fresh graph and returns the
outputs, those gradients and the names of the global variables. Runs on Python 3.7 (TF 1.15.5) and 3.11.
"""

import numpy as np

B, T, N = 3, 4, 3  # batch, max_seq_len, num_tags
LENGTHS = [4, 1, 0]


def _rng(name):
    return np.random.RandomState(sum(ord(c) for c in name) % 1000)


def _floats(tf, name, shape):
    value = _rng(name).uniform(-2.0, 2.0, size=shape).astype(np.float32)
    return tf.compat.v1.placeholder(tf.float32, [None] * (len(shape) - 1) + [shape[-1]], name=name), value


def _tags(tf, name, shape, dtype=np.int32):
    value = _rng(name).randint(0, N, size=shape).astype(dtype)
    return tf.compat.v1.placeholder(tf.as_dtype(dtype), [None] * len(shape), name=name), value


def _static(tf, name, value):
    return tf.constant(value, name=name)


def likelihood_variable(tf, crf):
    """crf_log_likelihood creating ``transitions``, static shapes, int32 and int64 tags."""
    v1 = tf.compat.v1
    x = _static(tf, "x", _rng("x").uniform(-2, 2, (B, T, N)).astype(np.float32))
    tags = _static(tf, "tags", _rng("tags").randint(0, N, (B, T)).astype(np.int32))
    init = v1.constant_initializer(_rng("transitions").uniform(-1, 1, (N, N)).astype(np.float32))
    with v1.variable_scope("crf_layer", initializer=init):
        ll, trans = crf.crf_log_likelihood(x, tags, tf.constant(LENGTHS))
    ll64, _ = crf.crf_log_likelihood(x, tf.cast(tags, tf.int64), tf.constant(LENGTHS, tf.int64), trans)
    return {"ll": ll, "ll64": ll64, "trans": trans}, {}, {"x": x, "trans": trans}


def dynamic_shapes(tf, crf):
    """Every score function with unknown shapes (a tf.cond on max_seq_len), fed max_seq_len 4 and then 1."""
    x, xv = _floats(tf, "x", (B, T, N))
    tags, tv = _tags(tf, "tags", (B, T))
    trans, trv = _floats(tf, "trans", (N, N))
    trans.set_shape([N, N])
    lens = tf.compat.v1.placeholder(tf.int32, [None], name="lens")
    bitmap = tf.compat.v1.placeholder(tf.bool, [None, None, N], name="bitmap")
    out = {
        "unary": crf.crf_unary_score(tags, lens, x),
        "binary": crf.crf_binary_score(tags, lens, trans),
        "sequence": crf.crf_sequence_score(x, tags, lens, trans),
        "log_norm": crf.crf_log_norm(x, lens, trans),
        "multitag": crf.crf_multitag_sequence_score(x, bitmap, lens, trans),
    }
    out["decode"], out["best"] = crf.crf_decode(x, trans, lens)
    bits = _rng("bitmap").uniform(size=(B, T, N)) < 0.6
    feeds = [
        {x: xv, tags: tv, trans: trv, lens: LENGTHS, bitmap: bits},
        {x: xv[:, :1], tags: tv[:, :1], trans: trv, lens: [1, 0, 1], bitmap: bits[:, :1]},
    ]
    return out, feeds, {"x": x, "trans": trans}


def static_single_step(tf, crf):
    """Static max_seq_len 1: no tf.cond, the single-step functions only."""
    x = _static(tf, "x1", _rng("x1").uniform(-2, 2, (B, 1, N)).astype(np.float32))
    tags = _static(tf, "tags1", _rng("tags1").randint(0, N, (B, 1)).astype(np.int64))
    trans = _static(tf, "trans", _rng("trans").uniform(-2, 2, (N, N)).astype(np.float32))
    lens = tf.constant([1, 0, 1], tf.int64)
    out = {
        "sequence": crf.crf_sequence_score(x, tags, lens, trans),
        "log_norm": crf.crf_log_norm(x, lens, trans),
        "ll": crf.crf_log_likelihood(x, tags, lens, trans)[0],
    }
    out["decode"], out["best"] = crf.crf_decode(x, trans, lens)
    return out, {}, {"x": x}


def cells(tf, crf):
    """The three cells called directly, and under dynamic_rnn's zero state."""
    v1 = tf.compat.v1
    trans = _static(tf, "trans", _rng("trans").uniform(-2, 2, (N, N)).astype(np.float32))
    inputs = _static(tf, "inp", _rng("inp").uniform(-2, 2, (B, N)).astype(np.float32))
    state = _static(tf, "state", _rng("state").uniform(-2, 2, (B, N)).astype(np.float32))
    fwd = crf.CrfForwardRnnCell(trans)
    alphas, _ = fwd(inputs, state)
    dec = crf.CrfDecodeForwardRnnCell(trans)
    back, new_state = dec(inputs, state)
    bwd = crf.CrfDecodeBackwardRnnCell(N)
    tags, _ = bwd(back, tf.constant([[0], [2], [1]]))
    seq = _static(tf, "seq", _rng("seq").uniform(-2, 2, (B, T, N)).astype(np.float32))
    zero_out, zero_state = v1.nn.dynamic_rnn(fwd, seq, dtype=tf.float32)
    out = {"alphas": alphas, "back": back, "new_state": new_state, "tags": tags, "zero_out": zero_out}
    out["zero_state"] = zero_state
    out["sizes"] = tf.constant([fwd.state_size, fwd.output_size, dec.state_size, bwd.state_size, bwd.output_size])
    return out, {}, {"trans": trans, "state": state, "seq": seq}


CASES = {
    "likelihood_variable": likelihood_variable,
    "dynamic_shapes": dynamic_shapes,
    "static_single_step": static_single_step,
    "cells": cells,
}


def viterbi_cases(crf):
    """viterbi_decode (NumPy) on a few score matrices, lengths 1 to 5."""
    result = {}
    for length in (1, 2, 5):
        rng = _rng("viterbi%d" % length)
        score = rng.uniform(-2, 2, (length, N)).astype(np.float32)
        trans = rng.uniform(-2, 2, (N, N)).astype(np.float32)
        path, best = crf.viterbi_decode(score, trans)
        result[str(length)] = {"path": [int(p) for p in path], "score": float(best)}
    return result


def run_case(tf, crf, name):
    """Builds case ``name`` in a fresh graph; returns ``{"outputs", "grads", "variables"}`` as lists."""
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        outputs, feed, wrt = CASES[name](tf, crf)
        weighted = [
            tf.reduce_sum(tf.cast(value, tf.float32) * (1.0 + 0.1 * i))
            for i, (key, value) in enumerate(sorted(outputs.items()))
            if value.dtype.is_floating
        ]
        keys = sorted(wrt)
        grads = tf.gradients(tf.add_n(weighted), [wrt[k] for k in keys])
        feeds = feed if isinstance(feed, list) else [feed]
        values, grad_values = {}, {}
        with v1.Session(graph=graph) as sess:
            sess.run(v1.global_variables_initializer())
            for i, one_feed in enumerate(feeds):
                suffix = "@%d" % i if len(feeds) > 1 else ""
                out_values, grads_out = sess.run([outputs, grads], one_feed)
                values.update((k + suffix, v) for k, v in out_values.items())
                grad_values.update((k + suffix, g) for k, g in zip(keys, grads_out))
        variables = sorted((v.op.name, v.shape.as_list()) for v in v1.global_variables())
    return {
        "outputs": {k: np.asarray(v).tolist() for k, v in values.items()},
        "grads": {k: np.asarray(g).tolist() for k, g in grad_values.items()},
        "variables": [[n, s] for n, s in variables],
    }
