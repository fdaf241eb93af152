"""Routing of ``tf1clip.contrib.gan`` to TF-GAN (tensorflow-gan 2.1.0), and TF-GAN's compatibility layer.

``DELEGATES`` maps each ``tf1clip.contrib.gan`` namespace to the TF-GAN
module whose public names it stands for (``tf1clip.contrib._manifest.DELEGATES``'s
TF-GAN routes, which ``tf1clip-upgrade``'s tables are derived from too).

Nothing here imports TF-GAN before a delegated name is used. Then ``apply``
imports it once, through ``_GanFinder``, and patches it (``PATCHES``,
docs/gan.rst). Only TF-GAN's own modules see a difference: while they load,
their ``import`` statements give stand-ins for ``tensorflow`` (with
``estimator`` where TF 2.16+ lacks it), ``tensorflow_hub`` and
``tensorflow_probability`` (imported on first use); afterwards their global
``inspect`` gets ``getargspec`` back on Python 3.11+. Each stand-in forwards to
the original module. TensorFlow and code that does not use TF-GAN are left as
they are. Each change goes through ``_JOURNAL`` (``PATCHES.undo(name)`` restores
it: undoing ``lazy_hub_and_probability`` takes TF-GAN's modules out of
``sys.modules``); tf1clip.fidelity lists each patch.
"""

import builtins
import collections
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import inspect
import sys
import types
from typing import Any, Callable, Dict, List, Optional

from tf1clip.compat._patchset import Journal, PatchSet, Shim
from tf1clip.contrib import _manifest
from tf1clip.contrib import _successor

# tf1clip.contrib.gan namespace -> the TF-GAN module behind it: the manifest's routes to TF-GAN.
DELEGATES: Dict[str, str] = {
    namespace: module for namespace, (module,) in _manifest.delegates("tensorflow_gan").items()
}

INSTALL_HINT = "pip install 'tf1clip[gan]'"


def _tf():
    import tensorflow as tf

    return tf


_JOURNAL = Journal()


# --------------------------------------------------------------------------------------
# estimator_namespace: TF-GAN 2.1.0 needs ``tf.estimator`` while it is imported.


def _has_estimator() -> bool:
    try:
        _tf().estimator.SessionRunHook  # noqa: B018
    except (AttributeError, ImportError):
        return False
    return True


def _missing_estimator_class(what: str) -> type:
    """A base class for TF-GAN's Estimators that raises when one is built."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ImportError(
            "%s needs tf.estimator, which TensorFlow %s does not have (TF 2.16 removed it). TF-GAN's train "
            "functions (gan_model, gan_loss, gan_train_ops, gan_train) work without it; for TF-GAN's "
            "Estimators use TensorFlow 2.15 with tensorflow-estimator (pip install 'tf1clip[estimator]')."
            % (type(self).__name__, _tf().__version__)
        )

    return type(what, (), {"__init__": __init__, "__doc__": "Unavailable: %s needs tf.estimator." % what})


class _EstimatorStandIn(types.ModuleType):
    """``tf.estimator`` as TF-GAN sees it on a TensorFlow without one.

    Its hooks are ``tf.compat.v1.train``'s (``tf.estimator.SessionRunHook`` was
    that class); ``Estimator`` and ``tpu.TPUEstimator`` are bases that raise
    ``ImportError`` when built; any other name raises ``AttributeError``.
    """

    def __init__(self, name: str):
        super().__init__(name, "tf.estimator stand-in for TF-GAN (tf1clip patch estimator_namespace)")
        train = _tf().compat.v1.train
        self.SessionRunHook = train.SessionRunHook
        self.SessionRunArgs = train.SessionRunArgs
        self.SessionRunContext = train.SessionRunContext
        self.SessionRunValues = train.SessionRunValues
        self.Estimator = _missing_estimator_class("Estimator")
        self.tpu = Shim(
            types.ModuleType(name + ".tpu"),
            "estimator_namespace",
            {"TPUEstimator": _missing_estimator_class("TPUEstimator")},
        )
        self._tf1clip_patch = "estimator_namespace"

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(
            "tf.estimator.%s is not available on TensorFlow %s (TF 2.16 removed tf.estimator); TF-GAN's "
            "Estimator API needs TensorFlow 2.15 with tensorflow-estimator." % (name, _tf().__version__)
        )


_tf_for_gan: Optional[types.ModuleType] = None


def _tensorflow_for_gan() -> types.ModuleType:
    """``tensorflow`` as TF-GAN's modules see it: ``estimator`` and ``compat.v1.estimator`` added."""
    global _tf_for_gan
    if _tf_for_gan is None:
        tf = _tf()
        v1 = Shim(tf.compat.v1, "estimator_namespace", {"estimator": _EstimatorStandIn("tf.compat.v1.estimator")})
        compat = Shim(tf.compat, "estimator_namespace", {"v1": v1})
        _tf_for_gan = Shim(
            tf, "estimator_namespace", {"estimator": _EstimatorStandIn("tf.estimator"), "compat": compat}
        )
    return _tf_for_gan


