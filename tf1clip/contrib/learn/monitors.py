"""``tf.contrib.learn.monitors`` (TF 1.15's ``python/learn/monitors.py``): the monitors ``fit(monitors=...)`` took
before ``SessionRunHook`` replaced them.

They run as TF 1.15 ran them: ``replace_monitors_with_hooks`` keeps the hooks and wraps the monitors in one
``RunHookAdapterForMonitors`` hook, which calls ``step_begin``/``step_end``/``post_step`` with the step about to run
(global step + 1) and stops training when a monitor's ``step_end`` returns True. ``ValidationMonitor`` evaluates the
newest checkpoint every ``every_n_steps`` (and at most once per ``check_interval_secs``), with early stopping;
the checkpoint saver runs before the monitors, as in TF 1.15, so it evaluates the same checkpoints.
``ExportMonitor`` (TF 1.15's deprecated ``Estimator.export``) is not re-created: pass an ``ExportStrategy`` to
``Experiment``.
"""

import copy
import inspect
import os
import time
from typing import Any, Dict, List, Optional

import numpy as np

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_v1 = tf.compat.v1


class BaseMonitor:
    """A training monitor: ``begin``/``end`` around training, ``step_begin`` (returns the tensors or names to
    fetch), ``step_end`` (gets them; True stops training) and ``post_step`` around each step."""

    def __init__(self):
        self._begun = False
        self._current_epoch: Optional[int] = None
        self._current_step: Optional[int] = None
        self._max_steps: Any = None
        self._estimator: Any = None

    @property
    def run_on_all_workers(self) -> bool:
        return False

    def set_estimator(self, estimator: Any) -> None:
        if estimator is None:
            raise ValueError("Missing estimator.")
        self._estimator = estimator

    def begin(self, max_steps: Optional[int] = None) -> None:
        if self._begun:
            raise ValueError("begin called twice without end.")
        self._max_steps = max_steps
        self._begun = True

    def end(self, session: Any = None) -> None:
        if not self._begun:
            raise ValueError("end called without begin.")
        self._max_steps = None
        self._begun = False

    def epoch_begin(self, epoch: int) -> None:
        if self._current_epoch is not None:
            raise ValueError("epoch_begin called twice without epoch_end.")
        if epoch < 0:
            raise ValueError("Invalid epoch %s." % epoch)
        self._current_epoch = epoch

    def epoch_end(self, epoch: int) -> None:
        if self._current_epoch != epoch:
            raise ValueError("epoch_end expected %s but got %s." % (self._current_epoch, epoch))
        self._current_epoch = None

    def step_begin(self, step: int) -> List[Any]:
        if step < 0 or (self._max_steps is not None and step > self._max_steps):
            raise ValueError("Invalid step %s." % step)
        self._current_step = step
        return []

    def step_end(self, step: int, output: Dict[Any, Any]) -> bool:
        if self._current_step != step:
            raise ValueError("step_end expected %s but got %s." % (self._current_step, step))
        self._current_step = None
        return False

    def post_step(self, step: int, session: Any) -> None:
        del step, session


def _extract_output(outputs: Dict[Any, Any], request: Any) -> Any:
    if request in outputs:
        return outputs[request]
    return outputs[request.name]


class EveryN(BaseMonitor):
    """Calls ``every_n_step_begin``/``every_n_step_end``/``every_n_post_step`` on the first ``first_n_steps``
    steps, then every ``every_n_steps`` steps after the last active one, and on the last step."""

    def __init__(self, every_n_steps: int = 100, first_n_steps: int = 1):
        super().__init__()
        self._every_n_steps = every_n_steps
        self._first_n_steps = first_n_steps
        self._last_successful_step: Any = None
        self._last_active_step = 0
        self._every_n_step_begin_called = False

    def every_n_step_begin(self, step: int) -> List[Any]:
        return []

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        return False

    def every_n_post_step(self, step: int, session: Any) -> None:
        pass

    def step_begin(self, step: int) -> List[Any]:
        super().step_begin(step)
        if (
            step <= self._first_n_steps
            or step >= self._every_n_steps + self._last_active_step
            or step == self._max_steps
        ):
            self._every_n_step_begin_called = True
            return self.every_n_step_begin(step)
        self._every_n_step_begin_called = False
        return []

    def step_end(self, step: int, output: Dict[Any, Any]) -> bool:
        super().step_end(step, output)
        if self._every_n_step_begin_called:
            return self.every_n_step_end(step, output)
        return False

    def post_step(self, step: int, session: Any) -> None:
        super().post_step(step, session)
        if self._every_n_step_begin_called:
            self.every_n_post_step(step, session)
            self._last_active_step = step
        self._last_successful_step = step

    def end(self, session: Any = None) -> None:
        super().end(session=session)
        if self._last_successful_step != self._last_active_step:
            self.every_n_post_step(self._last_successful_step, session)


