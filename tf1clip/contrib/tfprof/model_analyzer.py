"""``tf.contrib.tfprof.model_analyzer``: TF 1.15's option dicts and functions over ``tf.compat.v1.profiler``.

Example (TF 1.x code, unchanged but for the import)::

    from tf1clip.contrib.tfprof import model_analyzer

    stats = model_analyzer.print_model_analysis(
        tf.compat.v1.get_default_graph(),
        tfprof_options=model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS)
    print("total params:", stats.total_parameters)
"""

import copy
from typing import Any, Dict

from tf1clip.compat._tf import tf
from tf1clip.contrib.tfprof import tfprof_logger
from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

Profiler = tf.compat.v1.profiler.Profiler


def _options(**overrides: Any) -> Dict[str, Any]:
    options: Dict[str, Any] = {
        "max_depth": 10000,
        "min_bytes": 0,
        "min_micros": 0,
        "min_params": 0,
        "min_float_ops": 0,
        "order_by": "name",
        "account_type_regexes": [".*"],
        "start_name_regexes": [".*"],
        "trim_name_regexes": [],
        "show_name_regexes": [".*"],
        "hide_name_regexes": [],
        "account_displayed_op_only": True,
        "select": ["params"],
        "output": "stdout",
        "dump_to_file": "",  # deprecated in TF 1.x: use "output": "file:outfile=<name>"
    }
    options.update(overrides)
    return options


# Parameter counts of trainable variables, by name scope (TF 1.15's values).
TRAINABLE_VARS_PARAMS_STAT_OPTIONS = _options(account_type_regexes=[tfprof_logger.TRAINABLE_VARIABLES])
# Floating-point operation counts (ops with a registered flops statistic), by name scope.
FLOAT_OPS_OPTIONS = _options(min_float_ops=1, order_by="float_ops", select=["float_ops"])
# Time and memory of every op (needs ``run_meta``).
PRINT_ALL_TIMING_MEMORY = _options(min_bytes=1, min_micros=1, select=["micros", "bytes"])

# Every checker of ``advise``.
ALL_ADVICE: Dict[str, Dict[str, Any]] = {
    "ExpensiveOperationChecker": {},
    "AcceleratorUtilizationChecker": {},
    "JobChecker": {},
    "OperationChecker": {},
}

_DEFAULT_OPTIONS = 0


def _check_graph(graph: Any, fn: str) -> None:
    if not isinstance(graph, tf.Graph):
        raise TypeError(
            "%s: `graph` must be a tf.Graph (e.g. tf.compat.v1.get_default_graph() or sess.graph); received %r "
            "of type %s." % (fn, graph, type(graph).__name__)
        )


def print_model_analysis(graph, run_meta=None, op_log=None, tfprof_cmd="scope", tfprof_options=_DEFAULT_OPTIONS):
    """Profiles ``graph`` and prints the report, as TF 1.15's ``print_model_analysis``.

    ``tf.compat.v1.profiler.profile(graph, run_meta, op_log, cmd=tfprof_cmd,
    options=tfprof_options)``; the option dicts are copied so that the
    profiler never sees (or changes) the module's constants.

    Args:
      graph: the ``tf.Graph`` to profile (required on TF 2, where eager
        execution is on).
      run_meta: ``RunMetadata`` of a traced ``Session.run``, for times and memory.
      op_log: an ``OpLogProto`` with extra op types.
      tfprof_cmd: ``"scope"``, ``"graph"``, ``"op"`` or ``"code"``.
      tfprof_options: a dict such as ``TRAINABLE_VARS_PARAMS_STAT_OPTIONS`` or
        ``tf.compat.v1.profiler.ProfileOptionBuilder(...).build()``; ``0``
        means the profiler's defaults.

    Returns:
      A ``GraphNodeProto`` (``"scope"``, ``"graph"``) or
      ``MultiGraphNodeProto`` (``"op"``, ``"code"``): ``total_parameters``,
      ``total_float_ops``, ``children`` ...

    Raises:
      TypeError: ``graph`` is not a ``tf.Graph``.
      ValueError: an unknown ``tfprof_cmd``.
    """
    _check_graph(graph, "print_model_analysis")
    if tfprof_cmd not in ("scope", "graph", "op", "code"):
        raise ValueError(
            "print_model_analysis: `tfprof_cmd` must be 'scope', 'graph', 'op' or 'code'; received %r." % (tfprof_cmd,)
        )
    options = copy.deepcopy(tfprof_options) if isinstance(tfprof_options, dict) else tfprof_options
    return tf.compat.v1.profiler.profile(graph, run_meta=run_meta, op_log=op_log, cmd=tfprof_cmd, options=options)


def advise(graph, run_meta=None, tfprof_options=_DEFAULT_OPTIONS):
    """``tf.compat.v1.profiler.advise(graph, run_meta, options)``: the checkers' reports (``AdviceProto``).

    ``tfprof_options``: a dict of checkers such as ``ALL_ADVICE``; ``0`` means all of them.
    """
    _check_graph(graph, "advise")
    options = copy.deepcopy(tfprof_options) if isinstance(tfprof_options, dict) else tfprof_options
    return tf.compat.v1.profiler.advise(graph, run_meta=run_meta, options=options)
