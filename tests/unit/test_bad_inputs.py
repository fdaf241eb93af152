"""Bad inputs get a TypeError or ValueError at the call site naming the argument.

One table: each row builds its own graph, makes one call and states the exception
type and a pattern its message must match (the argument's name and what was
received). A second table checks inputs that must be accepted and used as numbers.
"""

import decimal
import fractions

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.contrib import framework, layers, training
from tf1clip.contrib.slim import learning

v1 = tf.compat.v1


def _model():
    w = v1.get_variable("w", initializer=np.array([3.0, 4.0], np.float32))
    loss = tf.reduce_sum(tf.square(w))
    return w, loss, [(tf.constant([3.0, 4.0]), w)]


def _opt():
    return v1.train.GradientDescentOptimizer(0.1)


def _step():
    return v1.train.get_or_create_global_step()


CASES = [
    # clip norms and bounds
    (
        "clip_norm_10**400",
        lambda w, loss, gv: tf1clip.clip_by_global_norm(gv, 10**400),
        ValueError,
        r"`clip_norm` is too large for a float; received int 1000",
    ),
    (
        "clip_norm_fraction_overflow",
        lambda w, loss, gv: tf1clip.clip_by_norm(gv, fractions.Fraction(10**400)),
        ValueError,
        r"`clip_norm` is too large",
    ),
    (
        "clip_norm_complex_scalar",
        lambda w, loss, gv: tf1clip.clip_by_norm(gv, np.complex128(3 + 4j)),
        TypeError,
        r"`clip_norm` must be a real number; received complex128",
    ),
    (
        "clip_norm_python_complex",
        lambda w, loss, gv: tf1clip.clip_by_norm(gv, 3 + 4j),
        TypeError,
        r"`clip_norm` must be a real number; received complex",
    ),
    (
        "clip_norm_0d_complex_array",
        lambda w, loss, gv: tf1clip.clip_by_global_norm(gv, np.array(3 + 4j)),
        TypeError,
        r"`clip_norm` must be a real number; received ndarray",
    ),
    (
        "clip_norm_timedelta",
        lambda w, loss, gv: tf1clip.clip_by_average_norm(gv, np.timedelta64(3, "s")),
        TypeError,
        r"`clip_norm` must be a real number; received timedelta64",
    ),
    (
        "clip_norm_0d_timedelta_array",
        lambda w, loss, gv: tf1clip.clip_by_norm(gv, np.array(np.timedelta64(3))),
        TypeError,
        r"`clip_norm` must be a real number",
    ),
    (
        "clip_norm_string_tensor",
        lambda w, loss, gv: tf1clip.clip_by_norm(gv, tf.constant("1")),
        TypeError,
        r"`clip_norm` must be a real number; received a string tensor",
    ),
    (
        "clip_norm_fn_complex",
        lambda w, loss, gv: tf1clip.clip_by_global_norm_fn(1j),
        TypeError,
        r"`clip_norm` must be a real number",
    ),
    (
        "clip_value_min_timedelta",
        lambda w, loss, gv: tf1clip.clip_by_value(gv, np.timedelta64(1), 2.0),
        TypeError,
        r"`clip_value_min` must be a real number",
    ),
    (
        "clip_value_max_complex",
        lambda w, loss, gv: tf1clip.clip_by_value_fn(-1.0, np.complex64(1)),
        TypeError,
        r"`clip_value_max` must be a real number",
    ),
    (
        "max_norm_10**400",
        lambda w, loss, gv: training.clip_gradient_norms(gv, 10**400),
        ValueError,
        r"`max_norm` is too large",
    ),
    (
        "clip_gradient_norm_complex",
        lambda w, loss, gv: learning.create_train_op(loss, _opt(), clip_gradient_norm=2j),
        TypeError,
        r"`clip_gradient_norm` must be a real number",
    ),
    # pairs
    (
        "pair_variable_is_string",
        lambda w, loss, gv: tf1clip.clip_by_global_norm([(gv[0][0], "x")], 1.0),
        TypeError,
        r"`grads_and_vars\[0\]`: the second item of a pair must be a variable \(or a Tensor, or None\); received str 'x'",
    ),
    (
        "pair_variable_is_number",
        lambda w, loss, gv: tf1clip.clip_by_norm([(gv[0][0], 3)], 1.0),
        TypeError,
        r"second item of a pair must be a variable \(or a Tensor, or None\); received int 3",
    ),
    (
        "pair_variable_in_decorator_apply",
        lambda w, loss, gv: tf1clip.clip_gradients_by_norm(_opt(), 1.0).apply_gradients([(gv[0][0], "x")]),
        TypeError,
        r"second item of a pair must be a variable \(or a Tensor, or None\); received str 'x'",
    ),
    (
        "pair_variable_in_capper",
        lambda w, loss, gv: tf1clip.AGC()([(gv[0][0], np.zeros(2))]),
        TypeError,
        r"second item of a pair must be a variable \(or a Tensor, or None\); received ndarray",
    ),
    # contrib train-op builders
    (
        "create_train_op_total_loss_none",
        lambda w, loss, gv: training.create_train_op(None, _opt()),
        ValueError,
        r"`total_loss` must be a scalar Tensor; received None",
    ),
    (
        "slim_create_train_op_total_loss_none",
        lambda w, loss, gv: learning.create_train_op(None, _opt()),
        ValueError,
        r"`total_loss` must be a scalar Tensor; received None",
    ),
    (
        "create_train_op_total_loss_string",
        lambda w, loss, gv: training.create_train_op("loss", _opt()),
        ValueError,
        r"`total_loss` must be a real scalar Tensor; received a string tensor",
    ),
    (
        "create_train_op_update_ops_op",
        lambda w, loss, gv: training.create_train_op(loss, _opt(), update_ops=tf.no_op(name="upd")),
        TypeError,
        r"`update_ops` must be a list of operations; received Operation",
    ),
    (
        "create_train_op_update_ops_item",
        lambda w, loss, gv: training.create_train_op(loss, _opt(), update_ops=[5]),
        TypeError,
        r"`update_ops\[0\]` must be an operation or tensor; received int 5",
    ),
    (
        "create_train_op_variables_to_train_int",
        lambda w, loss, gv: training.create_train_op(loss, _opt(), variables_to_train=5),
        TypeError,
        r"`variables_to_train` must be a list of variables; received int 5",
    ),
    (
        "optimize_loss_variables_item",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 0.1, "SGD", variables=[w, "x"]),
        TypeError,
        r"`variables\[1\]` must be a variable; received str 'x'",
    ),
    (
        "optimize_loss_summaries_int",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 0.1, "SGD", summaries=5),
        TypeError,
        r"`summaries` must be a list of names from OPTIMIZER_SUMMARIES; received int 5",
    ),
    (
        "optimize_loss_update_ops_op",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 0.1, "SGD", update_ops=tf.no_op(name="upd")),
        TypeError,
        r"`update_ops` must be a list of operations; received Operation",
    ),
    (
        "optimize_loss_learning_rate_inf",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), float("inf"), "SGD"),
        ValueError,
        r"Invalid learning_rate inf: it must be >= 0 and finite",
    ),
    (
        "optimize_loss_learning_rate_nan",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), float("nan"), "SGD"),
        ValueError,
        r"Invalid learning_rate nan",
    ),
    (
        "optimize_loss_learning_rate_inf_tensor",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), tf.constant(np.inf), "SGD"),
        ValueError,
        r"`learning_rate` must be >= 0.0 and finite; received inf",
    ),
    (
        "optimize_loss_learning_rate_string_tensor",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), tf.constant("0.1"), "SGD"),
        TypeError,
        r"`learning_rate` must be a real number or tensor; received a string tensor",
    ),
    (
        "optimize_loss_learning_rate_10**400",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 10**400, "SGD"),
        ValueError,
        r"`learning_rate` is too large",
    ),
    (
        "optimize_loss_noise_negative",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 0.1, "SGD", gradient_noise_scale=-1.0),
        ValueError,
        r"`gradient_noise_scale` must be >= 0.0 and finite; received -1.0",
    ),
    (
        "optimize_loss_noise_nan",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 0.1, "SGD", gradient_noise_scale=float("nan")),
        ValueError,
        r"`gradient_noise_scale` must be >= 0.0 and finite; received nan",
    ),
    (
        "optimize_loss_noise_string",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 0.1, "SGD", gradient_noise_scale="x"),
        TypeError,
        r"`gradient_noise_scale` must be a number or a 0-d tensor; received str",
    ),
    (
        "optimize_loss_multiplier_string",
        lambda w, loss, gv: layers.optimize_loss(loss, _step(), 0.1, "SGD", gradient_multipliers={w: "x"}),
        TypeError,
        r"`gradient_multipliers` must be a number or a 0-d tensor; received str 'x'",
    ),
    (
        "multiply_gradients_multiplier_string",
        lambda w, loss, gv: training.multiply_gradients(gv, {w: "x"}),
        TypeError,
        r"`gradient_multipliers` must be a number or a 0-d tensor; received str 'x'",
    ),
    (
        "multiply_gradients_multiplier_string_array",
        lambda w, loss, gv: training.multiply_gradients(gv, {"w": np.array(["x"])}),
        TypeError,
        r"`gradient_multipliers`: a multiplier must be a real number or tensor",
    ),
    (
        "slim_multiplier_bool_tensor",
        lambda w, loss, gv: learning.multiply_gradients(gv, {w: tf.constant(True)}),
        TypeError,
        r"`gradient_multipliers`: a multiplier must be a real number or tensor",
    ),
    # framework
    (
        "get_global_step_graph_int",
        lambda w, loss, gv: framework.get_global_step(graph=5),
        TypeError,
        r"`graph` must be a tf.Graph or None; received int 5",
    ),
    (
        "get_or_create_global_step_graph_str",
        lambda w, loss, gv: framework.get_or_create_global_step(graph="g"),
        TypeError,
        r"`graph` must be a tf.Graph or None; received str 'g'",
    ),
    # AGC
    (
        "agc_exclude_bad_regex",
        lambda w, loss, gv: tf1clip.AGC(exclude=["("]),
        ValueError,
        r"`exclude\[0\]` is not a valid regular expression .*received '\('",
    ),
    (
        "agc_exclude_int",
        lambda w, loss, gv: tf1clip.AGC(exclude=5),
        TypeError,
        r"`exclude` must be a list of names or patterns; received int 5",
    ),
    (
        "agc_exclude_string",
        lambda w, loss, gv: tf1clip.AGC(exclude="head"),
        TypeError,
        r"`exclude` must be a list of names or patterns; received str 'head'",
    ),
    (
        "agc_exclude_item_int",
        lambda w, loss, gv: tf1clip.AGC(exclude=["head", 3]),
        TypeError,
        r"`exclude\[1\]` must be a string; received int 3",
    ),
    (
        "agc_clip_factor_inf",
        lambda w, loss, gv: tf1clip.AGC(clip_factor=float("inf")),
        ValueError,
        r"`clip_factor` must be > 0.0 and finite; received inf",
    ),
    ("agc_eps_complex", lambda w, loss, gv: tf1clip.AGC(eps=1j), TypeError, r"`eps` must be a real number"),
    (
        "autoclip_percentile_10**400",
        lambda w, loss, gv: tf1clip.AutoClip(percentile=10**400),
        ValueError,
        r"`percentile` is too large",
    ),
    (
        "zclip_history_timedelta",
        lambda w, loss, gv: tf1clip.ZClip(warmup_steps=np.timedelta64(3)),
        TypeError,
        r"`warmup_steps` must be an int; received timedelta64",
    ),
]


