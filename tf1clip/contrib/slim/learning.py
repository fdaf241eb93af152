"""``tf.contrib.slim.learning``: gradient helpers, ``create_train_op``, ``train_step`` and ``train``."""

import numbers
import time
from typing import Any, Callable, Dict, Optional

import numpy as np

from tf1clip.compat import _tf
from tf1clip.core import _validate
from tf1clip.compat._tf import tf
from tf1clip.contrib import _common
from tf1clip.compat import _slim
from tf1clip.contrib import framework
from tf1clip.contrib import training as _training
from tf1clip.contrib.training import clip_gradient_norms
from tf1clip.contrib.training import multiply_gradients
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1

# TF 1.15's (and tf-slim's) "use the default" sentinel of ``train``.
_USE_DEFAULT = 0


def add_gradients_summaries(grads_and_vars):
    """Adds a histogram ``<var>/gradient`` and a scalar ``<var>/gradient_norm`` per gradient.

    ``<var>`` is ``var.op.name`` (contrib.training's version writes
    ``<var>_gradient``); ``None`` gradients are logged and skipped.

    Returns:
      The list of summary ops.
    """
    return _common.add_gradients_summaries(grads_and_vars, "/")


def _clips(clip_gradient_norm):
    """contrib's ``clip_gradient_norm > 0``, also for tensors (a dynamic tensor clips)."""
    static = _validate.static_scalar(clip_gradient_norm, "clip_gradient_norm")
    return static is None or static > 0


def create_train_op(
    total_loss,
    optimizer,
    global_step=_common.USE_GLOBAL_STEP,
    update_ops=None,
    variables_to_train=None,
    clip_gradient_norm=0,
    summarize_gradients=False,
    gate_gradients=_v1.train.Optimizer.GATE_OP,
    aggregation_method=None,
    colocate_gradients_with_ops=False,
    gradient_multipliers=None,
    check_numerics=True,
):
    """``tf.contrib.slim.learning.create_train_op`` of TF 1.15.

    ``tf1clip.contrib.training.create_train_op`` with a gradient transform
    that first multiplies (``gradient_multipliers``, under ``multiply_grads/``)
    and then clips **each gradient on its own** to ``clip_gradient_norm``
    (under ``clip_grads/``) when it is > 0; 0 (the default) or less disables
    clipping. Summaries from ``summarize_gradients`` use contrib.training's
    tags (``summarize_grads/<var>_gradient``), as in contrib.

    Example::

        slim = tf1clip.contrib.slim
        train_op = slim.learning.create_train_op(
            total_loss, tf.compat.v1.train.MomentumOptimizer(0.01, 0.9),
            clip_gradient_norm=4)

    Args: as ``tf1clip.contrib.training.create_train_op``, plus
      clip_gradient_norm: per-tensor limit; a number or a 0-d tensor (a tensor
        whose value is not known while building always clips).
      gradient_multipliers: dict from a variable or its ``var.op.name`` to a
        multiplier; empty or ``None`` multiplies nothing.

    Returns:
      A ``Tensor`` that, when evaluated, runs the update and returns the loss.
    """
    clip = _clips(clip_gradient_norm)

    def transform_grads_fn(grads):
        if gradient_multipliers:
            with tf.name_scope("multiply_grads"):
                grads = multiply_gradients(grads, gradient_multipliers)
        if clip:
            with tf.name_scope("clip_grads"):
                grads = clip_gradient_norms(grads, clip_gradient_norm)
        return grads

    return _training.create_train_op(
        total_loss,
        optimizer,
        global_step=global_step,
        update_ops=update_ops,
        variables_to_train=variables_to_train,
        transform_grads_fn=transform_grads_fn,
        summarize_gradients=summarize_gradients,
        gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops,
        check_numerics=check_numerics,
    )


def _tf_slim_learning():
    (module,) = _slim.load("slim.learning", "tf1clip.contrib.slim.learning.train")
    return module


def train_step(sess: Any, train_op: Any, global_step: Any, train_step_kwargs: Dict[str, Any]) -> Any:
    """One step of ``train``: runs ``train_op``; returns ``(loss, should_stop)``.

    tf-slim's (= TF 1.15's) ``train_step``: logs ``global step N: loss = ...``
    when ``train_step_kwargs["should_log"]`` is true, writes a run trace to
    ``train_step_kwargs["logdir"]`` when ``"should_trace"`` is, and stops when
    ``"should_stop"`` is. A custom ``train_step_fn`` for ``train`` usually
    wraps this.
    """
    return _tf_slim_learning().train_step(sess, train_op, global_step, train_step_kwargs)


def _check_steps(value, arg, minimum):
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError("`%s` must be an int or None; received %r of type %s." % (arg, value, type(value).__name__))
    if value < minimum:
        raise ValueError("`%s` must be None or an int >= %d; received %r." % (arg, minimum, value))
    return int(value)


