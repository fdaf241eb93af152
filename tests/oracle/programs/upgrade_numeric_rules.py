"""The tf_upgrade_v2 conversions whose TF 2 target computes other numbers in a TF 1 graph (docs/upgrade.rst):
one section per rule, all trained by one SGD step per batch. tf1clip-upgrade must keep TF 1.15's numbers.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 4
VOCAB, DIM, CLASSES = 6, 2, 5
rng = np.random.RandomState(0)
values = {}
losses_by_rule = {}

out, ckpt_dir, mode = oracle_io.parse_args()

# tf.Variable: a counter passed as global_step and fetched with the train op.
counter = tf.Variable(0, trainable=False, name="counter")

# partition_strategy: lookups on a table in two partitions ('mod' on TF 1: ids 0, 2, 4 live in part_0).
table = tf.get_variable(
    "table", [VOCAB, DIM], partitioner=tf.fixed_size_partitioner(2), initializer=tf.zeros_initializer()
)
table_value = rng.randn(VOCAB, DIM).astype(np.float32)
ids = tf.constant([[0, 1], [3, 5]])
losses_by_rule["embedding_lookup"] = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(table, ids) - 0.5))
sparse_ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 4, 5], tf.int64), [2, 2])
sparse_weights = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0.5, 2.0, 1.0]), [2, 2])
losses_by_rule["embedding_lookup_sparse"] = tf.reduce_sum(
    tf.square(tf.nn.embedding_lookup_sparse(table, sparse_ids, sparse_weights, combiner="sum") - 1.0)
)
losses_by_rule["safe_embedding_lookup_sparse"] = tf.reduce_sum(
    tf.square(tf.nn.safe_embedding_lookup_sparse(table, sparse_ids, sparse_weights, combiner="mean") + 1.0)
)
out_w = tf.get_variable(
    "out_w", [CLASSES, DIM], partitioner=tf.fixed_size_partitioner(2), initializer=tf.zeros_initializer()
)
out_w_value = rng.randn(CLASSES, DIM).astype(np.float32)
out_b = tf.get_variable("out_b", initializer=tf.constant(np.linspace(-0.2, 0.2, CLASSES), tf.float32))
inputs = tf.constant(rng.randn(3, DIM).astype(np.float32))
labels = tf.constant([[1], [4], [2]], tf.int64)
sampled = (tf.constant([0, 3], tf.int64), tf.constant([[0.5], [0.4], [0.3]]), tf.constant([0.6, 0.2]))
losses_by_rule["nce_loss"] = tf.reduce_mean(
    tf.nn.nce_loss(out_w, out_b, labels, inputs, 2, CLASSES, sampled_values=sampled)
)
losses_by_rule["sampled_softmax_loss"] = tf.reduce_mean(
    tf.nn.sampled_softmax_loss(out_w, out_b, labels, inputs, 2, CLASSES, sampled_values=sampled)
)

# softmax_cross_entropy_with_logits: labels that depend on a variable get no gradient on TF 1.
label_source = tf.get_variable("label_source", initializer=tf.constant(rng.randn(3, CLASSES).astype(np.float32)))
logits_w = tf.get_variable("logits_w", initializer=tf.constant(rng.randn(DIM, CLASSES).astype(np.float32)))
losses_by_rule["softmax_cross_entropy_with_logits"] = tf.reduce_mean(
    tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(label_source), logits=tf.matmul(inputs, logits_w))
)

# tf.image.resize_*: a 3x4 image to 5x7, and to 2x3.
image_w = tf.constant(rng.rand(1, 3, 4, 1).astype(np.float32))
resized = {
    "resize_bilinear": tf.image.resize_bilinear(image_w, [5, 7]),
    "resize_bilinear_align_corners": tf.image.resize_bilinear(image_w, [5, 7], align_corners=True),
    "resize_nearest_neighbor": tf.image.resize_nearest_neighbor(image_w, [5, 7]),
    "resize_bicubic": tf.image.resize_bicubic(image_w, [5, 7]),
    "resize_area": tf.image.resize_area(image_w, [2, 3]),
    "resize_images": tf.image.resize_images(image_w, [5, 7]),
    "resize_images_nearest": tf.image.resize_images(image_w, [2, 3], tf.image.ResizeMethod.NEAREST_NEIGHBOR),
}

# tf.multinomial becomes tf.random.categorical; initializers become tf.compat.v1 ones.
samples = tf.multinomial(tf.constant([[0.1, 1.0, 2.0], [3.0, 0.0, -1.0]]), 6, seed=5)
initialized = [
    tf.get_variable("glorot_uniform", [3, 4], initializer=tf.glorot_uniform_initializer(seed=1), trainable=False),
    tf.get_variable("variance_scaling", [3, 4], initializer=tf.variance_scaling_initializer(seed=2), trainable=False),
    tf.get_variable("truncated_normal", [3, 4], initializer=tf.truncated_normal_initializer(seed=3), trainable=False),
    tf.get_variable("random_uniform", [3, 4], initializer=tf.random_uniform_initializer(seed=4), trainable=False),
    tf.get_variable("orthogonal", [3, 4], initializer=tf.orthogonal_initializer(seed=5), trainable=False),
    tf.get_variable("he_normal", [3, 4], initializer=tf.keras.initializers.he_normal(seed=6), trainable=False),
]

loss = tf.add_n(list(losses_by_rule.values()))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=counter)
set_tables = [p.assign(v) for p, v in zip(table, np.split(table_value, 2))]
set_tables += [p.assign(v) for p, v in zip(out_w, np.split(out_w_value, [3]))]
saver = tf.train.Saver()

fetched_counter, losses, rule_losses = [], [], {name: [] for name in losses_by_rule}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(set_tables)
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    values["resized"] = {k: v.tolist() for k, v in sess.run(resized).items()}
    values["samples"] = sess.run(samples).tolist()
    for _ in range(*oracle_io.step_range(mode, STEPS)):
        step_value, loss_value, by_rule, _ = sess.run([counter, loss, losses_by_rule, train_op])
        fetched_counter.append(int(step_value))
        losses.append(float(loss_value))
        for name, value in by_rule.items():
            rule_losses[name].append(float(value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, counter)
    values.update(oracle_io.variables(sess))
values.update(losses=losses, rule_losses=rule_losses, fetched_counter=fetched_counter)
oracle_io.write(out, values)