class _LazyModule(types.ModuleType):
    """A module TF-GAN imports at load time but uses only inside a few functions; imported on first use.

    ``tensorflow_probability`` (``tfp.stats.covariance`` in the Frechet
    distances) needs tf-keras and a TFP release matched to TensorFlow;
    ``tensorflow_hub`` (the Inception classifiers) 0.15 does not import on TF
    2.16+. Deferring them lets ``gan_model`` ... ``gan_train`` run without either.
    """

    def __init__(self, name: str):
        super().__init__(name, "lazily imported by tf1clip for TF-GAN (patch lazy_hub_and_probability)")
        self._tf1clip_patch = "lazy_hub_and_probability"

    def __getattr__(self, attr: str) -> Any:
        if attr == "__version__" and self.__name__ == "tensorflow_probability":
            return importlib.metadata.version("tensorflow-probability")  # TF-GAN compares it with "0.7"
        if attr.startswith("__"):
            raise AttributeError(attr)
        try:
            module = importlib.import_module(self.__name__)
        except ImportError as exc:
            raise ImportError(
                "TF-GAN needs %s for this (%s.%s) and it does not import: %s. TF-GAN's Frechet distances "
                "need tensorflow-probability released for TensorFlow %s and tf-keras; its Inception "
                "classifiers need tensorflow_hub." % (self.__name__, self.__name__, attr, exc, _tf().__version__)
            ) from exc
        return getattr(module, attr)


_LAZY = ("tensorflow_hub", "tensorflow_probability")
_lazy_modules: Dict[str, _LazyModule] = {}


