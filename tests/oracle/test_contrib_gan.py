"""tf1clip.contrib.gan: TF-GAN routed and patched for TF 2.15-2.21 and Python 3.11 (docs/gan.rst)."""

import importlib.util
import inspect
import json
import os
import sys

import numpy as np
import pytest
import tensorflow as tf
from helpers import run_python

import tf1clip
import tf1clip.contrib
import tf1clip.contrib.gan as tfgan
from tf1clip.compat import _gan

if importlib.util.find_spec("tensorflow_gan") is None:
    pytest.skip("needs tensorflow-gan (pip install 'tf1clip[gan]')", allow_module_level=True)

v1 = tf.compat.v1
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE = os.path.join(ROOT, "tests", "oracle")
sys.path.insert(0, ORACLE)
import gan_train_program  # noqa: E402

TF_HAS_ESTIMATOR = hasattr(tf, "estimator")


def _reference():
    with open(os.path.join(ORACLE, "gan_train_tf115.json")) as f:
        return json.load(f)


# ---------------------------------------------------------------- TF 1.15's numbers


@pytest.mark.parametrize(
    "clip", [tf1clip.contrib.estimator.clip_gradients_by_norm, tf1clip.clip_gradients_by_norm], ids=["contrib", "core"]
)
def test_gan_train_sequential_steps_with_clipped_optimizers_matches_tf115(clip, tmp_path):
    ref = _reference()
    got = gan_train_program.run(v1, tfgan, clip, str(tmp_path))
    assert sorted(got["variables"]) == sorted(ref["variables"])
    for name, value in ref["variables"].items():
        np.testing.assert_allclose(got["variables"][name], value, rtol=1e-4, atol=1e-6, err_msg=name)
    for key in ("generator_loss", "discriminator_loss", "gan_train_returned"):
        np.testing.assert_allclose(got[key], ref[key], rtol=1e-4, err_msg=key)
    assert v1.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-%d" % gan_train_program.NUM_STEPS)


def test_reference_depends_on_clipping_and_on_the_discriminator_steps(tmp_path, monkeypatch):
    """The comparison above can fail: without clipping, or with GANTrainSteps(1, 1), the numbers differ."""
    ref = _reference()["variables"]

    def unclipped(opt, clip_norm):
        return opt

    got = gan_train_program.run(v1, tfgan, unclipped, str(tmp_path / "a"))["variables"]
    assert not np.allclose(got["Discriminator/w"], ref["Discriminator/w"], rtol=1e-4)
    monkeypatch.setattr(gan_train_program, "TRAIN_STEPS", (1, 1))
    got = gan_train_program.run(v1, tfgan, tf1clip.clip_gradients_by_norm, str(tmp_path / "b"))["variables"]
    assert not np.allclose(got["Discriminator/w"], ref["Discriminator/w"], rtol=1e-4)


# ---------------------------------------------------------------- routing


def test_every_public_tfgan_name_resolves_to_tensorflow_gans_object():
    import tensorflow_gan

    for namespace, module_name in _gan.DELEGATES.items():
        ours = importlib.import_module("tf1clip.contrib." + namespace)
        theirs = importlib.import_module(module_name)
        names = [n for n in getattr(theirs, "__all__", dir(theirs)) if not n.startswith("_")]
        assert names, namespace
        for name in names:
            got = getattr(ours, name)
            if isinstance(got, type(tf1clip)) and got.__name__.startswith("tf1clip."):
                assert namespace + "." + name in _gan.DELEGATES, name
            else:
                assert got is getattr(theirs, name), (namespace, name)
    assert tfgan.gan_train is tensorflow_gan.gan_train
    assert tfgan.losses.wargs.wasserstein_generator_loss is tensorflow_gan.losses.wargs.wasserstein_generator_loss
    assert "gan_train" in dir(tfgan) and "GANTrainSteps" in dir(tfgan)


