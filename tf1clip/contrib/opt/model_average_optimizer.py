"""``tf.contrib.opt.ModelAverageOptimizer`` (TF 1.15's ``model_average_optimizer.py``).

Names, collections and update rules are TF 1.15's; the custom getter's shared part is ``elastic_average_optimizer``'s.
"""

from tf1clip.core import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib.opt.elastic_average_optimizer import GLOBAL_VARIABLE_NAME, WorkerLocalGetter
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_LOCAL = tf.compat.v1.GraphKeys.LOCAL_VARIABLES
_GLOBAL = tf.compat.v1.GraphKeys.GLOBAL_VARIABLES


def _initialized_value(var):
    """``var.initialized_value()`` (TF 2 resource variables no longer implement it)."""
    return tf.compat.v1.cond(
        tf.compat.v1.is_variable_initialized(var), var.read_value, lambda: tf.convert_to_tensor(var.initial_value)
    )


class ModelAverageCustomGetter(WorkerLocalGetter):
    """Variable-scope custom getter for ``ModelAverageOptimizer``.

    ``tf.contrib.opt.ModelAverageCustomGetter``: each trainable variable
    ``name`` becomes a local variable on ``worker_device`` (``LOCAL_VARIABLES``,
    still trainable) plus ``global_center_variable/name`` (``GLOBAL_VARIABLES``,
    not trainable, initialised from the local variable, placed by the enclosing
    device function).

    Args:
      worker_device: the worker's device string.
    """

    def __init__(self, worker_device):
        super().__init__(worker_device)
        self._local_2_global = {}

    def _add_global(self, getter, name, local_var, *args, **kwargs):
        with _common.control_flow_for([local_var]):
            global_var = tf.compat.v1.Variable(
                name="%s/%s" % (GLOBAL_VARIABLE_NAME, name),
                initial_value=_initialized_value(local_var),
                trainable=False,
                collections=[_GLOBAL],
            )
        self._local_2_global[local_var] = global_var

    def global_variable(self, var):
        """The ``global_center_variable`` of local variable ``var``."""
        return self._local_2_global[var]


