"""tf1clip.contrib.tfprof: TF 1.15's model_analyzer names over tf.compat.v1.profiler (docs/tfprof.rst)."""

import pytest
import tensorflow as tf

from tf1clip.contrib import tfprof
from tf1clip.contrib.tfprof import model_analyzer, tfprof_logger

v1 = tf.compat.v1


def _model():
    x = v1.placeholder(tf.float32, [4, 5])
    with v1.variable_scope("a", initializer=v1.zeros_initializer()):
        w = v1.get_variable("w", [5, 3])
        b = v1.get_variable("b", [3])
    with v1.variable_scope("c", initializer=v1.zeros_initializer()):
        w2 = v1.get_variable("w", [3, 2])
    v1.get_variable("not_trained", [7], trainable=False, initializer=v1.zeros_initializer())
    return tf.matmul(tf.matmul(x, w) + b, w2)


def test_trainable_params_by_scope(graph, capfd):
    _model()
    stats = model_analyzer.print_model_analysis(graph, tfprof_options=model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS)
    assert stats.total_parameters == 5 * 3 + 3 + 3 * 2
    assert [(c.name, c.total_parameters) for c in stats.children] == [("a", 18), ("c", 6)]
    out = capfd.readouterr().out
    assert "a/w (5x3, 15/15 params)" in out and "not_trained" not in out


def test_all_variables_when_accounting_variable_ops(graph):
    _model()
    types = ["VarHandleOp", "VariableV2"]
    options = dict(model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS, account_type_regexes=types, output="none")
    assert model_analyzer.print_model_analysis(graph, tfprof_options=options).total_parameters == 24 + 7


def test_float_ops_of_the_matmuls_and_the_add(graph):
    """Zero initializers: the only float ops are the model's."""
    _model()
    options = dict(model_analyzer.FLOAT_OPS_OPTIONS, output="none")
    stats = model_analyzer.print_model_analysis(graph, tfprof_options=options)
    assert stats.total_float_ops == 2 * 4 * 5 * 3 + 4 * 3 + 2 * 4 * 3 * 2


def test_the_module_constants_are_not_changed_by_a_call(graph):
    _model()
    before = {k: list(v) if isinstance(v, list) else v for k, v in model_analyzer.FLOAT_OPS_OPTIONS.items()}
    model_analyzer.print_model_analysis(graph, tfprof_cmd="op", tfprof_options=model_analyzer.FLOAT_OPS_OPTIONS)
    assert model_analyzer.FLOAT_OPS_OPTIONS == before
    assert model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS["account_type_regexes"] == ["_trainable_variables"]
    assert model_analyzer.PRINT_ALL_TIMING_MEMORY["select"] == ["micros", "bytes"]


def test_profile_option_builder_options_and_run_metadata(graph):
    y = _model()
    opts = v1.profiler.ProfileOptionBuilder(v1.profiler.ProfileOptionBuilder.time_and_memory()).with_empty_output()
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        meta = v1.RunMetadata()
        sess.run(y, {"Placeholder:0": [[1.0] * 5] * 4}, options=v1.RunOptions(trace_level=3), run_metadata=meta)
    stats = model_analyzer.print_model_analysis(graph, run_meta=meta, tfprof_options=opts.build())
    assert stats.total_requested_bytes > 0


def test_advise_and_write_op_log(graph, tmp_path):
    _model()
    assert isinstance(model_analyzer.advise(graph, tfprof_options=model_analyzer.ALL_ADVICE), v1.profiler.AdviceProto)
    tfprof_logger.write_op_log(graph, str(tmp_path))
    assert (tmp_path / "tfprof_log").stat().st_size > 0
    assert tfprof.model_analyzer is model_analyzer


def test_bad_arguments_name_the_argument():
    with pytest.raises(TypeError, match=r"`graph` must be a tf.Graph.*received None"):
        model_analyzer.print_model_analysis(None)
    with pytest.raises(ValueError, match=r"`tfprof_cmd` must be 'scope', 'graph', 'op' or 'code'; received 'ops'"):
        model_analyzer.print_model_analysis(tf.Graph(), tfprof_cmd="ops")
