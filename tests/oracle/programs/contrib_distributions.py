"""A 2018 Bayesian regression with ``tf.contrib.distributions`` (``tfd = tf.contrib.distributions``).

The weights' posterior is a ``tfd.Normal`` with a softplus scale, trained on the ELBO: the likelihood's
``log_prob``, a reparameterized ``sample(seed=...)`` and ``tfd.kl_divergence`` against a standard normal prior;
a ``tfd.Bernoulli`` and a ``tfd.Categorical`` (imported ``from tensorflow.contrib.distributions``) score labels.
Each of these TF 1.15 objects was ``tf.distributions``' (tf1clip-upgrade: ``tf.compat.v1.distributions``).
"""

import numpy as np
import tensorflow as tf
from tensorflow.contrib.distributions import Bernoulli, Categorical

import oracle_io

tfd = tf.contrib.distributions
STEPS = 6

out, ckpt_dir, mode = oracle_io.parse_args()
tf.set_random_seed(7)
x = tf.placeholder(tf.float32, [None, 4])
y = tf.placeholder(tf.float32, [None, 1])
loc = tf.get_variable("posterior/loc", initializer=tf.constant(np.linspace(-0.5, 0.5, 4).reshape(4, 1), tf.float32))
raw_scale = tf.get_variable("posterior/raw_scale", [4, 1], initializer=tf.constant_initializer(-2.0))
posterior = tfd.Normal(loc=loc, scale=tf.nn.softplus(raw_scale))
prior = tfd.Normal(loc=0.0, scale=1.0)
w = posterior.sample(seed=3)
likelihood = tfd.Normal(loc=tf.matmul(x, w), scale=0.5)
kl = tf.reduce_sum(tfd.kl_divergence(posterior, prior))
elbo = tf.reduce_mean(likelihood.log_prob(y)) - kl / 100.0
labels = tf.cast(y > 0.0, tf.float32)
bernoulli = Bernoulli(logits=tf.matmul(x, loc))
categorical = Categorical(logits=tf.concat([tf.matmul(x, loc), -tf.matmul(x, loc)], axis=1))
scores = tf.reduce_mean(bernoulli.log_prob(labels)) + tf.reduce_mean(
    categorical.log_prob(tf.cast(labels[:, 0], tf.int32))
)
loss = -elbo - scores
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=global_step)
saver = tf.train.Saver()

losses, kls = [], []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    if mode == "resume":
        saver.restore(sess, tf.train.latest_checkpoint(ckpt_dir))
    for step in range(*oracle_io.step_range(mode, STEPS)):
        bx, by = oracle_io.batch(step)
        loss_value, kl_value, _ = sess.run([loss, kl, train_op], {x: bx, y: by})
        losses.append(float(loss_value))
        kls.append(float(kl_value))
    if mode == "save":
        oracle_io.save(saver, sess, ckpt_dir, global_step)
    values = oracle_io.variables(sess)
    bx, by = oracle_io.batch(0)
    stats = sess.run(
        {
            "posterior_mean": posterior.mean(),
            "posterior_stddev": posterior.stddev(),
            "bernoulli_probs": bernoulli.probs,
            "bernoulli_entropy": bernoulli.entropy(),
            "categorical_probs": categorical.probs,
            "prior_cdf": prior.cdf([-1.0, 0.0, 1.0]),
            "prior_quantile": prior.quantile([0.1, 0.5, 0.9]),
        },
        {x: bx, y: by},
    )
values.update(losses=losses, kls=kls, stats=dict((k, np.asarray(v).tolist()) for k, v in stats.items()))
oracle_io.write(out, values)
