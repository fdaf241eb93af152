"""``tf.contrib.distributions.MultivariateNormalDiag`` (TF 1.15's ``contrib/distributions/python/ops/mvn_diag.py``).

TF 1.15 built it as a ``TransformedDistribution``: a scalar ``Normal(0, 1)`` sampled ``[n] + batch + event`` times,
pushed through ``AffineLinearOperator(shift=loc, scale=LinearOperatorDiag(scale_diag))``. TF 2 has neither class;
this one is a ``tf.compat.v1.distributions.Distribution`` that runs the same ops in the same order: samples are
``scale_diag * z + loc`` with ``z`` TF 1.15's ``random_normal`` draw (the same values for the same graph and op
seeds), ``log_prob(y)`` sums ``-0.5 * x**2 - 0.5 * log(2 pi)`` over the event for ``x = (y - loc) * (1 / scale_diag)``
and subtracts ``sum(log|scale_diag|)``, ``entropy`` is ``k * 0.5 * log(2 pi e) + sum(log|scale_diag|)``; ``mean``,
``mode``, ``stddev``, ``variance`` and ``covariance`` are TF 1.15's diagonal-scale shortcuts.

``kl_divergence`` between two of them is TF 1.15's registered ``KL(a || b)``. Differences from TF 1.15: no
``bijector``/``distribution`` attributes; ``validate_args=True`` asserts the diagonal is non-zero.
"""

import math
from typing import Any

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1
_Distribution: Any = _v1.distributions.Distribution
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_HALF_LOG_2PI_E = 0.5 * math.log(2.0 * math.pi * math.e)


def _tensor(value, name, dtype=None):
    return None if value is None else tf.convert_to_tensor(value, dtype=dtype, name=name)


def _scale_operator(loc, scale_diag, multiplier, validate_args):
    """(kind, TF 1.15's scale operator, the diagonal with the multiplier added) of the constructor's arguments."""
    if scale_diag is not None:
        if multiplier is not None:
            scale_diag += multiplier[..., tf.newaxis]
        if validate_args:
            check = _v1.assert_none_equal(
                scale_diag, tf.zeros([], scale_diag.dtype), message="diagonal part must be non-zero"
            )
            with tf.control_dependencies([check]):
                scale_diag = tf.identity(scale_diag)
        diag = tf.linalg.LinearOperatorDiag(
            scale_diag, is_non_singular=True, is_self_adjoint=True, is_positive_definite=False
        )
        return "diag", diag, scale_diag
    if multiplier is None:
        identity = tf.linalg.LinearOperatorIdentity(
            num_rows=tf.compat.dimension_value(loc.shape[-1]),
            dtype=loc.dtype.base_dtype,
            is_self_adjoint=True,
            is_positive_definite=True,
        )
        return "identity", identity, None
    scaled = tf.linalg.LinearOperatorScaledIdentity(
        num_rows=tf.compat.dimension_value(loc.shape[-1]),
        multiplier=multiplier,
        is_non_singular=True,
        is_self_adjoint=True,
        is_positive_definite=False,
    )
    return "scaled_identity", scaled, None


