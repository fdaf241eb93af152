"""``tf.contrib.learn.RunConfig`` (TF 1.15): a ``tf1clip.estimator.RunConfig`` read from ``TF_CONFIG`` as contrib did.

Needs ``tf1clip.estimator`` (tensorflow-estimator 2.15). As in TF 1.15, ``num_cores``, ``log_device_placement`` and
``gpu_memory_fraction`` build ``tf_config`` (a ``ConfigProto`` that only ``Experiment.run_std_server`` uses), not
``session_config``; the Estimators' sessions use ``session_config``, or ``ConfigProto(allow_soft_placement=True)``.
"""

import collections
import json
import os
from typing import Any, List, Optional

from tf1clip import estimator as _estimator
from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

_UID_WHITELIST = (
    "tf_random_seed",
    "save_summary_steps",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
    "session_config",
    "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours",
    "log_step_count_steps",
)


class Environment:
    CLOUD = "cloud"
    GOOGLE = "google"
    LOCAL = "local"


class TaskType:
    MASTER = "master"
    PS = "ps"
    WORKER = "worker"


def _tf_config() -> dict:
    return json.loads(os.environ.get("TF_CONFIG") or "{}")


def _master(cluster_spec: Any, task_type: Optional[str], task_id: int) -> str:
    """``grpc://`` address of this task in a cluster of more than one task, else ''."""
    if not cluster_spec:
        return ""
    jobs = cluster_spec.jobs
    if len(jobs) == 1 and len(cluster_spec.job_tasks(jobs[0])) == 1:
        return ""
    if not task_type:
        return ""
    if task_type not in jobs:
        raise ValueError(
            "%s is not a valid task_type in the cluster_spec:\n%s\n\nNote that these values may be coming from the "
            "TF_CONFIG environment variable." % (task_type, cluster_spec)
        )
    addresses = cluster_spec.job_tasks(task_type)
    if task_id >= len(addresses) or task_id < 0:
        raise ValueError(
            "%d is not a valid task_id for task_type %s in the cluster_spec:\n%s\n\nNote that these value may be "
            "coming from the TF_CONFIG environment variable." % (task_id, task_type, cluster_spec)
        )
    return "grpc://" + addresses[task_id]


class ClusterConfig:
    """The cluster settings of ``TF_CONFIG`` (``cluster``, ``task``, ``environment``), as TF 1.15's contrib read them.

    ``is_chief``: task 0 without a task type; in the ``cloud`` environment the ``master`` task 0; else ``worker`` 0.
    """

    def __init__(self, master: Optional[str] = None, evaluation_master: Optional[str] = None):
        config = _tf_config()
        self._task_type = config.get("task", {}).get("type", None)
        self._task_id = self.get_task_id()
        self._cluster_spec = tf.train.ClusterSpec(config.get("cluster", {}))
        jobs = self._cluster_spec.as_dict()
        self._master = master if master is not None else _master(self._cluster_spec, self._task_type, self._task_id)
        self._num_ps_replicas = len(jobs.get("ps", []))
        self._num_worker_replicas = len(jobs.get("worker", [])) + len(jobs.get("master", []))
        self._environment = config.get("environment", Environment.LOCAL)
        if self._task_type is None:
            self._is_chief = self._task_id == 0
        elif self._environment == Environment.CLOUD:
            self._is_chief = self._task_type == TaskType.MASTER and self._task_id == 0
        else:
            self._is_chief = self._task_type == TaskType.WORKER and self._task_id == 0
        self._evaluation_master = evaluation_master or ""
        masters = len(jobs.get("master", [])) if self._task_type == TaskType.WORKER else 0
        self._global_id_in_cluster = 0 if self._is_chief else self._task_id + masters

    cluster_spec = property(lambda self: self._cluster_spec)
    environment = property(lambda self: self._environment)
    evaluation_master = property(lambda self: self._evaluation_master)
    is_chief = property(lambda self: self._is_chief)
    master = property(lambda self: self._master)
    num_ps_replicas = property(lambda self: self._num_ps_replicas)
    num_worker_replicas = property(lambda self: self._num_worker_replicas)
    task_id = property(lambda self: self._task_id)
    task_type = property(lambda self: self._task_type)

    @staticmethod
    def get_task_id() -> int:
        """``TF_CONFIG['task']['index']``, 0 by default."""
        index = _tf_config().get("task", {}).get("index")
        return int(index) if index else 0


