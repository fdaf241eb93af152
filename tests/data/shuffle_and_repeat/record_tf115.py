"""Records orders.json's ``tf115`` orders (and, upgraded by tf1clip-upgrade, its ``tf221_upgraded`` ones).

Run: ``env -u TF2_BEHAVIOR -u PYTHONPATH ~/.cache/tf1clip/tf115-venv/bin/python record_tf115.py``; each line is
``case graph_seed initializable order``.
"""

import tensorflow as tf


def run(name, make_ds, graph_seed, init):
    g = tf.Graph()
    with g.as_default():
        if graph_seed is not None:
            tf.set_random_seed(graph_seed)
        ds = make_ds()
        it = ds.make_initializable_iterator() if init else ds.make_one_shot_iterator()
        nxt = it.get_next()
        out = []
        with tf.Session() as s:
            if init:
                s.run(it.initializer)
            try:
                while True:
                    out.append(int(s.run(nxt)))
            except tf.errors.OutOfRangeError:
                pass
    print(name, graph_seed, init, out)


R = tf.data.Dataset.range
CASES = [
    ("a", lambda: R(10).apply(tf.contrib.data.shuffle_and_repeat(10, 3, seed=7)), False),
    ("a2", lambda: R(10).apply(tf.contrib.data.shuffle_and_repeat(10, 3)), True),
    ("b", lambda: R(10).shuffle(10, seed=7).repeat(3), False),
    ("c", lambda: R(10).repeat(3).shuffle(10, seed=7), False),
    ("d", lambda: R(10).shuffle(10).repeat(3), True),
]
for gs in (1, None):
    for init in (False, True):
        for name, make_ds, needs_graph_seed in CASES:
            if gs or not needs_graph_seed:
                run(name, make_ds, gs, init)
