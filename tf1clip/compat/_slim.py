"""Routing of ``tf1clip.contrib`` names to tf-slim, and tf-slim's compatibility layer for TF 2.16+.

``DELEGATES`` says where a ``tf1clip.contrib`` name that tf1clip does not
define itself comes from: namespace -> tf-slim modules, searched in order
(``tf1clip.contrib._manifest.DELEGATES``'s tf-slim routes, which
``tf1clip-upgrade``'s tables are derived from too).

Nothing here imports tf-slim before a delegated name is used. Then
``load`` imports tf-slim and ``apply`` patches it once (see ``PATCHES`` and
docs/slim.rst, "tf-slim on TF 2"). The patches only rebind module globals of
tf-slim's own modules (each gets a stand-in module that forwards to the
original and adds what TensorFlow removed); TensorFlow, tf-keras and code
that does not use tf-slim are left as they are. Each rebinding goes through
``_JOURNAL`` (``PATCHES.undo(name)`` restores it; tf1clip.fidelity lists each patch).
"""

import contextlib
import functools
import importlib
import importlib.util
import sys
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1clip.compat._patchset import Journal, PatchSet, Shim
from tf1clip.contrib import _manifest
from tf1clip.contrib import _successor

# tf1clip.contrib namespace -> tf-slim modules searched in order: the manifest's routes to tf-slim.
DELEGATES: Dict[str, Tuple[str, ...]] = _manifest.delegates("tf_slim")

INSTALL_HINT = "pip install 'tf1clip[slim]'"

# Names star-imported from __future__ that tf-slim's namespaces expose by accident.
_NOT_PUBLIC = frozenset({"absolute_import", "division", "print_function"})


def _require_tf_slim(what: str) -> types.ModuleType:
    try:
        return importlib.import_module("tf_slim")
    except ImportError as exc:
        raise _successor.not_installed(
            what,
            "tf-slim",
            INSTALL_HINT,
            "tf-slim, Google's maintained port of tf.contrib.slim/layers/framework/losses/metrics/training",
        ) from exc


def load(namespace: str, what: str) -> List[types.ModuleType]:
    """Imports the tf-slim modules behind ``namespace`` (a ``DELEGATES`` key), patched.

    Raises:
      ImportError: tf-slim is not installed; the message names ``what`` and says
        ``pip install 'tf1clip[slim]'``.
    """
    _require_tf_slim(what)
    apply()
    return [importlib.import_module(name) for name in DELEGATES[namespace]]


def alias_package(namespace: str, name: str) -> types.ModuleType:
    """The tf-slim package behind ``namespace`` (patched), its loaded submodules importable as ``name.<sub>``.

    For a module that replaces itself by the package (``sys.modules[__name__] = ...``):
    ``import name.sub`` then finds tf-slim's module instead of loading a second copy.
    """
    (package,) = load(namespace, name)
    prefix = package.__name__ + "."
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith(prefix):
            sys.modules[name + "." + module_name[len(prefix) :]] = module
    return package


def _is_public(module: types.ModuleType, name: str) -> bool:
    return _successor.is_public(module, name, _NOT_PUBLIC, "tf_slim")


def _subpackage(name: str) -> Optional[types.ModuleType]:
    if importlib.util.find_spec("tf_slim." + name) is None:
        return None
    return importlib.import_module("tf_slim." + name)


def resolve(namespace: str, name: str, qualname: str) -> Any:
    """The tf-slim object that ``tf1clip.contrib.<namespace>.<name>`` stands for.

    Public names of the ``DELEGATES`` modules, searched in order; for ``slim``
    also tf-slim's subpackages that its ``__init__`` does not import
    (``slim.nets``).

    Raises:
      AttributeError: ``name`` is private or tf-slim has no such public name.
      ImportError: tf-slim is not installed.
    """
    return _successor.resolve(
        qualname,
        name,
        functools.partial(load, namespace),
        _is_public,
        "neither tf1clip nor tf-slim (%s) defines it" % ", ".join(DELEGATES[namespace]),
        _subpackage if namespace == "slim" else None,
    )


def public_names(namespace: str) -> List[str]:
    """Delegated public names of ``namespace`` (empty without tf-slim); does not patch."""
    if importlib.util.find_spec("tf_slim") is None:
        return []
    return _successor.public_names((importlib.import_module(name) for name in DELEGATES[namespace]), _is_public)


def module_getattr(namespace: str, module_globals: Dict[str, Any]) -> Callable[[str], Any]:
    """A PEP 562 ``__getattr__`` for a namespace that delegates to tf-slim; caches what it finds."""
    return _successor.module_getattr(functools.partial(resolve, namespace), module_globals)


