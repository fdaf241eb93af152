"""tf1clip.contrib namespaces delegating to tf-slim, and the tf-slim compatibility layer (docs/slim.rst)."""

import os
import sys
import threading
import types

import numpy as np
import pytest
import tensorflow as tf
from helpers import run_python

import tf1clip.contrib
from tf1clip.compat import _slim

tf_slim = pytest.importorskip("tf_slim")

v1 = tf.compat.v1
slim = tf1clip.contrib.slim
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------- namespaces


def test_delegates_table_names_importable_tf_slim_modules():
    assert set(_slim.DELEGATES) == {
        "slim",
        "slim.learning",
        "slim.nets",
        "layers",
        "framework",
        "losses",
        "metrics",
        "training",
    }
    for modules in _slim.DELEGATES.values():
        assert isinstance(modules, tuple) and modules
        for name in modules:
            assert name.split(".")[0] == "tf_slim"
            __import__(name)


@pytest.mark.parametrize(
    "namespace, name, source",
    [
        ("slim", "arg_scope", "tf_slim.ops.arg_scope"),
        ("slim", "conv2d", "tf_slim.layers.layers"),
        ("slim", "batch_norm", "tf_slim.layers.layers"),
        ("slim", "get_variables_to_restore", "tf_slim.ops.variables"),
        ("slim", "assign_from_checkpoint_fn", "tf_slim.ops.variables"),
        ("slim", "l2_regularizer", "tf_slim.layers.regularizers"),
        ("layers", "xavier_initializer", "tf_slim.layers.initializers"),
        ("layers", "variance_scaling_initializer", "tf_slim.layers.initializers"),
        ("layers", "l2_regularizer", "tf_slim.layers.regularizers"),
        ("layers", "summarize_activations", "tf_slim.layers.summaries"),
        ("layers", "fully_connected", "tf_slim.layers.layers"),
        ("framework", "arg_scope", "tf_slim.ops.arg_scope"),
        ("framework", "add_arg_scope", "tf_slim.ops.arg_scope"),
        ("framework", "get_variables", "tf_slim.ops.variables"),
        ("framework", "filter_variables", "tf_slim.ops.variables"),
        ("losses", "softmax_cross_entropy", "tf_slim.losses.loss_ops"),
        ("losses", "get_total_loss", "tf_slim.losses.loss_ops"),
        ("metrics", "streaming_accuracy", "tf_slim.metrics.metric_ops"),
        ("training", "evaluate_once", "tf_slim.training.evaluation"),
        ("training", "StopAfterNEvalsHook", "tf_slim.training.evaluation"),
    ],
)
def test_delegated_names_are_tf_slims(namespace, name, source):
    obj = getattr(getattr(tf1clip.contrib, namespace), name)
    assert obj is getattr(sys.modules[source], name)
    assert name in dir(getattr(tf1clip.contrib, namespace))


@pytest.mark.parametrize(
    "namespace, name",
    [
        ("slim", "optimize_loss"),
        ("slim", "adaptive_clipping_fn"),
        ("slim", "get_or_create_global_step"),
        ("slim", "get_global_step"),
        ("layers", "optimize_loss"),
        ("layers", "OPTIMIZER_CLS_NAMES"),
        ("framework", "get_global_step"),
        ("training", "create_train_op"),
        ("training", "clip_gradient_norms"),
        ("training", "train"),
        ("slim.learning", "create_train_op"),
        ("slim.learning", "clip_gradient_norms"),
        ("slim.learning", "train"),
        ("slim.learning", "train_step"),
    ],
)
def test_tf1clips_own_names_win(namespace, name):
    module = tf1clip.contrib
    for part in namespace.split("."):
        module = getattr(module, part)
    obj = getattr(module, name)
    if callable(obj):
        assert obj.__module__.startswith("tf1clip.")
    else:
        assert obj is getattr(tf1clip.contrib.layers, name)


def test_slim_submodules():
    assert slim.learning is tf1clip.contrib.slim.learning
    assert slim.losses is tf1clip.contrib.losses
    assert slim.metrics is tf1clip.contrib.metrics
    assert slim.training is tf1clip.contrib.training
    assert slim.evaluation is sys.modules["tf_slim.evaluation"]
    assert slim.tfexample_decoder is sys.modules["tf_slim.data.tfexample_decoder"]


