"""The only door to TensorFlow's converter (``tensorflow.tools.compatibility``), opened on first use.

``tensorflow.tools.compatibility`` is not public API: it is the package behind
TensorFlow's ``tf_upgrade_v2`` script. Checked on TF 2.15, 2.16 and 2.21; no public
API replaces it (it would be a copy of the ``tf_upgrade_v2`` rules). Used from it:
``ast_edits`` (``_PastaEditVisitor``, ``full_name_node``, ``get_arg_value``,
``APIChangeSpec``), ``tf_upgrade_v2.TFAPIChangeSpec``,
``tf_upgrade_v2_safety.TFAPIChangeSpec`` and ``ipynb`` (``_get_code``,
``_update_notebook``); ``tests/test_upgrade_cli.py`` imports each.

Importing this module imports TensorFlow, with its C++ logging quieted unless the
user chose a level (``TF_CPP_MIN_LOG_LEVEL``); a missing TensorFlow raises
:class:`TensorFlowMissing` with what to install.
"""

import os

from tf1clip.upgrade._results import TensorFlowMissing

INSTALL_HINT = "pip install 'tf1clip[cpu]' (or 'tf1clip[tf]'; for Estimator code pip install 'tf1clip[estimator]')"


os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

try:
    import pasta
    from tensorflow.tools.compatibility import ast_edits
    from tensorflow.tools.compatibility import ipynb
    from tensorflow.tools.compatibility import tf_upgrade_v2
    from tensorflow.tools.compatibility import tf_upgrade_v2_safety
except ImportError as err:
    raise TensorFlowMissing(
        "tf1clip-upgrade needs TensorFlow (it runs TensorFlow's own tf_upgrade_v2 engine), which "
        "cannot be imported here (%s). Install it: %s." % (err, INSTALL_HINT)
    ) from err

PastaEditVisitor = ast_edits._PastaEditVisitor  # pylint: disable=protected-access
get_notebook_code = ipynb._get_code  # pylint: disable=protected-access
update_notebook = ipynb._update_notebook  # pylint: disable=protected-access


def tensorflow_version():
    """``(major, minor)`` of the installed TensorFlow."""
    import tensorflow as tf

    parts = []
    for piece in tf.__version__.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


__all__ = [
    "pasta",
    "ast_edits",
    "ipynb",
    "tf_upgrade_v2",
    "tf_upgrade_v2_safety",
    "PastaEditVisitor",
    "get_notebook_code",
    "update_notebook",
    "TensorFlowMissing",
    "tensorflow_version",
]