class StopAtStep(BaseMonitor):
    """Stops after ``num_steps`` steps from the first one, or at ``last_step``."""

    def __init__(self, num_steps: Optional[int] = None, last_step: Optional[int] = None):
        super().__init__()
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps: Any = num_steps
        self._last_step: Any = last_step

    @property
    def run_on_all_workers(self) -> bool:
        return True

    def step_begin(self, step: int) -> List[Any]:
        super().step_begin(step)
        if self._last_step is None:
            self._last_step = step + self._num_steps - 1
        return []

    def step_end(self, step: int, output: Dict[Any, Any]) -> bool:
        super().step_end(step, output)
        return step >= self._last_step


def _log_tensors(message: str, step: int, names: Dict[str, Any], outputs: Dict[Any, Any]) -> None:
    stats = ["%s = %s" % (tag, str(_extract_output(outputs, name))) for tag, name in names.items() if name in outputs]
    _v1.logging.info(message, step, ", ".join(stats))


class PrintTensor(EveryN):
    """Logs the tensors ``tensor_names`` (a list, or a dict tag -> name) every ``every_n`` steps."""

    def __init__(self, tensor_names: Any, every_n: int = 100, first_n: int = 1):
        super().__init__(every_n, first_n)
        if not isinstance(tensor_names, dict):
            tensor_names = {item: item for item in tensor_names}
        self._tensor_names = tensor_names

    def every_n_step_begin(self, step: int) -> List[Any]:
        super().every_n_step_begin(step)
        return list(self._tensor_names.values())

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        super().every_n_step_end(step, outputs)
        _log_tensors("Step %d: %s", step, self._tensor_names, outputs)
        return False


class LoggingTrainable(EveryN):
    """Logs the trainable variables (of ``scope``) every ``every_n`` steps."""

    def __init__(self, scope: Optional[str] = None, every_n: int = 100, first_n: int = 1):
        super().__init__(every_n, first_n)
        self._scope = scope
        self._names: Dict[str, str] = {}

    def every_n_step_begin(self, step: int) -> List[Any]:
        super().every_n_step_begin(step)
        trainables = _v1.get_collection(_v1.GraphKeys.TRAINABLE_VARIABLES, scope=self._scope)
        self._names = {var.name: var.value().name for var in trainables}
        return list(self._names.values())

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        super().every_n_step_end(step, outputs)
        _log_tensors("Logging Trainable: Step %d: %s", step, self._names, outputs)
        return False


class SummarySaver(EveryN):
    """Writes ``summary_op`` (or the scaffold's) every ``save_steps`` steps to ``output_dir`` (default:
    the estimator's ``model_dir``)."""

    def __init__(self, summary_op, save_steps=100, output_dir=None, summary_writer=None, scaffold=None):
        super().__init__(every_n_steps=save_steps)
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        if summary_writer is None and output_dir:
            self._summary_writer = _v1.summary.FileWriter(output_dir)
        self._scaffold = scaffold

    def set_estimator(self, estimator: Any) -> None:
        super().set_estimator(estimator)
        if self._summary_writer is None:
            self._summary_writer = _v1.summary.FileWriter(estimator.model_dir)

    def every_n_step_begin(self, step: int) -> List[Any]:
        super().every_n_step_begin(step)
        if self._summary_op is None and self._scaffold is not None:
            self._summary_op = self._scaffold.summary_op
        return [self._summary_op] if self._summary_op is not None else []

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        super().every_n_step_end(step, outputs)
        if self._summary_op is not None and self._summary_writer:
            self._summary_writer.add_summary(_extract_output(outputs, self._summary_op), step)
        return False

    def end(self, session: Any = None) -> None:
        super().end(session=session)
        if self._summary_writer:
            self._summary_writer.flush()