def _check_secs(value, arg):
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)) or not value >= 0:
        raise ValueError("`%s` must be a number of seconds >= 0 or None; received %r." % (arg, value))
    return value


def _sync_replicas(sync_optimizer):
    """Unwraps tf1clip wrappers (``.optimizer``) around ``SyncReplicasOptimizer``s."""
    if sync_optimizer is None:
        return None
    single = not isinstance(sync_optimizer, (list, tuple))
    found = []
    for opt in [sync_optimizer] if single else sync_optimizer:
        inner = opt
        while not isinstance(inner, _v1.train.SyncReplicasOptimizer) and hasattr(inner, "optimizer"):
            inner = inner.optimizer
        if not isinstance(inner, _v1.train.SyncReplicasOptimizer):
            raise TypeError(
                "`sync_optimizer` must be a tf.compat.v1.train.SyncReplicasOptimizer (or a tf1clip "
                "wrapper of one), or a list of them; received %r of type %s." % (opt, type(opt).__name__)
            )
        found.append(inner)
    return found[0] if single else found


def _train_step_reading_step_after(graph, train_op, global_step):
    """``train_step`` that reads the global step after the update, in the same run.

    tf-slim's ``train_step`` runs ``[train_op, global_step]`` unordered, so the
    step it logs and names traces by (``tf_trace-<step>.json``,
    ``run_metadata-<step>``) may be the old or the new one; two steps could get
    one name and ``add_run_metadata`` then raised "The provided tag was
    already used".
    """
    with graph.as_default(), tf.name_scope("train_step"), tf.control_dependencies([train_op]):
        step_after = global_step.read_value() if hasattr(global_step, "read_value") else tf.identity(global_step)

    def step_fn(sess, op, unused_global_step, train_step_kwargs):
        return train_step(sess, op, step_after, train_step_kwargs)

    return step_fn


def _train_step_logging_sync_updates(graph, train_op, global_step, sync_optimizer, log_every_n_steps):
    """``train_step`` for a ``SyncReplicasOptimizer`` worker: logs each update once, as an unsynced run does.

    The worker's first run takes the chief's initial token, so its second
    gradient is for the same global step as the first and is dropped as stale;
    tf-slim logged that run by the global step too ("global step 1" twice).
    Here a run is logged only when its gradient is for a new step (the
    worker's local step, read before the run), as the global step that
    update reaches (local step + 1), every ``log_every_n_steps``.
    """
    run_step = _train_step_reading_step_after(graph, train_op, global_step)
    first = sync_optimizer[0] if isinstance(sync_optimizer, list) else sync_optimizer
    if _tf.sync_replicas_local_step(first) is None:
        return run_step  # its apply_gradients was not called: tf-slim's loop raises
    with graph.as_default(), tf.name_scope("train_step"):
        local_step = tf.identity(_tf.sync_replicas_local_step(first))
    last = [None]

    def step_fn(sess, op, unused_global_step, train_step_kwargs):
        kwargs = {key: value for key, value in train_step_kwargs.items() if key != "should_log"}
        step = int(sess.run(local_step))
        start = time.time()
        total_loss, should_stop = run_step(sess, op, unused_global_step, kwargs)
        if log_every_n_steps and step != last[0] and (step + 1) % log_every_n_steps == 0:
            _v1.logging.info("global step %d: loss = %.4f (%.3f sec/step)", step + 1, total_loss, time.time() - start)
        last[0] = step
        return total_loss, should_stop

    return step_fn