class ModelAverageOptimizer(tf.compat.v1.train.Optimizer):
    """Wrapper optimizer implementing synchronous model averaging.

    ``tf.contrib.opt.ModelAverageOptimizer``. Each worker trains its local
    variables with ``opt`` and counts its steps in ``local_step``. Every
    ``interval_steps`` local steps, every worker puts its variables into one
    ``ConditionalAccumulator`` per variable (shared name
    ``<global variable name>/var_accum``); the chief takes the mean of
    ``num_worker`` of them into the global variables, increments
    ``global_step`` and releases the others (token queue ``sync_queue``); then
    each worker copies the global variables into its local ones.

    ``make_session_run_hook()`` returns TF 1.15's hook, which builds
    ``get_init_op()`` but runs nothing (a worker that joins late can run
    ``get_init_op()`` itself to start from the global variables).

    Differences from TF 1.15 (fixes): works with resource variables (contrib
    called ``var._ref()``: ``AttributeError`` for a ``ResourceVariable``) and
    with control flow v2; ``apply_gradients`` accepts any iterable of pairs.

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance updating the local variables.
      num_worker: the number of workers.
      is_chief: whether this worker is the chief.
      ma_custom_getter: the ``ModelAverageCustomGetter`` the model was built with.
      interval_steps: local steps between averagings.
      use_locking: passed to ``tf.compat.v1.train.Optimizer``.
      name: the optimizer's name.

    Raises:
      TypeError: ``opt`` or ``ma_custom_getter`` has the wrong type.
    """

    def __init__(
        self,
        opt,
        num_worker,
        is_chief,
        ma_custom_getter,
        interval_steps=100,
        use_locking=True,
        name="ModelAverageOptimizer",
    ):
        _common.check_optimizer(opt)
        if not isinstance(ma_custom_getter, ModelAverageCustomGetter):
            raise TypeError(
                "`ma_custom_getter` must be a ModelAverageCustomGetter; received %s."
                % _validate.describe(ma_custom_getter)
            )
        super().__init__(use_locking, name)
        self._opt = opt
        self._num_worker = num_worker
        self._is_chief = is_chief
        self._getter = ma_custom_getter
        self._interval_steps = interval_steps
        self._accumulator_list = []
        self._chief_init_op = None
        self._local_step = tf.compat.v1.get_variable(
            initializer=0, trainable=False, collections=[_LOCAL], name="local_step"
        )

    def compute_gradients(self, *args, **kwargs):
        """``opt.compute_gradients`` (the wrapped optimizer's)."""
        return self._opt.compute_gradients(*args, **kwargs)

    def _local_vars_update(self, var_list):
        if not var_list:
            raise ValueError("The list of local_variables should not be empty")
        updates = []
        for var in var_list:
            with tf.device(var.device):
                updates.append(tf.compat.v1.assign(var, self._getter.global_variable(var).read_value()))
        return tf.group(*updates)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients locally; every ``interval_steps`` local steps, the averaging."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required")
        apply_updates = self._opt.apply_gradients(grads_and_vars)
        with tf.control_dependencies([apply_updates]):
            local_update = tf.compat.v1.assign_add(self._local_step, 1, name="local_step_update").op

        local_vars = [v for g, v in grads_and_vars if g is not None]
        global_vars = [self._getter.global_variable(v) for v in local_vars]
        # Queue and accumulators are created outside the cond (TF 1.15 created
        # them inside): with control flow v2 the cond is a function, and the
        # chief's SetGlobalStep ops outside it must reach the accumulators.
        with tf.compat.v1.colocate_with(global_step):
            sync_queue = tf.queue.FIFOQueue(-1, [tf.bool], shapes=[[]], shared_name="sync_queue")
        accumulators = self._make_accumulators(local_vars, global_vars)

        def average():
            return self._average(local_vars, global_vars, accumulators, sync_queue, global_step)

        with tf.control_dependencies([local_update]), _common.control_flow_for(local_vars + [self._local_step]):
            condition = tf.equal(tf.math.floormod(self._local_step, self._interval_steps), 0)
            conditional_update = tf.compat.v1.cond(condition, average, tf.no_op)

        chief_init_ops = []
        for accum, device in self._accumulator_list:
            with tf.device(device):
                chief_init_ops.append(accum.set_global_step(global_step, name="SetGlobalStep"))
        self._chief_init_op = tf.group(*chief_init_ops)
        return conditional_update

    def _make_accumulators(self, local_vars, global_vars):
        """One ``ConditionalAccumulator`` per variable, on its global variable's device (also kept for the chief)."""
        accumulators = []
        with tf.compat.v1.name_scope(None, self._name + "/global"):
            for var, gvar in zip(local_vars, global_vars):
                with tf.device(gvar.device):
                    accumulators.append(
                        tf.compat.v1.ConditionalAccumulator(
                            var.dtype.base_dtype, shape=var.get_shape(), shared_name=gvar.name + "/var_accum"
                        )
                    )
                self._accumulator_list.append((accumulators[-1], gvar.device))
        return accumulators

    def _average(self, local_vars, global_vars, accumulators, sync_queue, global_step):
        """The averaging step: accumulate, (chief) assign the means and release, then copy into the local variables."""
        train_ops = []
        aggregated = []
        for var, gvar, accum in zip(local_vars, global_vars, accumulators):
            with tf.device(gvar.device):
                train_ops.append(accum.apply_grad(tf.convert_to_tensor(var), local_step=global_step))
                aggregated.append(accum.take_grad(self._num_worker))
        if self._is_chief:
            updates = []
            with tf.control_dependencies(train_ops):
                for avg, gvar in zip(aggregated, global_vars):
                    with tf.device(gvar.device):
                        updates.append(tf.compat.v1.assign(gvar, avg))
                with tf.device(global_step.device):
                    updates.append(tf.compat.v1.assign_add(global_step, 1))
            with tf.control_dependencies(updates), tf.device(global_step.device):
                tokens = tf.fill([self._num_worker - 1], tf.constant(False))
                sync_op = sync_queue.enqueue_many(tokens)
        else:
            with tf.control_dependencies(train_ops), tf.device(global_step.device):
                sync_op = sync_queue.dequeue()
        with tf.control_dependencies([sync_op]):
            return self._local_vars_update(local_vars)

    @property
    def chief_init_op(self):
        """The op the chief runs before training (the accumulators' global steps); None before ``apply_gradients``."""
        return self._chief_init_op

    def get_init_op(self):
        """The op copying every global variable into its local variable."""
        return self._local_vars_update(tf.compat.v1.trainable_variables())

    def make_session_run_hook(self):
        """A ``SessionRunHook`` that initialises the local variables (and, on the chief, the accumulators)."""
        return _ModelAverageOptimizerHook(self, self._is_chief)


class _ModelAverageOptimizerHook(tf.compat.v1.train.SessionRunHook):
    """TF 1.15's hook: builds the init ops in ``begin`` and runs none of them."""

    def __init__(self, ma_optimizer, is_chief):
        self._ma_optimizer = ma_optimizer
        self._is_chief = is_chief

    def begin(self):
        self._chief_init_op = self._ma_optimizer.chief_init_op if self._is_chief else None
        self._variable_init_op = self._ma_optimizer.get_init_op()
