"""A 2017 input-prefetch loop: ``tf.contrib.staging.StagingArea`` holds the next batch while the model trains on
the one put the step before (the GPU-prefetch recipe of the TF benchmarks, on the CPU here).

A warm-up ``Session.run`` puts the first batch; every step then runs the train op, which reads ``area.get()``, and
the ``put`` of the next batch. A named area carries the labels beside the features (``put`` a dict). A resumed run
restores the variables and warms up with the batch of its first step (the area itself is not checkpointed).
"""

import tensorflow as tf

import oracle_io

STEPS = 8

out, ckpt_dir, mode = oracle_io.parse_args()
x_in = tf.placeholder(tf.float32, [8, 4], name="x_in")
y_in = tf.placeholder(tf.float32, [8, 1], name="y_in")
with tf.device("/cpu:0"):
    area = tf.contrib.staging.StagingArea([tf.float32], shapes=[[8, 4]], capacity=2)
    labels_area = tf.contrib.staging.StagingArea([tf.float32], shapes=[[8, 1]], names=["y"])
put = tf.group(area.put([x_in]), labels_area.put({"y": y_in}))
(x,) = area.get()
y = labels_area.get()["y"]
size = area.size()

hidden = tf.layers.dense(x, 6, activation=tf.nn.tanh, kernel_initializer=tf.constant_initializer(0.1), name="h")
prediction = tf.layers.dense(hidden, 1, kernel_initializer=tf.constant_initializer(-0.2), name="out")
loss = tf.reduce_mean(tf.square(prediction - y))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss, global_step=global_step)
saver = tf.train.Saver()


def feed(step):
    batch_x, batch_y = oracle_io.batch(step)
    return {x_in: batch_x, y_in: batch_y}


losses, sizes = [], []
start, stop = oracle_io.step_range(mode, STEPS)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    sess.run(put, feed(start))
    for step in range(start, stop):
        _, step_loss, _ = sess.run([train_op, loss, put], feed(step + 1))
        losses.append(float(step_loss))
        sizes.append(int(sess.run(size)))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    peeked = sess.run(area.peek(0))[0]
    sess.run([area.clear(), labels_area.clear()])
    after_clear = int(sess.run(size))
names = {
    "area": area.name,
    "labels_area": labels_area.name,
    "put": [op.name for op in put.control_inputs],
    "get": [x.name, y.name],
    "size": size.name,
}
values.update(losses=losses, sizes=sizes, peeked=peeked.tolist(), after_clear=after_clear, names=names)
oracle_io.write(out, values)
