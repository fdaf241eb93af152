"""``PatchSet``: the named patches that make one package (tensorflow-estimator, tf-slim, TF-GAN) run on the
installed TensorFlow and Python, applied once per process; ``Shim``: the stand-in module they install."""

import threading
import types
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional


class PatchSet(Mapping[str, Callable[[], bool]]):
    """Named patches, run in order by the first ``apply()``; read as a mapping ``name -> patch``.

    Each patch checks whether the running versions still need it, changes something only then and returns
    whether it did; run again, it returns False (it is idempotent). ``requires``, when given, runs first
    (it raises ``ImportError`` naming what to install). ``checked_on`` names the versions the patches were
    checked on.
    """

    def __init__(
        self,
        patches: Dict[str, Callable[[], bool]],
        checked_on: str,
        requires: Optional[Callable[[], object]] = None,
    ):
        self._patches = dict(patches)
        self.checked_on = checked_on
        self._requires = requires
        self._lock = threading.RLock()
        self._applied: Optional[List[str]] = None

    def __getitem__(self, name: str) -> Callable[[], bool]:
        return self._patches[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._patches)

    def __len__(self) -> int:
        return len(self._patches)

    def apply(self) -> List[str]:
        """Runs the patches once (thread-safe); returns the names of those that changed something."""
        with self._lock:
            if self._applied is None:
                if self._requires is not None:
                    self._requires()
                self._applied = [name for name, patch in self._patches.items() if patch()]
            return list(self._applied)


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