class ValidationMonitor(EveryN):
    """Evaluates the newest checkpoint (``x``/``y`` or ``input_fn``) every ``every_n_steps`` steps, when it is new
    and ``check_interval_secs`` have passed since the last check; with ``early_stopping_rounds``, stops training when
    ``early_stopping_metric`` has not improved for that many steps. ``best_step``, ``best_value``,
    ``best_metrics`` and ``early_stopped`` tell what it saw."""

    def __init__(
        self,
        x=None,
        y=None,
        input_fn=None,
        batch_size=None,
        eval_steps=None,
        every_n_steps=100,
        metrics=None,
        hooks=None,
        early_stopping_rounds=None,
        early_stopping_metric="loss",
        early_stopping_metric_minimize=True,
        name=None,
        check_interval_secs=5,
    ):
        super().__init__(every_n_steps=every_n_steps, first_n_steps=-1)
        if x is None and input_fn is None:
            raise ValueError("Either x or input_fn should be provided.")
        self.x, self.y, self.input_fn, self.batch_size, self.eval_steps = x, y, input_fn, batch_size, eval_steps
        self.metrics, self.hooks, self.name = metrics, hooks, name
        self.early_stopping_rounds = early_stopping_rounds
        self.early_stopping_metric = early_stopping_metric
        self.early_stopping_metric_minimize = early_stopping_metric_minimize
        self._best_value_step: Any = None
        self._best_value: Any = None
        self._best_metrics: Any = None
        self._early_stopped = False
        self._latest_path: Optional[str] = None
        self._latest_path_step: Optional[int] = None
        self._last_checkpoint_check_time: Optional[float] = None
        self._check_interval_secs = check_interval_secs

    @property
    def early_stopped(self) -> bool:
        return self._early_stopped

    @property
    def best_step(self) -> Optional[int]:
        return self._best_value_step

    @property
    def best_value(self) -> Any:
        return self._best_value

    @property
    def best_metrics(self) -> Any:
        return self._best_metrics

    def _evaluate_estimator(self) -> Dict[str, Any]:
        from tf1clip.contrib.learn import estimator as learn_estimator

        estimator: Any = self._estimator
        if not isinstance(self._estimator, learn_estimator.BaseEstimator):
            if any(x is not None for x in [self.x, self.y, self.batch_size, self.metrics]):
                raise ValueError(
                    "tf.estimator.Estimator does not support following arguments: x, y, batch_size, metrics. "
                    "Should set as `None` in ValidationMonitor"
                )
            return estimator.evaluate(input_fn=self.input_fn, steps=self.eval_steps, hooks=self.hooks, name=self.name)
        return estimator.evaluate(
            x=self.x, y=self.y, input_fn=self.input_fn, batch_size=self.batch_size, steps=self.eval_steps,
            metrics=self.metrics, hooks=self.hooks, name=self.name,
        )  # fmt: skip

    def _new_checkpoint(self, step: int) -> bool:
        now = time.time()
        last = self._last_checkpoint_check_time
        if self._check_interval_secs is not None and last is not None and now - last <= self._check_interval_secs:
            return False
        self._last_checkpoint_check_time = now
        latest = tf.train.latest_checkpoint(self._estimator.model_dir)
        if latest is None or latest == self._latest_path:
            return False
        self._latest_path, self._latest_path_step = latest, step
        return True

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        super().every_n_step_end(step, outputs)
        if self._estimator is None:
            raise ValueError("Missing call to set_estimator.")
        if not self._new_checkpoint(step):
            return False
        results = self._evaluate_estimator()
        _v1.logging.info("Validation (step %d): %s", step, ", ".join("%s = %s" % (k, v) for k, v in results.items()))
        if self.early_stopping_rounds is None:
            return False
        if self.early_stopping_metric not in results:
            raise ValueError("Metric %s missing from outputs %s." % (self.early_stopping_metric, set(results.keys())))
        value = results[self.early_stopping_metric]
        minimize = self.early_stopping_metric_minimize
        if self._best_value is None or (value < self._best_value if minimize else value > self._best_value):
            self._best_value, self._best_metrics, self._best_value_step = value, copy.deepcopy(results), step
        if step - self._best_value_step >= self.early_stopping_rounds:
            _v1.logging.info(
                "Stopping. Best step: {} with {} = {}.".format(
                    self._best_value_step, self.early_stopping_metric, self._best_value
                )
            )
            self._early_stopped = True
            return True
        return False


