"""``tf.contrib.opt``'s delegating optimizers: multitask, variable clipping, stale-gradient dropping.

Each wraps a ``tf.compat.v1.train.Optimizer`` with TF 1.15's constructor, op and
variable names, and forwards slots and checkpoint dependencies to it, so
checkpoints move freely between wrapped and unwrapped code.
"""

import contextlib

from tf1clip import _aggregate, _delegate
from tf1clip.compat import _tf
from tf1clip import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common

__all__ = ["MultitaskOptimizerWrapper", "VariableClippingOptimizer", "DropStaleGradientOptimizer"]

_MINIMIZE_ARGS = {"gate_gradients", "aggregation_method", "colocate_gradients_with_ops", "name", "grad_loss"}


def check_optimizer(opt, arg="opt"):
    """``opt`` if it is a ``tf.compat.v1.train.Optimizer`` instance, else ``TypeError`` naming ``arg``."""
    return _validate.check_optimizer(opt, arg, example="tf.compat.v1.train.MomentumOptimizer(0.1, 0.9)")


def _is_all_zeros(tensor):
    return tf.equal(tf.math.count_nonzero(tensor), 0)


def _skip_if_all_zeros(update_fn, values):
    """Runs ``update_fn()`` unless ``values`` is all zeros; returns an op."""

    def update():
        with tf.control_dependencies([update_fn()]):
            return tf.no_op()

    return tf.compat.v1.cond(_is_all_zeros(values), tf.no_op, update)


class MultitaskOptimizerWrapper(_delegate.DelegatingOptimizer):
    """Optimizer wrapper making all-zero gradients harmless.

    ``tf.contrib.opt.MultitaskOptimizerWrapper``: an all-zero gradient tensor
    (a loss component absent from the batch) updates neither its variable nor
    the optimizer's slots for it, so running averages are not pulled towards
    zero. Everything else is the wrapped optimizer's: ``apply_gradients`` still
    runs its ``_finish`` (e.g. Adam's ``beta1_power``) and increments
    ``global_step``; names, slots and checkpoints are those of ``opt``.

    Differences from TF 1.15 (fixes):

    * an ``IndexedSlices`` gradient is tested on its values and stays sparse;
      contrib counted the non-zeros of the densified gradient on reference
      variables (a vocabulary-sized tensor per step) and failed with
      ``ValueError: Tensor conversion requested for IndexedSlices without
      dense_shape`` when the gradient had no ``dense_shape``;
    * ``opt`` is not modified: contrib replaced four methods on the instance
      it was given, so ``opt`` itself skipped all-zero gradients forever after;
      here only the wrapper's ``apply_gradients`` / ``minimize`` do;
    * the wrapper is a ``tf.compat.v1.train.Optimizer`` (contrib's was a plain
      object forwarding every attribute), so ``optimize_loss`` and the tf1clip
      wrappers accept it. Public attributes of ``opt`` are still forwarded.

    Use ``tf1clip.contrib.opt.clip_gradients_by_global_norm`` to clip its
    gradients by their global norm.

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance that computes and
        applies the gradients.

    Raises:
      TypeError: ``opt`` is not a ``tf.compat.v1.train.Optimizer`` instance.
    """

    _HOOKS = ("_apply_dense", "_resource_apply_dense", "_apply_sparse", "_resource_apply_sparse")

    def __init__(self, opt):
        check_optimizer(opt)
        super().__init__(use_locking=False, name=opt.get_name())
        self._optimizer = opt

    def minimize(self, loss, global_step=None, var_list=None, **kwargs):
        """``Optimizer.minimize``; with keywords of ``opt``'s own ``minimize`` (AdamW's ``decay_var_list``),
        ``opt.minimize`` skipping each all-zero gradient, as TF 1.15's wrapper forwarded it."""
        if not set(kwargs) - _MINIMIZE_ARGS:
            return super().minimize(loss, global_step=global_step, var_list=var_list, **kwargs)
        variables = var_list if var_list is not None else tf.compat.v1.trainable_variables()
        with self._filtering(), _common.control_flow_for(variables):
            return self._optimizer.minimize(loss, global_step=global_step, var_list=var_list, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, **kwargs):
        """``opt.apply_gradients``, skipping the update of each all-zero gradient."""
        grads_and_vars = list(grads_and_vars)
        with self._filtering(), _common.control_flow_for(v for _, v in grads_and_vars):
            return self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name, **kwargs)

    @contextlib.contextmanager
    def _filtering(self):
        opt = self._optimizer
        originals = {name: _tf.optimizer_update_method(opt, name) for name in self._HOOKS}

        def dense(name):
            return lambda grad, var, *a, **k: _skip_if_all_zeros(lambda: originals[name](grad, var, *a, **k), grad)

        def apply_sparse(grad, var, *a, **k):
            return _skip_if_all_zeros(lambda: originals["_apply_sparse"](grad, var, *a, **k), grad.values)

        def resource_apply_sparse(grad, handle, indices, *a, **k):
            return _skip_if_all_zeros(lambda: originals["_resource_apply_sparse"](grad, handle, indices, *a, **k), grad)

        patched = {
            "_apply_dense": dense("_apply_dense"),
            "_resource_apply_dense": dense("_resource_apply_dense"),
            "_apply_sparse": apply_sparse,
            "_resource_apply_sparse": resource_apply_sparse,
        }
        shadowed = {name: opt.__dict__[name] for name in self._HOOKS if name in opt.__dict__}
        for name, fn in patched.items():
            setattr(opt, name, fn)
        try:
            yield
        finally:
            for name in self._HOOKS:
                if name in shadowed:
                    setattr(opt, name, shadowed[name])
                else:
                    delattr(opt, name)


