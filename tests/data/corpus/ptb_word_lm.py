"""A small PTB-style word language model: contrib LSTM cells, contrib.seq2seq's sequence loss,
tf.clip_by_global_norm over tf.gradients, a learning-rate variable and a Supervisor session."""

import numpy as np
import tensorflow as tf

flags = tf.flags
logging = tf.logging

flags.DEFINE_string("save_path", None, "Model output directory.")
flags.DEFINE_string("rnn_mode", None, "basic or block")
flags.DEFINE_integer("max_epoch", 2, "Epochs to train.")
FLAGS = flags.FLAGS
BASIC = "basic"
BLOCK = "block"


class SmallConfig(object):
    init_scale = 0.1
    learning_rate = 1.0
    max_grad_norm = 5
    num_layers = 2
    num_steps = 5
    hidden_size = 16
    keep_prob = 0.9
    lr_decay = 0.5
    batch_size = 4
    vocab_size = 50
    rnn_mode = BLOCK


class PTBModel(object):
    def __init__(self, is_training, config, input_data, targets):
        size = config.hidden_size
        with tf.device("/cpu:0"):
            embedding = tf.get_variable("embedding", [config.vocab_size, size], dtype=tf.float32)
            inputs = tf.nn.embedding_lookup(embedding, input_data)
        if is_training and config.keep_prob < 1:
            inputs = tf.nn.dropout(inputs, config.keep_prob)

        def make_cell():
            if config.rnn_mode == BASIC:
                cell = tf.contrib.rnn.BasicLSTMCell(size, forget_bias=0.0, state_is_tuple=True, reuse=not is_training)
            else:
                cell = tf.contrib.rnn.LSTMBlockCell(size, forget_bias=0.0)
            if is_training and config.keep_prob < 1:
                cell = tf.contrib.rnn.DropoutWrapper(cell, output_keep_prob=config.keep_prob)
            return cell

        cell = tf.contrib.rnn.MultiRNNCell([make_cell() for _ in range(config.num_layers)], state_is_tuple=True)
        self.initial_state = cell.zero_state(config.batch_size, tf.float32)
        state = self.initial_state
        outputs = []
        with tf.variable_scope("RNN"):
            for time_step in range(config.num_steps):
                if time_step > 0:
                    tf.get_variable_scope().reuse_variables()
                cell_output, state = cell(inputs[:, time_step, :], state)
                outputs.append(cell_output)
        output = tf.reshape(tf.concat(outputs, 1), [-1, size])
        softmax_w = tf.get_variable("softmax_w", [size, config.vocab_size], dtype=tf.float32)
        softmax_b = tf.get_variable("softmax_b", [config.vocab_size], dtype=tf.float32)
        logits = tf.nn.xw_plus_b(output, softmax_w, softmax_b)
        logits = tf.reshape(logits, [config.batch_size, config.num_steps, config.vocab_size])
        loss = tf.contrib.seq2seq.sequence_loss(
            logits,
            targets,
            tf.ones([config.batch_size, config.num_steps], dtype=tf.float32),
            average_across_timesteps=False,
            average_across_batch=True,
        )
        self.cost = tf.reduce_sum(loss)
        self.final_state = state
        self.final_state_c = tf.contrib.rnn.LSTMStateTuple(c=state[0].c, h=state[0].h)
        if not is_training:
            return
        self.lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(self.cost, tvars), config.max_grad_norm)
        optimizer = tf.train.GradientDescentOptimizer(self.lr)
        self.train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=tf.train.get_or_create_global_step())
        self.new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        self.lr_update = tf.assign(self.lr, self.new_lr)

    def assign_lr(self, session, lr_value):
        session.run(self.lr_update, feed_dict={self.new_lr: lr_value})


def main(_):
    config = SmallConfig()
    if FLAGS.rnn_mode:
        config.rnn_mode = FLAGS.rnn_mode
    data = np.random.RandomState(0).randint(0, config.vocab_size, size=(config.batch_size, config.num_steps + 1))
    with tf.Graph().as_default():
        initializer = tf.random_uniform_initializer(-config.init_scale, config.init_scale)
        x = tf.constant(data[:, :-1], dtype=tf.int32)
        y = tf.constant(data[:, 1:], dtype=tf.int32)
        with tf.name_scope("Train"):
            with tf.variable_scope("Model", reuse=None, initializer=initializer):
                m = PTBModel(is_training=True, config=config, input_data=x, targets=y)
            tf.summary.scalar("Training Loss", m.cost)
            tf.summary.scalar("Learning Rate", m.lr)
        sv = tf.train.Supervisor(logdir=FLAGS.save_path)
        with sv.managed_session(config=tf.ConfigProto(allow_soft_placement=True)) as session:
            cost = None
            for i in range(FLAGS.max_epoch):
                m.assign_lr(session, config.learning_rate * config.lr_decay ** max(i - 1, 0.0))
                cost, _ = session.run([m.cost, m.train_op])
            step = session.run(tf.train.get_global_step())
            print("RESULT global_step=%d loss=%f" % (step, cost))


if __name__ == "__main__":
    tf.app.run()
