"""``tf.contrib.opt``'s AGNOptimizer (accumulated gradient normalization) and its custom getter."""

from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

v1 = tf.compat.v1

__all__ = _manifest.names_of(__name__)

GLOBAL_VARIABLE_NAME = "global_center_variable"
GRAD_VARIABLE_NAME = "grad_variable"


class AGNCustomGetter:
    """Custom getter for ``AGNOptimizer`` (``tf.contrib.opt.AGNCustomGetter``).

    Each trainable variable ``name`` becomes a local variable on ``worker_device``
    plus ``global_center_variable/<name>`` (global, on the parameter servers) and
    ``grad_variable/<name>`` (local), as in TF 1.15. Use it as
    ``tf.compat.v1.variable_scope(..., custom_getter=AGNCustomGetter(worker_device))``.
    """

    def __init__(self, worker_device):
        self._worker_device = worker_device
        self.global_map = {}
        self.grad_map = {}

    def __call__(self, getter, name, trainable, collections, *args, **kwargs):
        if not trainable:
            return getter(name, *args, trainable=trainable, collections=collections, **kwargs)
        with tf.device(self._worker_device):
            local_var = getter(name, *args, trainable=True, collections=[v1.GraphKeys.LOCAL_VARIABLES], **kwargs)
        if kwargs.get("reuse") is True:
            return local_var
        global_center_variable = getter(
            "%s/%s" % (GLOBAL_VARIABLE_NAME, name),
            *args,
            trainable=False,
            collections=[v1.GraphKeys.GLOBAL_VARIABLES],
            **kwargs,
        )
        with tf.device(self._worker_device):
            grad_variable = getter(
                "%s/%s" % (GRAD_VARIABLE_NAME, name),
                *args,
                trainable=False,
                collections=[v1.GraphKeys.LOCAL_VARIABLES],
                **kwargs,
            )
        if kwargs.get("partitioner") is None:
            self.grad_map[local_var] = grad_variable
            self.global_map[local_var] = global_center_variable
        else:
            for local, grad, center in zip(list(local_var), list(grad_variable), list(global_center_variable)):
                self.grad_map[local] = grad
                self.global_map[local] = center
        return local_var


