"""A 2018 Gaussian policy trained by behaviour cloning with ``tf.contrib.distributions.MultivariateNormalDiag``.

A two-layer network gives the mean and (softplus) diagonal scale of a ``MultivariateNormalDiag`` over 2-D actions;
the loss is the negative ``log_prob`` of the demonstrated actions plus the squared error of a reparameterized
``sample(seed=...)``; ``from tensorflow.contrib.distributions import MultivariateNormalDiag`` builds a fixed
exploration noise with a ``scale_identity_multiplier`` (and ``tfd.kl_divergence`` from the policy to it), and
``tfd.Normal`` (``tf.distributions``') a prior.
TF 2 has no such class: tf1clip-upgrade converts it to tf1clip.contrib.distributions.MultivariateNormalDiag.
"""

import numpy as np
import tensorflow as tf
from tensorflow.contrib.distributions import MultivariateNormalDiag

import oracle_io

tfd = tf.contrib.distributions
STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
tf.set_random_seed(11)
s = tf.placeholder(tf.float32, [None, 4])
a = tf.placeholder(tf.float32, [None, 1])
w1 = tf.get_variable("policy/w1", initializer=tf.constant(np.linspace(-0.4, 0.4, 24).reshape(4, 6), tf.float32))
b1 = tf.get_variable("policy/b1", [6], initializer=tf.constant_initializer(0.1))
w_mu = tf.get_variable("policy/w_mu", initializer=tf.constant(np.linspace(0.3, -0.3, 12).reshape(6, 2), tf.float32))
w_sigma = tf.get_variable("policy/w_sigma", [6, 2], initializer=tf.constant_initializer(0.05))
h = tf.nn.relu(tf.matmul(s, w1) + b1)
mu = tf.matmul(h, w_mu)
sigma = tf.nn.softplus(tf.matmul(h, w_sigma)) + 1e-3
policy = tfd.MultivariateNormalDiag(loc=mu, scale_diag=sigma)
actions = tf.concat([a, -a], axis=1)
a_pred = policy.sample(seed=5)
noise = MultivariateNormalDiag(loc=tf.zeros([2]), scale_identity_multiplier=0.3)
prior = tfd.Normal(loc=0.0, scale=1.0)
loss = (
    -tf.reduce_mean(policy.log_prob(actions))
    + tf.losses.mean_squared_error(labels=actions, predictions=a_pred)
    - 0.01 * tf.reduce_mean(prior.log_prob(mu))
)
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=global_step)
saver = tf.train.Saver()

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        bs, ba = oracle_io.batch(step)
        loss_value, _ = sess.run([loss, train_op], {s: bs, a: ba})
        losses.append(float(loss_value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    bs, ba = oracle_io.batch(0)
    stats = sess.run(
        {
            "log_prob": policy.log_prob(actions),
            "prob": policy.prob(actions),
            "entropy": policy.entropy(),
            "mean": policy.mean(),
            "stddev": policy.stddev(),
            "covariance": policy.covariance(),
            "sample": policy.sample(3, seed=9),
            "noise_sample": noise.sample(4, seed=2),
            "noise_log_prob": noise.log_prob([[0.1, -0.2], [0.5, 0.5]]),
            "noise_entropy": noise.entropy(),
            "kl": tfd.kl_divergence(policy, noise),
        },
        {s: bs, a: ba},
    )
values.update(losses=losses, stats=dict((k, np.asarray(v).tolist()) for k, v in stats.items()))
oracle_io.write(out, values)
