"""``tf.contrib.learn`` (TF 1.15) on ``tf1clip.estimator``: docs/learn.rst.

Each name is imported on first use: ``preprocessing`` and ``datasets`` need only NumPy (and TensorFlow for
``datasets``); ``Estimator``, ``RunConfig``, ``Experiment``, ``learn_runner`` and the export helpers need
``tf1clip.estimator`` (tensorflow-estimator 2.15, ``pip install 'tf1clip[estimator]'``).
"""

import importlib
from typing import Any, List

# public name -> the tf1clip.contrib.learn submodule defining it ("" for a submodule itself)
_EXPORTS = {
    "preprocessing": "",
    "datasets": "",
    "learn_runner": "",
    "experiment": "",
    "utils": "",
    "ModeKeys": "model_fn",
    "ModelFnOps": "model_fn",
    "RunConfig": "run_config",
    "TaskType": "run_config",
    "Environment": "run_config",
    "ClusterConfig": "run_config",
    "Estimator": "estimator",
    "BaseEstimator": "estimator",
    "SKCompat": "estimator",
    "NotFittedError": "estimator",
    "Experiment": "experiment",
    "ExportStrategy": "utils.saved_model_export_utils",
    "make_export_strategy": "utils.saved_model_export_utils",
    "InputFnOps": "utils.input_fn_utils",
    "build_parsing_serving_input_fn": "utils.input_fn_utils",
    "ProblemType": "model_fn",
    "PredictionKey": "model_fn",
    "MetricSpec": "estimator",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'tf1clip.contrib.learn' has no attribute %r" % name)
    value = importlib.import_module(__name__ + "." + (module or name))
    if module:
        value = getattr(value, name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