class CaptureVariable(EveryN):
    """Records the value of ``var_name`` (a tensor or its name) every ``every_n`` steps: ``values[step]``."""

    def __init__(self, var_name: Any, every_n: int = 100, first_n: int = 1):
        super().__init__(every_n, first_n)
        self._var_name = var_name
        self._var_values: Dict[int, Any] = {}

    @property
    def values(self) -> Dict[int, Any]:
        return self._var_values

    def every_n_step_begin(self, step: int) -> List[Any]:
        super().every_n_step_begin(step)
        return [self._var_name]

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        super().every_n_step_end(step, outputs)
        self._var_values[step] = _extract_output(outputs, self._var_name)
        return False


def get_default_monitors(loss_op=None, summary_op=None, save_summary_steps=100, output_dir=None, summary_writer=None):
    """A ``PrintTensor`` of ``loss_op`` and a ``SummarySaver`` of ``summary_op`` (those given)."""
    monitors: List[BaseMonitor] = []
    if loss_op is not None:
        monitors.append(PrintTensor(tensor_names={"loss": loss_op.name}))
    if summary_op is not None:
        monitors.append(
            SummarySaver(
                summary_op, save_steps=save_summary_steps, output_dir=output_dir, summary_writer=summary_writer
            )
        )
    return monitors


class GraphDump(BaseMonitor):
    """Fetches every op's first output (but those of ``ignore_ops`` types) at every step: ``data[step]``."""

    IGNORE_OPS = ["Const", "Assign", "Identity", "Placeholder", "RandomUniform", "Cast", "RestoreSlice"]

    def __init__(self, ignore_ops: Optional[List[str]] = None):
        super().__init__()
        self._ignore_ops = ignore_ops or GraphDump.IGNORE_OPS
        self._data: Dict[int, Any] = {}
        self._tensors: List[Any] = []

    def begin(self, max_steps: Optional[int] = None) -> None:
        super().begin(max_steps=max_steps)
        graph = _v1.get_default_graph()
        self._tensors = []
        for node in graph.as_graph_def().node:
            if node.op in self._ignore_ops:
                continue
            _v1.logging.info("op=%s name=%s.", node.op, node.name)
            try:
                self._tensors.append(graph.get_tensor_by_name(node.name + ":0"))
            except (KeyError, ValueError):
                pass

    def step_begin(self, step: int) -> List[Any]:
        super().step_begin(step)
        return self._tensors

    def step_end(self, step: int, output: Dict[Any, Any]) -> bool:
        super().step_end(step, output)
        self._data[step] = output
        return False

    @property
    def data(self) -> Dict[int, Any]:
        return self._data

    def compare(self, other_dump: "GraphDump", step: int, atol: float = 1e-06) -> Any:
        """``(names that match, {name: difference})`` of this dump and ``other_dump`` at ``step``."""
        non_matched, matched = {}, []
        this_output, other_output = self.data.get(step, {}), other_dump.data.get(step, {})
        for key in this_output:
            if not isinstance(key, str):
                continue
            if key not in other_output:
                raise ValueError("%s missing at step %s." % (key, step))
            value1, value2 = _extract_output(this_output, key), _extract_output(other_output, key)
            if isinstance(value1, str):
                continue
            if isinstance(value1, np.ndarray):
                if not np.allclose(value1, value2, atol=atol):
                    non_matched[key] = value1 - value2
                else:
                    matched.append(key)
            elif value1 != value2:
                non_matched[key] = (value1, value2)
            else:
                matched.append(key)
        return matched, non_matched