def module_dir(namespace: str, module_globals: Dict[str, Any]) -> Callable[[], List[str]]:
    """A PEP 562 ``__dir__``: the module's own names plus the delegated ones."""
    return _successor.module_dir(functools.partial(public_names, namespace), module_globals)


# --------------------------------------------------------------------------------------
# The compatibility layer.

_JOURNAL = Journal()


def _tensorflow():
    from tf1clip.compat._tf import tf

    return tf


def _variable(
    initial_value=None,
    trainable=None,
    collections=None,
    validate_shape=True,
    caching_device=None,
    name=None,
    dtype=None,
    constraint=None,
    use_resource=None,
    synchronization=None,
    aggregation=None,
):
    """TF 1.15's ``variable_scope.variable``: a ``tf.compat.v1.Variable`` (resource by default in TF 2)."""
    tf = _tensorflow()
    return tf.compat.v1.Variable(
        initial_value=initial_value,
        trainable=trainable,
        collections=collections,
        validate_shape=validate_shape,
        caching_device=caching_device,
        name=name,
        dtype=dtype,
        constraint=constraint,
        use_resource=use_resource,
        synchronization=synchronization or tf.VariableSynchronization.AUTO,
        aggregation=aggregation or tf.VariableAggregation.NONE,
    )


# TensorFlow module -> {removed name: its public successor}. TF 2.13-2.21 moved these out of the
# modules tf-slim 1.1.0 imports; each is added back only where the module lacks it.
_MOVED: Dict[str, Dict[str, Callable[[], Any]]] = {
    "tensorflow.python.framework.ops": {
        "Tensor": lambda: _tensorflow().Tensor,
        "IndexedSlices": lambda: _tensorflow().IndexedSlices,
    },
    "tensorflow.python.ops.array_ops": {
        "stack": lambda: _tensorflow().stack,
        "unstack": lambda: _tensorflow().unstack,
    },
    "tensorflow.python.ops.control_flow_ops": {
        "cond": lambda: _tensorflow().compat.v1.cond,
        "case": lambda: _tensorflow().compat.v1.case,
        "while_loop": lambda: _tensorflow().compat.v1.while_loop,
        "Assert": lambda: _tensorflow().debugging.Assert,
    },
    "tensorflow.python.ops.variable_scope": {
        "variable": lambda: _variable,
    },
}


_moved_scope: Optional[List[str]] = None


def _tf_slim_modules() -> List[types.ModuleType]:
    """tf-slim's modules loaded when this is first called: those ``import tf_slim`` loads (all that
    use a moved name; ``nets`` and ``layers.sparse_ops`` do not, and are left unimported so
    tf-slim's namespaces stay as shipped). The set is kept, so the patch stays done after
    ``slim.nets`` imports ``tf_slim.nets``."""
    global _moved_scope
    if _moved_scope is None:
        importlib.import_module("tf_slim")
        _moved_scope = sorted(
            name
            for name, module in sys.modules.items()
            if (name == "tf_slim" or name.startswith("tf_slim.")) and isinstance(module, types.ModuleType)
        )
    return [sys.modules[name] for name in _moved_scope if name in sys.modules]


def _patch_moved_symbols() -> bool:
    """``moved_tf_symbols``: ``ops.Tensor``, ``ops.IndexedSlices``, ``array_ops.stack``/``unstack``,
    ``control_flow_ops.cond``/``case``/``while_loop``/``Assert``, ``variable_scope.variable``."""
    changed = False
    for module in _tf_slim_modules():
        for global_name, value in list(vars(module).items()):
            if not isinstance(value, types.ModuleType) or isinstance(value, Shim):
                continue
            moved = _MOVED.get(value.__name__)
            if not moved:
                continue
            extra = {name: make() for name, make in moved.items() if not hasattr(value, name)}
            if extra:
                _JOURNAL.setattr(module, global_name, Shim(value, "moved_tf_symbols", extra))
                changed = True
    return changed


_BATCH_NORM_NAMES = ("BatchNormalization", "BatchNorm", "batch_normalization", "batch_norm")
# Where tf-keras (TF >= 2.16) and Keras 2.13-2.15 keep the v1 BatchNormalization layer.
_LEGACY_NORMALIZATION = (
    "tf_keras.src.legacy_tf_layers.normalization",
    "keras.src.legacy_tf_layers.normalization",
    "keras.legacy_tf_layers.normalization",
)


