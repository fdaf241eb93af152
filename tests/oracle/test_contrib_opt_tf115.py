"""tf1clip.contrib.opt against numbers and checkpoints recorded from real TF 1.15 (tf.contrib.opt).

tests/data/tf115_opt/make_refs.py ran each case of cases.py on TensorFlow 1.15.5
and recorded every global variable (weights, slots, non-slot variables,
global_step) after each step, and a Saver checkpoint after CKPT_STEP steps. Here
the same graphs are built with tf1clip.contrib.opt: the variable names must be
the same, the values must match after every step (reference and resource
variables), and the TF 1.15 checkpoint must restore and continue to TF 1.15's
numbers.
"""

import importlib.util
import json
import os

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import opt

v1 = tf.compat.v1
HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_opt")
_spec = importlib.util.spec_from_file_location("tf115_opt_cases", os.path.join(HERE, "cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)

with open(os.path.join(HERE, "refs.json")) as _f:
    REFS = json.load(_f)

# float16 arithmetic order differs between kernels by a few ulps; float32 and
# float64 compare much tighter (float64 is limited by float32 hyperparameter tensors, as in TF 1.15).
TOL = {
    "float16": dict(rtol=2e-3, atol=2e-3),
    "float32": dict(rtol=2e-5, atol=1e-6),
    "float64": dict(rtol=1e-6, atol=1e-8),
}

# Resource variables (float32) for every case whose resource code path is its own; the variants of a
# case (other hyperparameters) run on reference variables, TF 1.15's default, only.
VARIANTS = {"AddSignDecay", "AddSignLinear", "PowerSignDecay", "LARSNesterov", "MomentumWNesterov", "ShampooDiagonal"}
CASES = [
    (name, dtype, resource)
    for name, (_, dtypes, _) in sorted(cases.specs(opt).items())
    for dtype in dtypes
    for resource in ((False, True) if dtype == "float32" and name not in VARIANTS else (False,))
]


def _compare(expected, actual, dtype, where):
    assert sorted(actual) == sorted(expected), "%s: variable names differ from TF 1.15's" % where
    for key in expected:
        np.testing.assert_allclose(
            np.asarray(actual[key], dtype=np.float64),
            np.asarray(expected[key], dtype=np.float64),
            err_msg="%s: %s" % (where, key),
            **TOL[dtype],
        )


@pytest.mark.parametrize(
    "name, dtype, resource", CASES, ids=["%s-%s-%s" % (n, d, "res" if r else "ref") for n, d, r in CASES]
)
def test_matches_tf115_every_step(name, dtype, resource):
    expected = REFS["cases"][name][dtype]
    with tf.Graph().as_default():
        train_op, feeds = cases.build(opt, name, dtype, use_resource=resource)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for step in range(cases.STEPS):
                sess.run(train_op, feeds(step))
                _compare(expected[step], cases.snapshot(sess), dtype, "%s %s step %d" % (name, dtype, step + 1))


CKPT_RESOURCE = {"LazyAdam", "AdamW", "AdaMax", "GGT", "Shampoo", "PowerSign"}
CKPT_CASES = [(n, r) for n in sorted(cases.specs(opt)) for r in ((False, True) if n in CKPT_RESOURCE else (False,))]


@pytest.mark.parametrize(
    "name, resource", CKPT_CASES, ids=["%s-%s" % (n, "res" if r else "ref") for n, r in CKPT_CASES]
)
def test_resumes_from_tf115_checkpoint(name, resource):
    expected = REFS["cases"][name]["float32"]
    with tf.Graph().as_default():
        train_op, feeds = cases.build(opt, name, "float32", use_resource=resource)
        saver = v1.train.Saver()
        with v1.Session() as sess:
            saver.restore(sess, os.path.join(HERE, "ckpt", name))
            _compare(expected[cases.CKPT_STEP - 1], cases.snapshot(sess), "float32", "%s restored" % name)
            for step in range(cases.CKPT_STEP, cases.STEPS):
                sess.run(train_op, feeds(step))
                _compare(expected[step], cases.snapshot(sess), "float32", "%s resumed step %d" % (name, step + 1))


def test_refs_come_from_tf115():
    assert REFS["tensorflow"].startswith("1.15")
    assert set(REFS["cases"]) == set(cases.specs(opt))