class CheckpointSaver(BaseMonitor):
    """Saves a checkpoint into ``checkpoint_dir`` after the first step, every ``save_steps`` steps or
    ``save_secs`` seconds, and at the end."""

    def __init__(
        self,
        checkpoint_dir,
        save_secs=None,
        save_steps=None,
        saver=None,
        checkpoint_basename="model.ckpt",
        scaffold=None,
    ):
        super().__init__()
        _v1.logging.info("Create CheckpointSaver.")
        self._saver, self._scaffold = saver, scaffold
        self._summary_writer = _v1.summary.FileWriterCache.get(checkpoint_dir)
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._save_secs, self._save_steps = save_secs, save_steps
        self._last_saved_time: Optional[float] = None
        self._last_begin_step: Optional[int] = None
        self._last_saved_step: Optional[int] = None
        if save_steps is None and save_secs is None:
            raise ValueError("Either save_steps or save_secs should be provided")
        if save_steps is not None and save_secs is not None:
            raise ValueError("Can not provide both save_steps and save_secs.")

    def begin(self, max_steps: Optional[int] = None) -> None:
        super().begin(max_steps)
        self._last_saved_time = self._last_begin_step = self._last_saved_step = None

    def step_begin(self, step: int) -> List[Any]:
        super().step_begin(step)
        self._last_begin_step = step
        return []

    def post_step(self, step: int, session: Any) -> None:
        super().post_step(step, session)
        if self._last_saved_time is None:
            self._save(step, session)
        if self._save_steps is not None and step >= self._last_saved_step + self._save_steps:
            self._save(step, session)
        if self._save_secs is not None and time.time() >= self._last_saved_time + self._save_secs:
            self._save(step, session)

    def end(self, session: Any = None) -> None:
        super().end(session)
        self._save(self._last_begin_step, session)

    def _save(self, step: Optional[int], session: Any) -> None:
        if step == self._last_saved_step:
            return
        _v1.logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._last_saved_time, self._last_saved_step = time.time(), step
        saver = self._saver if self._saver is not None else self._scaffold.saver
        saver.save(session, self._save_path, global_step=step)
        log = tf.compat.v1.SessionLog(status=tf.compat.v1.SessionLog.CHECKPOINT, checkpoint_path=self._save_path)
        self._summary_writer.add_session_log(log, step)


class StepCounter(EveryN):
    """Writes ``global_step/sec`` every ``every_n_steps`` steps to ``output_dir`` (default: the ``model_dir``)."""

    def __init__(self, every_n_steps: int = 100, output_dir: Optional[str] = None, summary_writer: Any = None):
        super().__init__(every_n_steps=every_n_steps)
        self._summary_tag = "global_step/sec"
        self._last_reported_step: Any = None
        self._last_reported_time: Optional[float] = None
        self._summary_writer = summary_writer
        if summary_writer is None and output_dir:
            self._summary_writer = _v1.summary.FileWriterCache.get(output_dir)

    def set_estimator(self, estimator: Any) -> None:
        super().set_estimator(estimator)
        if self._summary_writer is None:
            self._summary_writer = _v1.summary.FileWriterCache.get(estimator.model_dir)

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        now = time.time()
        if self._last_reported_time is not None and self._summary_writer:
            rate = (step - self._last_reported_step) / (now - self._last_reported_time)
            summary = _v1.Summary(value=[_v1.Summary.Value(tag=self._summary_tag, simple_value=rate)])
            self._summary_writer.add_summary(summary, step)
        self._last_reported_step, self._last_reported_time = step, now
        return False


class NanLossDuringTrainingError(RuntimeError):
    """The loss was NaN (``NanLoss(fail_on_nan_loss=True)``)."""

    def __str__(self) -> str:
        return "NaN loss during training."


