"""Graphs for tf.contrib.quantize's rewrite, built the same way on TF 1.15 (tf.contrib.quantize, tf.contrib.slim)
and on TF 2 (tf1clip.contrib.quantize, tf1clip.contrib.slim): tf.compat.v1 only, fixed initial values.

run_case(tf, quantize, slim, name) builds case ``name``, rewrites it, records the ops the rewrite added (name, type,
inputs), the inputs of the graph's ops it rerouted to them, the global variables, and the outputs, loss and quantization ranges over several SGD steps (training
cases) or of one run (eval cases).
"""

import numpy as np

STEPS = 5


def _inputs(shape, seed):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape).astype(np.float32)


def _init(tf, shape, seed):
    return tf.compat.v1.constant_initializer(np.random.RandomState(seed).normal(0.0, 0.5, size=shape))


def _dense_relu6(tf, slim, x):
    return tf.compat.v1.layers.dense(x, 3, activation=tf.nn.relu6, kernel_initializer=_init(tf, [4, 3], 1), name="fc")


def _dense_linear(tf, slim, x):
    h = tf.compat.v1.layers.dense(x, 5, activation=tf.nn.relu, kernel_initializer=_init(tf, [4, 5], 2), name="h")
    return tf.compat.v1.layers.dense(h, 3, kernel_initializer=_init(tf, [5, 3], 3), name="logits")


def _image(x):
    return x[:, :4]


def _conv_relu(tf, slim, x):
    img = tf.reshape(tf.tile(x, [1, 4]), [-1, 4, 4, 1])
    c = tf.compat.v1.layers.conv2d(
        img, 2, 3, padding="same", activation=tf.nn.relu, kernel_initializer=_init(tf, [3, 3, 1, 2], 4), name="conv"
    )
    return tf.compat.v1.layers.dense(tf.reshape(c, [-1, 32]), 3, kernel_initializer=_init(tf, [32, 3], 5), name="out")


def _slim_net(tf, slim, x):
    img = tf.reshape(tf.tile(x, [1, 4]), [-1, 4, 4, 1])
    c = slim.conv2d(img, 2, [3, 3], weights_initializer=_init(tf, [3, 3, 1, 2], 6), scope="conv1")
    c = slim.conv2d(
        c, 2, [3, 3], activation_fn=tf.nn.relu6, weights_initializer=_init(tf, [3, 3, 2, 2], 7), scope="conv2"
    )
    return slim.fully_connected(
        slim.flatten(c), 3, activation_fn=None, weights_initializer=_init(tf, [32, 3], 8), scope="fc"
    )


def _depthwise(tf, slim, x):
    img = tf.reshape(tf.tile(x, [1, 4]), [-1, 4, 4, 1])
    w = tf.compat.v1.get_variable("dw/depthwise_weights", [3, 3, 1, 2], initializer=_init(tf, [3, 3, 1, 2], 9))
    b = tf.compat.v1.get_variable("dw/biases", [2], initializer=tf.compat.v1.constant_initializer(0.1))
    d = tf.nn.relu(
        tf.nn.bias_add(tf.nn.depthwise_conv2d(img, w, [1, 1, 1, 1], "SAME", name="dw/depthwise"), b, name="dw/BiasAdd"),
        name="dw/Relu",
    )
    return tf.compat.v1.layers.dense(tf.reshape(d, [-1, 32]), 3, kernel_initializer=_init(tf, [32, 3], 10), name="out")


def _bypass(tf, slim, x):
    a = tf.compat.v1.layers.dense(x, 4, activation=tf.nn.relu, kernel_initializer=_init(tf, [4, 4], 11), name="block/a")
    with tf.compat.v1.variable_scope("block/b"):
        w = tf.compat.v1.get_variable("kernel", [4, 4], initializer=_init(tf, [4, 4], 12))
        b = tf.compat.v1.get_variable("bias", [4], initializer=tf.compat.v1.zeros_initializer())
        y = tf.nn.bias_add(tf.matmul(a, w), b)
        y = tf.nn.relu(y + x)
    z = tf.compat.v1.layers.dense(y, 3, kernel_initializer=_init(tf, [4, 3], 13), name="head")
    return z * 0.5 + z


def _resource(tf, slim, x):
    with tf.compat.v1.variable_scope("res", use_resource=True):
        w = tf.compat.v1.get_variable("weights", [4, 3], initializer=_init(tf, [4, 3], 14))
        b = tf.compat.v1.get_variable("biases", [3], initializer=tf.compat.v1.zeros_initializer())
        return tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w), b))


def _bn_layers(training):
    def network(tf, slim, x):
        img = tf.reshape(tf.tile(x, [1, 4]), [-1, 4, 4, 1])
        c = tf.compat.v1.layers.conv2d(
            img, 2, 3, padding="same", use_bias=False, kernel_initializer=_init(tf, [3, 3, 1, 2], 15), name="conv"
        )
        c = tf.compat.v1.layers.batch_normalization(
            c,
            training=training,
            fused=True,
            name="conv/BatchNorm",
            gamma_initializer=tf.compat.v1.constant_initializer(1.5),
            moving_variance_initializer=tf.compat.v1.constant_initializer(0.5),
        )
        c = tf.nn.relu6(c)
        return tf.compat.v1.layers.dense(
            tf.reshape(c, [-1, 32]), 3, kernel_initializer=_init(tf, [32, 3], 16), name="out"
        )

    return network