@pytest.mark.parametrize("call,error,pattern", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_refused_naming_the_argument(call, error, pattern):
    with tf.Graph().as_default():
        w, loss, gv = _model()
        with pytest.raises(error, match=pattern):
            call(w, loss, gv)


ACCEPTED = [
    ("fraction", fractions.Fraction(1, 2)),
    ("decimal", decimal.Decimal("0.5")),
    ("numpy_float16", np.float16(0.5)),
    ("numpy_int_array", np.array(1, np.int64)),
    ("numpy_0d_float64_array", np.array(0.5)),
]


@pytest.mark.parametrize("value", [a[1] for a in ACCEPTED], ids=[a[0] for a in ACCEPTED])
def test_real_scalars_of_any_kind_work_in_every_factory(value):
    # Fraction passed the checks and then failed when the capper ran; every real
    # scalar must now work as the number it is.
    limit = float(value)
    grad = np.array([3.0, 4.0], np.float32)
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=np.zeros(2, np.float32))
        gv = [(tf.constant(grad), w)]
        outs = [
            tf1clip.clip_by_norm_fn(value)(gv)[0][0],
            tf1clip.clip_by_global_norm_fn(value)(gv)[0][0],
            tf1clip.clip_by_average_norm_fn(value)(gv)[0][0],
            tf1clip.clip_by_value_fn(-limit, value)(gv)[0][0],
            training.clip_gradient_norms_fn(value)(gv)[0][0],
        ]
        with v1.Session() as sess:
            norm_clip, global_clip, average_clip, value_clip, contrib_clip = sess.run(outs)
    expected = grad * min(limit / 5.0, 1.0)
    np.testing.assert_allclose(norm_clip, expected, rtol=1e-6)
    np.testing.assert_allclose(global_clip, expected, rtol=1e-6)
    np.testing.assert_allclose(contrib_clip, expected, rtol=1e-6)
    np.testing.assert_allclose(average_clip, grad * min(limit * 2 / 5.0, 1.0), rtol=1e-6)
    np.testing.assert_allclose(value_clip, np.clip(grad, -limit, limit))


def test_bad_inputs_build_nothing_that_changes_a_variable():
    # A refused optimize_loss call leaves no train op: the model is unchanged.
    with tf.Graph().as_default():
        w, loss, _ = _model()
        with pytest.raises(TypeError):
            layers.optimize_loss(loss, _step(), 0.1, "SGD", variables=[w, "x"])
        assert not v1.get_collection(v1.GraphKeys.TRAIN_OP)
        assert not [op for op in tf.compat.v1.get_default_graph().get_operations() if op.type.startswith("Apply")]
