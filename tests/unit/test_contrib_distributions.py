"""tf1clip.contrib.distributions.MultivariateNormalDiag computes TF 1.15's tf.contrib.distributions one.

Checked against NumPy formulas of the diagonal multivariate normal (log density, density, entropy, moments),
sampling against the ``random_normal`` draw TF 1.15 made for the same seed (``loc + scale_diag * z``), for the
diagonal, identity and scaled-identity scales and broadcast batches; TF 1.15 itself:
tests/oracle/programs/contrib_mvn_diag.py.
"""

import math

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib.distributions import MultivariateNormalDiag

v1 = tf.compat.v1


def _run(fetches, seed=None):
    with tf.Graph().as_default():
        if seed is not None:
            v1.set_random_seed(seed)
        out = fetches()
        with v1.Session() as sess:
            return sess.run(out)


def _log_density(y, loc, diag):
    z = (y - loc) / diag
    return np.sum(-0.5 * z**2 - 0.5 * math.log(2 * math.pi) - np.log(np.abs(diag)), axis=-1)


LOC = np.array([[1.0, 2.0, -0.5], [0.0, -1.0, 3.0]], np.float32)
DIAG = np.array([0.5, 2.0, 1.5], np.float32)
Y = np.array([[0.3, 1.0, 0.2], [2.0, 2.0, -1.0]], np.float32)


def test_log_prob_prob_and_entropy_are_the_normal_formulas():
    def fetches():
        d = MultivariateNormalDiag(loc=LOC, scale_diag=DIAG)
        return d.log_prob(Y), d.prob(Y), d.entropy()

    log_prob, prob, entropy = _run(fetches)
    np.testing.assert_allclose(log_prob, _log_density(Y, LOC, DIAG), rtol=1e-6)
    np.testing.assert_allclose(prob, np.exp(_log_density(Y, LOC, DIAG)), rtol=1e-5)
    want = 3 * 0.5 * math.log(2 * math.pi * math.e) + np.sum(np.log(DIAG))
    np.testing.assert_allclose(entropy, [want, want], rtol=1e-6)


def test_moments_and_shapes():
    def fetches():
        d = MultivariateNormalDiag(loc=LOC, scale_diag=DIAG)
        assert d.batch_shape.as_list() == [2] and d.event_shape.as_list() == [3]
        return d.mean(), d.mode(), d.stddev(), d.variance(), d.covariance(), d.batch_shape_tensor()

    mean, mode, stddev, variance, covariance, batch = _run(fetches)
    np.testing.assert_array_equal(mean, LOC)
    np.testing.assert_array_equal(mode, LOC)
    np.testing.assert_array_equal(stddev, DIAG)  # TF 1.15: the scale's shape, not broadcast to loc's
    np.testing.assert_array_equal(variance, DIAG**2)
    np.testing.assert_array_equal(covariance, np.diag(DIAG**2))
    assert batch.tolist() == [2]


def test_sample_is_loc_plus_scale_times_the_seeded_standard_normal_draw():
    def fetches():
        return MultivariateNormalDiag(loc=LOC, scale_diag=DIAG).sample([4, 5], seed=11)

    def draw():
        return v1.random_normal([4 * 5 * 2 * 3], seed=11)

    sample = _run(fetches, seed=3)
    z = _run(draw, seed=3).reshape(4, 5, 2, 3)
    assert sample.shape == (4, 5, 2, 3)
    np.testing.assert_array_equal(sample, DIAG * z + LOC)


def test_identity_and_scaled_identity_scales():
    def fetches():
        identity = MultivariateNormalDiag(loc=LOC)
        scaled = MultivariateNormalDiag(loc=LOC, scale_identity_multiplier=[2.0, 0.5])
        added = MultivariateNormalDiag(loc=LOC, scale_diag=DIAG, scale_identity_multiplier=1.0)
        return (
            identity.log_prob(Y),
            identity.stddev(),
            scaled.log_prob(Y),
            scaled.stddev(),
            scaled.entropy(),
            added.log_prob(Y),
        )

    identity_lp, identity_sd, scaled_lp, scaled_sd, scaled_h, added_lp = _run(fetches)
    np.testing.assert_allclose(identity_lp, _log_density(Y, LOC, np.ones(3)), rtol=1e-6)
    np.testing.assert_array_equal(identity_sd, np.ones(3))
    multiplier = np.array([[2.0], [0.5]], np.float32)
    np.testing.assert_allclose(scaled_lp, _log_density(Y, LOC, multiplier * np.ones(3)), rtol=1e-6)
    np.testing.assert_array_equal(scaled_sd, multiplier * np.ones(3))
    np.testing.assert_allclose(
        scaled_h, 3 * (0.5 * math.log(2 * math.pi * math.e) + np.log(multiplier[:, 0])), rtol=1e-6
    )
    np.testing.assert_allclose(added_lp, _log_density(Y, LOC, DIAG + 1.0), rtol=1e-6)


def test_reparameterized_gradients_flow_to_loc_and_scale():
    def fetches():
        loc = tf.constant(LOC)
        diag = tf.constant(DIAG)
        d = MultivariateNormalDiag(loc=loc, scale_diag=diag)
        assert d.reparameterization_type == v1.distributions.FULLY_REPARAMETERIZED
        return tf.gradients(tf.reduce_sum(d.log_prob(Y)), [loc, diag])

    d_loc, d_diag = _run(fetches)
    np.testing.assert_allclose(d_loc, (Y - LOC) / DIAG**2, rtol=1e-5)
    np.testing.assert_allclose(d_diag, np.sum((Y - LOC) ** 2 / DIAG**3 - 1.0 / DIAG, axis=0), rtol=1e-5)


def test_bad_arguments_name_what_was_received():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="neither"):
            MultivariateNormalDiag()
        with pytest.raises(ValueError, match=r"Event size of 'scale' \(3\).*'loc' \(2\)"):
            MultivariateNormalDiag(loc=[0.0, 1.0], scale_diag=DIAG)
        with pytest.raises(TypeError, match="floating point"):
            MultivariateNormalDiag(loc=[0, 1], scale_diag=[1, 2])


def test_validate_args_rejects_a_zero_diagonal():
    def fetches():
        return MultivariateNormalDiag(loc=LOC, scale_diag=[1.0, 0.0, 2.0], validate_args=True).log_prob(Y)

    with pytest.raises(tf.errors.InvalidArgumentError, match="non-zero"):
        _run(fetches)


def test_kl_divergence_is_the_diagonal_gaussian_formula():
    other_loc = np.array([0.5, 0.0, 1.0], np.float32)

    def fetches():
        a = MultivariateNormalDiag(loc=LOC, scale_diag=DIAG)
        b = MultivariateNormalDiag(loc=other_loc, scale_identity_multiplier=1.5)
        return v1.distributions.kl_divergence(a, b), a.kl_divergence(a)

    kl, self_kl = _run(fetches)
    sb = np.full(3, 1.5, np.float32)
    want = np.sum(np.log(sb) - np.log(DIAG)) + 0.5 * (
        np.sum(DIAG**2 / sb**2) + np.sum((other_loc - LOC) ** 2 / sb**2, axis=-1) - 3
    )
    np.testing.assert_allclose(kl, want, rtol=1e-5)
    np.testing.assert_allclose(self_kl, [0.0, 0.0], atol=1e-6)
