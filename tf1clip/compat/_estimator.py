"""tensorflow-estimator 2.15.0 on TensorFlow 2.16+: the compatibility patches, in one place.

tensorflow-estimator 2.15.0 is pure Python without a TensorFlow pin. On TensorFlow 2.16 to
2.21 it fails to import only because TensorFlow removed a few internals it imports, and its
canned estimators need Keras 2 (tf-keras) as ``tf.keras``. ``PATCHES`` names each fix;
``apply()`` runs them once, before tensorflow-estimator is imported, and each patch changes
something only where the running TensorFlow lacks what it supplies (checked on TF 2.15.1, where
none applies, 2.16.2 and 2.21.0). These patches add what is missing and replace nothing; the last,
``session_threads``, restores a TF 1.x behaviour on every TF 2.x:

* ``tf_export_estimator_api``: ``tf_export.ESTIMATOR_API_NAME`` and its ``API_ATTRS`` /
  ``API_ATTRS_V1`` entries (removed in TF 2.16), with TF 2.15's values;
* ``distribute_estimator_training``: ``tensorflow.python.distribute.estimator_training``
  (removed in TF 2.16). The stand-in runs ``RunConfig`` without the distribute coordinator,
  as TF 2.15 did for local training, for a ``TF_CONFIG`` cluster without ``train_distribute``
  and for a ``master`` job; the coordinator itself (``train_distribute`` or
  ``experimental_distribute`` with a ``TF_CONFIG`` cluster) raises ``NotImplementedError``;
* ``tpu_removed_modules``: ``tensorflow.python.tpu.tpu_embedding``, ``session_support`` and
  ``tpu_embedding_gradient`` (removed in TF 2.16/2.17), as stand-ins whose every use raises
  ``NotImplementedError`` (TPUEstimator's TPU embedding and its TPU session hooks);
* ``legacy_keras``: on TF 2.16+, ``TF_USE_LEGACY_KERAS=1`` unless ``tf.keras`` is already
  tf-keras (set only when it is unset, and only if ``tf.keras`` has not resolved to Keras 3 yet);
* ``session_threads`` (every TF 2.x, 2.15 included): ``RunConfig(session_config=...)``'s
  ``intra_op_parallelism_threads`` / ``inter_op_parallelism_threads`` take effect, as on TF 1.x.
  On TF 2.x, building the training graph (the global step's ``cond``, a control flow v2 function)
  starts TensorFlow's eager runtime before the Estimator's first Session, and the CPU device's
  intra-op thread pool is created once per process with the runtime's thread counts (default: one
  per core): the session's counts were silently ignored. ``train``, ``evaluate``, ``predict`` and the
  SavedModel exports now first give the runtime the session's nonzero counts, where the runtime has
  not started and ``tf.config.threading`` has no count of its own (it then holds for the process,
  as the first session's pool did on TF 1.x). Checked on TF 2.15.1, 2.16.2 and 2.21.0.

The other patches change something only where the running TensorFlow lacks what they supply. A
program that never imports ``tf1clip.estimator`` gets none of this. Each patch makes its changes through
``_JOURNAL``, so that ``PATCHES.undo(name)`` restores them; tf1clip.fidelity lists each as a record.

``report_metric_aliases(estimator)`` is no patch: it wraps one Estimator instance's
``_call_model_fn_eval`` (tensorflow-estimator 2.15.0's) so that ``tf1clip.contrib.learn.Estimator``
reports a ``model_fn``'s own ``'loss'`` metric, as TF 1.15 did.
"""

import functools
import importlib
import importlib.util
import os
import sys
import types
import warnings
from typing import Any, Callable, Dict, List

from tf1clip.compat import _tf
from tf1clip.compat._patchset import Journal, PatchSet, where

ESTIMATOR_API_NAME = "estimator"
_LEGACY_KERAS_VAR = "TF_USE_LEGACY_KERAS"
_LEGACY_KERAS_ON = ("true", "True", "1")

INSTALL_HINT = "python3 -m pip install 'tensorflow-estimator==2.15.0' (or '.[cpu,estimator]' in a tf1clip checkout)"
KERAS_HINT = "python3 -m tf1clip.install_extras legacy-keras"