def _import_for_gan(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002 - __import__'s names
    if level == 0 and not fromlist and name in _LAZY:
        if name not in _lazy_modules:
            _lazy_modules[name] = _LazyModule(name)
        return _lazy_modules[name]
    module = builtins.__import__(name, globals, locals, fromlist, level)
    if _estimator_patched and level == 0 and not fromlist and (name == "tensorflow" or name.startswith("tensorflow.")):
        return _tensorflow_for_gan()
    return module


_estimator_patched = False
_GAN_BUILTINS = dict(vars(builtins), __import__=_import_for_gan)


class _GanLoader(importlib.abc.Loader):
    def __init__(self, base: Any):
        self._base = base

    def create_module(self, spec):
        return self._base.create_module(spec)

    def exec_module(self, module):
        module.__dict__["__builtins__"] = _GAN_BUILTINS
        self._base.exec_module(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


class _GanFinder(importlib.abc.MetaPathFinder):
    """Loads ``tensorflow_gan`` modules so that their ``import tensorflow as tf`` gets the stand-in."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "tensorflow_gan" and not fullname.startswith("tensorflow_gan."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            spec.loader = _GanLoader(spec.loader)
        return spec


def _gan_modules() -> List[types.ModuleType]:
    return [
        module
        for name, module in sorted(sys.modules.items())
        if (name == "tensorflow_gan" or name.startswith("tensorflow_gan.")) and isinstance(module, types.ModuleType)
    ]


def _import_tensorflow_gan() -> None:
    """Imports ``tensorflow_gan`` through ``_GanFinder`` unless it is imported already."""
    if "tensorflow_gan" in sys.modules:
        return
    # Modules left by an import that failed (on tf.estimator) are loaded again, through the finder.
    for module in _gan_modules():
        if module.__dict__.get("__builtins__") is not _GAN_BUILTINS:
            del sys.modules[module.__name__]
    finder = _GanFinder()
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module("tensorflow_gan")
    finally:
        sys.meta_path.remove(finder)
        _JOURNAL.loaded([module.__name__ for module in _gan_modules()])


def _patch_estimator_namespace() -> bool:
    """``estimator_namespace``: on a TensorFlow without ``tf.estimator`` (2.16+), TF-GAN's modules get a
    ``tf`` whose ``estimator`` is a stand-in (``SessionRunHook`` is ``tf.compat.v1.train.SessionRunHook``)."""
    if "tensorflow_gan" in sys.modules or _has_estimator():
        return False
    _JOURNAL.setattr(sys.modules[__name__], "_estimator_patched", True)
    return True


def _patch_lazy_imports() -> bool:
    """``lazy_hub_and_probability``: TF-GAN imports ``tensorflow_hub`` and ``tensorflow_probability`` on first use."""
    if "tensorflow_gan" in sys.modules:
        return False
    _import_tensorflow_gan()
    return True


# --------------------------------------------------------------------------------------
# inspect_getargspec: Python 3.11 removed inspect.getargspec, which gan_loss calls.

ArgSpec = collections.namedtuple("ArgSpec", ["args", "varargs", "keywords", "defaults"])


def _getargspec(func: Callable[..., Any]) -> ArgSpec:
    """``inspect.getargspec`` of Python <= 3.10, from ``getfullargspec`` (keyword-only arguments are not listed)."""
    spec = inspect.getfullargspec(func)
    return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def _patch_getargspec() -> bool:
    """``inspect_getargspec``: TF-GAN modules whose ``inspect`` lacks ``getargspec`` get a stand-in with it."""
    if hasattr(inspect, "getargspec"):
        return False
    changed = False
    for module in _gan_modules():
        current = vars(module).get("inspect")
        if current is inspect:
            _JOURNAL.setattr(module, "inspect", Shim(inspect, "inspect_getargspec", {"getargspec": _getargspec}))
            changed = True
    return changed


def _require_tensorflow_gan(what: str) -> None:
    if importlib.util.find_spec("tensorflow_gan") is None:
        raise _successor.not_installed(
            what, "TF-GAN", INSTALL_HINT, "tensorflow-gan 2.1.0, the maintained successor of tf.contrib.gan"
        )


PATCHES = PatchSet(
    {
        "estimator_namespace": _patch_estimator_namespace,
        "lazy_hub_and_probability": _patch_lazy_imports,
        "inspect_getargspec": _patch_getargspec,
    },
    checked_on="tensorflow-gan 2.1.0 on TensorFlow 2.15 and 2.21 with Python 3.11",
    requires=lambda: _require_tensorflow_gan("tf1clip's TF-GAN compatibility layer"),
    journal=_JOURNAL,
)


def apply() -> List[str]:
    """Imports TF-GAN patched for this TensorFlow and Python, once; returns the names of the patches that changed it.

    Raises:
      ImportError: TF-GAN is not installed; the message says ``pip install 'tf1clip[gan]'``.
    """
    return PATCHES.apply()


def load(namespace: str, what: str) -> types.ModuleType:
    """The TF-GAN module behind ``namespace`` (a ``DELEGATES`` key), patched.

    Raises:
      ImportError: TF-GAN is not installed; the message names ``what``.
    """
    _require_tensorflow_gan(what)
    apply()
    return importlib.import_module(DELEGATES[namespace])


def resolve(namespace: str, name: str, qualname: str) -> Any:
    """The TF-GAN object that ``tf1clip.contrib.<namespace>.<name>`` stands for.

    Raises:
      AttributeError: ``name`` is private or not a public name of the TF-GAN module.
      ImportError: TF-GAN is not installed.
    """
    return _successor.resolve(
        qualname,
        name,
        lambda what: [load(namespace, what)],
        _successor.is_public,
        "TF-GAN's %s does not define it" % DELEGATES[namespace],
    )


def public_names(namespace: str) -> List[str]:
    """Public names of the TF-GAN module behind ``namespace`` (empty without TF-GAN); imports and patches TF-GAN."""
    if importlib.util.find_spec("tensorflow_gan") is None:
        return []
    return _successor.public_names([load(namespace, namespace)], _successor.is_public)


def module_getattr(namespace: str, module_globals: Dict[str, Any]) -> Callable[[str], Any]:
    """A PEP 562 ``__getattr__`` delegating to TF-GAN; caches what it finds."""
    return _successor.module_getattr(functools.partial(resolve, namespace), module_globals)


def module_dir(namespace: str, module_globals: Dict[str, Any]) -> Callable[[], List[str]]:
    """A PEP 562 ``__dir__``: the module's own names plus TF-GAN's."""
    return _successor.module_dir(functools.partial(public_names, namespace), module_globals)
