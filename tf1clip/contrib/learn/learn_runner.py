"""``tf.contrib.learn.learn_runner`` (TF 1.15): ``run(experiment_fn, output_dir | run_config, schedule, hparams)``.

Without ``schedule``: ``train_and_evaluate`` unless ``TF_CONFIG`` describes a cluster of more than one task; then
``master`` runs ``train_and_evaluate``, ``ps`` ``run_std_server`` and ``worker`` ``train`` (TF 1.15's defaults).
"""

from typing import Any, Callable, Optional

from tf1clip.contrib.training.hparam import HParams
from tf1clip.contrib.learn import run_config as run_config_lib
from tf1clip.contrib.learn.experiment import Experiment
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)


def _execute_schedule(experiment: Experiment, schedule: str) -> Any:
    task = getattr(experiment, schedule, None)
    valid = [x for x in dir(experiment) if not x.startswith("_") and callable(getattr(experiment, x))]
    if task is None:
        raise ValueError("Schedule references non-existent task %s (allowed: %s)" % (schedule, ", ".join(valid)))
    if not callable(task):
        raise TypeError("Schedule references non-callable member %s (allowed: %s)" % (schedule, ", ".join(valid)))
    return task()


def _checked(experiment_fn: Callable[..., Any], require_hparams: bool = False) -> Callable[..., Any]:
    """``experiment_fn(run_config, hparams)``, checking that its Estimator uses ``run_config`` (its ``uid``)."""

    def wrapped(run_config: Any, hparams: Any) -> Experiment:
        if not isinstance(run_config, run_config_lib.RunConfig):
            raise ValueError("`run_config` must be `tf.contrib.learn.RunConfig` instance")
        if not run_config.model_dir:
            raise ValueError("Must specify a model directory `model_dir` in `run_config`.")
        if hparams is not None and not isinstance(hparams, HParams):
            raise ValueError("`hparams` must be `HParams` instance")
        if require_hparams and hparams is None:
            raise ValueError("`hparams` cannot be `None`.")
        expected_uid = run_config.uid()
        experiment = experiment_fn(run_config, hparams)
        if not isinstance(experiment, Experiment):
            raise TypeError(
                "Experiment builder did not return an Experiment instance, got %s instead." % type(experiment)
            )
        config = experiment.estimator.config
        if not hasattr(config, "uid"):
            raise RuntimeError(
                "Pass `run_config` argument of the `experiment_fn` to the Estimator in Experiment. It is likely a "
                "different `RunConfig` is passed to `Estimator` or the `config` constructor argument in `Estimator` "
                "is not set."
            )
        if config.uid() != expected_uid:
            raise RuntimeError(
                "`RunConfig` instance is expected to be used by the `Estimator` inside the `Experiment`. expected "
                "{}, but got {}".format(expected_uid, config.uid())
            )
        return experiment

    return wrapped


def run(
    experiment_fn: Callable[..., Any],
    output_dir: Optional[str] = None,
    schedule: Optional[str] = None,
    run_config: Any = None,
    hparams: Any = None,
) -> Any:
    """Builds the Experiment (``experiment_fn(output_dir=...)`` or ``experiment_fn(run_config, hparams)``) and runs
    its ``schedule`` method; returns what that returns."""
    if output_dir is not None and run_config is not None:
        raise ValueError("Cannot provide both `output_dir` and `run_config`")
    if output_dir is None and run_config is None:
        raise ValueError("Must set value for `output_dir` or `run_config`")
    if not callable(experiment_fn):
        raise TypeError('Experiment builder "%s" is not callable.' % experiment_fn)
    if run_config is not None:
        experiment = _checked(experiment_fn)(run_config=run_config, hparams=hparams)
    else:
        if not output_dir:
            raise ValueError("Must specify an output directory")
        if hparams is not None:
            raise ValueError("Must set `hparams` as None for `experiment_fn` with `output_dir`.")
        experiment = experiment_fn(output_dir=output_dir)
        if not isinstance(experiment, Experiment):
            raise TypeError(
                "Experiment builder did not return an Experiment instance, got %s instead." % type(experiment)
            )
    run_config = run_config or experiment.estimator.config
    return _execute_schedule(experiment, schedule or _default_schedule(run_config))


def tune(experiment_fn: Callable[..., Any], tuner: Any) -> None:
    """Runs ``tuner``'s trials (``tuner.next_trial()``, ``tuner.run_experiment(experiment_fn)``)."""
    while tuner.next_trial():
        tuner.run_experiment(_checked(experiment_fn, require_hparams=True))


def _is_distributed(config: Any) -> bool:
    spec = config.cluster_spec
    return bool(spec) and sum(len(spec.job_tasks(job)) for job in spec.jobs) > 1


def _default_schedule(config: Any) -> str:
    if not config or not _is_distributed(config):
        return "train_and_evaluate"
    if not config.task_type:
        raise ValueError("Must specify a schedule")
    schedules = {
        run_config_lib.TaskType.MASTER: "train_and_evaluate",
        run_config_lib.TaskType.PS: "run_std_server",
        run_config_lib.TaskType.WORKER: "train",
    }
    if config.task_type not in schedules:
        raise ValueError("No default schedule for task type: %s" % (config.task_type,))
    return schedules[config.task_type]