class AGNOptimizer(tf.compat.v1.train.Optimizer):
    """Accumulated Gradient Normalization (Hermans et al., 2017), ``tf.contrib.opt.AGNOptimizer``.

    Each worker applies ``optimizer`` to its local variables every step and sums its
    gradients in ``grad_variable/<name>``. Every ``communication_period`` local steps
    it divides the sums by the period, applies them with ``optimizer`` to the
    global center variables, copies the centers back to its local variables and
    zeroes the sums (and increments ``global_step``, if given). The local step
    counter is the local variable ``local_step``.

    Args:
      optimizer: the ``tf.compat.v1.train.Optimizer`` applied locally and to the centers.
      num_worker: number of workers.
      custom_getter: the ``AGNCustomGetter`` the model's variables were made with.
      communication_period: local steps between updates of the centers.

    Raises:
      TypeError: ``optimizer`` is not a ``tf.compat.v1.train.Optimizer`` or
        ``custom_getter`` is not an ``AGNCustomGetter``.
    """

    def __init__(
        self, optimizer, num_worker, custom_getter, communication_period=10, use_locking=True, name="AGNOptimizer"
    ):
        if not isinstance(optimizer, v1.train.Optimizer):
            raise TypeError("`optimizer` must be a tf.compat.v1.train.Optimizer; received %r." % (optimizer,))
        if not isinstance(custom_getter, AGNCustomGetter):
            raise TypeError("`custom_getter` must be an AGNCustomGetter; received %r." % (custom_getter,))
        super().__init__(use_locking, name)
        self._opt = optimizer
        self._num_worker = num_worker
        self._period = communication_period
        self._global_map = custom_getter.global_map
        self._grad_map = custom_getter.grad_map
        self._local_step = v1.get_variable(
            initializer=0, trainable=False, collections=[v1.GraphKeys.LOCAL_VARIABLES], name="local_step"
        )

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients locally; every ``communication_period`` steps updates the centers.

        Returns the train op. ``global_step`` is incremented only when the centers
        are updated.
        """
        grads_and_vars = list(grads_and_vars)
        local_vars = [v for g, v in grads_and_vars if g is not None]
        grads = [g for g, v in grads_and_vars if g is not None]

        def _variable_creator(next_creator, **kwargs):
            collections = kwargs.pop("collections", None)
            if not collections:
                collections = [v1.GraphKeys.LOCAL_VARIABLES]
            elif v1.GraphKeys.GLOBAL_VARIABLES in collections:
                collections = list(collections)
                collections.append(v1.GraphKeys.LOCAL_VARIABLES)
                collections.remove(v1.GraphKeys.GLOBAL_VARIABLES)
            return next_creator(collections=collections, **kwargs)

        with v1.variable_creator_scope(_variable_creator):
            local_update_op = self._opt.apply_gradients(grads_and_vars)
        update_ops = [local_update_op]
        grad_vars = [self._grad_map[var] for var in local_vars]
        for g, grad_var in zip(grads, grad_vars):
            update_ops.append(_common.assign_add(grad_var, g))
        global_center_vars = [self._global_map[var] for var in local_vars]

        def _update_global_variables():
            normalized = [_common.assign(g, g / self._period) for g in grad_vars]
            with tf.control_dependencies(normalized):
                apply_global_op = self._opt.apply_gradients(zip(grad_vars, global_center_vars))
            with tf.control_dependencies([apply_global_op]):
                ops = []
                if global_step is not None:
                    with v1.colocate_with(global_step):
                        ops.append(_common.assign_add(global_step, 1))
                for lvar in local_vars:
                    ops.append(_common.assign(lvar, self._global_map[lvar].read_value()))
                for grad_var in grad_vars:
                    ops.append(_common.assign(grad_var, tf.zeros_like(grad_var)))
                return tf.group(*ops)

        local_update = _common.as_op(_common.assign_add(self._local_step, 1))
        with tf.control_dependencies([local_update]):
            condition = tf.equal(tf.math.floormod(self._local_step, self._period), 0)
        with tf.control_dependencies(update_ops), _common.control_flow_for(local_vars + grad_vars):
            return tf.cond(condition, _update_global_variables, tf.no_op)

    def get_init_op(self, task_index):
        """The op that copies the centers to the local variables and zeroes the gradient sums."""
        local_vars = v1.trainable_variables()
        global_center_vars = [self._global_map[var] for var in local_vars]
        grad_vars = [self._grad_map[var] for var in local_vars]
        if not (local_vars and global_center_vars and grad_vars):
            raise ValueError(
                "The lists of local_variables, global_center_variables,grad_center_variables should not be empty"
            )
        init_ops = [_common.assign(lvar, gc) for lvar, gc in zip(local_vars, global_center_vars)]
        init_ops += [_common.assign(g, tf.zeros_like(g)) for g in grad_vars]
        return tf.group(*init_ops)

    def make_session_run_hook(self, is_chief, task_index):
        """A ``SessionRunHook`` that runs ``get_init_op`` after the session is created."""
        return _AGNOptimizerHook(self, is_chief, task_index)


class _AGNOptimizerHook(tf.compat.v1.train.SessionRunHook):
    def __init__(self, agn_optimizer, is_chief, task_index):
        self._agn_optimizer = agn_optimizer
        self._is_chief = is_chief
        self._task_index = task_index

    def begin(self):
        self._local_init_op = v1.local_variables_initializer()
        self._global_init_op = v1.global_variables_initializer() if self._is_chief else None
        self._variable_init_op = self._agn_optimizer.get_init_op(self._task_index)

    def after_create_session(self, session, coord):
        session.run(self._variable_init_op)
