"""BERT-style fine-tuning: an AdamWeightDecayOptimizer(tf.train.Optimizer) that skips slot
machinery, linear warm-up over polynomial_decay, tf.clip_by_global_norm(grads, clip_norm=1.0),
tf.contrib.tpu.CrossShardOptimizer, and a TPUEstimator run on CPU (use_tpu=False)."""

import re

import tensorflow as tf

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("output_dir", None, "Model directory.")
flags.DEFINE_bool("use_tpu", False, "Whether to use TPU.")
flags.DEFINE_string("tpu_name", None, "The Cloud TPU to use.")
flags.DEFINE_integer("num_train_steps", 3, "Training steps.")
flags.DEFINE_integer("iterations_per_loop", 1, "Steps per estimator call.")


def create_optimizer(loss, init_lr, num_train_steps, num_warmup_steps, use_tpu):
    global_step = tf.train.get_or_create_global_step()
    learning_rate = tf.constant(value=init_lr, shape=[], dtype=tf.float32)
    learning_rate = tf.train.polynomial_decay(
        learning_rate, global_step, num_train_steps, end_learning_rate=0.0, power=1.0, cycle=False
    )
    if num_warmup_steps:
        global_steps_int = tf.cast(global_step, tf.int32)
        warmup_steps_int = tf.constant(num_warmup_steps, dtype=tf.int32)
        warmup_percent_done = tf.cast(global_steps_int, tf.float32) / tf.cast(warmup_steps_int, tf.float32)
        is_warmup = tf.cast(global_steps_int < warmup_steps_int, tf.float32)
        learning_rate = (1.0 - is_warmup) * learning_rate + is_warmup * init_lr * warmup_percent_done
    optimizer = AdamWeightDecayOptimizer(
        learning_rate=learning_rate, weight_decay_rate=0.01, exclude_from_weight_decay=["LayerNorm", "bias"]
    )
    if use_tpu:
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
    tvars = tf.trainable_variables()
    grads = tf.gradients(loss, tvars)
    (grads, _) = tf.clip_by_global_norm(grads, clip_norm=1.0)
    train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)
    new_global_step = global_step + 1
    return tf.group(train_op, [global_step.assign(new_global_step)])


class AdamWeightDecayOptimizer(tf.train.Optimizer):
    def __init__(self, learning_rate, weight_decay_rate=0.0, beta_1=0.9, beta_2=0.999, epsilon=1e-6,
                 exclude_from_weight_decay=None, name="AdamWeightDecayOptimizer"):
        super(AdamWeightDecayOptimizer, self).__init__(False, name)
        self.learning_rate = learning_rate
        self.weight_decay_rate = weight_decay_rate
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.exclude_from_weight_decay = exclude_from_weight_decay

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        assignments = []
        for grad, param in grads_and_vars:
            if grad is None or param is None:
                continue
            param_name = re.sub(r":\d+$", "", param.name)
            m = tf.get_variable(name=param_name + "/adam_m", shape=param.shape.as_list(), dtype=tf.float32,
                                trainable=False, initializer=tf.zeros_initializer())
            v = tf.get_variable(name=param_name + "/adam_v", shape=param.shape.as_list(), dtype=tf.float32,
                                trainable=False, initializer=tf.zeros_initializer())
            next_m = tf.multiply(self.beta_1, m) + tf.multiply(1.0 - self.beta_1, grad)
            next_v = tf.multiply(self.beta_2, v) + tf.multiply(1.0 - self.beta_2, tf.square(grad))
            update = next_m / (tf.sqrt(next_v) + self.epsilon)
            if self.weight_decay_rate and not any(re.search(r, param_name) for r in self.exclude_from_weight_decay):
                update += self.weight_decay_rate * param
            assignments.extend([param.assign(param - self.learning_rate * update), m.assign(next_m), v.assign(next_v)])
        return tf.group(*assignments, name=name)


def model_fn_builder(learning_rate, num_train_steps, use_tpu):
    def model_fn(features, labels, mode, params):
        hidden = tf.layers.dense(features["x"], 8, activation=tf.tanh, name="dense")
        logits = tf.layers.dense(hidden, 2, name="output_bias")
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        train_op = create_optimizer(loss, learning_rate, num_train_steps, 1, use_tpu)
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op, scaffold_fn=None)

    return model_fn


def input_fn(params):
    x = tf.random_normal([params["batch_size"], 4], seed=1)
    y = tf.zeros([params["batch_size"]], dtype=tf.int32)
    return tf.data.Dataset.from_tensors(({"x": x}, y)).repeat()


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    tpu_cluster_resolver = None
    if FLAGS.use_tpu and FLAGS.tpu_name:
        tpu_cluster_resolver = tf.contrib.cluster_resolver.TPUClusterResolver(FLAGS.tpu_name)
    is_per_host = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2
    run_config = tf.contrib.tpu.RunConfig(
        cluster=tpu_cluster_resolver,
        model_dir=FLAGS.output_dir,
        save_checkpoints_steps=1000,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=FLAGS.iterations_per_loop, num_shards=8,
                                            per_host_input_for_training=is_per_host),
    )
    estimator = tf.contrib.tpu.TPUEstimator(
        use_tpu=FLAGS.use_tpu,
        model_fn=model_fn_builder(0.01, FLAGS.num_train_steps, FLAGS.use_tpu),
        config=run_config,
        train_batch_size=4,
    )
    estimator.train(input_fn=input_fn, max_steps=FLAGS.num_train_steps)


if __name__ == "__main__":
    flags.mark_flag_as_required("output_dir")
    tf.app.run()
