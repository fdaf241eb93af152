"""``tf.contrib.tfprof.tfprof_logger``: ``write_op_log`` over ``tf.compat.v1.profiler.write_op_log``."""

from tf1clip.compat._tf import tf
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

# The op type the profiler gives to trainable variables (``account_type_regexes``).
TRAINABLE_VARIABLES = "_trainable_variables"


def write_op_log(graph, log_dir, op_log=None, run_meta=None, add_trace=True):
    """Writes ``graph``'s op log (with ``op_log``'s extra op types) to ``log_dir/tfprof_log``.

    ``tf.compat.v1.profiler.write_op_log`` with contrib's argument names.
    """
    return tf.compat.v1.profiler.write_op_log(graph, log_dir, op_log=op_log, run_meta=run_meta, add_trace=add_trace)
