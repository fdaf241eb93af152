"""tf1clip.contrib.quantize rewrites graphs as TF 1.15's tf.contrib.quantize did, in TF 1 mode (Keras 2,
``disable_v2_behavior()``: v1 control flow and reference variables, as an upgraded program runs).

tests/data/tf115_quantize/make_refs.py built every graph of quantize_cases.py on TF 1.15.5 (tf.layers, slim,
depthwise, bypass and resource-variable layers, fused batch norms in training and inference mode; training, eval
and experimental rewrites, with and without quant_delay and freeze_bn_delay) and recorded the ops the rewrite added
(names, types, inputs), the inputs it rerouted, the variables, five SGD steps' outputs, losses and quantization
ranges, and every variable after them. Here the same graphs are rewritten by
tf1clip.contrib.quantize: the same ops and variables, the same numbers (rtol 1e-5).
"""

import json
import os

import numpy as np
import pytest
import tensorflow as tf
from helpers import load_cases

from tf1clip.contrib import quantize, slim

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_quantize")
cases = load_cases(DATA, "quantize_cases")
with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)

# TF 1.15's slim.flatten read its input's dynamic shape (a Shape op the rewrite rerouted too); tf-slim's does not.
NOT_IN_TF2 = ("Flatten/flatten/Shape",)


def test_refs_cover_every_case():
    assert REFS["tensorflow"].startswith("1.15")
    assert sorted(REFS["cases"]) == sorted(cases.CASES)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_rewrite_matches_tf115(name):
    got, ref = cases.run_case(tf, quantize, slim, name), REFS["cases"][name]
    assert got["added"] == ref["added"]
    assert got["rewired"] == [r for r in ref["rewired"] if r[0] not in NOT_IN_TF2]
    assert got["variables"] == ref["variables"]
    assert got["trainable"] == ref["trainable"]
    np.testing.assert_allclose(got["losses"], ref["losses"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["outputs"], ref["outputs"], rtol=1e-5, atol=1e-5)
    for mine, theirs in zip(got["ranges"], ref["ranges"]):
        assert sorted(mine) == sorted(theirs)
        for var, value in theirs.items():
            np.testing.assert_allclose(mine[var], value, rtol=1e-5, atol=1e-6, err_msg=var)
    assert sorted(got["final"]) == sorted(ref["final"])
    for var, value in ref["final"].items():
        # Five SGD steps at rate 0.3 on losses up to 13 (the batch-norm cases) carry float32 rounding along: each
        # variable agrees to 2e-5 of its largest element.
        scale = max(1.0, float(np.max(np.abs(value))))
        np.testing.assert_allclose(got["final"][var], value, rtol=1e-4, atol=2e-5 * scale, err_msg=var)


def test_quant_delay_gates_on_the_quantization_step():
    """Each run reading the step increments it first: the runs before run ``quant_delay`` compute in float, the
    ones from it on are quantized (TF 1.15's ``fake_quantization_step >= quant_delay``)."""
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2])
        w = tf.compat.v1.get_variable("fc/kernel", initializer=[[0.3, -0.7], [1.1, 0.2]])
        y = tf.nn.relu6(tf.matmul(x, w, name="fc/MatMul"), name="fc/Relu6")
        quantize.create_training_graph(quant_delay=2)
        feed = {x: [[0.5, -1.0], [0.25, 0.75]]}
        exact = np.maximum(np.dot(feed[x], [[0.3, -0.7], [1.1, 0.2]]), 0)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            runs = [sess.run(y, feed) for _ in range(3)]
            step = sess.run(tf.compat.v1.get_default_graph().get_tensor_by_name("fake_quantization_step:0"))
    np.testing.assert_allclose(runs[0], exact, rtol=1e-6)
    for run in runs[1:]:
        assert not np.allclose(run, exact, rtol=1e-6, atol=0)
    assert step == 3
