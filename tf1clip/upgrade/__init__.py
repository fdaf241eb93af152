"""``tf1clip-upgrade``: ``tf_upgrade_v2`` plus the rules that finish a TF 1.x -> TF 2 migration.

Same interface as TensorFlow's ``tf_upgrade_v2``::

    tf1clip-upgrade --infile old.py --outfile new.py
    tf1clip-upgrade --intree old/ --outtree new/ [--copyotherfiles False] [--target estimator]
    python -m tf1clip.upgrade ...

and a Python API whose functions return results instead of printing::

    result = tf1clip.upgrade.upgrade_file("old.py", "new.py")    # FileResult
    results = tf1clip.upgrade.upgrade_tree("old/", "new/")        # [FileResult]
    converted = tf1clip.upgrade.upgrade_source(text)              # SourceResult(text, log, added)

The conversion runs TensorFlow's own converter (``tensorflow.tools.compatibility``)
and tf1clip's rules; see docs/upgrade.rst, which lists the parts (routing tables in
``_tables``, the ordered rule registry in ``_registry``, the change spec and walk in ``_rules``,
added lines in ``_fixes``, files and trees in ``_convert``, Python 2 sources in ``_py2``, the statements no parser
reads in ``_partial``, the report in ``_results``, the command in ``_cli``).
Importing this package, ``--help`` and ``--version`` do not import TensorFlow.
"""

import importlib

from tf1clip.upgrade._cli import main
from tf1clip.upgrade._convert import SourceResult
from tf1clip.upgrade._convert import upgrade_file
from tf1clip.upgrade._convert import upgrade_source
from tf1clip.upgrade._convert import upgrade_tree
from tf1clip.upgrade._results import FileResult
from tf1clip.upgrade._results import LogEntry
from tf1clip.upgrade._results import TensorFlowMissing

_LAZY = {"ChangeSpec": "_rules", "SafetyChangeSpec": "_rules"}  # these import TensorFlow

__all__ = [
    "main",
    "upgrade_source",
    "upgrade_file",
    "upgrade_tree",
    "SourceResult",
    "FileResult",
    "LogEntry",
    "TensorFlowMissing",
    "ChangeSpec",
    "SafetyChangeSpec",
]


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module("tf1clip.upgrade." + _LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError("module 'tf1clip.upgrade' has no attribute %r" % name)