def _ref_key(var):
    return var.ref() if hasattr(var, "ref") else var


class VariableClippingOptimizer(_delegate.DelegatingOptimizer):
    """Wrapper optimizer that clips the norm of specified variables after their update.

    ``tf.contrib.opt.VariableClippingOptimizer``: ``opt`` applies the gradients,
    then each listed variable that received a gradient is replaced by
    ``tf.clip_by_norm(var, max_norm, axes=vars_to_clip_dims[var])``. This
    clips the VARIABLE (e.g. embedding rows to norm <= ``max_norm``), not the
    gradient. For an ``IndexedSlices`` gradient only the updated rows are
    clipped (``scatter_sub``) unless dimension 0 is among the clip dimensions
    (then the whole variable, with a warning, as in TF 1.15). Several
    instances can be chained for different norms.

    Differences from TF 1.15 (fixes):

    * ``grads_and_vars`` may be any iterable; contrib iterated it twice, so a
      Python 3 ``zip`` was consumed by ``opt`` and nothing was clipped;
    * under a ``tf.distribute`` strategy each replica clips, in its copy of the
      variable, the rows that any replica updated; contrib clipped only the
      replica's own rows, so the copies silently diverged (and a tf1clip
      wrapper around it, which hands the summed gradient to replica 0, left
      every other copy unclipped).

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance that applies the gradients.
      vars_to_clip_dims: dict from variable to the list of dimensions the
        L2 norm is taken along.
      max_norm: the largest L2 norm allowed, for every listed variable.
      use_locking: use locks for the clip updates.
      colocate_clip_ops_with_vars: place the clip computations with each variable.
      name: name scope of the returned op (default ``"VariableClipping"``).

    Raises:
      TypeError: ``opt`` is not a ``tf.compat.v1.train.Optimizer`` instance or
        ``vars_to_clip_dims`` is not a dict.
    """

    def __init__(
        self,
        opt,
        vars_to_clip_dims,
        max_norm,
        use_locking=False,
        colocate_clip_ops_with_vars=False,
        name="VariableClipping",
    ):
        check_optimizer(opt)
        if not isinstance(vars_to_clip_dims, dict):
            raise TypeError(
                "`vars_to_clip_dims` must be a dict from variable to a list of dimensions; received %s."
                % _validate.describe(vars_to_clip_dims)
            )
        super().__init__(use_locking, name)
        self._optimizer = opt
        self._vars_to_clip_dims = {_ref_key(v): list(dims) for v, dims in vars_to_clip_dims.items()}
        self._max_norm = max_norm
        self._colocate_clip_ops_with_vars = colocate_clip_ops_with_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """``opt.apply_gradients``, then each listed variable with a gradient clipped to ``max_norm``."""
        grads_and_vars = list(grads_and_vars)
        with tf.compat.v1.name_scope(name, self._name) as name:
            update_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step)
            clip_update_ops = []
            with tf.control_dependencies([update_op]):
                for grad, var in grads_and_vars:
                    if grad is None or _ref_key(var) not in self._vars_to_clip_dims:
                        continue
                    with tf.compat.v1.name_scope("clip_" + var.op.name):
                        if isinstance(grad, tf.IndexedSlices):
                            clip_update_ops.append(self._clip_sparse(grad, var))
                        else:
                            clip_update_ops.append(self._clip_dense(var))
            return tf.group(*([update_op] + clip_update_ops), name=name)

    def _dims(self, var):
        return self._vars_to_clip_dims[_ref_key(var)]

    def _clip_dense(self, var):
        with self._maybe_colocate_with(var):
            value = var.read_value()
            delta = value - tf.clip_by_norm(value, self._max_norm, self._dims(var))
        with tf.compat.v1.colocate_with(var):
            return var.assign_sub(delta, use_locking=self._use_locking)

    def _clip_sparse(self, grad, var):
        dims = self._dims(var)
        if 0 in dims:
            tf.compat.v1.logging.warning(
                "Clipping norm across dims %s for %s is inefficient when including sparse dimension 0.",
                dims,
                var.op.name,
            )
            return self._clip_dense(var)
        grad = _every_replicas_rows(grad)
        with tf.compat.v1.colocate_with(var):
            indices = tf.unique(grad.indices)[0]
            rows = tf.gather(var, indices)
        with self._maybe_colocate_with(var):
            delta = tf.IndexedSlices(rows - tf.clip_by_norm(rows, self._max_norm, dims), indices, grad.dense_shape)
        with tf.compat.v1.colocate_with(var):
            return var.scatter_sub(delta, use_locking=self._use_locking)

    def _maybe_colocate_with(self, var):
        if self._colocate_clip_ops_with_vars:
            return tf.compat.v1.colocate_with(var)
        return contextlib.nullcontext()


def _every_replicas_rows(grad):
    """``grad`` summed over the replicas under a ``tf.distribute`` strategy (its rows: every replica's), else ``grad``.

    Each replica clips its own copy of the variable; with only its own rows the
    copies would differ (a tf1clip wrapper hands the summed gradient to replica
    0 alone).
    """
    ctx = _aggregate.replica_context()
    if ctx is None or ctx.num_replicas_in_sync <= 1:
        return grad
    (summed,), _ = _aggregate.sum_over_replicas(ctx, [grad])
    return summed


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
        check_optimizer(opt)
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