def test_from_imports_of_the_submodules():
    from tf1clip.contrib.gan import GANTrainSteps, gan_train  # noqa: F401
    from tf1clip.contrib.gan.eval import add_gan_model_image_summaries  # noqa: F401
    from tf1clip.contrib.gan.features import clip_variables  # noqa: F401
    from tf1clip.contrib.gan.losses import modified_generator_loss  # noqa: F401
    from tf1clip.contrib.gan.losses.wargs import wasserstein_discriminator_loss  # noqa: F401

    assert tf1clip.contrib.gan is tfgan


def test_unknown_and_private_names_raise_attribute_error_naming_the_module():
    with pytest.raises(AttributeError, match=r"'tf1clip.contrib.gan'.*'gan_trian'.*tensorflow_gan"):
        tfgan.gan_trian  # noqa: B018
    with pytest.raises(AttributeError, match=r"'tf1clip.contrib.gan.losses' has no attribute '_private'"):
        tfgan.losses._private  # noqa: B018


# ---------------------------------------------------------------- the patches


def test_apply_is_idempotent_and_names_what_this_tensorflow_needed():
    applied = _gan.apply()
    assert _gan.apply() == applied
    assert "lazy_hub_and_probability" in applied
    assert ("estimator_namespace" in applied) == (not TF_HAS_ESTIMATOR)
    assert ("inspect_getargspec" in applied) == (not hasattr(inspect, "getargspec"))
    assert set(applied) <= set(_gan.PATCHES)


def test_run_train_ops_hook_is_a_v1_session_run_hook(graph):
    import tensorflow_gan

    assert issubclass(tensorflow_gan.RunTrainOpsHook, v1.train.SessionRunHook)
    for hook in tfgan.get_sequential_train_hooks(tfgan.GANTrainSteps(1, 3))(_train_ops()):
        assert isinstance(hook, v1.train.SessionRunHook)


def _train_ops():
    def generator_fn(z):
        return z * v1.get_variable("g", initializer=1.0)

    def discriminator_fn(x, unused):
        return tf.reduce_sum(x * v1.get_variable("d", initializer=1.0), axis=1, keepdims=True)

    model = tfgan.gan_model(generator_fn, discriminator_fn, tf.ones([4, 2]), tf.ones([4, 2]))
    loss = tfgan.gan_loss(model)
    return tfgan.gan_train_ops(
        model, loss, v1.train.GradientDescentOptimizer(0.1), v1.train.GradientDescentOptimizer(0.1)
    )


def test_getargspec_stand_in_reports_keywords_and_args():
    spec = _gan._getargspec(lambda a, b=1, *args, **kwargs: None)
    assert spec == (["a", "b"], "args", "kwargs", (1,))
    assert _gan._getargspec(lambda model, reduction=None: None).keywords is None


def test_gan_loss_passes_add_summaries_only_to_loss_functions_that_take_it(graph):
    seen = {}

    def generator_loss(model, add_summaries=False):
        seen["generator"] = add_summaries
        return tf.reduce_mean(model.discriminator_gen_outputs)

    def discriminator_loss(model, **kwargs):
        seen["discriminator"] = sorted(kwargs)
        return tf.reduce_mean(model.discriminator_real_outputs)

    with v1.variable_scope("m"):
        model = tfgan.gan_model(
            lambda z: z * v1.get_variable("g", initializer=1.0),
            lambda x, unused: x * v1.get_variable("d", initializer=1.0),
            tf.ones([2, 1]),
            tf.ones([2, 1]),
        )
    tfgan.gan_loss(model, generator_loss, discriminator_loss, add_summaries=True)
    assert seen == {"generator": True, "discriminator": ["add_summaries", "reduction"]}


@pytest.mark.skipif(TF_HAS_ESTIMATOR, reason="this TensorFlow has tf.estimator: TF-GAN's Estimators are the real ones")
def test_gan_estimator_without_tf_estimator_raises_import_error_naming_the_way_out():
    with pytest.raises(
        ImportError, match=r"GANEstimator needs tf.estimator.*TensorFlow 2.15 with tensorflow-estimator"
    ):
        tfgan.estimator.GANEstimator(
            generator_fn=lambda z: z,
            discriminator_fn=lambda x, c: x,
            generator_loss_fn=tfgan.losses.wasserstein_generator_loss,
            discriminator_loss_fn=tfgan.losses.wasserstein_discriminator_loss,
            generator_optimizer=v1.train.GradientDescentOptimizer(0.1),
            discriminator_optimizer=v1.train.GradientDescentOptimizer(0.1),
        )