@pytest.mark.parametrize(
    "namespace, name",
    [
        ("layers", "sparse_column_with_hash_bucket"),
        ("slim", "dtypes"),
        ("slim", "math_ops"),
        ("metrics", "absolute_import"),
        ("losses", "_private"),
        ("framework", "nest"),
    ],
)
def test_unknown_private_and_foreign_names_raise_attribute_error(namespace, name):
    with pytest.raises(AttributeError, match="tf1clip.contrib.%s.* has no attribute '%s'" % (namespace, name)):
        getattr(getattr(tf1clip.contrib, namespace), name)
    assert not hasattr(getattr(tf1clip.contrib, namespace), name)


def test_import_tf1clip_and_contrib_do_not_import_tf_slim():
    out = run_python("""
        import sys
        import tf1clip, tf1clip.contrib
        print("tf_slim" in sys.modules)
        slim = tf1clip.contrib.slim
        print("tf_slim" in sys.modules)
        slim.arg_scope
        print("tf_slim" in sys.modules)
    """)
    assert out.split() == ["False", "False", "True"]


def test_without_tf_slim_delegated_names_say_how_to_install():
    out = run_python("""
        import sys
        sys.modules["tf_slim"] = None  # as if tf-slim were not installed
        import numpy as np
        import tensorflow as tf
        import tf1clip.contrib
        slim = tf1clip.contrib.slim
        for namespace, name in [("slim", "conv2d"), ("layers", "xavier_initializer"), ("framework", "arg_scope"),
                                ("losses", "get_total_loss"), ("metrics", "streaming_accuracy"),
                                ("training", "evaluate_once"), ("slim.learning", "anything")]:
            module = tf1clip.contrib
            for part in namespace.split("."):
                module = getattr(module, part)
            try:
                getattr(module, name)
            except ImportError as exc:
                assert "pip install 'tf1clip[slim]'" in str(exc), exc
                assert "tf1clip.contrib.%s.%s" % (namespace, name) in str(exc), exc
            else:
                raise AssertionError(name)
        assert "conv2d" not in dir(slim) and "learning" in dir(slim)
        # tf1clip's own names keep working without tf-slim
        with tf.Graph().as_default():
            w = tf.compat.v1.get_variable("w", initializer=tf.constant([3.0, 4.0]))
            op = slim.learning.create_train_op(tf.reduce_sum(w * [30.0, 40.0]),
                                               tf.compat.v1.train.GradientDescentOptimizer(1.0),
                                               clip_gradient_norm=5.0)
            with tf.compat.v1.Session() as sess:
                sess.run(tf.compat.v1.global_variables_initializer())
                sess.run(op)
                print(np.round(sess.run(w), 5).tolist())
        try:
            slim.learning.train(op, None, number_of_steps=1)
        except ImportError as exc:
            assert "pip install 'tf1clip[slim]'" in str(exc)
        else:
            raise AssertionError("train")
    """)
    assert out.split("\n")[-2] == "[0.0, 0.0]"


# ---------------------------------------------------------------- the compatibility layer


def test_apply_is_idempotent_and_names_its_patches():
    """Applying again changes nothing, also after ``slim.nets`` imported tf-slim modules the patches have not seen."""
    first = _slim.apply()
    layers = sys.modules["tf_slim.layers.layers"]
    shims = (tf_slim.learning.ops, layers.normalization_layers, tf_slim.learning.supervisor)
    import tf1clip.contrib.slim.nets  # noqa: F401

    assert _slim.apply() == first
    assert set(first) <= set(_slim.PATCHES)
    assert (tf_slim.learning.ops, layers.normalization_layers, tf_slim.learning.supervisor) == shims
    for name in _slim.PATCHES:
        assert _slim.PATCHES[name]() is False  # applied already: nothing left to do