def _slim_bn(is_training, fused, scale):
    def network(tf, slim, x):
        return _bn_slim(tf, slim, x, is_training, fused, scale)

    return network


def _bn_slim(tf, slim, x, is_training=True, fused=True, scale=True):
    img = tf.reshape(tf.tile(x, [1, 4]), [-1, 4, 4, 1])
    c = slim.conv2d(
        img,
        2,
        [3, 3],
        weights_initializer=_init(tf, [3, 3, 1, 2], 17),
        normalizer_fn=slim.batch_norm,
        normalizer_params={"is_training": is_training, "fused": fused, "scale": scale},
        scope="conv1",
    )
    return slim.fully_connected(
        slim.flatten(c), 3, activation_fn=None, weights_initializer=_init(tf, [32, 3], 18), scope="fc"
    )


# name: (network, rewrite kind, keyword arguments)
CASES = {
    "dense_relu6_delay": (_dense_relu6, "train", {"quant_delay": 2}),
    "dense_linear": (_dense_linear, "train", {}),
    "conv_relu": (_conv_relu, "train", {"quant_delay": 3}),
    "slim_net": (_slim_net, "train", {}),
    "depthwise": (_depthwise, "train", {}),
    "bypass": (_bypass, "train", {"quant_delay": 1}),
    "resource": (_resource, "train", {}),
    "experimental_bits": (
        _slim_net,
        "exp_train",
        {"weight_bits": 4, "activation_bits": 5, "symmetric": True, "quant_delay": 2},
    ),
    "experimental_scope": (_conv_relu, "exp_train", {"scope": "conv"}),
    "bn_layers": (_bn_layers(True), "train", {"quant_delay": 2}),
    "bn_slim_freeze": (_bn_slim, "exp_train", {"quant_delay": 1, "freeze_bn_delay": 3}),
    "bn_eval": (_bn_layers(False), "eval", {}),
    "bn_unfused": (_slim_bn(True, False, True), "train", {"quant_delay": 2}),
    "bn_unfused_freeze": (_slim_bn(True, False, False), "exp_train", {"freeze_bn_delay": 2}),
    "bn_unfused_eval": (_slim_bn(False, False, True), "eval", {}),
    "eval_dense": (_dense_linear, "eval", {}),
    "eval_slim": (_slim_net, "eval", {}),
    "experimental_eval": (_slim_net, "exp_eval", {"weight_bits": 6, "symmetric": True}),
}


def _rewrite(quantize, kind, kwargs):
    return {
        "train": quantize.create_training_graph,
        "eval": quantize.create_eval_graph,
        "exp_train": quantize.experimental_create_training_graph,
        "exp_eval": quantize.experimental_create_eval_graph,
    }[kind](**kwargs)


def _range_variables(tf):
    return [v for v in tf.compat.v1.global_variables() if v.op.name.endswith(("quant/min", "quant/max"))]


def run_case(tf, quantize, slim, name):
    network, kind, kwargs = CASES[name]
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 4], name="x")
        labels = tf.compat.v1.placeholder(tf.float32, [None, 3], name="labels")
        out = network(tf, slim, x)
        before = {op.name for op in graph.get_operations()}
        _rewrite(quantize, kind, kwargs)
        added = [
            [op.name, op.type, [t.name for t in op.inputs]]
            for op in graph.get_operations()
            if op.name not in before and "/Initializer/" not in op.name
        ]
        rewired = sorted(
            [op.name, k, t.name]
            for op in graph.get_operations()
            if op.name in before
            for k, t in enumerate(op.inputs)
            if t.op.name not in before
        )
        loss = tf.reduce_mean(tf.square(out - labels))
        ranges = _range_variables(tf)
        record = {
            "added": added,
            "rewired": rewired,
            "variables": sorted(v.op.name for v in tf.compat.v1.global_variables()),
            "trainable": sorted(v.op.name for v in tf.compat.v1.trainable_variables()),
            "outputs": [],
            "losses": [],
            "ranges": [],
        }
        if kind.endswith("train"):
            train = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        # The batch norms' moving averages are updated in a run of their own: in the training run their updates
        # would race the correction's reads of the same reference variables (in TF 1.15 too).
        updates = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS)
        with tf.compat.v1.Session(graph=graph) as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            if not kind.endswith("train"):
                for k, var in enumerate(ranges):
                    var.load(-0.5 - 0.25 * k if var.op.name.endswith("min") else 1.0 + 0.5 * k, sess)
            steps = STEPS if kind.endswith("train") else 1
            for step in range(steps):
                feed = {x: _inputs([6, 4], 100 + step), labels: _inputs([6, 3], 200 + step)}
                if kind.endswith("train"):
                    o, l, _ = sess.run([out, loss, train], feed)
                    if updates:
                        sess.run(updates, feed)
                else:
                    o, l = sess.run([out, loss], feed)
                record["outputs"].append(np.asarray(o).tolist())
                record["losses"].append(float(l))
                record["ranges"].append({v.op.name: np.asarray(sess.run(v)).tolist() for v in ranges})
            record["final"] = {v.op.name: np.asarray(sess.run(v)).tolist() for v in tf.compat.v1.global_variables()}
    return record