def _removed(feature: str, module: str) -> str:
    return (
        "%s is not available on TensorFlow %s: TensorFlow removed %s, which it needs (TensorFlow 2.15 "
        "with tensorflow-estimator 2.15 is the last release that has it). tf1clip.estimator supports "
        "Estimators on CPUs and GPUs, locally, with tf.distribute strategies on one machine and on "
        "parameter-server clusters without the distribute coordinator (docs/estimator.rst)."
        % (feature, _tf.tf.__version__, module)
    )


class _UnavailableType(type):
    """Calling a stand-in, or an ``isinstance``/``issubclass`` check against it, raises ``NotImplementedError``."""

    def _raise(cls) -> Any:
        raise NotImplementedError(_removed(vars(cls)["_feature"], vars(cls)["_module"]))

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._raise()

    def __instancecheck__(cls, instance: Any) -> bool:
        return cls._raise()

    def __subclasscheck__(cls, subclass: Any) -> bool:
        return cls._raise()


class _RemovedModule(types.ModuleType):
    """A module TensorFlow removed: its names exist (so importing code imports) and raise when used."""

    def __init__(self, name: str, feature: str, patch: str):
        super().__init__(name, "Stand-in added by tf1clip.estimator (%s): %s" % (patch, _removed(feature, name)))
        self._tf1clip_patch = patch
        self._tf1clip_feature = feature

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        stand_in = _UnavailableType(name, (), {"_feature": self._tf1clip_feature, "_module": self.__name__})
        setattr(self, name, stand_in)
        return stand_in


def _module_missing(name: str) -> bool:
    if sys.modules.get(name) is not None:
        return False
    try:
        return importlib.util.find_spec(name) is None
    except ImportError:
        return True


_JOURNAL = Journal()


def _install_module(module: types.ModuleType) -> None:
    importlib.import_module(module.__name__.rpartition(".")[0])
    _JOURNAL.add_module(module)


# --- tf_export_estimator_api -----------------------------------------------------------------------


def _patch_tf_export() -> bool:
    """``tf_export_estimator_api``: TF 2.15's ``ESTIMATOR_API_NAME`` and its ``API_ATTRS(_V1)`` entries."""
    tf_export = _tf.tf_export_module()
    if hasattr(tf_export, "ESTIMATOR_API_NAME") and ESTIMATOR_API_NAME in tf_export.API_ATTRS:
        return False
    attributes = type(tf_export.API_ATTRS[tf_export.TENSORFLOW_API_NAME])
    _JOURNAL.setattr(tf_export, "ESTIMATOR_API_NAME", ESTIMATOR_API_NAME)
    for table, suffix in (("API_ATTRS", ""), ("API_ATTRS_V1", "_v1")):
        mapping = getattr(tf_export, table)
        if ESTIMATOR_API_NAME not in mapping:
            value = attributes("_estimator_api_names" + suffix, "_estimator_api_constants" + suffix)
            _JOURNAL.setitem(mapping, ESTIMATOR_API_NAME, value, where(tf_export, table) + "[%r]" % ESTIMATOR_API_NAME)
    return True


# --- distribute_estimator_training ---------------------------------------------------------------

ESTIMATOR_TRAINING = "tensorflow.python.distribute.estimator_training"
_COORDINATOR = "The distribute coordinator (RunConfig(train_distribute=...) with a TF_CONFIG cluster)"


def _init_run_config(config, tf_config):
    """TF 2.15's ``init_run_config`` for every case that does not start the distribute coordinator."""
    experimental = config._experimental_distribute
    for kind in ("train", "eval"):
        chosen = getattr(experimental, kind + "_distribute", None) if experimental else None
        if chosen:
            if getattr(config, "_%s_distribute" % kind):
                raise ValueError(
                    "Either `%s_distribute` or `experimental_distribute.%s_distribute` can be set." % (kind, kind)
                )
            setattr(config, "_%s_distribute" % kind, chosen)
    cluster = (tf_config or {}).get("cluster", {})
    remote = bool(config._train_distribute and experimental and getattr(experimental, "remote_cluster", None))
    if remote or (cluster and "master" not in cluster and config._train_distribute):
        raise NotImplementedError(_removed(_COORDINATOR, ESTIMATOR_TRAINING))
    config._distribute_coordinator_mode = None
    config._init_distributed_setting_from_environment_var(tf_config)
    config._maybe_overwrite_session_config_for_distributed_training()


def _should_run_distribute_coordinator(config):
    return bool(getattr(config, "_distribute_coordinator_mode", None))


