"""Forwarding from a wrapper to the optimizer it wraps: gradients, slots, variables, checkpoints (private)."""

from tf1clip.compat import _tf
from tf1clip.compat._tf import tf


class DelegatingOptimizer(tf.compat.v1.train.Optimizer):
    """A v1 optimizer whose gradients, slots, variables and checkpoint dependencies are ``self._optimizer``'s.

    Both ``tf.compat.v1.train.Saver`` names and ``tf.train.Checkpoint`` keys are
    those of the wrapped optimizer, so checkpoints move freely between wrapped
    and unwrapped code. A subclass adds its own trackable variables by
    overriding ``_own_variables()`` (``{name: variable}``). Every public
    attribute the wrapper does not define itself is the wrapped optimizer's,
    so a wrapper is invisible to code that uses, e.g.,
    ``MovingAverageOptimizer.swapping_saver`` or
    ``SyncReplicasOptimizer.make_session_run_hook``.
    """

    _optimizer: tf.compat.v1.train.Optimizer

    def __getattr__(self, name):
        """A public attribute this wrapper lacks is the wrapped optimizer's (``swapping_saver``, ...).

        Only reached for names the wrapper does not have; private names stay
        private (Trackable probes its own ``_self_*`` state with ``hasattr``).
        """
        optimizer = self.__dict__.get("_optimizer")
        if name.startswith("_") or optimizer is None:
            raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))
        return getattr(optimizer, name)

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's ``compute_gradients``."""
        return self._optimizer.compute_gradients(*args, **kwargs)

    def variables(self):
        """The wrapped optimizer's variables, then the wrapper's own (``_own_variables()``).

        (contrib's ``clip_gradients_by_norm`` wrapper returned [].)
        """
        return self._optimizer.variables() + list(self._own_variables().values())

    def get_slot(self, *args, **kwargs):
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._optimizer.get_slot_names(*args, **kwargs)

    def _own_variables(self):
        return {}

    # Object-based checkpointing: the wrapped optimizer's dependencies are
    # presented as this object's own (TensorFlow's Trackable hooks; see _tf).
    def _trackable_children(self, *args, **kwargs):
        children = _tf.trackable_children(self._optimizer, *args, **kwargs)
        own = self._own_variables()
        if own:
            children = dict(children)
            children.update(own)
        return children

    def _lookup_dependency(self, name, *args, **kwargs):
        own = self._own_variables().get(name)
        if own is not None:
            return own
        return _tf.lookup_dependency(self._optimizer, name, *args, **kwargs)

    @property
    def _deferred_dependencies(self):
        return _tf.deferred_dependencies(self._optimizer)

    def _create_or_restore_slot_variable(self, *args, **kwargs):
        return _tf.create_or_restore_slot_variable(self._optimizer, *args, **kwargs)

    def _restore_slot_variable(self, *args, **kwargs):
        return _tf.restore_slot_variable(self._optimizer, *args, **kwargs)