class _LegacyNormalization(types.ModuleType):
    """Lazily finds the v1 ``BatchNormalization`` layer that TF's ``layers.normalization`` misses."""

    def __init__(self, base: types.ModuleType):
        super().__init__(base.__name__, base.__doc__)
        self._tf1clip_base = base
        self._tf1clip_patch = "batch_norm_legacy_layer"

    def __getattr__(self, name: str) -> Any:
        if name not in _BATCH_NORM_NAMES:
            return getattr(self._tf1clip_base, name)
        for candidate in _LEGACY_NORMALIZATION:
            try:
                module = importlib.import_module(candidate)
            except ImportError:
                continue
            if hasattr(module, name):
                return getattr(module, name)
        tf = _tensorflow()
        raise ImportError(
            "slim.batch_norm needs the v1 BatchNormalization layer of tf-keras on TensorFlow %s: "
            "pip install 'tf-keras~=%s.0'" % (tf.__version__, ".".join(tf.__version__.split(".")[:2]))
        )


def _legacy_normalization_missing(module: types.ModuleType) -> bool:
    try:
        module.BatchNormalization  # noqa: B018
    except ImportError:  # ModuleNotFoundError from TensorFlow's lazy loader
        return True
    return False


def _patch_batch_norm() -> bool:
    """``batch_norm_legacy_layer``: ``slim.batch_norm`` finds the v1 layer in tf-keras."""
    layers = importlib.import_module("tf_slim.layers.layers")
    current = vars(layers)["normalization_layers"]
    if isinstance(current, _LegacyNormalization) or not _legacy_normalization_missing(current):
        return False
    _JOURNAL.setattr(layers, "normalization_layers", _LegacyNormalization(current))
    return True


_supervisor_class = None


def _graph_mode_supervisor():
    """``tf.compat.v1.train.Supervisor`` whose service threads build and run in its graph.

    TF 1.x ran the summary, step-counter and checkpoint threads in graph mode.
    On TF 2 a new thread executes eagerly, so ``training_util.global_step`` and
    ``Saver.save`` take their eager paths on the graph's variables and fail
    ("... is out of scope"). Every ``LooperThread`` body runs inside its
    coordinator's ``stop_on_exception()``; this coordinator also enters the
    supervisor's graph there.

    Queue runners started with an explicit list (``train``'s
    ``SyncReplicasOptimizer`` chief queue runners) can block outside any queue
    (on the next gradient, in ``TakeGrad``), which their queue's cancel op does
    not end; ``stop`` waited out its grace period (120 s) and then raised
    "Coordinator stopped with threads still running". ``stop`` now requests
    the stop and closes their session before joining, which cancels the
    blocked run; ``managed_session`` closed it right after ``stop`` anyway.
    """
    global _supervisor_class
    if _supervisor_class is None:
        from tf1clip.compat import _tf

        tf = _tensorflow()

        class _GraphCoordinator(tf.compat.v1.train.Coordinator):
            def __init__(self, graph):
                super().__init__()
                self._tf1clip_graph = graph

            @contextlib.contextmanager
            def stop_on_exception(self):
                with self._tf1clip_graph.as_default(), super().stop_on_exception():
                    yield

        class Supervisor(tf.compat.v1.train.Supervisor):
            __doc__ = tf.compat.v1.train.Supervisor.__doc__

            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                _tf.set_supervisor_coordinator(self, _GraphCoordinator(_tf.supervisor_graph(self)))
                self._tf1clip_sessions_to_close = []

            def start_queue_runners(self, sess, queue_runners=None):
                if queue_runners is not None and sess not in self._tf1clip_sessions_to_close:
                    self._tf1clip_sessions_to_close.append(sess)
                return super().start_queue_runners(sess, queue_runners)

            def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
                sessions, self._tf1clip_sessions_to_close = self._tf1clip_sessions_to_close, []
                if sessions:
                    self.coord.request_stop()
                    for sess in sessions:
                        sess.close()
                super().stop(
                    threads, close_summary_writer=close_summary_writer, ignore_live_threads=ignore_live_threads
                )

        _supervisor_class = Supervisor
    return _supervisor_class


def _patch_supervisor() -> bool:
    """``supervisor_threads_graph_mode``: ``slim.learning.train``'s service threads run in its graph,
    and its sync chief queue runners end at ``stop``."""
    learning = importlib.import_module("tf_slim.learning")
    current = vars(learning)["supervisor"]
    if isinstance(current, Shim):
        return False
    shim = Shim(current, "supervisor_threads_graph_mode", {"Supervisor": _graph_mode_supervisor()})
    _JOURNAL.setattr(learning, "supervisor", shim)
    return True


PATCHES = PatchSet(
    {
        "moved_tf_symbols": _patch_moved_symbols,
        "batch_norm_legacy_layer": _patch_batch_norm,
        "supervisor_threads_graph_mode": _patch_supervisor,
    },
    checked_on="tf-slim 1.1.0 on TensorFlow 2.15, 2.16, 2.21",
    requires=lambda: _require_tf_slim("tf1clip's tf-slim compatibility layer"),
    journal=_JOURNAL,
)


def apply() -> List[str]:
    """Patches tf-slim for this TensorFlow, once; returns the names of the patches that changed it."""
    return PATCHES.apply()