def test_patches_leave_tensorflow_itself_alone():
    out = run_python("""
        import importlib
        import tensorflow as tf
        from tf1clip.compat import _slim

        def state():
            names = [(m, n) for m, moved in sorted(_slim._MOVED.items()) for n in sorted(moved)]
            return ([hasattr(importlib.import_module(m), n) for m, n in names],
                    tf.compat.v1.train.Supervisor, tf.compat.v1.train.Coordinator)

        before = state()
        assert set(_slim.apply()) <= set(_slim.PATCHES)
        assert state() == before
        print(before[0])
    """)
    assert "False" in out  # some of the moved names are really missing from TensorFlow here


def test_shims_forward_to_the_original_module():
    _slim.apply()
    from tensorflow.python.framework import ops

    shim = tf_slim.learning.ops
    assert isinstance(shim, types.ModuleType) and shim is not ops and shim._tf1clip_base is ops
    assert shim.IndexedSlices is tf.IndexedSlices and shim.Tensor is tf.Tensor
    assert shim.get_default_graph is ops.get_default_graph
    assert tf_slim.learning.supervisor.Supervisor is not v1.train.Supervisor


def test_moved_symbols_clip_gradient_norms_with_indexed_slices():
    _slim.apply()
    with tf.Graph().as_default():
        dense = tf.constant([3.0, 4.0])
        sparse = tf.IndexedSlices(tf.constant([[6.0, 8.0]]), tf.constant([1]), tf.constant([3, 2]))
        w, e = v1.Variable([0.0, 0.0]), v1.Variable(tf.zeros([3, 2]))
        for fn in (tf_slim.learning.clip_gradient_norms, tf_slim.training.clip_gradient_norms):
            (g1, _), (g2, _) = fn([(dense, w), (sparse, e)], 2.0)
            assert isinstance(g2, tf.IndexedSlices)
            with v1.Session() as sess:
                np.testing.assert_allclose(sess.run(g1), [1.2, 1.6], rtol=1e-6)
                np.testing.assert_allclose(sess.run(g2.values), [[1.2, 1.6]], rtol=1e-6)


def test_moved_symbols_tf_slims_create_train_op_clip_and_multipliers():
    """tf-slim's own create_train_op (ops.Tensor / ops.IndexedSlices inside) runs after the patch."""
    _slim.apply()
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([0.0, 0.0]))
        op = tf_slim.learning.create_train_op(
            tf.reduce_sum(w * [30.0, 40.0]),
            v1.train.GradientDescentOptimizer(1.0),
            clip_gradient_norm=5.0,
            gradient_multipliers={w: tf.constant(2.0)},
        )
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(op)
            np.testing.assert_allclose(sess.run(w), [-3.0, -4.0], rtol=1e-6)


def test_moved_symbols_tf_slims_optimize_loss_with_tensor_learning_rate():
    _slim.apply()
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([0.0, 0.0]))
        step = v1.train.get_or_create_global_step()
        op = sys.modules["tf_slim.layers"].optimize_loss(
            tf.reduce_sum(w * [30.0, 40.0]), step, tf.constant(0.1), "SGD", clip_gradients=5.0
        )
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(op)
            np.testing.assert_allclose(sess.run(w), [-0.3, -0.4], rtol=1e-6)


def test_moved_symbols_control_flow_and_stack():
    """smart_cond (control_flow_ops.cond), legacy_fully_connected on 3-D input (array_ops.stack/unstack),
    auc_using_histogram (control_flow_ops.Assert)."""
    _slim.apply()
    with tf.Graph().as_default():
        pred = v1.placeholder(tf.bool, [])
        out = sys.modules["tf_slim.layers.utils"].smart_cond(pred, lambda: tf.constant(1.0), lambda: tf.constant(2.0))
        x = tf.ones([2, 3, 4])
        y = tf_slim.legacy_fully_connected(x, 5, weight_init=v1.ones_initializer())
        auc, update = tf_slim.metrics.auc_using_histogram(
            tf.constant([True, False, True]), tf.constant([0.9, 0.2, 0.6]), score_range=[0.0, 1.0]
        )
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            assert sess.run(out, {pred: True}) == 1.0 and sess.run(out, {pred: False}) == 2.0
            np.testing.assert_allclose(sess.run(y), np.full([2, 3, 5], 4.0))
            sess.run(update)
            assert sess.run(auc) > 0.9  # the positives score above the negative


