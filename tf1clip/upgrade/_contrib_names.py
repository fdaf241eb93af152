"""TF 1.15's ``tf.contrib`` names, read from the recorded listing (``_tf115_contrib``), and the older module paths
TF 1.0-1.4 code spelled them with (no TensorFlow import).

A path is read the way TF 1.15 resolved it: a module spelled through another of its paths
(``tf.contrib.keras.api.keras.layers`` is ``tf.contrib.keras.layers``) is the one module, and a module path of
TF 1.0-1.4 that TF 1.15 no longer had (:data:`HISTORICAL_MODULES`) is read as the module its names moved to.
"""

import functools
from typing import Dict, Iterator, NamedTuple, Optional, Tuple

from tf1clip.upgrade import _tf115_contrib


class Historical(NamedTuple):
    """A ``tf.contrib`` module path TF 1.0-1.4 code imported that TF 1.15 no longer had."""

    moved_to: str
    """The TF 1.15 module its public names are read from."""
    versions: str
    """The TensorFlow releases that had it."""
    source: str
    """Where that is documented."""


HISTORICAL_MODULES: Dict[str, Historical] = {
    "tf.contrib.rnn.core_rnn_cell": Historical(
        "tf.contrib.rnn",
        "1.0-1.1 (the core cells: BasicLSTMCell, LSTMCell, GRUCell, MultiRNNCell, DropoutWrapper, RNNCell ...)",
        "tensorflow/tensorflow#8274 (TF 1.0: cells 'moved to tf.contrib.rnn.core_rnn_cell'); da03/Attention-OCR#46 "
        "and #50 (tf.contrib.rnn.core_rnn_cell.BasicLSTMCell works on TF 1.0.1, is tf.contrib.rnn.BasicLSTMCell "
        "from TF 1.2)",
    ),
    "tf.contrib.rnn.python.ops.core_rnn_cell_impl": Historical(
        "tf.contrib.rnn",
        "1.0-1.1 (the implementation module of the core cells)",
        "tensorflow/tensorflow#11836 (core_rnn_cell_impl held BasicLSTMCell on TF 1.1.0 and is gone on 1.2.1)",
    ),
    "tf.contrib.rnn.python.ops.core_rnn": Historical(
        "tf.contrib.rnn",
        "1.0-1.1 (static_rnn, static_bidirectional_rnn, static_state_saving_rnn)",
        "TF 1.0's contrib/rnn/python/ops/core_rnn.py; TF 1.2 moved the functions to tensorflow/python/ops/rnn.py, "
        "exported as tf.contrib.rnn.static_rnn ...",
    ),
    "tf.contrib.rnn.rnn_cell": Historical(
        "tf.contrib.rnn",
        "0.12-1.0 (tf.contrib.rnn's cells module)",
        "openai/universe-starter-agent#123 (rnn.rnn_cell.BasicLSTMCell and LSTMStateTuple are tf.contrib.rnn's "
        "from TF 1.1)",
    ),
}
"""Module paths of TF 1.0-1.4, each read as the TF 1.15 module that has its names."""


class Entry(NamedTuple):
    """A public name of TF 1.15's ``tf.contrib``."""

    module: str
    name: str
    kind: str
    """``"module"``, ``"class"``, ``"function"`` or the type of a value."""
    core: Tuple[str, ...]
    """The core TF 1.15 paths (``tf.*``, ``tf.compat.v1.*``) of the same object, preferred first."""

    @property
    def path(self) -> str:
        return self.module + "." + self.name


@functools.lru_cache(maxsize=None)
def modules() -> Dict[str, Dict[str, Tuple[str, Tuple[str, ...]]]]:
    """``{contrib module path: {name: (kind, core paths)}}``, parsed once from the listing."""
    found: Dict[str, Dict[str, Tuple[str, Tuple[str, ...]]]] = {}
    names: Dict[str, Tuple[str, Tuple[str, ...]]] = {}
    for line in _tf115_contrib.LISTING.splitlines():
        if not line.startswith(" "):
            names = found.setdefault(line, {})
            continue
        name, kind, *core = line.split()
        names[name] = (kind, tuple(core))
    return found


@functools.lru_cache(maxsize=None)
def module_paths() -> Dict[str, str]:
    """``{another contrib path of a module: its path in the listing}``."""
    return dict(line.split() for line in _tf115_contrib.MODULE_PATHS.splitlines())  # type: ignore[misc]


@functools.lru_cache(maxsize=None)
def failed() -> Dict[str, str]:
    """``{contrib module path: exception type}``: the module files TF 1.15 could not import where it was listed."""
    return dict(line.split() for line in _tf115_contrib.FAILED.splitlines())  # type: ignore[misc]


@functools.lru_cache(maxsize=4096)
def listed_module(path: str) -> Optional[str]:
    """The listing's path of the contrib module ``path`` (another spelling, or a TF 1.0-1.4 path, read as the
    module TF 1.15 had), or None when ``path`` is no module of the listing."""
    if path in modules():
        return path
    if path in module_paths():
        return module_paths()[path]
    if path in HISTORICAL_MODULES:
        return listed_module(HISTORICAL_MODULES[path].moved_to)
    parent, _, name = path.rpartition(".")
    if not parent:
        return None
    listed = listed_module(parent)
    if listed is None or modules()[listed].get(name, ("",))[0] != "module":
        return None
    return listed + "." + name if listed + "." + name in modules() else module_paths().get(listed + "." + name)


def entry(path: str) -> Optional[Entry]:
    """The listing's entry for the contrib ``path`` (a module or a name), or None when TF 1.15 had no such name."""
    module, _, name = path.rpartition(".")
    listed = listed_module(module) if module else None
    if listed is None or name not in modules()[listed]:
        return None
    kind, core = modules()[listed][name]
    return Entry(listed, name, kind, core)


def modern(path: str) -> str:
    """``path`` with a TF 1.0-1.4 module path at its start read as the TF 1.15 module (else unchanged)."""
    parts = path.split(".")
    for k in range(len(parts), 2, -1):
        old = ".".join(parts[:k])
        if old in HISTORICAL_MODULES:
            return ".".join([HISTORICAL_MODULES[old].moved_to] + parts[k:])
    return path


def every_name() -> Iterator[Entry]:
    """Every public name of the listing, module by module, in the listing's order."""
    for module, names in modules().items():
        for name, (kind, core) in names.items():
            yield Entry(module, name, kind, core)


__all__ = [
    "Historical",
    "HISTORICAL_MODULES",
    "Entry",
    "modules",
    "module_paths",
    "failed",
    "listed_module",
    "entry",
    "modern",
    "every_name",
]
