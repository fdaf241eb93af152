"""Every tf1clip wrapper is invisible: each public attribute of the optimizer it wraps answers through it.

For every contrib.opt wrapper/optimizer and SyncReplicasOptimizer (after its step is built, so that the attributes
``apply_gradients`` sets exist), every public name of its class or instance that ``tf.compat.v1.train.Optimizer``
does not define, plus ``get_slot``, ``get_slot_names`` and ``variables``, is read through every tf1clip wrapper and
nesting, and must be the inner optimizer's own (the same bound method, the same object).
"""

import pytest

import tf1clip
from tf1clip.compat._tf import tf
from tf1clip.contrib import opt as copt

v1 = tf.compat.v1
LOCAL_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _sgd():
    return v1.train.GradientDescentOptimizer(0.1)


def _elastic(model):
    return copt.ElasticAverageOptimizer(_sgd(), num_worker=1, ea_custom_getter=model["getter"])


def _model_average(model):
    return copt.ModelAverageOptimizer(_sgd(), num_worker=1, is_chief=True, ma_custom_getter=model["getter"])


INNER = {
    "MovingAverageOptimizer": (None, lambda m: copt.MovingAverageOptimizer(v1.train.AdamOptimizer(0.1))),
    "ElasticAverageOptimizer": (copt.ElasticAverageCustomGetter, _elastic),
    "ModelAverageOptimizer": (copt.ModelAverageCustomGetter, _model_average),
    "AGNOptimizer": (copt.AGNCustomGetter, lambda m: copt.AGNOptimizer(_sgd(), 1, m["getter"])),
    "DropStaleGradientOptimizer": (None, lambda m: copt.DropStaleGradientOptimizer(_sgd(), 2)),
    "VariableClippingOptimizer": (None, lambda m: copt.VariableClippingOptimizer(_sgd(), {m["w"]: [0]}, 1.0)),
    "MultitaskOptimizerWrapper": (None, lambda m: copt.MultitaskOptimizerWrapper(v1.train.AdamOptimizer(0.1))),
    "SyncReplicasOptimizer": (None, lambda m: v1.train.SyncReplicasOptimizer(_sgd(), replicas_to_aggregate=1)),
}
WRAPPERS = {
    "clip_gradients_by_norm": lambda o: tf1clip.clip_gradients_by_norm(o, 1.0),
    "transform_gradients": lambda o: tf1clip.transform_gradients(o, tf1clip.clip_by_value_fn(-1.0, 1.0)),
    "raise": lambda o: tf1clip.clip_gradients_by_norm(o, 1.0, on_nonfinite="raise"),
    "skip": lambda o: tf1clip.clip_gradients_by_norm(o, 1.0, on_nonfinite="skip"),
    "nested": lambda o: tf1clip.transform_gradients(
        tf1clip.clip_gradients_by_norm(o, 1.0), tf1clip.clip_by_norm_fn(2.0)
    ),
}
_BASE = set(dir(v1.train.Optimizer))
_ALWAYS = ("get_slot", "get_slot_names", "variables")


def _model(getter_class):
    getter = None if getter_class is None else getter_class(worker_device=LOCAL_DEVICE)
    with v1.variable_scope("", custom_getter=getter):
        step = v1.train.get_or_create_global_step()
        w = v1.get_variable("w", initializer=[1.0, 2.0])
    return {"getter": getter, "step": step, "w": w}


def _public(inner):
    names = {n for n in dir(type(inner)) if not n.startswith("_") and n not in _BASE}
    names |= {n for n in vars(inner) if not n.startswith("_")}
    return sorted(names | set(_ALWAYS))


def _same(a, b):
    return a == b if callable(a) and hasattr(a, "__self__") else a is b


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("inner_name", sorted(INNER))
def test_every_public_attribute_of_the_wrapped_optimizer_answers_through_the_wrapper(inner_name, wrapper):
    if wrapper in ("skip", "raise") and inner_name == "SyncReplicasOptimizer":
        pytest.skip("refused at construction (tests/subprocess/test_sync_nonfinite.py)")
    getter_class, make = INNER[inner_name]
    with tf.Graph().as_default():
        model = _model(getter_class)
        inner = make(model)
        outer = WRAPPERS[wrapper](inner)
        outer.minimize(tf.reduce_sum(model["w"] * model["w"]), global_step=model["step"], var_list=[model["w"]])
        own = set(dir(type(outer)))
        missing = []
        for name in _public(inner):
            if name in own and name not in _ALWAYS:
                continue  # the wrapper's own (e.g. ``optimizer``): documented
            try:
                value = getattr(outer, name)
            except AttributeError as err:
                missing.append("%s (%s)" % (name, err))
                continue
            if name not in _ALWAYS and not _same(value, getattr(inner, name)):
                missing.append("%s is not the inner optimizer's" % name)
        assert not missing, missing