class MultivariateNormalDiag(_Distribution):
    """The multivariate normal on ``R^k`` with ``covariance = diag(scale_diag + scale_identity_multiplier)**2``.

    ``loc`` ``[B1, ..., Bb, k]`` (``None``: zero), ``scale_diag`` ``[B1, ..., Bb, k]`` and
    ``scale_identity_multiplier`` ``[B1, ..., Bb]``; with neither scale argument the scale is the identity
    (``loc`` then gives ``k``). Same signature, shapes and numbers as TF 1.15's.
    """

    def __init__(
        self,
        loc=None,
        scale_diag=None,
        scale_identity_multiplier=None,
        validate_args=False,
        allow_nan_stats=True,
        name="MultivariateNormalDiag",
    ):
        parameters = dict(locals())
        parameters.pop("self")
        parameters.pop("__class__", None)
        with tf.name_scope(name) as name:
            with tf.name_scope("init"):
                loc = _tensor(loc, "loc")
                dtype = loc.dtype if loc is not None else None
                scale_diag = _tensor(scale_diag, "scale_diag", dtype)
                if dtype is None and scale_diag is not None:
                    dtype = scale_diag.dtype
                multiplier = _tensor(scale_identity_multiplier, "scale_identity_multiplier", dtype)
                if scale_diag is None and loc is None:
                    raise ValueError(
                        "MultivariateNormalDiag: cannot infer the event shape: pass loc or scale_diag (got neither)."
                    )
                self._kind, self._scale, scale_diag = _scale_operator(loc, scale_diag, multiplier, validate_args)
                if not self._scale.dtype.is_floating:
                    raise TypeError(
                        "MultivariateNormalDiag: scale_diag and scale_identity_multiplier must be floating point "
                        "(got %s)." % self._scale.dtype.name
                    )
            self._loc = loc
            self._diag = scale_diag
            self._multiplier = multiplier
            self._batch, self._static_batch, self._event, self._static_event = self._shapes()
        super().__init__(
            dtype=self._scale.dtype,
            reparameterization_type=_v1.distributions.FULLY_REPARAMETERIZED,
            validate_args=validate_args,
            allow_nan_stats=allow_nan_stats,
            parameters=parameters,
            graph_parents=[t for t in (loc, scale_diag, multiplier) if t is not None],
            name=name,
        )

    def _shapes(self):
        """TF 1.15's ``shapes_from_loc_and_scale``: (batch tensor, static batch, event tensor, static event)."""
        scale, loc = self._scale, self._loc
        static_event = tf.TensorShape([scale.range_dimension])
        event_size = tf.compat.dimension_value(scale.range_dimension)
        event = tf.constant([event_size], tf.int32) if event_size is not None else scale.range_dimension_tensor()[None]
        if loc is not None:
            loc_event = tf.compat.dimension_value(loc.shape[-1])
            if loc_event is not None and event_size is not None and loc_event not in (1, event_size):
                raise ValueError(
                    "Event size of 'scale' (%d) could not be broadcast up to that of 'loc' (%d)."
                    % (event_size, loc_event)
                )
        static_batch = scale.batch_shape
        batch = scale.batch_shape_tensor()
        if loc is not None:
            loc_batch = loc.shape.with_rank_at_least(1)[:-1]
            static_batch = tf.broadcast_static_shape(static_batch, loc_batch)
            batch = tf.broadcast_dynamic_shape(batch, tf.shape(loc)[:-1])
        return batch, static_batch, event, static_event

    @property
    def loc(self):
        """The ``loc`` ``Tensor`` in ``Y = scale @ X + loc`` (``None`` when not given)."""
        return self._loc

    @property
    def scale(self):
        """The ``scale`` ``LinearOperator`` (diagonal, identity or scaled identity) in ``Y = scale @ X + loc``."""
        return self._scale

    def _batch_shape_tensor(self):
        return self._batch

    def _batch_shape(self):
        return self._static_batch

    def _event_shape_tensor(self):
        return self._event

    def _event_shape(self):
        return self._static_event

    def _forward(self, x):
        if self._kind == "diag":
            x = self._diag * x
        elif self._kind == "scaled_identity":
            x = x * self._multiplier[..., tf.newaxis]
        if self._loc is not None:
            x += self._loc
        return x

    def _inverse(self, y):
        if self._loc is not None:
            y -= self._loc
        if self._kind == "diag":
            y = y * (1.0 / self._diag)
        elif self._kind == "scaled_identity":
            y = y / self._multiplier[..., tf.newaxis]
        return y

    def _log_abs_determinant(self):
        return _log_abs_determinant(self.scale, self.dtype)

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor(), self.event_shape_tensor()], 0)
        flat = _v1.random_normal(shape=tf.reduce_prod(shape)[None], mean=0.0, stddev=1.0, dtype=self.dtype, seed=seed)
        return self._forward(tf.reshape(flat, shape))

    def _log_prob(self, y):
        x = self._inverse(y)
        log_prob = tf.reduce_sum(-0.5 * tf.square(x) - _LOG_SQRT_2PI, [-1])
        log_prob += -self._log_abs_determinant()
        return log_prob

    def _prob(self, y):
        x = self._inverse(y)
        prob = tf.reduce_prod(tf.exp(-0.5 * tf.square(x) - _LOG_SQRT_2PI), [-1])
        prob *= tf.exp(-self._log_abs_determinant())
        return prob

    def _entropy(self):
        entropy = tf.constant(_HALF_LOG_2PI_E, self.dtype) * tf.cast(tf.reduce_prod(self._event), self.dtype)
        entropy = tf.tile(tf.reshape(entropy, tf.ones_like(self._batch)), self._batch)
        entropy -= -self._log_abs_determinant()
        entropy.set_shape(self._static_batch)
        return entropy

    def _diag_part(self):
        if self._kind == "diag":
            return self._diag
        ones = tf.ones(tf.concat([self._scale.batch_shape_tensor(), self._event], 0), self.dtype)
        if self._kind == "scaled_identity":
            return ones * self._multiplier[..., tf.newaxis]
        return ones

    def _mean(self):
        shape = self._static_batch.concatenate(self._static_event)
        static = shape.is_fully_defined()
        if not static:
            shape = tf.concat([self._batch, self._event], 0)
        if self._loc is None:
            return tf.zeros(shape, self.dtype)
        if static and shape == self._loc.shape:
            return tf.identity(self._loc)
        return tf.identity(self._loc) + tf.zeros(shape, self.dtype)

    def _mode(self):
        return self._mean()

    def _covariance(self):
        return tf.linalg.diag(tf.square(self._diag_part()))

    def _variance(self):
        return tf.square(self._diag_part())

    def _stddev(self):
        return tf.abs(self._diag_part())