def _coordinator_only(*args, **kwargs):
    raise NotImplementedError(_removed(_COORDINATOR, ESTIMATOR_TRAINING))


def _patch_estimator_training() -> bool:
    """``distribute_estimator_training``: the module, without the distribute coordinator."""
    if not _module_missing(ESTIMATOR_TRAINING):
        return False
    module = _RemovedModule(ESTIMATOR_TRAINING, _COORDINATOR, "distribute_estimator_training")
    vars(module).update(
        init_run_config=_init_run_config,
        should_run_distribute_coordinator=_should_run_distribute_coordinator,
        train_and_evaluate=_coordinator_only,
        estimator_train=_coordinator_only,
        estimator_evaluate=_coordinator_only,
    )
    _install_module(module)
    return True


# --- tpu_removed_modules -------------------------------------------------------------------------

TPU_MODULES = {
    "tensorflow.python.tpu.tpu_embedding": "TPUEstimator's TPU embedding (embedding_config_spec)",
    "tensorflow.python.tpu.tpu_embedding_gradient": "TPUEstimator's TPU embedding (embedding_config_spec)",
    "tensorflow.python.tpu.session_support": "TPUEstimator's TPU worker watchdog and shutdown hooks",
}


def _patch_tpu_modules() -> bool:
    """``tpu_removed_modules``: the three TPU modules tensorflow-estimator imports, as stand-ins."""
    changed = False
    for name, feature in TPU_MODULES.items():
        if _module_missing(name):
            _install_module(_RemovedModule(name, feature, "tpu_removed_modules"))
            changed = True
    return changed


# --- legacy_keras ----------------------------------------------------------------------------------


def keras_is_legacy() -> bool:
    """Whether ``tf.keras`` is Keras 2 (tf-keras, or the keras 2.15 package TF 2.15 comes with)."""
    package = importlib.import_module(_tf.tf.keras.Model.__module__.split(".")[0])
    return str(getattr(package, "__version__", "")).startswith("2.")


def _patch_legacy_keras() -> bool:
    """``legacy_keras``: ``TF_USE_LEGACY_KERAS=1`` on TF 2.16+ when unset, so that ``tf.keras`` is tf-keras."""
    if _tf.version_tuple(_tf.tf.__version__) < (2, 16) or os.environ.get(_LEGACY_KERAS_VAR) in _LEGACY_KERAS_ON:
        if not keras_is_legacy():
            raise ImportError(_keras_message("tf.keras is Keras 3"))
        return False
    if importlib.util.find_spec("tf_keras") is None:
        raise ImportError(_keras_message("tf-keras is not installed"))
    _JOURNAL.setenv(_LEGACY_KERAS_VAR, "1")
    if not keras_is_legacy():
        _JOURNAL.undo_last()
        raise ImportError(
            _keras_message(
                "tf.keras was already Keras 3 when tf1clip.estimator was imported; set %s=1 before "
                "TensorFlow is imported, or import tf1clip.estimator before anything uses tf.keras" % _LEGACY_KERAS_VAR
            )
        )
    return True


def _keras_message(reason: str) -> str:
    return (
        "tf1clip.estimator needs Keras 2 as tf.keras on TensorFlow %s (the canned estimators and "
        "feature columns are Keras 2 code): %s. Install tf-keras at TensorFlow's version with %s; "
        "tf1clip.estimator sets %s=1 if it is unset." % (_tf.tf.__version__, reason, KERAS_HINT, _LEGACY_KERAS_VAR)
    )


# --- session_threads -----------------------------------------------------------------------------

ESTIMATOR_MODULE = "tensorflow_estimator.python.estimator.estimator"
SESSION_METHODS = ("train", "evaluate", "predict", "export_saved_model", "experimental_export_all_saved_models")
# kind -> the environment variable that sets its count.
_THREAD_VARS = {"intra_op": "TF_NUM_INTRAOP_THREADS", "inter_op": "TF_NUM_INTEROP_THREADS"}
_threads_warned: set = set()


