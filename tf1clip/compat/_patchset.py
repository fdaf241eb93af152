"""``PatchSet``: the named patches that make one package (tensorflow-estimator, tf-slim, TF-GAN) run on the
installed TensorFlow and Python, applied once per process and each reversible; ``Journal``: what the patches
changed, with what it replaced; ``Shim``: the stand-in module they install."""

import contextlib
import functools
import os
import sys
import threading
import types
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

_MISSING = object()


def where(obj: Any, name: str) -> str:
    """``"module.name"`` or ``"module.Class.name"``: the dotted place of attribute ``name`` of ``obj``."""
    if isinstance(obj, types.ModuleType):
        return "%s.%s" % (obj.__name__, name)
    if isinstance(obj, type):
        return "%s.%s.%s" % (obj.__module__, obj.__qualname__, name)
    return "%s.%s" % (type(obj).__qualname__, name)


class Journal:
    """The changes patches make to other packages' modules, classes, mappings, ``sys.modules`` and
    ``os.environ``, each recorded with what it replaced and the patch that made it, so that ``undo``
    restores them in reverse order."""

    def __init__(self) -> None:
        self._entries: List[Tuple[Optional[str], str, Callable[[], object]]] = []
        self._patch: Optional[str] = None

    @contextlib.contextmanager
    def recording(self, patch: str) -> Iterator[None]:
        """Attributes the changes made in the block to ``patch``."""
        outer, self._patch = self._patch, patch
        try:
            yield
        finally:
            self._patch = outer

    def _record(self, place: str, restore: Callable[[], object]) -> None:
        self._entries.append((self._patch, place, restore))

    def setattr(self, obj: Any, name: str, value: Any) -> None:
        """``setattr(obj, name, value)``; undone by restoring (or deleting) ``obj``'s own attribute."""
        previous = vars(obj).get(name, _MISSING)
        setattr(obj, name, value)

        def restore() -> None:
            if previous is _MISSING:
                delattr(obj, name)
            else:
                setattr(obj, name, previous)

        self._record(where(obj, name), restore)

    def setitem(self, mapping: Dict[Any, Any], key: Any, value: Any, place: str) -> None:
        """``mapping[key] = value`` (``place`` names it: ``"pkg.mod.TABLE['key']"``)."""
        previous = mapping.get(key, _MISSING)
        mapping[key] = value
        self._record(place, lambda: mapping.pop(key) if previous is _MISSING else mapping.__setitem__(key, previous))

    def setenv(self, name: str, value: str) -> None:
        """``os.environ[name] = value``."""
        previous = os.environ.get(name)
        os.environ[name] = value
        self._record(
            "os.environ[%r]" % name,
            lambda: os.environ.pop(name) if previous is None else os.environ.__setitem__(name, previous),
        )

    def add_module(self, module: types.ModuleType) -> None:
        """Puts ``module`` in ``sys.modules`` and on its parent package, as an import would."""
        parent, _, child = module.__name__.rpartition(".")
        self.setitem(sys.modules, module.__name__, module, "sys.modules[%r]" % module.__name__)  # type: ignore[arg-type]
        if parent:
            self.setattr(sys.modules[parent], child, module)

    def loaded(self, names: List[str]) -> None:
        """Records that the patch imported the modules ``names``: undone by removing them from ``sys.modules``
        (a later import loads them again, unpatched)."""
        for name in names:
            self._record("sys.modules[%r]" % name, functools.partial(sys.modules.pop, name, None))

    def undo(self, patch: Any = _MISSING) -> List[str]:
        """Undoes the changes of ``patch`` (all changes if not given), newest first; returns their places."""
        undone = [entry for entry in self._entries if patch is _MISSING or entry[0] == patch]
        self._entries = [entry for entry in self._entries if entry not in undone]
        for _, _, restore in reversed(undone):
            restore()
        return [place for _, place, _ in undone]

    def undo_last(self) -> None:
        """Undoes the newest change (a patch that finds it cannot finish)."""
        _, _, restore = self._entries.pop()
        restore()

    def changes(self, patch: Any = _MISSING) -> List[str]:
        """The places ``patch`` (every patch if not given) changed and that are not undone, oldest first."""
        return [place for name, place, _ in self._entries if patch is _MISSING or name == patch]


class PatchSet(Mapping[str, Callable[[], bool]]):
    """Named patches, run in order by the first ``apply()``; read as a mapping ``name -> patch``.

    Each patch checks whether the running versions still need it, changes something only then and returns
    whether it did; run again, it returns False (it is idempotent). It makes its changes through ``journal``,
    so that ``undo(name)`` restores what it replaced (tf1clip.fidelity lists every patch). ``requires``, when
    given, runs first (it raises ``ImportError`` naming what to install). ``checked_on`` names the versions
    the patches were checked on.
    """

    def __init__(
        self,
        patches: Dict[str, Callable[[], bool]],
        checked_on: str,
        requires: Optional[Callable[[], object]] = None,
        journal: Optional[Journal] = None,
    ):
        self._patches = dict(patches)
        self.checked_on = checked_on
        self._requires = requires
        self.journal = journal if journal is not None else Journal()
        self._lock = threading.RLock()
        self._done: Dict[str, bool] = {}

    def __getitem__(self, name: str) -> Callable[[], bool]:
        return self._patches[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._patches)

    def __len__(self) -> int:
        return len(self._patches)

    def apply(self) -> List[str]:
        """Runs the patches not run yet, in order (thread-safe); returns the names of those that changed something."""
        with self._lock:
            if len(self._done) < len(self._patches):
                if self._requires is not None:
                    self._requires()
                for name, patch in self._patches.items():
                    if name not in self._done:
                        with self.journal.recording(name):
                            self._done[name] = bool(patch())
            return self.installed()

    def installed(self) -> List[str]:
        """The names of the patches in effect: run, changed something, not undone."""
        return [name for name in self._patches if self._done.get(name)]

    def undo(self, name: Optional[str] = None) -> List[str]:
        """Restores what the patch ``name`` (every patch, newest first, if None) changed; the next ``apply()``
        runs it again. Returns the places restored. Objects made while it was in effect keep what they took."""
        if name is not None and name not in self._patches:
            raise ValueError("undo: %r is not a patch of this set (%s)" % (name, ", ".join(self._patches)))
        with self._lock:
            names = [name] if name is not None else list(self._patches)[::-1]
            restored: List[str] = []
            for patch in names:
                restored += self.journal.undo(patch)
                self._done.pop(patch, None)
            if name is None:
                restored += self.journal.undo()
            return restored


class Shim(types.ModuleType):
    """Stands in for ``base`` inside a successor's module: adds ``extra`` (what TensorFlow or Python removed),
    forwards the rest; ``patch`` names the patch that made it."""

    def __init__(self, base: types.ModuleType, patch: str, extra: Dict[str, Any]):
        super().__init__(base.__name__, base.__doc__)
        self.__dict__.update(extra)
        self._tf1clip_base = base
        self._tf1clip_patch = patch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tf1clip_base, name)
