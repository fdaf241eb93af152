"""A slim image-classifier trainer: optimizers chosen by a flag, clones whose gradients are summed
before one apply_gradients, moving averages applied as an update op or handed to
tf.train.SyncReplicasOptimizer, tf.contrib.deprecated summaries of the model variables,
slim.assign_from_checkpoint_fn warm start and slim.learning.train(sync_optimizer=)."""

import tensorflow as tf
from tensorflow.python.ops import control_flow_ops

slim = tf.contrib.slim

tf.app.flags.DEFINE_string("train_dir", "/tmp/tfmodel/", "Directory for checkpoints and event logs.")
tf.app.flags.DEFINE_integer("num_clones", 2, "Number of model clones to deploy.")
tf.app.flags.DEFINE_string("optimizer", "rmsprop", "adam, momentum, rmsprop or sgd.")
tf.app.flags.DEFINE_float("learning_rate", 0.01, "Initial learning rate.")
tf.app.flags.DEFINE_float("moving_average_decay", None, "Decay for the moving averages, or None.")
tf.app.flags.DEFINE_bool("sync_replicas", False, "Whether to aggregate gradients with SyncReplicasOptimizer.")
tf.app.flags.DEFINE_integer("replicas_to_aggregate", 1, "Replicas to aggregate before an update.")
tf.app.flags.DEFINE_string("checkpoint_path", None, "Checkpoint to fine-tune from.")
tf.app.flags.DEFINE_string("checkpoint_exclude_scopes", None, "Comma-separated scopes not to restore.")
tf.app.flags.DEFINE_integer("max_number_of_steps", 3, "Steps to train.")
FLAGS = tf.app.flags.FLAGS


def _configure_optimizer(learning_rate):
    if FLAGS.optimizer == "adam":
        return tf.train.AdamOptimizer(learning_rate, beta1=0.9, beta2=0.999, epsilon=1.0)
    if FLAGS.optimizer == "momentum":
        return tf.train.MomentumOptimizer(learning_rate, momentum=0.9, name="Momentum")
    if FLAGS.optimizer == "rmsprop":
        return tf.train.RMSPropOptimizer(learning_rate, decay=0.9, momentum=0.9, epsilon=1.0)
    if FLAGS.optimizer == "sgd":
        return tf.train.GradientDescentOptimizer(learning_rate)
    raise ValueError("Optimizer [%s] was not recognized" % FLAGS.optimizer)


def _add_variables_summaries(learning_rate):
    summaries = [tf.contrib.deprecated.histogram_summary(v.op.name, v) for v in slim.get_model_variables()]
    summaries.append(tf.contrib.deprecated.scalar_summary("training/Learning Rate", learning_rate))
    return summaries


def _get_init_fn():
    if FLAGS.checkpoint_path is None or tf.train.latest_checkpoint(FLAGS.train_dir):
        return None
    exclusions = [s.strip() for s in (FLAGS.checkpoint_exclude_scopes or "").split(",") if s.strip()]
    variables_to_restore = [
        v for v in slim.get_model_variables() if not any(v.op.name.startswith(e) for e in exclusions)
    ]
    checkpoint_path = FLAGS.checkpoint_path
    if tf.gfile.IsDirectory(checkpoint_path):
        checkpoint_path = tf.train.latest_checkpoint(checkpoint_path)
    return slim.assign_from_checkpoint_fn(checkpoint_path, variables_to_restore, ignore_missing_vars=True)


def network_fn(images, num_classes=3):
    with slim.arg_scope([slim.fully_connected], weights_regularizer=slim.l2_regularizer(4e-5)):
        net = slim.fully_connected(images, 8, scope="fc1")
        return slim.fully_connected(net, num_classes, activation_fn=None, scope="logits")


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    with tf.Graph().as_default():
        global_step = slim.create_global_step()
        images = tf.random_uniform([4 * FLAGS.num_clones, 6], seed=1)
        labels = slim.one_hot_encoding(tf.zeros([4 * FLAGS.num_clones], dtype=tf.int32), 3)
        optimizer = _configure_optimizer(FLAGS.learning_rate)
        if FLAGS.moving_average_decay:
            moving_average_variables = slim.get_model_variables()
            variable_averages = tf.train.ExponentialMovingAverage(FLAGS.moving_average_decay, global_step)
        else:
            moving_average_variables, variable_averages = None, None
        if FLAGS.sync_replicas:
            optimizer = tf.train.SyncReplicasOptimizer(
                opt=optimizer,
                replicas_to_aggregate=FLAGS.replicas_to_aggregate,
                total_num_replicas=1,
                variable_averages=variable_averages,
                variables_to_average=moving_average_variables,
            )
        clone_losses, clone_grads = [], []
        for i, (x, y) in enumerate(zip(tf.split(images, FLAGS.num_clones), tf.split(labels, FLAGS.num_clones))):
            with tf.name_scope("clone_%d" % i), tf.variable_scope(tf.get_variable_scope(), reuse=i > 0):
                logits = network_fn(x)
                slim.losses.softmax_cross_entropy(logits, y, label_smoothing=0.1, weights=1.0)
                clone_loss = tf.add_n(tf.get_collection(tf.GraphKeys.LOSSES, "clone_%d" % i))
                if i == 0:
                    clone_loss += tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
                clone_losses.append(clone_loss)
                clone_grads.append(optimizer.compute_gradients(clone_loss, var_list=tf.trainable_variables()))
        grads_and_vars = []
        for pairs in zip(*clone_grads):
            grads = [g for g, _ in pairs if g is not None]
            grads_and_vars.append((tf.add_n(grads) if grads else None, pairs[0][1]))
        total_loss = tf.add_n(clone_losses, name="total_loss")
        summaries = set(_add_variables_summaries(FLAGS.learning_rate))
        summaries.add(tf.summary.scalar("total_loss", total_loss))
        update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS, "clone_0")
        if variable_averages is not None and not FLAGS.sync_replicas:
            update_ops.append(variable_averages.apply(moving_average_variables))
        update_ops.append(optimizer.apply_gradients(grads_and_vars, global_step=global_step))
        update_op = tf.group(*update_ops)
        train_tensor = control_flow_ops.with_dependencies([update_op], total_loss, name="train_op")
        summary_op = tf.summary.merge(list(summaries), name="summary_op")
        slim.learning.train(
            train_tensor,
            logdir=FLAGS.train_dir,
            is_chief=True,
            init_fn=_get_init_fn(),
            summary_op=summary_op,
            number_of_steps=FLAGS.max_number_of_steps,
            save_summaries_secs=600,
            save_interval_secs=600,
            sync_optimizer=optimizer if FLAGS.sync_replicas else None,
        )


if __name__ == "__main__":
    tf.app.run()