class NanLoss(EveryN):
    """Every ``every_n_steps`` steps: a NaN ``loss_tensor`` raises ``NanLossDuringTrainingError`` (or, with
    ``fail_on_nan_loss=False``, logs a warning and stops training)."""

    def __init__(self, loss_tensor: Any, every_n_steps: int = 100, fail_on_nan_loss: bool = True):
        super().__init__(every_n_steps=every_n_steps)
        self._loss_tensor, self._fail_on_nan_loss = loss_tensor, fail_on_nan_loss

    def every_n_step_begin(self, step: int) -> List[Any]:
        super().every_n_step_begin(step)
        return [self._loss_tensor]

    def every_n_step_end(self, step: int, outputs: Dict[Any, Any]) -> bool:
        super().every_n_step_end(step, outputs)
        if np.isnan(_extract_output(outputs, self._loss_tensor)):
            message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                _v1.logging.error(message)
                raise NanLossDuringTrainingError
            _v1.logging.warning(message)
            return True
        return False


class RunHookAdapterForMonitors(tf.compat.v1.train.SessionRunHook):
    """Runs ``monitors`` as one ``SessionRunHook`` (TF 1.15's adapter)."""

    def __init__(self, monitors: List[BaseMonitor]):
        self._monitors = monitors
        self._last_step: Any = None

    def begin(self) -> None:
        self._last_step = None
        self._global_step_tensor = _v1.train.get_global_step()
        for monitor in self._monitors:
            monitor.begin(max_steps=None)

    def before_run(self, run_context: Any) -> Any:
        if self._last_step is None:
            self._last_step = run_context.session.run(self._global_step_tensor) + 1
        request: Dict[Any, Any] = {self._global_step_tensor: self._global_step_tensor}
        fetches: List[Any] = []
        for monitor in self._monitors:
            requests = monitor.step_begin(self._last_step)
            if requests:
                if not isinstance(requests, list):
                    raise ValueError("Monitor.step_begin should return a list.")
                fetches.extend(requests)
        if fetches:
            request["monitors"] = dict(zip(fetches, [_as_graph_element(f) for f in fetches]))
        return _v1.train.SessionRunArgs(request)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        result = run_values.results.get("monitors", {})
        for monitor in self._monitors:
            if monitor.step_end(self._last_step, result):
                run_context.request_stop()
        for monitor in self._monitors:
            monitor.post_step(self._last_step, run_context.session)
        self._last_step = run_values.results[self._global_step_tensor] + 1

    def end(self, session: Any) -> None:
        self._last_step = None
        for monitor in self._monitors:
            if "session" in inspect.signature(monitor.end).parameters:
                monitor.end(session=session)
            else:
                monitor.end()


def replace_monitors_with_hooks(monitors_or_hooks: Optional[List[Any]], estimator: Any) -> List[Any]:
    """The hooks of ``monitors_or_hooks``, then a ``RunHookAdapterForMonitors`` of its monitors (on a worker
    that is not the chief, only those with ``run_on_all_workers``), each given ``estimator``."""
    monitors_or_hooks = monitors_or_hooks or []
    hooks = [m for m in monitors_or_hooks if isinstance(m, _v1.train.SessionRunHook)]
    monitors = [m for m in monitors_or_hooks if not isinstance(m, _v1.train.SessionRunHook)]
    if not estimator.config.is_chief:
        monitors = [m for m in monitors if m.run_on_all_workers]
    for monitor in monitors:
        monitor.set_estimator(estimator)
    if monitors:
        hooks.append(RunHookAdapterForMonitors(monitors))
    return hooks


def _as_graph_element(obj: Any) -> Any:
    graph = _v1.get_default_graph()
    if not isinstance(obj, str):
        if not hasattr(obj, "graph") or obj.graph != graph:
            raise ValueError("Passed %s should have graph attribute that is equal to current graph %s." % (obj, graph))
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        return element
    raise ValueError("Name %s is ambiguous, as this `Operation` has multiple outputs (at least 2)." % obj)
