"""``tf.contrib.learn.Experiment`` (TF 1.15) for ``tf1clip.contrib.learn.Estimator`` and ``tf1clip.estimator``.

The schedules (``train``, ``evaluate``, ``train_and_evaluate``, ``continuous_eval``, ``continuous_eval_on_train_data``,
``continuous_train_and_eval``, ``local_run``, ``test``, ``run_std_server``) call the Estimator as TF 1.15 did, with its
delays: ``evaluate`` and ``continuous_eval`` first wait ``eval_delay_secs`` (120 s by default); a worker's ``train``
waits ``min(60, 5 * task_id)`` s; ``continuous_eval`` runs at most once per ``continuous_eval_throttle_secs`` (60 s).
``train_and_evaluate`` evaluates during training every ``min_eval_frequency`` steps (default 1) when a new checkpoint
exists and ``check_interval_secs`` have passed since the last check (TF 1.15's ``ValidationMonitor``), then once at
the end, and exports with each of ``export_strategies`` into ``model_dir/export/<strategy name>``.
"""

import contextlib
import functools
import inspect
import math
import os
import time
from typing import Any, Callable, Iterator, List, Optional

from tf1clip import estimator as _core
from tf1clip.compat._tf import tf
from tf1clip.contrib.learn import estimator as learn_estimator
from tf1clip.contrib.learn import run_config as run_config_lib
from tf1clip.contrib.learn.utils import saved_model_export_utils as export_lib
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


class _ValidationHook(tf.compat.v1.train.SessionRunHook):
    """TF 1.15's ``ValidationMonitor`` without early stopping: evaluates a new checkpoint every ``every_n_steps``."""

    def __init__(self, evaluate: Callable[[], Any], model_dir: str, every_n_steps: int, check_interval_secs: float):
        self._evaluate, self._model_dir = evaluate, model_dir
        self._every_n_steps, self._check_interval_secs = every_n_steps, check_interval_secs
        self._last_check: Optional[float] = None
        self._latest_path: Optional[str] = None
        self._last_step = 0

    def begin(self) -> None:
        self._global_step = _v1.train.get_global_step()

    def before_run(self, run_context: Any) -> Any:
        return _v1.train.SessionRunArgs(self._global_step)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = int(run_values.results)
        if step < self._last_step + self._every_n_steps:
            return
        self._last_step = step
        now = time.time()
        if self._last_check is not None and now - self._last_check <= self._check_interval_secs:
            return
        self._last_check = now
        latest = tf.train.latest_checkpoint(self._model_dir)
        if latest is None or latest == self._latest_path:
            return
        self._latest_path = latest
        results = self._evaluate()
        _v1.logging.info("Validation (step %d): %s", step, ", ".join("%s = %s" % kv for kv in results.items()))


class _EvalAndExportListener(tf.compat.v1.train.CheckpointSaverListener):
    """Evaluates and exports after each checkpoint save (``checkpoint_and_export=True``)."""

    def __init__(self, eval_fn: Callable[..., Any], export_fn: Callable[..., Any], model_dir: str):
        self._eval_fn, self._export_fn, self._model_dir = eval_fn, export_fn, model_dir
        self._latest_path: Optional[str] = None
        self.eval_result: Any = None
        self.export_results: Any = None

    def after_save(self, session: Any, global_step_value: int) -> None:
        latest = tf.train.latest_checkpoint(self._model_dir)
        if latest == self._latest_path:
            return
        self._latest_path = latest
        self.eval_result = self._eval_fn(name="intermediate_export", checkpoint_path=latest)
        self.export_results = self._export_fn(self.eval_result, checkpoint_path=latest)


@contextlib.contextmanager
def _restoring(obj: Any, attr: str) -> Iterator[None]:
    saved = getattr(obj, attr)
    try:
        yield
    finally:
        setattr(obj, attr, saved)


def _predicate(fn: Optional[Callable[..., Any]]) -> Optional[Callable[..., Any]]:
    if fn is None:
        return None
    if not callable(fn):
        raise ValueError("`continuous_eval_predicate_fn` must be a callable, or None.")
    if "checkpoint_path" in inspect.signature(fn).parameters:
        return fn
    return lambda eval_result, checkpoint_path=None: fn(eval_result)


