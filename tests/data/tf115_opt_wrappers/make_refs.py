"""TF 1.15 reference values for tf1clip.contrib.opt's wrappers (tests/oracle/test_contrib_opt_wrappers.py).

Run once, in the TF 1.15 oracle environment plus SciPy 1.7.3, from the repository root:

    /root/.pyenv/versions/3.7.16/bin/python -m venv /work/venvs/opt2-scipy115
    /work/venvs/tf115/bin/python -c "import site; print(site.getsitepackages()[0])" \
        > /work/venvs/opt2-scipy115/lib/python3.7/site-packages/tf115.pth
    /work/venvs/opt2-scipy115/bin/pip install scipy==1.7.3
    env -u TF2_BEHAVIOR /work/venvs/opt2-scipy115/bin/python tests/data/tf115_opt_wrappers/make_refs.py

(without SciPy the ``scipy_*`` entries are left out).

It writes refs.json and chain.ckpt.{index,data-00000-of-00001} next to itself.
The graph builders are shared with the tests (``build_*(tf, opt_module)``), so
TF 1.15 with ``tf.contrib.opt`` and TF 2.x with ``tf1clip.contrib.opt`` build
the same graph, with the same variable names. Everything uses ``tf.compat.v1``
(TF 1.15 has it too) and the default variables of each (reference variables on
TF 1.15, resource variables in a TF 2 graph).
"""

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# Feeds of the chained model, one dict per step: a multitask loss where the
# dense part (mask_w) or the embedding part (mask_e) is absent in some steps.
CHAIN_FEEDS = [
    {"x": [[1.0, 2.0], [0.5, -1.0]], "y": [1.0, -2.0], "ids": [0, 2], "mask_w": 1.0, "mask_e": 1.0},
    {"x": [[0.3, 0.1], [2.0, 1.0]], "y": [0.5, 3.0], "ids": [1, 3], "mask_w": 0.0, "mask_e": 1.0},
    {"x": [[1.5, -0.5], [0.2, 0.4]], "y": [2.0, 0.0], "ids": [4, 0], "mask_w": 1.0, "mask_e": 0.0},
    {"x": [[-1.0, 1.0], [1.0, 1.0]], "y": [-1.0, 1.0], "ids": [2, 3], "mask_w": 1.0, "mask_e": 1.0},
]
CHAIN_SAVE_AFTER = 2
W0 = [[0.5, -0.3], [0.2, 0.8]]
EMB0 = [[1.5, 0.5], [0.1, 0.2], [-2.0, 1.0], [0.3, -0.4], [0.9, 0.9]]


def build_chain(tf, copt):
    """MovingAverage(VariableClipping(MultitaskOptimizerWrapper(Adam))) on a dense + embedding model."""
    v1 = tf.compat.v1
    ph = {
        "x": v1.placeholder(tf.float32, [None, 2], name="x"),
        "y": v1.placeholder(tf.float32, [None], name="y"),
        "ids": v1.placeholder(tf.int32, [None], name="ids"),
        "mask_w": v1.placeholder(tf.float32, [], name="mask_w"),
        "mask_e": v1.placeholder(tf.float32, [], name="mask_e"),
    }
    w = v1.get_variable("w", initializer=tf.constant(W0))
    emb = v1.get_variable("emb", initializer=tf.constant(EMB0))
    pred = tf.reduce_sum(tf.matmul(ph["x"], w), 1)
    loss_w = ph["mask_w"] * tf.reduce_mean(tf.square(pred - ph["y"]))
    loss_e = ph["mask_e"] * tf.reduce_sum(tf.square(tf.gather(emb, ph["ids"]) * 2.0 - 1.0))
    global_step = v1.train.get_or_create_global_step()
    adam = v1.train.AdamOptimizer(0.1)
    mt = copt.MultitaskOptimizerWrapper(adam)
    vc = copt.VariableClippingOptimizer(mt, {emb: [1]}, 1.0)
    ma = copt.MovingAverageOptimizer(vc, average_decay=0.5)
    grads = ma.compute_gradients(loss_w + loss_e, [w, emb])
    train = ma.apply_gradients(grads, global_step=global_step)
    return {"ph": ph, "train": train, "adam": adam, "ma": ma, "w": w, "emb": emb, "global_step": global_step}


def chain_state(sess, model):
    """Every global variable's value, by ``op.name``."""
    del model
    variables = {v.op.name: v for v in sess.graph.get_collection("variables")}
    names = sorted(variables)
    return {n: np.asarray(v).tolist() for n, v in zip(names, sess.run([variables[n] for n in names]))}