def _log_abs_determinant(scale, dtype):
    """TF 1.15's ``log_abs_determinant`` of a diagonal, scaled-identity or identity ``scale``."""
    if isinstance(scale, tf.linalg.LinearOperatorDiag):
        return tf.reduce_sum(tf.math.log(tf.abs(scale.diag)), axis=[-1])
    if isinstance(scale, tf.linalg.LinearOperatorScaledIdentity):
        return tf.cast(scale.range_dimension_tensor(), dtype) * tf.math.log(tf.abs(scale.multiplier))
    return tf.zeros(scale.batch_shape_tensor(), dtype)


def _solve(scale, rhs):
    """TF 1.15's ``scale.solve(rhs)`` for ``rhs`` ``[..., k, 1]``: times ``1 / diag``, or over the multiplier."""
    if isinstance(scale, tf.linalg.LinearOperatorDiag):
        return rhs * (1.0 / scale.diag)[..., tf.newaxis]
    if isinstance(scale, tf.linalg.LinearOperatorScaledIdentity):
        return rhs / scale.multiplier[..., tf.newaxis, tf.newaxis]
    return rhs


@_v1.distributions.RegisterKL(MultivariateNormalDiag, MultivariateNormalDiag)
def _kl_mvn_diag(a, b, name=None):
    """TF 1.15's ``KL(a || b)`` of two multivariate normals with diagonal scales (``mvn_linear_operator``)."""
    with tf.name_scope(name or "kl_mvn"):
        b_inv_a = (a.stddev() / b.stddev())[..., tf.newaxis]
        kl_div = (
            _log_abs_determinant(b.scale, b.dtype)
            - _log_abs_determinant(a.scale, a.dtype)
            + 0.5
            * (
                -tf.cast(a.event_shape_tensor()[0], a.dtype)
                + tf.reduce_sum(tf.square(b_inv_a), axis=[-2, -1])
                + tf.reduce_sum(tf.square(_solve(b.scale, (b.mean() - a.mean())[..., tf.newaxis])), axis=[-2, -1])
            )
        )
        kl_div.set_shape(tf.broadcast_static_shape(a.batch_shape, b.batch_shape))
        return kl_div