class Experiment:
    """TF 1.15's ``tf.contrib.learn.Experiment``: an Estimator, its train and eval ``input_fn`` and the schedules."""

    def __init__(
        self,
        estimator: Any,
        train_input_fn: Callable[..., Any],
        eval_input_fn: Callable[..., Any],
        eval_metrics: Optional[dict] = None,
        train_steps: Optional[int] = None,
        eval_steps: Optional[int] = 100,
        train_monitors: Optional[list] = None,
        eval_hooks: Optional[list] = None,
        local_eval_frequency: Optional[int] = None,
        eval_delay_secs: float = 120,
        continuous_eval_throttle_secs: float = 60,
        min_eval_frequency: Optional[int] = None,
        delay_workers_by_global_step: bool = False,
        export_strategies: Any = None,
        train_steps_per_iteration: Optional[int] = None,
        checkpoint_and_export: bool = False,
        saving_listeners: Optional[list] = None,
        check_interval_secs: float = 5,
    ):
        self._core_estimator_used = isinstance(estimator, _core.Estimator)
        if self._core_estimator_used:
            if eval_metrics is not None:
                raise ValueError(
                    "`eval_metrics` must be `None` with `tf.estimator.Estimator`. Use `eval_metric_ops` in "
                    "`tf.estimator.EstimatorSpec` instead."
                )
        else:
            if not isinstance(estimator, learn_estimator.BaseEstimator):
                raise ValueError(
                    "`estimator` must be a tf1clip.contrib.learn.Estimator or a tf1clip.estimator.Estimator, got %s"
                    % type(estimator).__name__
                )
            if saving_listeners is not None:
                raise ValueError("`saving_listeners` must be `None` with `tf.contrib.learn.Estimator`.")
        if train_steps_per_iteration is not None and not isinstance(train_steps_per_iteration, int):
            raise ValueError("`train_steps_per_iteration` must be an integer.")
        self._estimator = estimator
        self._train_input_fn, self._eval_input_fn = train_input_fn, eval_input_fn
        self._eval_metrics, self._train_steps, self._eval_steps = eval_metrics, train_steps, eval_steps
        self._local_eval_frequency = local_eval_frequency
        self._eval_delay_secs = eval_delay_secs
        self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
        self._checkpoint_and_export, self._saving_listeners = checkpoint_and_export, saving_listeners
        self._min_eval_frequency: Optional[int] = min_eval_frequency if min_eval_frequency is not None else 1
        self._check_interval_secs = check_interval_secs
        self._delay_workers_by_global_step = delay_workers_by_global_step
        self._train_monitors = list(train_monitors or [])
        self._eval_hooks = list(eval_hooks or [])
        self._set_export_strategies(export_strategies)
        self._train_steps_per_iteration = train_steps_per_iteration

    estimator = property(lambda self: self._estimator)
    eval_metrics = property(lambda self: self._eval_metrics)
    train_steps = property(lambda self: self._train_steps)
    eval_steps = property(lambda self: self._eval_steps)

    def _set_export_strategies(self, values: Any) -> None:
        if isinstance(values, export_lib.ExportStrategy):
            values = [values]
        strategies = []
        for value in values or []:
            if not isinstance(value, export_lib.ExportStrategy):
                raise ValueError(
                    "`export_strategies` must be an ExportStrategy, an iterable of ExportStrategy, or `None`, "
                    "found %s." % (value,)
                )
            strategies.append(value)
        self._export_strategies = tuple(strategies)

    def extend_train_hooks(self, additional_hooks: List[Any]) -> None:
        self._train_monitors.extend(additional_hooks)

    def reset_export_strategies(self, new_export_strategies: Any = None) -> tuple:
        old = self._export_strategies
        self._set_export_strategies(new_export_strategies)
        return old

    def train(self, delay_secs: Optional[float] = None) -> Any:
        """Trains up to ``train_steps``; a worker first waits (``delay_secs``, default ``min(60, 5 * task_id)``)."""
        config = self._estimator.config
        if (
            isinstance(config, run_config_lib.RunConfig)
            and config.environment not in (run_config_lib.Environment.LOCAL, run_config_lib.Environment.GOOGLE)
            and config.cluster_spec
            and config.master
        ):
            self._start_server()
        extra_hooks = []
        if delay_secs is None:
            task_id = config.task_id or 0
            if self._delay_workers_by_global_step:
                extra_hooks.append(_v1.train.GlobalStepWaiterHook(int(8000.0 * math.log(task_id + 1))))
                delay_secs = 0
            else:
                delay_secs = min(60, task_id * 5)
        if delay_secs > 0:
            time.sleep(delay_secs)
        return self._call_train(
            input_fn=self._train_input_fn,
            max_steps=self._train_steps,
            hooks=self._train_monitors + extra_hooks,
            saving_listeners=self._saving_listeners,
        )

    def evaluate(self, delay_secs: Optional[float] = None, name: Optional[str] = None) -> Any:
        """Waits ``delay_secs`` (default ``eval_delay_secs``), then evaluates ``eval_steps`` batches (dir
        ``eval_one_pass``)."""
        delay_secs = self._eval_delay_secs if delay_secs is None else delay_secs
        if delay_secs:
            time.sleep(delay_secs)
        return self._call_evaluate(
            input_fn=self._eval_input_fn,
            steps=self._eval_steps,
            metrics=self._eval_metrics,
            name=name or "one_pass",
            hooks=self._eval_hooks,
        )

    def local_run(self) -> Any:
        with _restoring(self, "_min_eval_frequency"):
            self._min_eval_frequency = self._local_eval_frequency
            return self.train_and_evaluate()

    def _continuous_eval(
        self,
        input_fn: Callable[..., Any],
        name: str,
        delay_secs: Optional[float],
        throttle_delay_secs: Optional[float],
        evaluate_checkpoint_only_once: bool = True,
        continuous_eval_predicate_fn: Optional[Callable[..., Any]] = None,
        export: bool = True,
    ) -> None:
        predicate_fn = _predicate(continuous_eval_predicate_fn)
        delay_secs = self._eval_delay_secs if delay_secs is None else delay_secs
        throttle = self._continuous_eval_throttle_secs if throttle_delay_secs is None else throttle_delay_secs
        if delay_secs:
            time.sleep(delay_secs)
        previous_path = None
        eval_result: Any = None
        while not predicate_fn or predicate_fn(eval_result, checkpoint_path=previous_path):
            if self._has_training_stopped(eval_result):
                _v1.logging.info("Exiting continuous eval, global_step >= train_step=%s", self._train_steps)
                return
            start = time.time()
            latest = tf.train.latest_checkpoint(self._estimator.model_dir)
            if not latest or (evaluate_checkpoint_only_once and latest == previous_path):
                eval_result = {}
            else:
                eval_result = self._call_evaluate(
                    input_fn=input_fn,
                    steps=self._eval_steps,
                    metrics=self._eval_metrics,
                    name=name,
                    checkpoint_path=latest,
                    hooks=self._eval_hooks,
                )
                eval_result = eval_result or {}
                if export:
                    self._maybe_export(eval_result, checkpoint_path=latest)
                previous_path = latest
            duration = time.time() - start
            if duration < throttle:
                time.sleep(throttle - duration)

    def _has_training_stopped(self, eval_result: Any) -> bool:
        if not eval_result:
            return False
        global_step = eval_result.get(_v1.GraphKeys.GLOBAL_STEP)
        return bool(global_step and self._train_steps and global_step >= self._train_steps)

    def continuous_eval(
        self,
        delay_secs: Optional[float] = None,
        throttle_delay_secs: Optional[float] = None,
        evaluate_checkpoint_only_once: bool = True,
        continuous_eval_predicate_fn: Optional[Callable[..., Any]] = None,
        name: str = "continuous",
    ) -> None:
        """Evaluates each new checkpoint (at most once per ``throttle_delay_secs``) until training reached
        ``train_steps`` or ``continuous_eval_predicate_fn(eval_result[, checkpoint_path])`` is false."""
        self._continuous_eval(
            self._eval_input_fn,
            name,
            delay_secs,
            throttle_delay_secs,
            evaluate_checkpoint_only_once,
            continuous_eval_predicate_fn,
        )

    def continuous_eval_on_train_data(
        self,
        delay_secs: Optional[float] = None,
        throttle_delay_secs: Optional[float] = None,
        continuous_eval_predicate_fn: Optional[Callable[..., Any]] = None,
        name: str = "continuous_on_train_data",
    ) -> None:
        self._continuous_eval(
            self._train_input_fn,
            name,
            delay_secs,
            throttle_delay_secs,
            continuous_eval_predicate_fn=continuous_eval_predicate_fn,
            export=False,
        )

    def train_and_evaluate(self) -> tuple:
        """Trains (validating every ``min_eval_frequency`` steps), evaluates, exports: ``(eval_result, exports)``."""
        with _restoring(self, "_train_monitors"):
            config = self._estimator.config
            intermediate = self._checkpoint_and_export and (
                config.save_checkpoints_secs or config.save_checkpoints_steps
            )
            evaluate = functools.partial(
                self._call_evaluate,
                input_fn=self._eval_input_fn,
                steps=self._eval_steps,
                metrics=self._eval_metrics,
                hooks=self._eval_hooks,
            )
            model_dir = self._estimator.model_dir
            if intermediate:
                listener = _EvalAndExportListener(evaluate, self._maybe_export, model_dir)
                saver = _v1.train.CheckpointSaverHook(
                    model_dir,
                    save_secs=config.save_checkpoints_secs,
                    save_steps=config.save_checkpoints_steps,
                    listeners=[listener],
                )
                self._train_monitors = self._train_monitors + [saver]
            elif self._min_eval_frequency:
                hook = _ValidationHook(evaluate, model_dir, self._min_eval_frequency, self._check_interval_secs)
                self._train_monitors = self._train_monitors + [hook]
            self.train(delay_secs=0)
        if intermediate:
            return listener.eval_result, listener.export_results
        eval_result = evaluate(name=None)
        return eval_result, self._maybe_export(eval_result)

    def continuous_train_and_eval(self, continuous_eval_predicate_fn: Optional[Callable[..., Any]] = None) -> tuple:
        """Alternates training ``train_steps_per_iteration`` steps (default ``train_steps // 10``, else 1000) and
        evaluating, until ``train_steps`` or the predicate says stop."""
        predicate_fn = _predicate(continuous_eval_predicate_fn)
        export_results, latest, eval_result = None, None, None
        per_iteration = self._train_steps_per_iteration
        if per_iteration is None:
            per_iteration = int(self._train_steps / 10) if self._train_steps is not None else 1000
        while not predicate_fn or predicate_fn(eval_result, checkpoint_path=latest if eval_result else None):
            if self._has_training_stopped(eval_result):
                break
            self._call_train(
                input_fn=self._train_input_fn,
                steps=per_iteration,
                hooks=self._train_monitors,
                saving_listeners=self._saving_listeners,
            )
            latest = tf.train.latest_checkpoint(self._estimator.model_dir)
            eval_result = self._call_evaluate(
                input_fn=self._eval_input_fn,
                steps=self._eval_steps,
                metrics=self._eval_metrics,
                name="one_pass",
                checkpoint_path=latest,
                hooks=self._eval_hooks,
            )
            export_results = self._maybe_export(eval_result)
        return eval_result, export_results

    def _maybe_export(self, eval_result: Any, checkpoint_path: Optional[str] = None) -> list:
        base = os.path.join(os.fsencode(self._estimator.model_dir), b"export")
        return [
            strategy.export(
                self._estimator,
                os.path.join(base, os.fsencode(strategy.name)),
                checkpoint_path=checkpoint_path,
                eval_result=eval_result,
            )
            for strategy in self._export_strategies
        ]

    def run_std_server(self) -> None:
        """Starts this task's ``tf.distribute.Server`` (with ``config.tf_config``) and joins it."""
        self._start_server().join()

    def test(self) -> Any:
        """One training step, one evaluation step (dir ``eval_one_pass``), the exports."""
        self._call_train(
            input_fn=self._train_input_fn, steps=1, hooks=self._train_monitors, saving_listeners=self._saving_listeners
        )
        eval_result = self._call_evaluate(
            input_fn=self._eval_input_fn, steps=1, metrics=self._eval_metrics, name="one_pass"
        )
        self._maybe_export(eval_result)
        return eval_result

    def _start_server(self) -> Any:
        config = self._estimator.config
        if not config.cluster_spec or not config.task_type or not config.master or config.task_id is None:
            raise ValueError(
                "Could not start server; be sure to specify cluster_spec, task_type, master, and task in RunConfig "
                "or set the TF_CONFIG environment variable."
            )
        server = tf.distribute.Server(
            config.cluster_spec,
            job_name=config.task_type,
            task_index=config.task_id,
            config=getattr(config, "tf_config", None),
            start=False,
        )
        server.start()
        return server

    def _call_train(self, input_fn=None, steps=None, hooks=None, max_steps=None, saving_listeners=None) -> Any:
        if self._core_estimator_used:
            return self._estimator.train(
                input_fn=input_fn, steps=steps, max_steps=max_steps, hooks=hooks, saving_listeners=saving_listeners
            )
        return self._estimator.fit(input_fn=input_fn, steps=steps, max_steps=max_steps, monitors=hooks)

    def _call_evaluate(self, input_fn=None, steps=None, metrics=None, name=None, checkpoint_path=None, hooks=None):
        if self._core_estimator_used:
            if metrics is not None:
                raise ValueError("`eval_metrics` must be `None` with `tf.estimator.Estimator`")
            return self._estimator.evaluate(
                input_fn=input_fn, steps=steps, name=name, checkpoint_path=checkpoint_path, hooks=hooks
            )
        return self._estimator.evaluate(
            input_fn=input_fn, steps=steps, metrics=metrics, name=name, checkpoint_path=checkpoint_path, hooks=hooks
        )
