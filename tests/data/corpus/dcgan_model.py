"""A DCGAN-style program: summary helpers bound once with try/except over the TF 0.x and 1.x
spellings, a batch-norm class around tf.contrib.layers.batch_norm(updates_collections=None),
slim.model_analyzer.analyze_vars over the trainable variables, and two Adam optimizers minimizing
the discriminator and generator losses over their own var_lists in a Session loop."""

import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim

try:
    image_summary = tf.image_summary
    scalar_summary = tf.scalar_summary
    histogram_summary = tf.histogram_summary
    merge_summary = tf.merge_summary
    SummaryWriter = tf.train.SummaryWriter
except:  # noqa: E722
    image_summary = tf.summary.image
    scalar_summary = tf.summary.scalar
    histogram_summary = tf.summary.histogram
    merge_summary = tf.summary.merge
    SummaryWriter = tf.summary.FileWriter

flags = tf.app.flags
flags.DEFINE_integer("epoch", 3, "Epochs to train.")
flags.DEFINE_float("learning_rate", 0.0002, "Learning rate for Adam.")
flags.DEFINE_float("beta1", 0.5, "Momentum term of Adam.")
flags.DEFINE_string("summary_dir", "/tmp/dcgan_logs", "Summary directory.")
FLAGS = flags.FLAGS


class batch_norm(object):
    def __init__(self, epsilon=1e-5, momentum=0.9, name="batch_norm"):
        with tf.variable_scope(name):
            self.epsilon = epsilon
            self.momentum = momentum
            self.name = name

    def __call__(self, x, train=True):
        return tf.contrib.layers.batch_norm(x, decay=self.momentum, updates_collections=None, epsilon=self.epsilon,
                                            scale=True, is_training=train, scope=self.name)


def linear(input_, output_size, scope=None, stddev=0.02):
    shape = input_.get_shape().as_list()
    with tf.variable_scope(scope or "Linear"):
        matrix = tf.get_variable("Matrix", [shape[1], output_size], tf.float32,
                                 tf.random_normal_initializer(stddev=stddev))
        bias = tf.get_variable("bias", [output_size], initializer=tf.constant_initializer(0.0))
        return tf.matmul(input_, matrix) + bias


def show_all_variables():
    model_vars = tf.trainable_variables()
    slim.model_analyzer.analyze_vars(model_vars, print_info=True)


class DCGAN(object):
    def __init__(self, sess, batch_size=4, z_dim=3, x_dim=5):
        self.sess = sess
        self.batch_size = batch_size
        self.z_dim = z_dim
        self.d_bn1 = batch_norm(name="d_bn1")
        self.g_bn0 = batch_norm(name="g_bn0")
        self.inputs = tf.placeholder(tf.float32, [batch_size, x_dim], name="real_images")
        self.z = tf.placeholder(tf.float32, [None, z_dim], name="z")
        self.z_sum = histogram_summary("z", self.z)
        self.G = self.generator(self.z, x_dim)
        self.D, self.D_logits = self.discriminator(self.inputs, reuse=False)
        self.D_, self.D_logits_ = self.discriminator(self.G, reuse=True)
        xent = tf.nn.sigmoid_cross_entropy_with_logits
        self.d_loss = tf.reduce_mean(xent(logits=self.D_logits, labels=tf.ones_like(self.D))) + tf.reduce_mean(
            xent(logits=self.D_logits_, labels=tf.zeros_like(self.D_)))
        self.g_loss = tf.reduce_mean(xent(logits=self.D_logits_, labels=tf.ones_like(self.D_)))
        self.g_loss_sum = scalar_summary("g_loss", self.g_loss)
        self.d_loss_sum = scalar_summary("d_loss", self.d_loss)
        t_vars = tf.trainable_variables()
        self.d_vars = [var for var in t_vars if "d_" in var.name]
        self.g_vars = [var for var in t_vars if "g_" in var.name]
        self.saver = tf.train.Saver()

    def discriminator(self, x, reuse=False):
        with tf.variable_scope("discriminator") as scope:
            if reuse:
                scope.reuse_variables()
            h0 = tf.nn.leaky_relu(linear(x, 8, "d_h0_lin"))
            h1 = tf.nn.leaky_relu(self.d_bn1(linear(h0, 8, "d_h1_lin")))
            h2 = linear(h1, 1, "d_h2_lin")
            return tf.nn.sigmoid(h2), h2

    def generator(self, z, x_dim):
        with tf.variable_scope("generator"):
            h0 = tf.nn.relu(self.g_bn0(linear(z, 8, "g_h0_lin")))
            return tf.nn.tanh(linear(h0, x_dim, "g_h1_lin"))

    def train(self, config):
        d_optim = tf.train.AdamOptimizer(config.learning_rate, beta1=config.beta1).minimize(
            self.d_loss, var_list=self.d_vars)
        g_optim = tf.train.AdamOptimizer(config.learning_rate, beta1=config.beta1).minimize(
            self.g_loss, var_list=self.g_vars)
        tf.global_variables_initializer().run()
        self.g_sum = merge_summary([self.z_sum, self.g_loss_sum])
        self.d_sum = merge_summary([self.z_sum, self.d_loss_sum])
        self.writer = SummaryWriter(config.summary_dir, self.sess.graph)
        rng = np.random.RandomState(0)
        counter = 0
        for epoch in range(config.epoch):
            batch_images = rng.uniform(-1, 1, [self.batch_size, 5]).astype(np.float32)
            batch_z = rng.uniform(-1, 1, [self.batch_size, self.z_dim]).astype(np.float32)
            _, summary_str = self.sess.run([d_optim, self.d_sum], feed_dict={self.inputs: batch_images, self.z: batch_z})
            self.writer.add_summary(summary_str, counter)
            _, summary_str = self.sess.run([g_optim, self.g_sum], feed_dict={self.z: batch_z})
            self.writer.add_summary(summary_str, counter)
            counter += 1
            err_g = self.g_loss.eval({self.z: batch_z})
        print("RESULT global_step=%d loss=%f" % (counter, err_g))


def main(_):
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        dcgan = DCGAN(sess)
        show_all_variables()
        dcgan.train(FLAGS)


if __name__ == "__main__":
    tf.app.run()
