"""TF 2.21: ``tf.raw_ops.ShuffleAndRepeatDataset`` given TF 1.15's ``(seed, seed2)`` (prints TF 2's order, not TF 1.15's).

Run: ``PYTHONPATH=$PWD python tests/data/shuffle_and_repeat/raw_op_tf2.py`` in the dev venv.
"""

import tensorflow as tf
from tensorflow.python.data.ops import dataset_ops
from tensorflow.python.framework import random_seed

tf.compat.v1.disable_v2_behavior()


class _ShuffleAndRepeat(dataset_ops.UnaryUnchangedStructureDataset):
    def __init__(self, inp, seed, seed2):
        variant = tf.raw_ops.ShuffleAndRepeatDataset(
            input_dataset=inp._variant_tensor,
            buffer_size=tf.constant(10, tf.int64),
            seed=tf.constant(seed, tf.int64),
            seed2=tf.constant(seed2, tf.int64),
            count=tf.constant(3, tf.int64),
            output_types=[tf.int64],
            output_shapes=[[]],
        )
        super().__init__(inp, variant)


def main():
    for graph_seed in (1, None):
        graph = tf.Graph()
        with graph.as_default():
            if graph_seed:
                tf.compat.v1.set_random_seed(graph_seed)
            seed, seed2 = random_seed.get_seed(7)
            ds = _ShuffleAndRepeat(tf.data.Dataset.range(10), seed, seed2)
            nxt = tf.compat.v1.data.make_one_shot_iterator(ds).get_next()
            out = []
            with tf.compat.v1.Session() as sess:
                try:
                    while True:
                        out.append(int(sess.run(nxt)))
                except tf.errors.OutOfRangeError:
                    pass
        print(graph_seed, seed, seed2, out)


if __name__ == "__main__":
    main()