def test_moved_symbols_local_and_global_variable():
    _slim.apply()
    with tf.Graph().as_default():
        loc = slim.local_variable(np.float32(2.0), name="loc")
        glob = slim.global_variable([1.0, 2.0], name="glob")
        assert loc in v1.local_variables() and loc not in v1.global_variables()
        assert glob in v1.global_variables() and glob not in v1.trainable_variables()
        assert loc.op.name == "loc"
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            assert sess.run(loc) == 2.0
            np.testing.assert_allclose(sess.run(glob), [1.0, 2.0])


def test_moved_symbols_triplet_semihard_loss_runs():
    """metric_learning's losses use control_flow_ops.while_loop."""
    _slim.apply()
    with tf.Graph().as_default():
        labels = tf.constant([0, 0, 1, 1])
        emb = tf.math.l2_normalize(tf.constant([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]]), axis=1)
        loss = slim.losses.metric_learning.triplet_semihard_loss(labels, emb, margin=1.0)
        with v1.Session() as sess:
            value = sess.run(loss)
    assert np.isfinite(value) and value >= 0


@pytest.mark.parametrize("fused", [None, False], ids=["fused", "not_fused"])
def test_batch_norm_legacy_layer_matches_numpy(fused):
    """slim.batch_norm (is_training): normalises with batch moments, moves the averages by ``decay``."""
    rng = np.random.RandomState(0)
    x = rng.randn(4, 3, 3, 2).astype(np.float32) * 3 + 1
    with tf.Graph().as_default():
        y = slim.batch_norm(
            tf.constant(x), decay=0.5, epsilon=1e-3, center=True, scale=True, fused=fused, is_training=True
        )
        update_ops = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
        moving_mean = [v for v in v1.global_variables() if v.op.name.endswith("moving_mean")][0]
        assert len(update_ops) == 2
        assert {v.op.name for v in slim.get_model_variables()} == {
            "BatchNorm/beta",
            "BatchNorm/gamma",
            "BatchNorm/moving_mean",
            "BatchNorm/moving_variance",
        }
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            out, _ = sess.run([y, update_ops])
            mm = sess.run(moving_mean)
    mean, var = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(mm, 0.5 * mean, rtol=1e-5)


def test_batch_norm_without_tf_keras_says_what_to_install():
    if "batch_norm_legacy_layer" not in _slim.apply():
        pytest.skip("this TensorFlow's layers.normalization works without the patch")
    out = run_python("""
        import sys
        for name in ("tf_keras", "keras"):
            sys.modules[name] = None
        import tensorflow as tf
        import tf1clip.contrib
        slim = tf1clip.contrib.slim
        with tf.Graph().as_default():
            net = slim.conv2d(tf.ones([1, 4, 4, 1]), 2, [3, 3])  # other layers work without tf-keras
            try:
                slim.batch_norm(net)
            except ImportError as exc:
                print(exc)
    """)
    assert "slim.batch_norm needs the v1 BatchNormalization layer of tf-keras" in out
    assert "pip install 'tf-keras~=%s.0'" % ".".join(tf.__version__.split(".")[:2]) in out


def test_supervisor_threads_run_in_graph_mode(tmp_path):
    """A Supervisor thread (learning.train's summaries, step counter, checkpoints) reads the step and saves."""
    _slim.apply()
    sup = tf_slim.learning.supervisor.Supervisor
    assert issubclass(sup, v1.train.Supervisor)
    done, steps = threading.Event(), []
    with tf.Graph().as_default() as graph:
        step = v1.train.get_or_create_global_step()
        sv = sup(graph=graph, logdir=str(tmp_path), global_step=step, save_summaries_secs=0, save_model_secs=0)
        with sv.managed_session() as sess:

            def in_thread():  # what SVStepCounterThread and SVTimerCheckpointThread do
                if not done.is_set():
                    steps.append(v1.train.global_step(sess, step))
                    sv.saver.save(sess, sv.save_path, global_step=step)
                    done.set()

            thread = sv.loop(3600, in_thread)
            assert done.wait(120)
            sv.request_stop()
        sv.stop([thread])  # re-raises what failed in the thread (eager ``.numpy()`` on the graph's step)
    assert steps == [0]
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-0")


