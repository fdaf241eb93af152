"""The contrib.opt reference cases, shared by make_refs.py (TF 1.15) and tests/oracle/test_contrib_opt_tf115.py (TF 2).

Written for both Python 3.7 + TF 1.15 (``tf.contrib.opt``) and Python 3.11 + TF 2
(``tf1clip.contrib.opt``): only ``tf.compat.v1`` is used. Each case builds, in a
fresh graph, a dense variable ``w`` [3, 2] and an embedding ``emb`` [5, 2] whose
gradient is an ``IndexedSlices`` with a repeated index, plus ``global_step``;
gradients are fed, so the numbers do not depend on any race between reads and
updates.
"""

import numpy as np

STEPS = 4
CKPT_STEP = 2  # the checkpoint is written after this many steps
SPARSE_INDICES = [1, 3, 1]


def _grads(seed, dtype):
    rng = np.random.RandomState(seed)
    dense = [rng.uniform(-1.0, 1.0, size=(3, 2)) for _ in range(STEPS)]
    sparse = [rng.uniform(-1.0, 1.0, size=(3, 2)) for _ in range(STEPS)]
    # Step 3 turns the gradients' signs (exercises the sign methods' both branches).
    dense[2], sparse[2] = -dense[2], -sparse[2]
    return [d.astype(dtype) for d in dense], [s.astype(dtype) for s in sparse]


def specs(opt):
    """name -> (constructor(global_step) -> optimizer, dtypes, sparse?)."""
    sd = opt.sign_decay if hasattr(opt, "sign_decay") else None
    if sd is None:  # TF 1.15: tf.contrib.opt has no sign_decay attribute
        from tensorflow.contrib.opt.python.training import sign_decay as sd  # noqa: F811
    all_float = ("float16", "float32", "float64")
    f32_64 = ("float32", "float64")
    return {
        "LazyAdam": (lambda gs: opt.LazyAdamOptimizer(learning_rate=0.1), all_float, True),
        "Nadam": (lambda gs: opt.NadamOptimizer(learning_rate=0.1, epsilon=1e-3), all_float, True),
        "AdaMax": (lambda gs: opt.AdaMaxOptimizer(learning_rate=0.1), all_float, True),
        "AdamGS": (lambda gs: opt.AdamGSOptimizer(global_step=gs, learning_rate=0.1, epsilon=1e-3), all_float, True),
        "LazyAdamGS": (lambda gs: opt.LazyAdamGSOptimizer(global_step=gs, learning_rate=0.1), all_float, True),
        "AdamW": (lambda gs: opt.AdamWOptimizer(0.01, learning_rate=0.1), all_float, True),
        "MomentumW": (lambda gs: opt.MomentumWOptimizer(0.01, 0.1, 0.9), all_float, True),
        "MomentumWNesterov": (lambda gs: opt.MomentumWOptimizer(0.02, 0.1, 0.5, use_nesterov=True), f32_64, True),
        "ExtendedMomentum": (
            lambda gs: opt.extend_with_decoupled_weight_decay(_tf().compat.v1.train.MomentumOptimizer)(
                0.05, learning_rate=0.1, momentum=0.8
            ),
            f32_64,
            True,
        ),
        "PowerSign": (lambda gs: opt.PowerSignOptimizer(learning_rate=0.1), all_float, True),
        "PowerSignDecay": (
            lambda gs: opt.PowerSignOptimizer(learning_rate=0.1, base=2.0, sign_decay_fn=sd.get_cosine_decay_fn(6)),
            f32_64,
            True,
        ),
        "AddSign": (lambda gs: opt.AddSignOptimizer(learning_rate=0.1), all_float, True),
        "AddSignDecay": (
            lambda gs: opt.AddSignOptimizer(
                learning_rate=0.1, alpha=0.5, sign_decay_fn=sd.get_restart_decay_fn(6, num_periods=2)
            ),
            f32_64,
            True,
        ),
        "AddSignLinear": (
            lambda gs: opt.AddSignOptimizer(learning_rate=0.1, sign_decay_fn=sd.get_linear_decay_fn(5)),
            ("float32",),
            True,
        ),
        "LARS": (lambda gs: opt.LARSOptimizer(0.1, weight_decay=0.01, eeta=0.01), f32_64, True),
        "LARSNesterov": (
            lambda gs: opt.LARSOptimizer(0.1, momentum=0.5, weight_decay=0.0, eeta=0.1, use_nesterov=True),
            ("float32",),
            True,
        ),
        "RegAdagrad": (lambda gs: opt.RegAdagradOptimizer(0.1), all_float, True),
        "GGT": (lambda gs: opt.GGTOptimizer(learning_rate=0.01, window=3), f32_64, False),
        "Shampoo": (lambda gs: opt.ShampooOptimizer(global_step=gs, learning_rate=0.1), ("float32",), True),
        "ShampooDiagonal": (
            lambda gs: opt.ShampooOptimizer(global_step=gs, learning_rate=0.1, max_matrix_size=4),
            ("float32",),
            True,
        ),
    }


def _tf():
    import tensorflow as tf

    return tf


def build(opt, name, dtype, use_resource=False):
    """Builds the case in the current graph; returns (train_op, feeds(step) -> feed_dict)."""
    tf = _tf()
    v1 = tf.compat.v1
    make, _, sparse = specs(opt)[name]
    np_dtype = np.dtype(dtype)
    w = v1.get_variable(
        "w", initializer=np.arange(1.0, 7.0).reshape(3, 2).astype(np_dtype) / 4.0, use_resource=use_resource
    )
    emb = v1.get_variable(
        "emb", initializer=(np.arange(10.0).reshape(5, 2).astype(np_dtype) - 4.0) / 8.0, use_resource=use_resource
    )
    gs = v1.train.get_or_create_global_step()
    g_w = v1.placeholder(dtype, [3, 2], name="g_w")
    g_emb = v1.placeholder(dtype, [3, 2], name="g_emb")
    if sparse:
        emb_grad = tf.IndexedSlices(g_emb, tf.constant(SPARSE_INDICES), tf.constant([5, 2]))
    else:
        emb_grad = tf.math.unsorted_segment_sum(g_emb, tf.constant(SPARSE_INDICES), 5)
    optimizer = make(gs)
    train_op = optimizer.apply_gradients([(g_w, w), (emb_grad, emb)], global_step=gs)
    dense, sp = _grads(7, np_dtype)

    def feeds(step):
        return {g_w: dense[step], g_emb: sp[step]}

    return train_op, feeds


def snapshot(sess):
    """{variable name: value as a nested list} for every global variable."""
    tf = _tf()
    variables = tf.compat.v1.global_variables()
    values = sess.run(variables)
    return {v.op.name: np.asarray(x).tolist() for v, x in zip(variables, values)}
