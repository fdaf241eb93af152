"""A 2019 TF 1 training loop under ``tf.contrib.distribute.MirroredStrategy(num_gpus=0)`` (one device: the CPU).

The strategy's v1 methods drive it: ``make_dataset_iterator`` over a batched dataset, ``experimental_run`` of a step
that computes the loss and applies ``GradientDescentOptimizer`` gradients inside the replica,
``reduce(MEAN)`` of the loss, variables created under ``scope()``, and a Saver checkpoint. tf1clip-upgrade makes it
``tf.compat.v1.distribute.MirroredStrategy(devices=["/device:CPU:0"])``, the devices TF 1.15 chose for ``num_gpus=0``
(tests/oracle/test_upgrade_distribute.py runs num_gpus=1 and 2, and two logical CPUs).
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
strategy = tf.contrib.distribute.MirroredStrategy(num_gpus=0)
features = np.stack([oracle_io.batch(step)[0] for step in range(STEPS)]).reshape(-1, 4)
targets = np.stack([oracle_io.batch(step)[1] for step in range(STEPS)]).reshape(-1, 1)
start, stop = oracle_io.step_range(mode, STEPS)
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(8).skip(start)

with strategy.scope():
    w = tf.get_variable("w", initializer=tf.constant(np.linspace(-0.5, 0.5, 4).reshape(4, 1), tf.float32))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    global_step = tf.train.get_or_create_global_step()
    optimizer = tf.train.GradientDescentOptimizer(0.05)
    iterator = strategy.make_dataset_iterator(dataset)

    def step_fn(inputs):
        x, y = inputs
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        train_op = optimizer.minimize(loss, global_step=global_step)
        with tf.control_dependencies([train_op]):
            return tf.identity(loss)

    per_replica = strategy.experimental_run(step_fn, iterator)
    mean_loss = strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(iterator.initialize())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for _ in range(start, stop):
        losses.append(float(sess.run(mean_loss)))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
values.update(
    losses=losses,
    replicas=strategy.num_replicas_in_sync,
    devices=[d.rsplit("/", 1)[1] for d in strategy.extended.worker_devices],
)
oracle_io.write(out, values)