def test_slim_script_end_to_end_through_tf1clip_namespaces(tmp_path):
    """A typical slim script: arg_scope, layers, losses, metrics, summaries, train, then evaluation."""
    rng = np.random.RandomState(1)
    images = rng.rand(8, 6, 6, 1).astype(np.float32)
    labels = (images.mean(axis=(1, 2, 3)) > 0.5).astype(np.int64)

    def model():
        with slim.arg_scope([slim.conv2d, slim.fully_connected], weights_regularizer=slim.l2_regularizer(1e-4)):
            net = slim.conv2d(tf.constant(images), 2, [3, 3], normalizer_fn=slim.batch_norm, scope="conv")
            net = slim.avg_pool2d(net, [2, 2])
            net = slim.dropout(net, 0.9, is_training=False)
            return slim.fully_connected(slim.flatten(net), 2, activation_fn=None, scope="logits")

    with tf.Graph().as_default():
        logits = model()
        slim.losses.sparse_softmax_cross_entropy(logits, tf.constant(labels))
        total = slim.losses.get_total_loss()
        slim.summaries.add_scalar_summary(total, "total_loss", print_summary=False)
        tf1clip.contrib.layers.summarize_activations()
        train_op = slim.learning.create_train_op(
            total, v1.train.AdamOptimizer(0.01), clip_gradient_norm=1.0, summarize_gradients=True
        )
        loss = slim.learning.train(
            train_op,
            str(tmp_path),
            number_of_steps=3,
            log_every_n_steps=1,
            save_summaries_secs=3600,
            save_interval_secs=3600,
        )
    assert np.isfinite(loss)
    with tf.Graph().as_default():
        logits = model()
        slim.get_or_create_global_step()
        names_to_values, names_to_updates = slim.metrics.aggregate_metric_map(
            {
                "accuracy": slim.metrics.streaming_accuracy(tf.argmax(logits, 1), tf.constant(labels)),
            }
        )
        values = slim.evaluation.evaluate_once(
            "",
            tf.train.latest_checkpoint(str(tmp_path)),
            str(tmp_path / "eval"),
            num_evals=1,
            eval_op=list(names_to_updates.values()),
            final_op=names_to_values,
        )
    assert 0.0 <= values["accuracy"] <= 1.0


def test_from_import_forms_reach_delegated_names():
    from tf1clip.contrib.framework import arg_scope
    from tf1clip.contrib.layers import xavier_initializer

    assert xavier_initializer is sys.modules["tf_slim.layers.initializers"].xavier_initializer
    assert arg_scope is tf_slim.arg_scope


def test_slim_nets_is_imported_on_first_use():
    """tf_slim's __init__ does not import ``nets``; ``slim.nets`` does (in a subprocess: it adds
    ``tf_slim.nets`` to tf-slim's namespace for the rest of the process)."""
    out = run_python("""
        import sys
        import tf1clip.contrib
        from tf1clip.contrib.slim import nets
        print(nets is sys.modules["tf_slim.nets"], nets.resnet_v1 is sys.modules["tf_slim.nets.resnet_v1"],
              tf1clip.contrib.slim.nets is nets)
    """)
    assert out.split() == ["True", "True", "True"]


def test_slim_nets_imports_in_every_spelling_give_tf_slims_modules():
    """``tf1clip.contrib.slim.nets`` is a module too: the import statements TF 1 code used on
    ``tensorflow.contrib.slim.nets`` work, without a second copy of tf-slim's modules."""
    out = run_python("""
        import sys
        from tf1clip.contrib.slim.nets import resnet_v1, vgg
        import tf1clip.contrib.slim.nets.inception_v3 as inception_v3
        import tf1clip.contrib.slim.nets as nets
        import tf1clip.contrib.slim
        print(resnet_v1 is sys.modules["tf_slim.nets.resnet_v1"], vgg is sys.modules["tf_slim.nets.vgg"],
              inception_v3 is sys.modules["tf_slim.nets.inception_v3"], nets is sys.modules["tf_slim.nets"],
              tf1clip.contrib.slim.nets is nets, callable(resnet_v1.resnet_v1_50))
    """)
    assert out.split() == ["True"] * 6