def test_import_is_lazy_and_without_tf_gan_the_error_says_how_to_install():
    out = run_python(
        """
        import sys
        import tf1clip.contrib, tf1clip.contrib.gan as tfgan
        print("before", "tensorflow_gan" in sys.modules)
        sys.modules["tensorflow_gan"] = None  # as if not installed
        try:
            tfgan.gan_train
        except ImportError as e:
            print(e)
        del sys.modules["tensorflow_gan"]
        tfgan.gan_model
        print("after", "tensorflow_gan" in sys.modules, "tensorflow_hub" in sys.modules,
              "tensorflow_probability" in sys.modules)
        """
    )
    assert "before False" in out and "after True False False" in out
    assert "tf1clip.contrib.gan.gan_train comes from TF-GAN, which is not installed: pip install 'tf1clip[gan]'" in out


# ---------------------------------------------------------------- more of the API on this TensorFlow


def _image_gan():
    def generator_fn(z):
        w = v1.get_variable("w", initializer=np.full([8, 48], 0.01, np.float32))
        return tf.reshape(tf.tanh(tf.matmul(z, w)), [-1, 4, 4, 3])

    def discriminator_fn(x, unused_conditioning):
        w = v1.get_variable("w", initializer=np.full([48, 1], 0.01, np.float32))
        return tf.matmul(tf.reshape(x, [-1, 48]), w)

    real = tf.constant(np.random.RandomState(1).uniform(-1, 1, [4, 4, 4, 3]).astype(np.float32))
    return tfgan.gan_model(generator_fn, discriminator_fn, real, tf.ones([4, 8]))


def test_eval_summaries_joint_hooks_and_a_gradient_penalty_with_clipped_optimizers(graph):
    model = _image_gan()
    tfgan.eval.add_gan_model_image_summaries(model, grid_size=2)
    tfgan.eval.add_gan_model_summaries(model)
    tfgan.eval.add_regularization_loss_summaries(model)
    loss = tfgan.gan_loss(model, gradient_penalty_weight=1.0, add_summaries=True)
    train_ops = tfgan.gan_train_ops(
        model,
        loss,
        tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(1e-3), 1.0),
        tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(1e-3), 1.0),
        summarize_gradients=True,
    )
    merged = v1.summary.merge_all()
    with v1.train.MonitoredSession(hooks=tfgan.get_joint_train_hooks()(train_ops)) as sess:
        step = sess.run(train_ops.global_step_inc_op)
        summary = v1.Summary.FromString(sess.run(merged))
    assert step == 1
    tags = {value.tag for value in summary.value}
    assert {
        "generator_wasserstein_loss/generator_wass_loss",
        "discriminator_wasserstein_loss/discriminator_wass_loss",
        "wasserstein_gradient_penalty/gradient_penalty_loss",
        "real_data/image",
        "generated_data/image",
        "generator_train/summarize_grads/Generator/w_gradient_norm",
        "discriminator_train/summarize_grads/Discriminator/w_gradient_norm",
    } <= tags


def test_frechet_distance_imports_tensorflow_probability_when_called(graph):
    try:
        import tensorflow_probability  # noqa: F401
    except ImportError as e:
        pytest.skip("tensorflow-probability does not import with this TensorFlow: %s" % e)
    acts = np.random.RandomState(0).normal(size=[64, 3]).astype(np.float32)
    shift = np.array([1.0, -2.0, 0.5], np.float32)
    distance = tfgan.eval.frechet_classifier_distance_from_activations(tf.constant(acts), tf.constant(acts + shift))
    with v1.Session() as sess:
        np.testing.assert_allclose(sess.run(distance), np.sum(shift**2), rtol=1e-3)
