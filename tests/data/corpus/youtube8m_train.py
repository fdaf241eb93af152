"""A YouTube-8M-style trainer: `from tensorflow import app, flags, gfile, logging`, one tower per
device with slim.arg_scope over model variables, tower gradients combined and clipped by a helper
(clip_by_norm per gradient, IndexedSlices kept), the optimizer class looked up on tf.train by name,
and a Supervisor loop."""

import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim
from tensorflow import app
from tensorflow import flags
from tensorflow import gfile
from tensorflow import logging

FLAGS = flags.FLAGS
flags.DEFINE_string("train_dir", "/tmp/yt8m_model/", "Directory for checkpoints and summaries.")
flags.DEFINE_string("optimizer", "AdamOptimizer", "Name of a tf.train optimizer class.")
flags.DEFINE_float("clip_gradient_norm", 1.0, "Norm to clip each gradient to.")
flags.DEFINE_float("base_learning_rate", 0.01, "Initial learning rate.")
flags.DEFINE_integer("max_steps", 3, "Steps to train.")
flags.DEFINE_bool("start_new_model", True, "Remove the training directory first.")


def combine_gradients(tower_grads):
    filtered_grads = [[x for x in grad_list if x[0] is not None] for grad_list in tower_grads]
    final_grads = []
    for i in range(len(filtered_grads[0])):
        grads = [filtered_grads[t][i] for t in range(len(filtered_grads))]
        grad = tf.stack([x[0] for x in grads], 0)
        grad = tf.reduce_sum(grad, 0)
        final_grads.append((grad, filtered_grads[0][i][1]))
    return final_grads


def clip_gradient_norms(gradients_to_variables, max_norm):
    clipped_grads_and_vars = []
    for grad, var in gradients_to_variables:
        if grad is not None:
            if isinstance(grad, tf.IndexedSlices):
                tmp = tf.clip_by_norm(grad.values, max_norm)
                grad = tf.IndexedSlices(tmp, grad.indices, grad.dense_shape)
            else:
                grad = tf.clip_by_norm(grad, max_norm)
        clipped_grads_and_vars.append((grad, var))
    return clipped_grads_and_vars


def create_model(model_input, vocab_size):
    output = slim.fully_connected(model_input, vocab_size, activation_fn=tf.nn.sigmoid,
                                  weights_regularizer=slim.l2_regularizer(1e-8))
    return {"predictions": output}


def build_graph(optimizer_class, clip_gradient_norm, batch_size=8, num_towers=2, vocab_size=5):
    global_step = tf.Variable(0, trainable=False, name="global_step")
    learning_rate = tf.train.exponential_decay(FLAGS.base_learning_rate, global_step * batch_size * num_towers,
                                               1000, 0.95, staircase=True)
    tf.summary.scalar("learning_rate", learning_rate)
    optimizer = optimizer_class(learning_rate)
    rng = np.random.RandomState(0)
    model_input = tf.constant(rng.rand(batch_size * num_towers, 6), dtype=tf.float32)
    labels_batch = tf.constant(rng.randint(0, 2, (batch_size * num_towers, vocab_size)), dtype=tf.float32)
    tower_inputs = tf.split(model_input, num_towers)
    tower_labels = tf.split(labels_batch, num_towers)
    tower_gradients = []
    tower_label_losses = []
    for i in range(num_towers):
        with tf.device("/cpu:%d" % 0):
            with tf.variable_scope("tower", reuse=True if i > 0 else None):
                with slim.arg_scope([slim.model_variable, slim.variable], device="/cpu:0"):
                    result = create_model(tower_inputs[i], vocab_size)
                    for variable in slim.get_model_variables():
                        tf.summary.histogram(variable.op.name, variable)
                    label_loss = tf.losses.log_loss(tower_labels[i], result["predictions"])
                    reg_losses = tf.losses.get_regularization_losses()
                    final_loss = label_loss + (tf.add_n(reg_losses) if reg_losses else 0.0)
                    tower_label_losses.append(label_loss)
                    tower_gradients.append(optimizer.compute_gradients(final_loss, colocate_gradients_with_ops=False))
    label_loss = tf.reduce_mean(tf.stack(tower_label_losses))
    tf.summary.scalar("label_loss", label_loss)
    merged_gradients = combine_gradients(tower_gradients)
    if clip_gradient_norm > 0:
        with tf.name_scope("clip_grads"):
            merged_gradients = clip_gradient_norms(merged_gradients, clip_gradient_norm)
    train_op = optimizer.apply_gradients(merged_gradients, global_step=global_step)
    tf.add_to_collection("global_step", global_step)
    tf.add_to_collection("loss", label_loss)
    tf.add_to_collection("train_op", train_op)


def main(unused_argv):
    logging.set_verbosity(tf.logging.INFO)
    if FLAGS.start_new_model and gfile.Exists(FLAGS.train_dir):
        gfile.DeleteRecursively(FLAGS.train_dir)
    with tf.Graph().as_default() as graph:
        optimizer_class = getattr(tf.train, FLAGS.optimizer)
        build_graph(optimizer_class, FLAGS.clip_gradient_norm)
        global_step = tf.get_collection("global_step")[0]
        loss = tf.get_collection("loss")[0]
        train_op = tf.get_collection("train_op")[0]
        init_op = tf.global_variables_initializer()
    sv = tf.train.Supervisor(graph, logdir=FLAGS.train_dir, init_op=init_op, is_chief=True,
                             global_step=global_step, save_model_secs=0, save_summaries_secs=0)
    with sv.managed_session("", config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        step, loss_val = 0, None
        while not sv.should_stop() and step < FLAGS.max_steps:
            _, step, loss_val = sess.run([train_op, global_step, loss])
        logging.info("training step %d | Loss: %.2f", step, loss_val)
        print("RESULT global_step=%d loss=%f" % (step, loss_val))
    sv.Stop()


if __name__ == "__main__":
    app.run()
