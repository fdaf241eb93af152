"""``tf.contrib.opt``'s Elastic Average SGD (TF 1.15's ``elastic_average_optimizer.py``), and the shared part of
the between-graph averaging optimizers (``model_average_optimizer`` uses it).

Both keep each worker's trainable variables local (``LOCAL_VARIABLES``, on the
worker device) and a global copy under ``global_center_variable/<name>``
(placed by ``replica_device_setter``, usually on a parameter server), created
by their custom getters. Names, collections and update rules are TF 1.15's.
"""

from tf1clip.compat import _tf
from tf1clip.core import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib.opt import _common
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

LOCAL_VARIABLE_NAME = "local_center_variable"
GLOBAL_VARIABLE_NAME = "global_center_variable"

_LOCAL = tf.compat.v1.GraphKeys.LOCAL_VARIABLES
_GLOBAL = tf.compat.v1.GraphKeys.GLOBAL_VARIABLES


def _parts(var):
    return list(var) if not isinstance(var, tf.Variable) and hasattr(var, "__iter__") else [var]


class WorkerLocalGetter:
    """The custom getters' shared part: trainable variables become local variables on ``worker_device``.

    A non-trainable variable is created as asked (on the worker if local); for a trainable one,
    ``_add_global(getter, name, local_var, *args, **kwargs)`` then creates its global counterparts.
    """

    def __init__(self, worker_device):
        self._worker_device = worker_device

    def __call__(self, getter, name, trainable, collections, *args, **kwargs):
        if not trainable:
            kwargs["trainable"] = trainable
            kwargs["collections"] = collections
            if collections is not None and _LOCAL in collections:
                with tf.device(self._worker_device):
                    return getter(name, *args, **kwargs)
            return getter(name, *args, **kwargs)
        with tf.device(self._worker_device):
            local_var = getter(name, *args, trainable=True, collections=[_LOCAL], **kwargs)
        self._add_global(getter, name, local_var, *args, **kwargs)
        return local_var

    def _add_global(self, getter, name, local_var, *args, **kwargs):
        raise NotImplementedError


class ElasticAverageCustomGetter(WorkerLocalGetter):
    """Variable-scope custom getter for ``ElasticAverageOptimizer``.

    ``tf.contrib.opt.ElasticAverageCustomGetter``: each trainable variable
    ``name`` becomes a local variable on ``worker_device`` (collection
    ``LOCAL_VARIABLES``, still trainable), plus ``global_center_variable/name``
    (``GLOBAL_VARIABLES``, not trainable, placed by the enclosing device
    function) and ``local_center_variable/name`` (``LOCAL_VARIABLES``, on the
    worker). Use it with ``tf.compat.v1.get_variable`` under
    ``replica_device_setter``. Non-trainable variables are created as asked
    (on the worker if local).

    Args:
      worker_device: the worker's device string, e.g. ``"/job:worker/task:0"``.
    """

    def __init__(self, worker_device):
        super().__init__(worker_device)
        self._local_map = {}
        self.global_map = {}

    def _add_global(self, getter, name, local_var, *args, **kwargs):
        if kwargs.get("reuse") is True:
            return
        global_center = getter(
            "%s/%s" % (GLOBAL_VARIABLE_NAME, name), *args, trainable=False, collections=[_GLOBAL], **kwargs
        )
        with tf.device(self._worker_device):
            local_center = getter(
                "%s/%s" % (LOCAL_VARIABLE_NAME, name), *args, trainable=False, collections=[_LOCAL], **kwargs
            )
        for var, lc, gc in zip(_parts(local_var), _parts(local_center), _parts(global_center)):
            self._local_map[var] = lc
            self.global_map[var] = gc

    def local_center(self, var):
        """The ``local_center_variable`` of local variable ``var``."""
        return self._local_map[var]

    def global_center(self, var):
        """The ``global_center_variable`` of local variable ``var``."""
        return self.global_map[var]


def _move_to_local_collection(names):
    """Moves the global variables named ``names`` (created by the inner optimizer) to ``LOCAL_VARIABLES``."""
    graph = tf.compat.v1.get_default_graph()
    global_vars = graph.get_collection_ref(_GLOBAL)
    kept = []
    for var in global_vars:
        if var.op.name in names:
            graph.add_to_collection(_LOCAL, var)
        else:
            kept.append(var)
    global_vars[:] = kept


