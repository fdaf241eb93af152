"""Optimizer decorators: wrap any ``tf.compat.v1.train.Optimizer`` with a capper."""

from tf1clip import cappers as _cappers
from tf1clip import clipping
from tf1clip._tf import tf

__all__ = ["transform_gradients", "clip_gradients_by_norm", "TransformGradientsOptimizer"]

_V1Optimizer = tf.compat.v1.train.Optimizer


def _check_optimizer(optimizer, arg="optimizer"):
    if isinstance(optimizer, _V1Optimizer):
        return optimizer
    if isinstance(optimizer, type) and issubclass(optimizer, _V1Optimizer):
        hint = " Pass an instance, e.g. %s(learning_rate=0.001), not the class." % optimizer.__name__
    elif hasattr(optimizer, "apply_gradients") and hasattr(optimizer, "build"):
        hint = (
            " This is a Keras optimizer; give it clipnorm= / global_clipnorm= / "
            "clipvalue=, or use a tf.compat.v1.train optimizer here."
        )
    else:
        hint = ""
    raise TypeError(
        "`%s` must be a tf.compat.v1.train.Optimizer instance (e.g. "
        "tf.compat.v1.train.AdamOptimizer(0.001)); received %s.%s"
        % (arg, clipping._describe(optimizer), hint)
    )


class TransformGradientsOptimizer(_V1Optimizer):
    """A ``tf.compat.v1.train.Optimizer`` that transforms gradients before applying them.

    ``apply_gradients`` calls the capper once on the pairs it receives, checks
    that it kept the variables and their order, and hands the result to the
    wrapped optimizer. Everything else is the wrapped optimizer's:
    ``compute_gradients``, slots, ``variables()`` and checkpointing (both
    ``tf.compat.v1.train.Saver`` names and ``tf.compat.v1.train.Checkpoint``
    keys are those of the unwrapped optimizer, so checkpoints move freely
    between wrapped and unwrapped code). ``get_name()`` is the wrapper's own.

    Build it with ``transform_gradients`` or ``clip_gradients_by_norm``.
    """

    def __init__(self, optimizer, transform_grads_fn, name=None):
        _check_optimizer(optimizer)
        _cappers._check_capper(transform_grads_fn, "transform_grads_fn")
        if name is not None and (not isinstance(name, str) or not name):
            raise TypeError("`name` must be a non-empty string or None; received %s." % clipping._describe(name))
        super(TransformGradientsOptimizer, self).__init__(
            use_locking=False, name=name or optimizer.get_name()
        )
        self._optimizer = optimizer
        self._transform_grads_fn = transform_grads_fn

    @property
    def optimizer(self):
        """The wrapped optimizer."""
        return self._optimizer

    @property
    def transform_grads_fn(self):
        """The capper applied in ``apply_gradients``."""
        return self._transform_grads_fn

    def compute_gradients(self, *args, **kwargs):
        """Forwards to the wrapped optimizer's ``compute_gradients``."""
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, **kwargs):
        """Transforms ``grads_and_vars`` with the capper, then applies them.

        ``global_step``, ``name`` and any further keyword (e.g.
        ``skip_gradients_aggregation``) go to the wrapped optimizer unchanged.
        """
        pairs = clipping._check_pairs(grads_and_vars)
        pairs = _cappers.apply_capper(self._transform_grads_fn, pairs)
        return self._optimizer.apply_gradients(pairs, global_step=global_step, name=name, **kwargs)

    def get_slot(self, *args, **kwargs):
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._optimizer.get_slot_names(*args, **kwargs)

    def variables(self):
        """The wrapped optimizer's variables (contrib's wrapper returned [])."""
        return self._optimizer.variables()

    # Object-based checkpointing: present the wrapped optimizer's dependencies
    # as this object's own, so checkpoint keys match the unwrapped optimizer.
    def _trackable_children(self, *args, **kwargs):
        return self._optimizer._trackable_children(*args, **kwargs)

    def _lookup_dependency(self, *args, **kwargs):
        return self._optimizer._lookup_dependency(*args, **kwargs)

    @property
    def _deferred_dependencies(self):
        return self._optimizer._deferred_dependencies

    def _create_or_restore_slot_variable(self, *args, **kwargs):
        return self._optimizer._create_or_restore_slot_variable(*args, **kwargs)

    def _restore_slot_variable(self, *args, **kwargs):
        return self._optimizer._restore_slot_variable(*args, **kwargs)


def transform_gradients(optimizer, transform_grads_fn, name=None):
    """Returns ``optimizer`` wrapped so that ``transform_grads_fn`` runs in ``apply_gradients``.

    The capper runs once per step, after the wrapped optimizer's
    ``compute_gradients`` (so after a loss-scale optimizer has unscaled), on
    the pairs passed to ``apply_gradients`` (or built by ``minimize``).

    Example::

        def my_capper(grads_and_vars):
            return [(None if g is None else tf.clip_by_value(g, -1., 1.), v)
                    for g, v in grads_and_vars]

        opt = tf1clip.transform_gradients(
            tf.compat.v1.train.GradientDescentOptimizer(0.1), my_capper)
        train_op = opt.minimize(loss, global_step=global_step)

    Args:
      optimizer: a ``tf.compat.v1.train.Optimizer`` instance.
      transform_grads_fn: a capper, ``pairs -> pairs`` (e.g. from
        ``tf1clip.chain`` or ``tf1clip.clip_by_norm_fn``).
      name: the wrapper's name (default: the wrapped optimizer's name).

    Returns:
      A ``TransformGradientsOptimizer``.

    Raises:
      TypeError: ``optimizer`` is not a v1 optimizer instance, or
        ``transform_grads_fn`` is not callable.
    """
    return TransformGradientsOptimizer(optimizer, transform_grads_fn, name=name)


def clip_gradients_by_norm(optimizer, clip_norm):
    """Returns ``optimizer`` wrapped to clip gradients by their GLOBAL norm.

    This is ``tf.contrib.estimator.clip_gradients_by_norm``: despite its name it
    scales all gradients together so that their global norm is at most
    ``clip_norm`` (``tf1clip.clip_by_global_norm``), as contrib did. For a
    per-tensor limit use ``transform_gradients(opt, tf1clip.clip_by_norm_fn(c))``.
    The wrapper is named ``'ClipByNorm' + optimizer.get_name()``.

    Args:
      optimizer: a ``tf.compat.v1.train.Optimizer`` instance.
      clip_norm: the limit on the global norm, > 0: a number or a 0-d tensor.

    Returns:
      A ``TransformGradientsOptimizer``.
    """
    _check_optimizer(optimizer)
    return TransformGradientsOptimizer(
        optimizer,
        _cappers.clip_by_global_norm_fn(clip_norm),
        name="ClipByNorm" + optimizer.get_name(),
    )