def feed_of(model, step):
    return {model["ph"][k]: v for k, v in CHAIN_FEEDS[step].items()}


def build_variable_clipping(tf, copt, use_zip=False):
    """TF 1.15's own test setting: SGD lr 3, max_norm 2; dense and sparse gradients."""
    v1 = tf.compat.v1
    d0 = v1.get_variable("d0", initializer=tf.constant([[0.0, 1.0], [2.0, 3.0]]))
    d1 = v1.get_variable("d1", initializer=tf.constant([4.0, 5.0]))
    s0 = v1.get_variable("s0", initializer=tf.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
    s1 = v1.get_variable("s1", initializer=tf.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
    dup = v1.get_variable("dup", initializer=tf.constant([[3.0, 4.0], [0.3, 0.4]]))
    sparse = tf.IndexedSlices(tf.constant([[0.1, 0.1], [0.1, 0.1]]), tf.constant([0, 2]), tf.constant([3, 2]))
    dup_grad = tf.IndexedSlices(tf.constant([[0.0, 0.0], [0.0, 0.0]]), tf.constant([0, 0]), tf.constant([2, 2]))
    sgd = v1.train.GradientDescentOptimizer(3.0)
    opt = copt.VariableClippingOptimizer(sgd, {d0: [1], s0: [1], s1: [0], dup: [1]}, 2.0)
    grads = [tf.constant([[0.1, 0.1], [0.1, 0.1]]), tf.constant([0.01, 0.01]), sparse, sparse, dup_grad]
    pairs = zip(grads, [d0, d1, s0, s1, dup])
    train = opt.apply_gradients(pairs if use_zip else list(pairs))
    return {"train": train, "vars": {"d0": d0, "d1": d1, "s0": s0, "s1": s1, "dup": dup}}


def build_moving_average(tf, copt):
    v1 = tf.compat.v1
    a = v1.get_variable("a", initializer=tf.constant([1.0, 2.0]))
    b = v1.get_variable("b", initializer=tf.constant([3.0, 4.0]))
    c = v1.get_variable("c", initializer=tf.constant([5.0]))
    global_step = v1.train.get_or_create_global_step()
    opt = copt.MovingAverageOptimizer(v1.train.MomentumOptimizer(0.5, 0.9), average_decay=0.5, num_updates=global_step)
    steps = tf.cast(global_step, tf.float32) + 1.0
    pairs = [(tf.constant([0.1, 0.2]) * steps, a), (tf.constant([0.01, -0.02]), b), (None, c)]
    train = opt.apply_gradients(pairs, global_step=global_step)
    return {"train": train, "opt": opt, "vars": {"a": a, "b": b, "c": c}, "global_step": global_step}


def build_multitask_momentum(tf, copt):
    """Momentum with dense and sparse (embedding) gradients that are all-zero in some steps."""
    v1 = tf.compat.v1
    scale = v1.placeholder(tf.float32, [2], name="scale")
    d = v1.get_variable("d", initializer=tf.constant([1.0, 2.0]))
    e = v1.get_variable("e", initializer=tf.constant([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]))
    mom = v1.train.MomentumOptimizer(2.0, 0.9)
    opt = copt.MultitaskOptimizerWrapper(mom)
    sparse = tf.IndexedSlices(tf.constant([[0.1, 0.2], [0.3, 0.4]]) * scale[1], tf.constant([0, 2]), tf.constant([3, 2]))
    train = opt.apply_gradients([(tf.constant([0.1, 0.1]) * scale[0], d), (sparse, e)])
    return {"train": train, "scale": scale, "vars": {"d": d, "e": e}, "slots": {"d": mom.get_slot(d, "momentum"),
                                                                                   "e": mom.get_slot(e, "momentum")}}


MULTITASK_SCALES = [[1.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]]

SCIPY_CASES = ["rosenbrock", "bounds", "slsqp", "matrix_bounds"]


def build_scipy(tf, copt, case, use_resource):
    """A ScipyOptimizerInterface problem; returns ``(interface, variables)``."""
    v1 = tf.compat.v1
    if case == "rosenbrock":
        x = v1.get_variable("x", initializer=tf.zeros([4]), use_resource=use_resource)
        loss = tf.reduce_sum(100.0 * tf.square(x[1:] - tf.square(x[:-1])) + tf.square(1.0 - x[:-1]))
        return copt.ScipyOptimizerInterface(loss), [x]
    if case == "bounds":
        v = v1.get_variable("v", initializer=tf.constant([7.0, 7.0]), use_resource=use_resource)
        return copt.ScipyOptimizerInterface(tf.reduce_sum(tf.square(v)), var_to_bounds={v: ([None, 2.0], None)}), [v]
    if case == "slsqp":
        v = v1.get_variable("v", initializer=tf.constant([7.0, 7.0]), use_resource=use_resource)
        opt = copt.ScipyOptimizerInterface(
            tf.reduce_sum(tf.square(v)), equalities=[v[1] - 1.0], inequalities=[v[0] - 1.0], method="SLSQP"
        )
        return opt, [v]
    m = v1.get_variable("m", initializer=tf.constant([[3.0, -2.0], [0.5, 4.0]]), use_resource=use_resource)
    s = v1.get_variable("s", initializer=tf.constant(2.0), use_resource=use_resource)
    loss = tf.reduce_sum(tf.square(m - [[1.0, 1.0], [-1.0, 2.0]])) + tf.square(s + 3.0)
    opt = copt.ScipyOptimizerInterface(loss, var_to_bounds={m: (0.0, [[5.0], [1.5]]), s: (-1.0, None)})
    return opt, [m, s]


def main():
    import tensorflow as tf

    copt = tf.contrib.opt
    v1 = tf.compat.v1
    refs = {"tensorflow": tf.__version__, "command": "env -u TF2_BEHAVIOR python tests/data/tf115_opt_wrappers/make_refs.py"}

    with tf.Graph().as_default():
        model = build_chain(tf, copt)
        saver = v1.train.Saver(write_version=v1.train.SaverDef.V2)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            states = []
            for step in range(len(CHAIN_FEEDS)):
                sess.run(model["train"], feed_of(model, step))
                states.append(chain_state(sess, model))
                if step + 1 == CHAIN_SAVE_AFTER:
                    saver.save(sess, os.path.join(HERE, "chain.ckpt"), write_meta_graph=False,
                               write_state=False)
                    swapper = model["ma"].swapping_saver()
                    swapped = swapper.save(sess, "/tmp/opt_wrappers_swapped.ckpt", write_meta_graph=False, write_state=False)
                    reader = tf.train.load_checkpoint(swapped)
                    refs["chain_swapped_checkpoint"] = {
                        n: np.asarray(reader.get_tensor(n)).tolist() for n in sorted(reader.get_variable_to_shape_map())
                    }
            refs["chain_states"] = states

    for use_zip in (False, True):
        with tf.Graph().as_default():
            model = build_variable_clipping(tf, copt, use_zip=use_zip)
            with v1.Session() as sess:
                sess.run(v1.global_variables_initializer())
                sess.run(model["train"])
                key = "variable_clipping_zip" if use_zip else "variable_clipping"
                refs[key] = {n: sess.run(v).tolist() for n, v in model["vars"].items()}

    with tf.Graph().as_default():
        model = build_moving_average(tf, copt)
        avg = {n: model["opt"]._ema.average(v) for n, v in model["vars"].items() if n != "c"}
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            out = []
            for _ in range(3):
                sess.run(model["train"])
                out.append({
                    "vars": {n: sess.run(v).tolist() for n, v in model["vars"].items()},
                    "averages": {n: sess.run(v).tolist() for n, v in avg.items()},
                })
            refs["moving_average"] = out
            refs["moving_average_names"] = sorted(v.op.name for v in v1.global_variables())

    with tf.Graph().as_default():
        model = build_multitask_momentum(tf, copt)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            out = []
            for scale in MULTITASK_SCALES:
                sess.run(model["train"], {model["scale"]: scale})
                out.append({
                    "vars": {n: sess.run(v).tolist() for n, v in model["vars"].items()},
                    "slots": {n: sess.run(v).tolist() for n, v in model["slots"].items()},
                })
            refs["multitask_momentum"] = out

    try:
        import scipy
    except ImportError:
        scipy = None
    if scipy is not None:
        refs["scipy_version"] = scipy.__version__
        for use_resource in (False, True):
            for case in SCIPY_CASES:
                with tf.Graph().as_default():
                    opt, variables = build_scipy(tf, copt, case, use_resource)
                    with v1.Session() as sess:
                        sess.run(v1.global_variables_initializer())
                        opt.minimize(sess)
                        key = "scipy_%s%s" % (case, "_resource" if use_resource else "")
                        refs[key] = [np.asarray(sess.run(v)).tolist() for v in variables]

    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.join(HERE, "refs.json"), file=sys.stderr)


if __name__ == "__main__":
    main()
