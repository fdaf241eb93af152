"""``tf.contrib.opt.DropStaleGradientOptimizer`` (TF 1.15's ``drop_stale_gradient_optimizer.py``).

It wraps a ``tf.compat.v1.train.Optimizer`` with TF 1.15's constructor, op and variable names, and forwards
slots and checkpoint dependencies to it, so checkpoints move freely between wrapped and unwrapped code.
"""

from tf1clip.core import _delegate
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


class DropStaleGradientOptimizer(_delegate.DelegatingOptimizer):
    """Wrapper optimizer that drops a step whose gradients are stale.

    ``tf.contrib.opt.DropStaleGradientOptimizer`` (asynchronous training):
    ``compute_gradients`` records the global step before computing the
    gradients; ``apply_gradients`` applies them only if the global step has
    advanced by at most ``staleness`` since, else drops the whole step (no
    variable, slot or ``global_step`` changes) and adds 1 to the float32
    variable ``stale_counter`` (created in the current variable scope). The
    returned tensor is the counter after the step. A summary
    ``Gradient_staleness_percentage`` records ``stale_counter / (global_step + 1)``.

    Difference from TF 1.15: ``apply_gradients`` without ``global_step`` raises
    a ``ValueError`` (contrib failed inside TensorFlow).

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance that applies the gradients.
      staleness: the largest staleness (global steps) accepted.
      use_locking: passed to ``tf.compat.v1.train.Optimizer``.
      name: the optimizer's name (default ``"DropStaleGradient"``).

    Raises:
      TypeError: ``opt`` is not a ``tf.compat.v1.train.Optimizer`` instance.
    """

    def __init__(self, opt, staleness, use_locking=False, name="DropStaleGradient"):
        _common.check_optimizer(opt)
        super().__init__(use_locking, name)
        self._optimizer = opt
        self._staleness = staleness
        self._local_step = None

    def compute_gradients(self, loss, *args, **kwargs):
        """Records the global step (the staleness reference), then ``opt.compute_gradients(loss, ...)``."""
        global_step = tf.compat.v1.train.get_global_step()
        if global_step is None:
            raise ValueError(
                "DropStaleGradientOptimizer.compute_gradients needs a global step: create one first, e.g. "
                "tf.compat.v1.train.get_or_create_global_step()."
            )
        with tf.compat.v1.colocate_with(loss):
            self._local_step = global_step + 0
        with tf.control_dependencies([self._local_step]):
            loss = tf.identity(loss)
            return self._optimizer.compute_gradients(loss, *args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """``opt.apply_gradients`` if the step is at most ``staleness`` old, else nothing; returns the counter."""
        if global_step is None:
            raise ValueError(
                "DropStaleGradientOptimizer.apply_gradients needs `global_step` (the step the staleness is "
                "measured in); received None."
            )
        if self._local_step is None:
            raise ValueError("DropStaleGradientOptimizer: call compute_gradients (or minimize) before apply_gradients.")
        grads_and_vars = list(grads_and_vars)
        with tf.compat.v1.colocate_with(global_step):
            stale_counter = tf.compat.v1.get_variable(
                "stale_counter", [], initializer=tf.compat.v1.zeros_initializer(), trainable=False
            )

        def accept():
            with tf.control_dependencies(
                [self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name)]
            ):
                return tf.identity(0.0)

        def drop():
            return tf.identity(1.0)

        gradients = []
        for grad, _ in grads_and_vars:
            if isinstance(grad, tf.IndexedSlices):
                gradients.append(grad.op)
            elif grad is not None:
                gradients.append(grad)
        with tf.control_dependencies(gradients), tf.compat.v1.colocate_with(global_step):
            staleness = tf.reshape(global_step - self._local_step, shape=())
        with _common.control_flow_for([v for _, v in grads_and_vars] + [global_step]):
            accepted = tf.compat.v1.cond(tf.less_equal(staleness, self._staleness), accept, drop)
        update = stale_counter.assign_add(accepted)
        if not isinstance(update, (tf.Tensor, tf.Operation)):
            update = tf.convert_to_tensor(update)  # a resource variable's assign_add: read the new value
        tf.compat.v1.summary.scalar(
            "Gradient_staleness_percentage", stale_counter / tf.cast(global_step + 1, tf.float32)
        )
        return update