class RunConfig(ClusterConfig, _estimator.RunConfig):
    """TF 1.15's ``tf.contrib.learn.RunConfig``: its arguments, defaults and ``TF_CONFIG`` reading (``ClusterConfig``).

    ``save_checkpoints_secs`` defaults to 600, or None when ``save_checkpoints_steps`` is given. ``model_dir`` may
    come from ``TF_CONFIG['model_dir']`` (both given: they must agree).
    """

    _USE_DEFAULT = 0

    def __init__(
        self,
        master: Optional[str] = None,
        num_cores: int = 0,
        log_device_placement: bool = False,
        gpu_memory_fraction: float = 1,
        tf_random_seed: Optional[int] = None,
        save_summary_steps: int = 100,
        save_checkpoints_secs: Any = _USE_DEFAULT,
        save_checkpoints_steps: Optional[int] = None,
        keep_checkpoint_max: int = 5,
        keep_checkpoint_every_n_hours: float = 10000,
        log_step_count_steps: int = 100,
        protocol: Optional[str] = None,
        evaluation_master: str = "",
        model_dir: Optional[str] = None,
        session_config: Any = None,
        session_creation_timeout_secs: int = 7200,
    ):
        ClusterConfig.__init__(self, master=master, evaluation_master=evaluation_master)
        self._train_distribute = self._eval_distribute = self._experimental_distribute = None
        self._experimental_max_worker_delay_secs = self._device_fn = self._service = None
        self._checkpoint_save_graph_def = True
        gpu_options = tf.compat.v1.GPUOptions(per_process_gpu_memory_fraction=gpu_memory_fraction)
        self._tf_config = tf.compat.v1.ConfigProto(
            log_device_placement=log_device_placement,
            inter_op_parallelism_threads=num_cores,
            intra_op_parallelism_threads=num_cores,
            gpu_options=gpu_options,
        )
        self._tf_random_seed = tf_random_seed
        self._save_summary_steps = save_summary_steps
        self._save_checkpoints_secs = save_checkpoints_secs
        if save_checkpoints_secs == RunConfig._USE_DEFAULT:
            self._save_checkpoints_secs = 600 if save_checkpoints_steps is None else None
        self._save_checkpoints_steps = save_checkpoints_steps
        self._log_step_count_steps = log_step_count_steps
        self._protocol = protocol
        self._session_config = session_config
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._model_dir = _model_dir(model_dir)
        self._session_creation_timeout_secs = session_creation_timeout_secs

    @property
    def tf_config(self) -> Any:
        """The ``ConfigProto`` of ``num_cores``, ``log_device_placement`` and ``gpu_memory_fraction``."""
        return self._tf_config

    def uid(self, whitelist: Optional[List[str]] = None) -> str:
        """A string of this config's fields, less ``whitelist`` (default: the checkpoint/summary settings)."""
        skip = {"_" + name for name in (_UID_WHITELIST if whitelist is None else whitelist)}
        state = {k: v for k, v in vars(self).items() if not k.startswith("__") and k not in skip}
        ordered = collections.OrderedDict(sorted(state.items()))
        if "_cluster_spec" in ordered:
            ordered["_cluster_spec"] = collections.OrderedDict(sorted(ordered["_cluster_spec"].as_dict().items()))
        return ", ".join("%s=%r" % item for item in ordered.items())


def _model_dir(model_dir: Optional[str]) -> Optional[str]:
    from_env = _tf_config().get("model_dir", None)
    if from_env is not None and model_dir is not None and from_env != model_dir:
        raise ValueError(
            "`model_dir` provided in RunConfig construct, if set, must have the same value as the model_dir in "
            'TF_CONFIG. model_dir: {}\nTF_CONFIG["model_dir"]: {}.\n'.format(model_dir, from_env)
        )
    return model_dir or from_env
