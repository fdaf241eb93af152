"""The only door to TensorFlow's converter (``tensorflow.tools.compatibility``), opened on first use.

``tensorflow.tools.compatibility`` is not public API: it is the package behind
TensorFlow's ``tf_upgrade_v2`` script; ``tf1clip.compat._tf`` reaches it (and the private
name used from it: ``ast_edits._PastaEditVisitor``), with the TF versions checked.
Notebooks are split into cells by tf1clip (``_notebook``), not by its ``ipynb``. Used from it here:
``ast_edits`` (``full_name_node``, ``get_arg_value``, ``APIChangeSpec``),
``tf_upgrade_v2.TFAPIChangeSpec`` and ``tf_upgrade_v2_safety.TFAPIChangeSpec``.

Importing this module imports TensorFlow, with its C++ logging quieted unless the
user chose a level (``TF_CPP_MIN_LOG_LEVEL``); a missing TensorFlow raises
:class:`TensorFlowMissing` with what to install.
"""

import importlib.util
import os

from tf1clip.upgrade._results import TensorFlowMissing

INSTALL_HINT = "pip install 'tf1clip[cpu]' (or 'tf1clip[tf]'; for Estimator code pip install 'tf1clip[estimator]')"


os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def _tensorflow_installed():
    try:
        return importlib.util.find_spec("tensorflow") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules["tensorflow"] is None
        return False


if not _tensorflow_installed():  # then pasta, TensorFlow's dependency, is missing too: name TensorFlow
    raise TensorFlowMissing(
        "tf1clip-upgrade needs TensorFlow (it runs TensorFlow's own tf_upgrade_v2 engine), which is not "
        "installed here. Install it: %s." % INSTALL_HINT
    )
try:
    from tf1clip.compat import _tf

    import pasta

    ast_edits, ipynb, tf_upgrade_v2, tf_upgrade_v2_safety = _tf.upgrade_modules()
except ImportError as err:
    raise TensorFlowMissing(
        "tf1clip-upgrade needs TensorFlow (it runs TensorFlow's own tf_upgrade_v2 engine), which "
        "cannot be imported here (%s). Install it: %s." % (err, INSTALL_HINT)
    ) from err

PastaEditVisitor = _tf.pasta_edit_visitor


def tensorflow_version():
    """``(major, minor)`` of the installed TensorFlow."""
    return _tf.version_tuple(_tf.tf.__version__)


__all__ = [
    "pasta",
    "ast_edits",
    "ipynb",
    "tf_upgrade_v2",
    "tf_upgrade_v2_safety",
    "PastaEditVisitor",
    "TensorFlowMissing",
    "tensorflow_version",
]