def session_threads(session_config: Any) -> Dict[str, int]:
    """Gives TF's runtime ``session_config``'s nonzero thread counts while it can take them; returns those set.

    A count is set only where ``tf.config.threading`` reports none (0) and the runtime has not started
    (``tf.config.threading`` refuses a change after that, and then nothing changes). Where the runtime
    has started, a ``RuntimeWarning`` says so, once per count (not when ``TF_NUM_INTRAOP_THREADS`` /
    ``TF_NUM_INTEROP_THREADS`` sets it).
    """
    threading_api = _tf.tf.config.threading
    chosen = {}
    for kind in _THREAD_VARS:
        wanted = getattr(session_config, kind + "_parallelism_threads", 0) if session_config is not None else 0
        if wanted > 0 and getattr(threading_api, "get_%s_parallelism_threads" % kind)() == 0:
            try:
                getattr(threading_api, "set_%s_parallelism_threads" % kind)(wanted)
            except RuntimeError:
                _warn_started(kind, wanted)
                continue
            chosen[kind] = wanted
    return chosen


def _warn_started(kind: str, wanted: int) -> None:
    if _THREAD_VARS[kind] in os.environ or (kind, wanted) in _threads_warned:
        return
    _threads_warned.add((kind, wanted))
    warnings.warn(
        "The Estimator's session_config asks for %s_parallelism_threads=%d, but TensorFlow's runtime started "
        "before the Estimator built its graph, so its thread pools keep their own counts (one thread per core "
        "unless set): call tf.config.threading.set_%s_parallelism_threads(%d) at the start of the program."
        % (kind, wanted, kind, wanted),
        RuntimeWarning,
        stacklevel=4,
    )


def _with_session_threads(method: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        session_threads(getattr(self, "_session_config", None))
        return method(self, *args, **kwargs)

    functools.update_wrapper(wrapper, method)
    wrapper._tf1clip_session_threads = True  # type: ignore[attr-defined]
    return wrapper


def _patch_session_threads() -> bool:
    """``session_threads``: the Estimator's graph-building methods first call ``session_threads``."""
    estimator_class = importlib.import_module(ESTIMATOR_MODULE).Estimator
    changed = False
    for name in SESSION_METHODS:
        method = vars(estimator_class).get(name)
        if method is not None and not getattr(method, "_tf1clip_session_threads", False):
            _JOURNAL.setattr(estimator_class, name, _with_session_threads(method))
            changed = True
    return changed


PATCHES = PatchSet(
    {
        "tf_export_estimator_api": _patch_tf_export,
        "distribute_estimator_training": _patch_estimator_training,
        "tpu_removed_modules": _patch_tpu_modules,
        "legacy_keras": _patch_legacy_keras,
        "session_threads": _patch_session_threads,
    },
    checked_on="tensorflow-estimator 2.15.0 on TensorFlow 2.15.1, 2.16.2, 2.21.0",
    journal=_JOURNAL,
)


def apply() -> List[str]:
    """Applies ``PATCHES`` for this TensorFlow, once; returns the names of those that changed something."""
    return PATCHES.apply()


def load() -> types.ModuleType:
    """tensorflow-estimator's v1 API module (``tf.compat.v1.estimator`` on TF 2.15), patched for this TF."""
    if importlib.util.find_spec("tensorflow_estimator") is None:
        raise ImportError(
            "tf1clip.estimator needs tensorflow-estimator 2.15, which is not installed: %s" % INSTALL_HINT
        )
    apply()
    return importlib.import_module("tensorflow_estimator.python.estimator.api._v1.estimator")


METRIC_ALIAS_PREFIX = "tf1clip_metric_alias/"


def report_metric_aliases(estimator: Any) -> Any:
    """Makes ``estimator``'s evaluation report the metric ``METRIC_ALIAS_PREFIX + name`` as ``name``; returns it.

    tensorflow-estimator refuses a ``model_fn`` metric named ``'loss'`` and always reports its own mean loss there;
    TF 1.15's ``tf.contrib.learn.Estimator`` kept the ``model_fn``'s. Under an alias the ``model_fn``'s metric is
    built and updated, and replaces the Estimator's in the results and the evaluation summary (the Estimator's
    mean-loss metric is still built and updated, not reported). Set on the instance: tensorflow-estimator forbids
    subclasses that override its methods.
    """
    call_model_fn_eval = estimator._call_model_fn_eval

    def with_aliases(input_fn: Any, config: Any) -> Any:
        result = call_model_fn_eval(input_fn, config)
        eval_dict = result[4]
        for key in [key for key in eval_dict if str(key).startswith(METRIC_ALIAS_PREFIX)]:
            eval_dict[key[len(METRIC_ALIAS_PREFIX) :]] = eval_dict.pop(key)
        return result

    estimator._call_model_fn_eval = with_aliases
    return estimator