def train(
    train_op: Any,
    logdir: Optional[str],
    train_step_fn: Callable[..., Any] = train_step,
    train_step_kwargs: Any = _USE_DEFAULT,
    log_every_n_steps: int = 1,
    graph: Any = None,
    master: str = "",
    is_chief: bool = True,
    global_step: Any = None,
    number_of_steps: Optional[int] = None,
    init_op: Any = _USE_DEFAULT,
    init_feed_dict: Any = None,
    local_init_op: Any = _USE_DEFAULT,
    init_fn: Optional[Callable[[Any], Any]] = None,
    ready_op: Any = _USE_DEFAULT,
    summary_op: Any = _USE_DEFAULT,
    save_summaries_secs: Optional[float] = 600,
    summary_writer: Any = _USE_DEFAULT,
    startup_delay_steps: int = 0,
    saver: Any = None,
    save_interval_secs: Optional[float] = 600,
    sync_optimizer: Any = None,
    session_config: Any = None,
    session_wrapper: Optional[Callable[[Any], Any]] = None,
    trace_every_n_steps: Optional[int] = None,
    ignore_live_threads: bool = False,
) -> Any:
    """``tf.contrib.slim.learning.train`` of TF 1.15: the ``Supervisor`` loop that runs ``train_op``.

    The chief initialises (``init_op``, then ``init_fn(sess)``, e.g. from
    ``slim.assign_from_checkpoint_fn``) or restores the latest checkpoint in
    ``logdir``, then calls ``train_step_fn`` until the global step reaches
    ``number_of_steps`` (``None``: forever), saving a checkpoint
    (``model.ckpt-<step>``, through ``saver``) every ``save_interval_secs``
    and at the end, and summaries (``summary_op``, default: all merged) every
    ``save_summaries_secs``. Workers (``is_chief=False``, ``master`` a
    ``grpc://`` target) wait for the chief. With ``sync_optimizer`` (a
    ``SyncReplicasOptimizer`` or list of them) the chief also runs its token
    queue.

    This is tf-slim's loop (which is contrib's) after tf1clip's argument
    checks. Differences: the default ``train_step_fn`` logs and names traces
    by the global step its update reached (tf-slim read it unordered with the
    update); ``global_step=None`` finds a legacy
    ``get_variable("global_step")`` step (tf-slim's lookup raises on TF 2);
    ``sync_optimizer`` may be a tf1clip wrapper of a ``SyncReplicasOptimizer``
    (e.g. ``tf1clip.clip_gradients_by_norm(sync_opt, 5.0)``), its chief's
    token queue runner is cancelled at the end (tf-slim waited 120 s and
    raised), and each of its updates is logged once; wrong argument types
    raise ``TypeError`` here instead of failing inside the loop.

    Example::

        slim = tf1clip.contrib.slim
        train_op = slim.learning.create_train_op(total_loss, optimizer, clip_gradient_norm=4.0)
        final_loss = slim.learning.train(train_op, "/tmp/train", number_of_steps=1000,
                                         save_interval_secs=300)

    Args:
      train_op: the ``Tensor`` returned by ``create_train_op``.
      logdir: checkpoints and summaries go here; ``None`` writes neither (and
        then ``summary_op``, ``saver``, ``trace_every_n_steps`` must stay unset).
      number_of_steps: stop when the global step reaches it; an int > 0 or None.
      log_every_n_steps: log the loss every that many steps (0: never).
      Other arguments: as TF 1.15 (``tf.compat.v1.train.Supervisor`` semantics).

    Returns:
      The loss of the last step.

    Raises:
      TypeError: ``train_op`` is not a tensor or op, ``logdir`` is not a path,
        ``train_step_fn`` / ``init_fn`` is not callable, a step count is not
        an int, ``sync_optimizer`` is not a ``SyncReplicasOptimizer``.
      ValueError: ``train_op`` is ``None``; a step count or interval is out of
        range; tf-slim's checks (``logdir=None`` with a ``saver``...).
      ImportError: tf-slim is not installed.
    """
    args = dict(locals())
    _check_train_args(args)
    return _tf_slim_learning().train(**args)


def _check_train_args(args):
    """``train``'s argument checks and defaults, on the dict of its arguments (updated in place)."""
    _common.check_train_op(args["train_op"])
    args["logdir"] = _common.check_logdir(args["logdir"])
    for arg in ("train_step_fn", "init_fn", "session_wrapper"):
        fn = args[arg]
        if fn is not None and not callable(fn):
            raise TypeError("`%s` must be callable; received %r of type %s." % (arg, fn, type(fn).__name__))
    args["number_of_steps"] = _check_steps(args["number_of_steps"], "number_of_steps", 1)
    args["log_every_n_steps"] = _check_steps(args["log_every_n_steps"], "log_every_n_steps", 0) or 0
    args["startup_delay_steps"] = _check_steps(args["startup_delay_steps"], "startup_delay_steps", 0) or 0
    args["trace_every_n_steps"] = _check_steps(args["trace_every_n_steps"], "trace_every_n_steps", 1)
    args["save_summaries_secs"] = _check_secs(args["save_summaries_secs"], "save_summaries_secs")
    args["save_interval_secs"] = _check_secs(args["save_interval_secs"], "save_interval_secs")
    args["sync_optimizer"] = _sync_replicas(args["sync_optimizer"])
    graph = args["graph"] = args["graph"] or args["train_op"].graph
    if args["global_step"] is None:
        with graph.as_default():
            args["global_step"] = framework.get_or_create_global_step(graph)
    if args["train_step_fn"] is not train_step:
        return
    if args["sync_optimizer"] is not None and args["train_step_kwargs"] is _USE_DEFAULT:
        args["train_step_fn"] = _train_step_logging_sync_updates(
            graph, args["train_op"], args["global_step"], args["sync_optimizer"], args["log_every_n_steps"]
        )
    else:
        args["train_step_fn"] = _train_step_reading_step_after(graph, args["train_op"], args["global_step"])


# Every other public name: tf-slim's (``_slim.DELEGATES["slim.learning"]``), resolved on first use.
__getattr__ = _slim.module_getattr("slim.learning", globals())
__dir__ = _slim.module_dir("slim.learning", globals())
