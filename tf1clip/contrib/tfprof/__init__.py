"""``tf.contrib.tfprof``: TF 1.15's names over ``tf.compat.v1.profiler`` (docs/tfprof.rst).

``model_analyzer.print_model_analysis`` and its option dicts
(``TRAINABLE_VARS_PARAMS_STAT_OPTIONS``, ``FLOAT_OPS_OPTIONS``,
``PRINT_ALL_TIMING_MEMORY``), ``model_analyzer.advise`` and
``tfprof_logger.write_op_log`` call ``tf.compat.v1.profiler``, which is
contrib.tfprof's own successor (the same C++ profiler). ``ProfileContext``
has no TF 2 counterpart: use ``tf.compat.v1.profiler.Profiler``.
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)
__getattr__ = _manifest.module_getattr("tf1clip.contrib.tfprof", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.tfprof", globals())