class ElasticAverageOptimizer(tf.compat.v1.train.Optimizer):
    """Wrapper optimizer implementing Elastic Average SGD (Zhang et al., 2015), asynchronous.

    ``tf.contrib.opt.ElasticAverageOptimizer``. Each worker trains its local
    variables with ``opt`` on ``loss + rho * sum(l2_loss(var - local_center))``
    and counts its steps in the local variable ``local_step``. Every
    ``communication_period`` steps it reads the global centers into its local
    centers, then with ``d = var - local_center`` moves ``var -= moving_rate * d``
    and ``global_center += moving_rate * d`` and increments ``global_step``.

    Defaults as in TF 1.15: ``moving_rate = 0.9 / communication_period /
    num_worker``; ``rho = moving_rate / learning_rate`` of ``opt``. Use
    ``make_session_run_hook`` (initialises local variables and centers from the
    global centers) and ``swapping_saver`` (saves the global centers under the
    variables' names).

    As in TF 1.15, ``compute_gradients(loss, var_list)`` (and ``minimize``)
    pairs ``trainable_variables()`` in order with ``var_list``'s local centers:
    a ``var_list`` that is not every trainable variable in that order puts
    other variables' distances in the loss. ``pair_own_centers=True`` pairs
    each variable of ``var_list`` with its own center.

    Differences from TF 1.15 (fixes of what crashed or hung):
    ``synchronous=True`` works across workers (contrib created the token
    queues on each worker's own device, so two workers waited forever);
    ``rho``'s default also works for ``AdamOptimizer`` (contrib read
    ``opt._learning_rate``, which Adam lacks); ``global_step`` may be a
    resource variable (contrib tested its truth value).

    Args:
      opt: the ``tf.compat.v1.train.Optimizer`` instance updating the local variables.
      num_worker: the number of workers.
      ea_custom_getter: the ``ElasticAverageCustomGetter`` the model was built with.
      communication_period: steps between exchanges with the global centers.
      moving_rate: the elastic rate (default above).
      rho: weight of the elastic distance in the loss (default above; 0 is
        suggested for asynchronous training).
      use_locking: passed to ``tf.compat.v1.train.Optimizer``.
      synchronous: if True, ``get_init_op`` also waits until every worker has
        initialised (token queues).
      name: the optimizer's name.
      pair_own_centers: the distance loss pairs each variable with its own
        local center (default False: TF 1.15's pairing, above).

    Raises:
      TypeError: ``opt`` or ``ea_custom_getter`` has the wrong type.
      ValueError: ``rho`` is None and ``opt`` has no learning rate to derive it from.
    """

    BETA = 0.9

    def __init__(
        self,
        opt,
        num_worker,
        ea_custom_getter,
        communication_period=10,
        moving_rate=None,
        rho=None,
        use_locking=True,
        synchronous=False,
        name="ElasticAverageOptimizer",
        pair_own_centers=False,
    ):
        _common.check_optimizer(opt)
        if not isinstance(ea_custom_getter, ElasticAverageCustomGetter):
            raise TypeError(
                "`ea_custom_getter` must be an ElasticAverageCustomGetter; received %s."
                % _validate.describe(ea_custom_getter)
            )
        super().__init__(use_locking, name)
        self._opt = opt
        self._num_worker = num_worker
        self._period = communication_period
        self._getter = ea_custom_getter
        self._synchronous = synchronous
        self._pair_own_centers = bool(pair_own_centers)
        if moving_rate is None:
            self._moving_rate = self.BETA / communication_period / num_worker
        else:
            self._moving_rate = moving_rate
        if rho is None:
            learning_rate = _tf.optimizer_learning_rate(opt)
            if learning_rate is None:
                raise ValueError(
                    "ElasticAverageOptimizer: `rho` is None and %s has no learning rate to derive it from; pass rho=."
                    % type(opt).__name__
                )
            self._rho = self._moving_rate / learning_rate
        else:
            self._rho = rho
        self._local_step = tf.compat.v1.get_variable(
            initializer=0, trainable=False, collections=[_LOCAL], name="local_step"
        )

    def compute_gradients(
        self,
        loss,
        var_list=None,
        gate_gradients=tf.compat.v1.train.Optimizer.GATE_OP,
        aggregation_method=None,
        colocate_gradients_with_ops=False,
        grad_loss=None,
    ):
        """``opt.compute_gradients`` of ``loss + rho * sum(l2_loss(var - local_center))`` (pairing: class doc)."""
        if not var_list:
            var_list = tf.compat.v1.trainable_variables()
        centers = [self._getter.local_center(v) for v in var_list]
        paired = var_list if self._pair_own_centers else tf.compat.v1.trainable_variables()
        distance = [tf.subtract(v, c) for v, c in zip(paired, centers)]
        total_loss = loss + self._rho * tf.add_n([tf.nn.l2_loss(d) for d in distance])
        return self._opt.compute_gradients(
            total_loss, var_list, gate_gradients, aggregation_method, colocate_gradients_with_ops, grad_loss
        )

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients locally; every ``communication_period`` local steps, the elastic exchange."""
        grads_and_vars = list(grads_and_vars)
        global_before = set(v.op.name for v in tf.compat.v1.global_variables())
        apply_updates = self._opt.apply_gradients(grads_and_vars)
        global_after = set(v.op.name for v in tf.compat.v1.global_variables())
        with tf.control_dependencies([apply_updates]):
            local_update = tf.compat.v1.assign_add(self._local_step, 1, name="local_step_update").op
        _move_to_local_collection(global_after - global_before)

        def exchange():
            local_vars = [v for g, v in grads_and_vars if g is not None]
            global_centers = [self._getter.global_center(v) for v in local_vars]
            local_centers = [self._getter.local_center(v) for v in local_vars]
            refresh = [lc.assign(gc) for lc, gc in zip(local_centers, global_centers)]
            updates = []
            with tf.control_dependencies(refresh):
                differences = []
                for v, lc in zip(local_vars, local_centers):
                    with tf.device(v.device):
                        differences.append(tf.subtract(v, lc))
                for v, d in zip(local_vars, differences):
                    with tf.device(v.device):
                        updates.append(tf.compat.v1.assign_sub(v, tf.multiply(self._moving_rate, d)))
                for gc, d in zip(global_centers, differences):
                    with tf.device(gc.device):
                        updates.append(tf.compat.v1.assign_add(gc, tf.multiply(self._moving_rate, d)))
                if global_step is not None:
                    with tf.compat.v1.colocate_with(global_step):
                        updates.append(tf.compat.v1.assign_add(global_step, 1))
            return tf.group(*updates)

        variables = [v for _, v in grads_and_vars] + [self._local_step]
        with tf.control_dependencies([local_update]), _common.control_flow_for(variables):
            condition = tf.equal(tf.math.floormod(self._local_step, self._period), 0)
            return tf.compat.v1.cond(condition, exchange, tf.no_op)

    def get_init_op(self, task_index):
        """The op setting every local variable and local center to its global center.

        With ``synchronous=True`` it also waits for the other workers (one token
        queue per worker, shared names ``variable_init_sync_queue<i>``).
        """
        local_vars = tf.compat.v1.trainable_variables()
        if not local_vars:
            raise ValueError(
                "The lists of local_variables, global_center_variables, local_center_variables should not be empty"
            )
        init_ops = []
        for var in local_vars:
            center = self._getter.global_center(var)
            init_ops.append(tf.compat.v1.assign(var, center))
            init_ops.append(tf.compat.v1.assign(self._getter.local_center(var), center))
        init_op = tf.group(*init_ops)
        if not self._synchronous:
            return init_op
        # On the first global center's device (a parameter server), so that every
        # worker reaches the same queues; TF 1.15 left them unplaced, i.e. on
        # each worker, and synchronous=True never returned with two workers.
        with tf.device(self._getter.global_center(local_vars[0]).device):
            queues = [
                tf.queue.FIFOQueue(
                    self._num_worker, [tf.bool], shapes=[[]], shared_name="variable_init_sync_queue%d" % i
                )
                for i in range(self._num_worker)
            ]
        queue_ops = []
        token = tf.constant(False)
        with tf.control_dependencies([init_op]):
            for i, queue in enumerate(queues):
                queue_ops.append(tf.no_op() if i == task_index else queue.enqueue(token))
        queue_ops.append(queues[task_index].dequeue_many(len(queues) - 1))
        return tf.group(*queue_ops)

    def make_session_run_hook(self, is_chief, task_index):
        """A ``SessionRunHook`` that runs ``get_init_op(task_index)`` after the session is created."""
        return _ElasticAverageOptimizerHook(self, is_chief, task_index)

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """A ``Saver`` that saves each global center under its local variable's name.

        Args:
          var_list: what to save, as for ``Saver`` (default the trainable variables).
          name: the saver's name.
          **kwargs: other ``Saver`` arguments.

        Raises:
          RuntimeError: no variable was created through the custom getter.
        """
        if not self._getter.global_map:
            raise RuntimeError(
                "global_center_variable is empty, please make sure this is called after model created and "
                "ElasticAverageCustomGetter is used when declaring you model"
            )
        if var_list is None:
            var_list = tf.compat.v1.trainable_variables()
        if not isinstance(var_list, dict):
            var_list = _saver_names(var_list)
        swapped = {}
        for key, entry in var_list.items():
            if isinstance(entry, list):
                swapped[key] = [self._getter.global_map.get(v, v) for v in entry]
            else:
                swapped[key] = self._getter.global_map.get(entry, entry)
        return tf.compat.v1.train.Saver(swapped, name=name, **kwargs)


def _saver_names(var_list):
    names = {}
    for var in var_list:
        for part in _parts(var):
            info = _tf.save_slice_info(part)
            if info is not None:
                names.setdefault(info.full_name, []).append(part)
            else:
                names[part.op.name] = part
    return names


class _ElasticAverageOptimizerHook(tf.compat.v1.train.SessionRunHook):
    def __init__(self, ea_optimizer, is_chief, task_index):
        self._ea_optimizer = ea_optimizer
        self._is_chief = is_chief
        self._task_index = task_index

    def begin(self):
        self._variable_init_op = self._ea_optimizer.get_init_op(self._task_index)

    def after_create_session(self, session, coord):
        session.run(self._variable_init_op)
