"""A 2017 augmentation pipeline and a tiny convnet trained through ``tf.contrib.image``.

Each step rotates the images by random angles (``tf.contrib.image.rotate``, BILINEAR), shears and shifts them with
``tf.contrib.image.transform`` of a ``compose_transforms`` (NEAREST, a larger ``output_shape``) and
``translate``; the first convolution's feature maps are rotated back (gradients flow through the projective
transform) and warped by a small ``dense_image_warp`` flow before the second. Angles, shears and flows come from a
NumPy generator per step and are fed, so a resumed run sees the first half's batches' successors. Evaluation adds
``connected_components`` of a thresholded image and ``sparse_image_warp``.
"""

import numpy as np
import tensorflow as tf

import oracle_io

STEPS = 6
BATCH, SIZE = 4, 12

out, ckpt_dir, mode = oracle_io.parse_args()


def step_data(step):
    rng = np.random.RandomState(100 + step)
    images = rng.uniform(0, 1, size=(BATCH, SIZE, SIZE, 1)).astype(np.float32)
    labels = (images[:, 3:9, 3:9, 0].mean(axis=(1, 2)) > 0.5).astype(np.int64)
    angles = rng.uniform(-0.5, 0.5, size=BATCH).astype(np.float32)
    shear = rng.uniform(-0.2, 0.2)
    shift = rng.uniform(-2, 2, size=(BATCH, 2)).astype(np.float32)
    flow = rng.uniform(-1, 1, size=(BATCH, SIZE - 2, SIZE - 2, 2)).astype(np.float32)
    return images, labels, angles, np.float32(shear), shift, flow


images_in = tf.placeholder(tf.float32, [BATCH, SIZE, SIZE, 1])
labels_in = tf.placeholder(tf.int64, [BATCH])
angles_in = tf.placeholder(tf.float32, [BATCH])
shear_in = tf.placeholder(tf.float32, [])
shift_in = tf.placeholder(tf.float32, [BATCH, 2])
flow_in = tf.placeholder(tf.float32, [BATCH, SIZE - 2, SIZE - 2, 2])

augmented = tf.contrib.image.rotate(images_in, angles_in, interpolation="BILINEAR")
shear = tf.stack([1.0, shear_in, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
zoom = tf.constant([0.9, 0.0, 0.5, 0.0, 0.9, 0.5, 0.0, 0.0])
augmented = tf.contrib.image.transform(
    augmented, tf.contrib.image.compose_transforms(shear, zoom), output_shape=[SIZE, SIZE]
)
augmented = tf.contrib.image.translate(augmented, shift_in, interpolation="BILINEAR")


def init(*shape):
    values = np.sin(np.arange(np.prod(shape)) * 1.7).reshape(shape) * 0.4
    return tf.constant_initializer(values.astype(np.float32))


conv1 = tf.layers.conv2d(augmented, 4, 3, activation=tf.nn.relu, kernel_initializer=init(3, 3, 1, 4), name="conv1")
back = tf.contrib.image.rotate(conv1, -angles_in, interpolation="BILINEAR")
warped = tf.contrib.image.dense_image_warp(back, flow_in)
conv2 = tf.layers.conv2d(warped, 4, 3, activation=tf.nn.relu, kernel_initializer=init(3, 3, 4, 4), name="conv2")
logits = tf.layers.dense(tf.layers.flatten(conv2), 2, kernel_initializer=init(256, 2), name="logits")
loss = tf.losses.sparse_softmax_cross_entropy(labels_in, logits)
global_step = tf.train.get_or_create_global_step()
optimizer = tf.train.MomentumOptimizer(0.05, 0.9)
grads_and_vars = optimizer.compute_gradients(loss)
grad_norm = tf.global_norm([g for g, _ in grads_and_vars])
train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
image_grad = tf.gradients(loss, images_in)[0]

components = tf.contrib.image.connected_components(images_in[0, :, :, 0] > 0.6)
source = tf.constant([[[2.0, 2.0], [9.0, 3.0], [4.0, 9.0], [8.0, 8.0]]] * BATCH)
sparse, sparse_flow = tf.contrib.image.sparse_image_warp(images_in, source, source + 1.0, num_boundary_points=2)
saver = tf.train.Saver()

losses, norms = [], []
start, stop = oracle_io.step_range(mode, STEPS)


def feed(step):
    images, labels, angles, shear_value, shift, flow = step_data(step)
    return {
        images_in: images,
        labels_in: labels,
        angles_in: angles,
        shear_in: shear_value,
        shift_in: shift,
        flow_in: flow,
    }


with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(start, stop):
        _, loss_value, norm = sess.run([train_op, loss, grad_norm], feed(step))
        losses.append(float(loss_value))
        norms.append(float(norm))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    final = sess.run(
        {
            "augmented": augmented,
            "image_grad": image_grad,
            "components": components,
            "sparse": sparse,
            "sparse_flow": sparse_flow,
        },
        feed(STEPS),
    )
values.update(losses=losses, grad_norms=norms)
values.update({k: v.tolist() for k, v in final.items()})
oracle_io.write(out, values)
