"""tf1clip-upgrade's rules on small sources: the tf-slim family, flags, contrib rnn, mixed precision,
module objects, one report per symbol."""

import importlib
import math
import os
import textwrap

import numpy as np
import pytest
import tensorflow as tf

from helpers import upgrade
from helpers import upgrade_issues
from tf1clip.contrib import _manifest
from tf1clip.upgrade import _slim_names
from tf1clip.upgrade import _tables
from tf1clip.upgrade import upgrade_source

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

v1 = tf.compat.v1
SLIM_INFO = "pip install 'tf1clip[slim]'"

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_slim_table_is_the_installed_tf_slims_public_names():
    pytest.importorskip("tf_slim")
    from tf1clip.upgrade import _slimgen

    assert _slimgen.generate() == (_slim_names.MODULES, _slim_names.NAMES)


# Modules whose import needs Keras 2: checked by their manifest names (tests/subprocess/test_manifest.py imports them and
# checks their __all__ against the manifest).
def _imports_keras2(module):
    """Importing ``module`` needs Keras 2 (a manifest row of it, or of a module under it, is ``keras2``): the pytest
    process runs Keras 3, so its names are checked against the manifest (tests/subprocess/test_manifest.py checks the manifest
    against those modules in a Keras 2 subprocess)."""
    return any(r.keras2 for r in _manifest.ROWS if r.target == module or r.impl == module)


def test_tf1clips_own_targets_exist():
    for contrib, (module, names) in _tables.own().items():
        if _imports_keras2(module):
            assert set(names) <= set(_manifest.names(module)), contrib
            continue
        if module.startswith("tf1clip.contrib.learn"):
            continue  # they import tf1clip.estimator: tests/keras2/test_contrib_learn_estimator.py checks them
        target = importlib.import_module(module)
        for name in names:
            # tf1clip.contrib.rnn (and tf1clip.contrib's Keras-2 modules) resolve names on first use: __all__
            assert name in getattr(target, "__all__", ()) or hasattr(target, name), (contrib, name)


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "import tensorflow as tf\ny = tf.contrib.slim.conv2d(x, 8, 3)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\ny = tf1clip.contrib.slim.conv2d(x, 8, 3)\n",
        ),
        (
            "import tensorflow as tf\nslim = tf.contrib.slim\ny = slim.conv2d(x, 8, 3, weights_regularizer="
            "slim.l2_regularizer(0.1))\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nslim = tf1clip.contrib.slim\ny = slim.conv2d(x, 8, 3, "
            "weights_regularizer=slim.l2_regularizer(0.1))\n",
        ),
        (
            "from tensorflow.contrib import slim\ny = slim.fully_connected(x, 4)\n",
            "from tf1clip.contrib import slim\ny = slim.fully_connected(x, 4)\n",
        ),
        (
            "import tensorflow.contrib.slim as slim\nwith slim.arg_scope([slim.conv2d]):\n    pass\n",
            "import tf1clip.contrib.slim as slim\nwith slim.arg_scope([slim.conv2d]):\n    pass\n",
        ),
        (
            "from tensorflow.contrib.layers import xavier_initializer\ninit = xavier_initializer()\n",
            "from tf1clip.contrib.layers import xavier_initializer\ninit = xavier_initializer()\n",
        ),
        (
            "import tensorflow as tf\ninit = tf.contrib.layers.xavier_initializer()\n",
            "import tensorflow as tf\nimport tf1clip.contrib\ninit = tf1clip.contrib.layers.xavier_initializer()\n",
        ),
        (
            "import tensorflow as tf\nwith tf.contrib.framework.arg_scope([f]):\n    v = tf.contrib.framework.get_variables()\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nwith tf1clip.contrib.framework.arg_scope([f]):\n"
            "    v = tf1clip.contrib.framework.get_variables()\n",
        ),
        (
            "import tensorflow as tf\nl = tf.contrib.losses.mean_squared_error(p, y)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nl = tf1clip.contrib.losses.mean_squared_error(p, y)\n",
        ),
        (
            "import tensorflow as tf\nm = tf.contrib.metrics.streaming_accuracy(p, y)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nm = tf1clip.contrib.metrics.streaming_accuracy(p, y)\n",
        ),
        (
            "import tensorflow as tf\ntf.contrib.training.train(op, logdir)\ntf.contrib.slim.learning.train(op, logdir)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\ntf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior\n"
            "tf1clip.contrib.training.train(op, logdir)\n"
            "tf1clip.contrib.slim.learning.train(op, logdir)\n",
        ),
        (
            "import tensorflow.contrib.layers as layers\nh = layers.fully_connected(x, 2)\n",
            "import tf1clip.contrib.layers as layers\nh = layers.fully_connected(x, 2)\n",
        ),
        (
            "from tensorflow.contrib.framework import arg_scope, add_arg_scope\n",
            "from tf1clip.contrib.framework import arg_scope, add_arg_scope\n",
        ),
        (
            "from tensorflow.contrib.layers.python.layers import initializers, layers as layers_lib\n",
            "from tf1clip.contrib.layers import initializers, layers as layers_lib\n",
        ),
        (
            "from tensorflow.contrib.slim.python.slim.learning import train\n",
            "from tf1clip.contrib.slim.learning import train\n",
        ),
    ],
)
def test_tf_slim_family_is_routed_in_every_spelling_with_one_info_line(before, after):
    result = upgrade_source(before)
    assert result.text == after
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert sum(SLIM_INFO in e.message for e in result.log) == 1


def test_what_tf_slim_lacks_stays_an_error_naming_the_successor_and_its_model_zoo_is_routed():
    result = upgrade("""\
        import tensorflow as tf
        from tensorflow.contrib.slim.nets import resnet_v1
        col = tf.contrib.layers.embedding_column(ids, 8)
        batch = tf.contrib.training.bucket_by_sequence_length(n, tensors, 8, [4])
        net, _ = resnet_v1.resnet_v1_50(images)
        """)
    errors = upgrade_issues(result)
    assert [line for line, _ in errors] == [3, 4]
    assert "tf.feature_column" in errors[0][1]
    assert "tf.data.experimental.bucket_by_sequence_length" in errors[1][1]
    assert "from tf1clip.contrib.slim.nets import resnet_v1\n" in result.text


def test_an_unprovided_contrib_import_goes_once_every_use_is_converted():
    result = upgrade("""\
        import tensorflow as tf
        from tensorflow.contrib import tpu as contrib_tpu
        from tensorflow.contrib.framework import sort
        from tensorflow.contrib.model_pruning import get_masks
        opt = contrib_tpu.CrossShardOptimizer(tf.train.AdamOptimizer(0.1))
        order = sort(x)
        """)
    assert result.text.splitlines()[1:] == [
        "opt = tf.compat.v1.tpu.CrossShardOptimizer(tf.compat.v1.train.AdamOptimizer(0.1))",
        "order = tf.sort(x)",
    ]
    assert not upgrade_issues(result, "ERROR", "WARNING")


def test_flags_and_app_run_go_to_tf_compat_v1():
    result = upgrade("""\
        import tensorflow as tf
        from tensorflow import flags as tf_flags
        from tensorflow import app
        flags = tf.app.flags
        tf.flags.DEFINE_integer("steps", 3, "Steps.")
        flags.DEFINE_string("name", "x", "Name.")
        FLAGS = tf.app.flags.FLAGS
        if __name__ == "__main__":
            tf.app.run(main)
        """)
    assert result.text == textwrap.dedent("""\
        import tensorflow as tf
        from tensorflow.compat.v1 import flags as tf_flags
        from tensorflow.compat.v1 import app
        flags = tf.compat.v1.app.flags
        tf.compat.v1.flags.DEFINE_integer("steps", 3, "Steps.")
        flags.DEFINE_string("name", "x", "Name.")
        FLAGS = tf.compat.v1.app.flags.FLAGS
        if __name__ == "__main__":
            tf.compat.v1.app.run(main)
        """)
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert callable(v1.flags.DEFINE_integer) and callable(v1.app.flags.DEFINE_string) and callable(v1.app.run)


def test_contrib_rnn_import_forms_go_to_tf_compat_v1_nn():
    result = upgrade("""\
        import tensorflow as tf
        from tensorflow.contrib import rnn
        from tensorflow.contrib import rnn as contrib_rnn
        from tensorflow.contrib.rnn import LSTMCell, LSTMStateTuple
        cell = rnn.MultiRNNCell([rnn.BasicLSTMCell(4), LSTMCell(4)])
        outputs, state = contrib_rnn.static_rnn(cell, inputs, dtype=tf.float32)
        state = contrib_rnn.LSTMStateTuple(c, h)
        """)
    assert not upgrade_issues(result)
    lines = result.text.splitlines()
    assert lines[0].startswith("import os") and lines[1].startswith('os.environ["TF_USE_LEGACY_KERAS"] = "1"')
    assert lines[3:] == [
        "from tensorflow.compat.v1.nn.rnn_cell import LSTMCell, LSTMStateTuple",
        "cell = tf.compat.v1.nn.rnn_cell.MultiRNNCell([tf.compat.v1.nn.rnn_cell.BasicLSTMCell(4), LSTMCell(4)])",
        "outputs, state = tf.compat.v1.nn.static_rnn(cell, inputs, dtype=tf.float32)",
        "state = tf.compat.v1.nn.rnn_cell.LSTMStateTuple(c, h)",
    ]
    result = upgrade("""\
        from tensorflow.contrib import rnn
        cell = rnn.NTMCell(4)
        other = rnn.GRUCell(4)
        """)
    errors = upgrade_issues(result)
    assert [line for line, _ in errors] == [1, 2]  # the import stays, and says so
    assert "tf.compat.v1.nn.rnn_cell" in errors[0][1] and "tf.compat.v1.nn.rnn_cell" in errors[1][1]
    assert "tf1clip.contrib.rnn re-creates every name TF 1.15's tf.contrib.rnn exported" in errors[1][1]
    assert "other = tf.compat.v1.nn.rnn_cell.GRUCell(4)" in result.text


def test_contrib_rnn_module_with_nascell_converts_every_use():
    result = upgrade("""\
        import tensorflow as tf
        from tensorflow.contrib import rnn
        from tensorflow.contrib.rnn.python.ops import fused_rnn_cell
        from tensorflow.contrib.rnn.python.ops.lstm_ops import LSTMBlockFusedCell
        cells = [rnn.DropoutWrapper(rnn.NASCell(64), output_keep_prob=0.5) for _ in range(2)]
        cell = rnn.MultiRNNCell(cells + [rnn.LSTMCell(64)])
        fused = fused_rnn_cell.TimeReversedFusedRNN(LSTMBlockFusedCell(8))
        other = [tf.contrib.rnn.GridLSTMCell(4, num_frequency_blocks=[1]), rnn.best_effort_input_batch_size([x])]
        """)
    assert not upgrade_issues(result)
    assert "tensorflow.contrib" not in result.text
    assert result.text.splitlines()[2:] == [
        "import tensorflow as tf",
        "import tf1clip.contrib",
        "from tf1clip.contrib import rnn as fused_rnn_cell",
        "from tf1clip.contrib.rnn import LSTMBlockFusedCell",
        "cells = [tf.compat.v1.nn.rnn_cell.DropoutWrapper(tf1clip.contrib.rnn.NASCell(64), output_keep_prob=0.5) "
        "for _ in range(2)]",
        "cell = tf.compat.v1.nn.rnn_cell.MultiRNNCell(cells + [tf.compat.v1.nn.rnn_cell.LSTMCell(64)])",
        "fused = fused_rnn_cell.TimeReversedFusedRNN(LSTMBlockFusedCell(8))",
        "other = [tf1clip.contrib.rnn.GridLSTMCell(4, num_frequency_blocks=[1]), "
        "tf1clip.contrib.rnn.best_effort_input_batch_size([x])]",
    ]


def test_contrib_rnn_names_tf1clip_recreates_go_to_tf1clip_in_every_spelling():
    result = upgrade("""\
        import tensorflow as tf
        import tensorflow.contrib.rnn as rnn
        from tensorflow.contrib import rnn as contrib_rnn
        from tensorflow.contrib import legacy_seq2seq
        from tensorflow.contrib.rnn import LSTMBlockCell, GRUCell
        from tensorflow.contrib.rnn.python.ops.rnn_cell import LayerNormBasicLSTMCell
        from tensorflow.contrib.rnn.python.ops import core_rnn_cell
        from tensorflow.contrib.legacy_seq2seq.python.ops import seq2seq as s2s
        from tensorflow.contrib.cudnn_rnn import CudnnCompatibleLSTMCell
        seq2seq = tf.contrib.legacy_seq2seq
        a = tf.contrib.rnn.AttentionCellWrapper(tf.contrib.rnn.LSTMCell(3), 2)
        b = rnn.HighwayWrapper(rnn.GRUCell(4))
        c = [LSTMBlockCell(3), LayerNormBasicLSTMCell(3), contrib_rnn.GRUBlockCellV2(2)]
        e = core_rnn_cell.OutputProjectionWrapper(GRUCell(3), 2)
        f = [tf.contrib.legacy_seq2seq.sequence_loss, legacy_seq2seq.rnn_decoder, s2s.embedding_attention_seq2seq]
        g = [seq2seq.model_with_buckets, tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell(3), CudnnCompatibleLSTMCell(2)]
        h = tf.contrib.rnn.stack_bidirectional_dynamic_rnn
        """)
    assert not upgrade_issues(result)
    lines = result.text.splitlines()
    assert lines[:2] == [
        "import os",
        'os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf1clip-upgrade: '
        "tf1clip.contrib.legacy_seq2seq needs Keras 2 (tf-keras)",
    ]
    assert lines[2:] == [
        "import tensorflow as tf",
        "import tf1clip.contrib.cudnn_rnn",
        "import tf1clip.contrib.legacy_seq2seq",
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior",
        "from tf1clip.contrib import legacy_seq2seq",
        "from tf1clip.contrib.rnn import LSTMBlockCell",
        "from tensorflow.compat.v1.nn.rnn_cell import GRUCell",
        "from tf1clip.contrib.rnn import LayerNormBasicLSTMCell",
        "from tf1clip.contrib import rnn as core_rnn_cell",
        "from tf1clip.contrib import legacy_seq2seq as s2s",
        "from tf1clip.contrib.cudnn_rnn import CudnnCompatibleLSTMCell",
        "seq2seq = tf1clip.contrib.legacy_seq2seq",
        "a = tf1clip.contrib.rnn.AttentionCellWrapper(tf.compat.v1.nn.rnn_cell.LSTMCell(3), 2)",
        "b = tf1clip.contrib.rnn.HighwayWrapper(tf.compat.v1.nn.rnn_cell.GRUCell(4))",
        "c = [LSTMBlockCell(3), LayerNormBasicLSTMCell(3), tf1clip.contrib.rnn.GRUBlockCellV2(2)]",
        "e = core_rnn_cell.OutputProjectionWrapper(GRUCell(3), 2)",
        "f = [tf1clip.contrib.legacy_seq2seq.sequence_loss, legacy_seq2seq.rnn_decoder, s2s.embedding_attention_seq2seq]",
        "g = [seq2seq.model_with_buckets, tf1clip.contrib.cudnn_rnn.CudnnCompatibleGRUCell(3), "
        "CudnnCompatibleLSTMCell(2)]",
        "h = tf1clip.contrib.rnn.stack_bidirectional_dynamic_rnn",
    ]


def test_what_tf1clip_does_not_recreate_stays_an_error_that_says_what_to_do():
    result = upgrade("""\
        import tensorflow as tf
        lstm = tf.contrib.cudnn_rnn.CudnnLSTM(1, 8)
        ntm = tf.contrib.rnn.python.ops.rnn_cell.NTMCell(4)
        """)
    errors = upgrade_issues(result)
    assert [line for line, _ in errors] == [3]
    assert "the cells it did not export (NTMCell" in errors[0][1]
    assert "lstm = tf1clip.contrib.cudnn_rnn.CudnnLSTM(1, 8)" in result.text


def test_contrib_module_objects_are_rewritten_only_when_every_use_is_provided():
    result = upgrade("""\
        import tensorflow as tf
        a = getattr(tf.contrib.opt, name, None)
        b = getattr(tf.contrib.opt, "DelayCompensatedGradientDescentOptimizer")
        c = getattr(tf.contrib.layers, "optimize_loss")
        opt_module = tf.contrib.opt
        d = getattr(opt_module, name)
        register(tf.contrib.training)
        """)
    text = result.text.splitlines()
    assert text[2:] == [  # tf1clip.contrib.opt has every name of TF 1.15's tf.contrib.opt: any run-time name
        "a = getattr(tf1clip.contrib.opt, name, None)",
        'b = getattr(tf.contrib.opt, "DelayCompensatedGradientDescentOptimizer")',
        'c = getattr(tf1clip.contrib.layers, "optimize_loss")',
        "opt_module = tf1clip.contrib.opt",
        "d = getattr(opt_module, name)",
        "register(tf.contrib.training)",
    ]
    errors = upgrade_issues(result)
    assert [line for line, _ in errors] == [3, 7]
    assert "DelayCompensatedGradientDescentOptimizer" in errors[0][1]
    assert "passed around as a module object" in errors[1][1]


def test_a_run_time_name_of_a_module_tf1clip_does_not_complete_stays_an_error():
    result = upgrade("import tensorflow as tf\nf = getattr(tf.contrib.training, name)\n")
    errors = upgrade_issues(result)
    assert [line for line, _ in errors] == [2] and "cannot be known before the program runs" in errors[0][1]


def test_one_error_per_symbol_and_line():
    result = upgrade(
        "import tensorflow as tf\nx = tf.contrib.model_pruning.get_masks()\n"
        "y = tf.contrib.image.single_image_random_dot_stereograms(d)\nw = tf.contrib.image.adjust_hsv_in_yiq(i, 0.1)\n"
    )
    errors = upgrade_issues(result)
    assert [line for line, _ in errors] == [2, 3, 4]
    assert not upgrade_issues(result, "WARNING")
    assert "tf1clip.contrib.image.distort_image_ops" in errors[2][1]
    assert "Also: tf.contrib.image.adjust_hsv_in_yiq requires manual check" in errors[2][1]  # tf_upgrade_v2's
    assert "tfa.image.adjust_hsv_in_yiq" in errors[2][1]


# ---- tf.contrib.mixed_precision --------------------------------------------------------------


def _contrib_rule(finite, init, incr_every, decr_every, incr_ratio, decr_ratio):
    """contrib's ExponentialUpdateLossScaleManager (spec/contrib.md 7.2): the scale after each step."""
    scale, good, bad, scales = float(init), 0, 0, []
    for ok in finite:
        if ok:
            if good + 1 >= incr_every:
                scale = scale * incr_ratio if math.isfinite(scale * incr_ratio) else scale
                good = bad = 0
            else:
                good += 1
        elif bad + 1 >= decr_every:
            scale, good, bad = max(1.0, scale * decr_ratio), 0, 0
        else:
            bad, good = bad + 1, 0
        scales.append(scale)
    return scales


def _manager_args(init_loss_scale, incr_every_n_steps, decr_every_n_nan_or_inf=2, incr_ratio=2, decr_ratio=0.8):
    """ExponentialUpdateLossScaleManager's signature and defaults."""
    return init_loss_scale, incr_every_n_steps, decr_every_n_nan_or_inf, incr_ratio, decr_ratio


MIXED = """\
    import tensorflow as tf
    manager = {manager}
    x = tf.Variable(1.0)
    g = tf.placeholder(tf.float32, [])
    optimizer = tf.contrib.mixed_precision.LossScaleOptimizer(tf.train.GradientDescentOptimizer(0.5),
                                                              loss_scale_manager=manager)
    train_op = optimizer.minimize(x * g)
    """


def _run_mixed(manager, grads):
    result = upgrade(MIXED.format(manager=manager))
    assert not upgrade_issues(result, "ERROR", "WARNING"), result.log
    assert "tf.compat.v1.disable_v2_behavior()" in result.text
    # In this process a tf.Graph gives the graph mode; the switch itself would hold for every later test.
    runnable = "\n".join(line for line in result.text.splitlines() if "disable_v2_behavior" not in line)
    scope = {}
    with tf.Graph().as_default():
        exec(compile(runnable, "<converted>", "exec"), scope)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            scales, xs = [], []
            for value in grads:
                sess.run(scope["train_op"], {scope["g"]: value})
                scales.append(float(sess.run(scope["manager"]())))
                xs.append(float(sess.run(scope["x"])))
    return result.text, scales, xs


def _x_reference(grads):
    x, xs = 1.0, []
    for value in grads:
        if math.isfinite(value):
            x -= 0.5 * value
        xs.append(x)
    return xs


@pytest.mark.parametrize(
    "args, dynamic",
    [
        ("init_loss_scale=1, incr_every_n_steps=2", False),  # contrib's defaults: decrease after 2 bad steps, x0.8
        ("1, 2, decr_every_n_nan_or_inf=2, incr_ratio=2, decr_ratio=0.5", False),
        ("1, 1, decr_every_n_nan_or_inf=1, incr_ratio=2, decr_ratio=0.5", True),
        ("2**4, 3, 1, 4, 0.25", True),
    ],
)
def test_exponential_update_loss_scale_manager_keeps_its_numbers(args, dynamic):
    grads = [
        0.1,
        0.2,
        float("nan"),
        0.3,
        0.1,
        float("inf"),
        float("nan"),
        0.2,
        0.1,
        0.1,
        0.4,
        float("inf"),
        0.1,
        0.1,
        0.1,
        0.1,
    ]
    text, scales, xs = _run_mixed("tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(%s)" % args, grads)
    assert "tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer(" in text
    assert "loss_scale=manager" in text
    if dynamic:
        assert "tf.compat.v1.mixed_precision.DynamicLossScale(" in text
    else:
        assert "tf1clip.contrib.mixed_precision.ExponentialUpdateLossScale(" in text
    expected = _contrib_rule([math.isfinite(v) for v in grads], *eval("_manager_args(%s)" % args))
    np.testing.assert_allclose(scales, expected, rtol=1e-6)
    np.testing.assert_allclose(xs, _x_reference(grads), rtol=1e-6, atol=1e-6)
    assert len(set(scales)) > 2  # the scale both grew and shrank


def test_contrib_spec_sequences_and_fixed_manager():
    spec = _contrib_rule([True, True, True, False, True, False], 1, 2, 2, 2, 0.5)
    assert spec == [1, 2, 2, 2, 2, 1]  # spec/contrib.md 7.3
    _, scales, _ = _run_mixed(
        "tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager(1, 2, decr_ratio=0.5)",
        [1.0, 1.0, 1.0, float("nan"), 1.0, float("nan")],
    )
    assert scales == spec
    text, scales, xs = _run_mixed(
        "tf.contrib.mixed_precision.FixedLossScaleManager(1e4)", [float("nan"), float("inf"), 0.2]
    )
    assert "tf.compat.v1.mixed_precision.DynamicLossScale(1e4, increment_period=1, multiplier=1.0)" in text
    assert scales == [1e4] * 3 and xs == pytest.approx([1.0, 1.0, 0.9])


def test_mixed_precision_import_forms():
    result = upgrade("""\
        import tensorflow as tf
        from tensorflow.contrib.mixed_precision import ExponentialUpdateLossScaleManager, LossScaleOptimizer
        import tensorflow.contrib.mixed_precision as mp
        manager = ExponentialUpdateLossScaleManager(init_loss_scale=2**15, incr_every_n_steps=2000)
        opt = LossScaleOptimizer(tf.train.AdamOptimizer(1e-3), manager)
        fixed = mp.FixedLossScaleManager(loss_scale=128)
        """)
    assert not upgrade_issues(result), result.log
    assert result.text == textwrap.dedent("""\
        import tensorflow as tf
        import tf1clip.contrib.mixed_precision
        manager = tf1clip.contrib.mixed_precision.ExponentialUpdateLossScale(init_loss_scale=2**15, incr_every_n_steps=2000)
        opt = tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer(tf.compat.v1.train.AdamOptimizer(1e-3), manager)
        fixed = tf.compat.v1.mixed_precision.DynamicLossScale(initial_loss_scale=128, increment_period=1, multiplier=1.0)
        """)


def test_mode_keys_become_their_values_or_tf_estimator_mode_keys():
    source = """\
        import tensorflow as tf
        def model_fn(features, labels, mode):
            if mode == tf.contrib.learn.ModeKeys.TRAIN or mode != tf.estimator.ModeKeys.PREDICT:
                mode = tf.contrib.learn.ModeKeys.INFER
        keys = tf.contrib.learn.ModeKeys
        train = keys.TRAIN
        """
    modern = upgrade(source)
    assert modern.text.splitlines()[1] == "import tf1clip.contrib.learn"
    assert modern.text.splitlines()[3:] == [
        "    if mode == 'train' or mode != 'infer':",
        "        mode = 'infer'",
        "keys = tf1clip.contrib.learn.ModeKeys",
        "train = 'train'",
    ]
    assert upgrade_issues(modern) == []  # the class itself is tf1clip.contrib.learn's
    estimator = upgrade(source, target="estimator")
    assert estimator.text.splitlines()[3:] == [
        "    if mode == tf.estimator.ModeKeys.TRAIN or mode != tf.estimator.ModeKeys.PREDICT:",
        "        mode = tf.estimator.ModeKeys.PREDICT",
        "keys = tf1clip.contrib.learn.ModeKeys",
        "train = tf.estimator.ModeKeys.TRAIN",
    ]
    assert upgrade_issues(estimator) == []


def test_legacy_keras_switch_only_for_tf_2_16_and_newer():
    source = "import tensorflow as tf\ny = tf.layers.dense(x, 3)\n"
    assert "TF_USE_LEGACY_KERAS" in upgrade(source).text
    assert upgrade(source, target="estimator").text == "import tensorflow as tf\ny = tf.compat.v1.layers.dense(x, 3)\n"


def test_aliases_and_imports_of_memberwise_modules_go_once_every_use_is_converted():
    result = upgrade("""\
        import tensorflow as tf
        from tensorflow.contrib.framework import nest as contrib_nest
        nest = tf.contrib.framework.nest
        flat = nest.flatten(x)
        ok = nest.is_sequence(x)
        z = contrib_nest.pack_sequence_as(x, flat)
        rnn = tf.contrib.rnn
        c = rnn.GRUCell(3)
        """)
    assert not upgrade_issues(result)
    assert result.text.splitlines()[3:] == [
        "nest = tf.nest",
        "flat = tf.nest.flatten(x)",
        "ok = tf.nest.is_nested(x)",
        "z = tf.nest.pack_sequence_as(x, flat)",
        "rnn = tf.compat.v1.nn.rnn_cell",
        "c = tf.compat.v1.nn.rnn_cell.GRUCell(3)",
    ]
    result = upgrade("import tensorflow as tf\nnest = tf.contrib.framework.nest\nq = nest.flatten_up_to(s, x)\n")
    assert [line for line, _ in upgrade_issues(result)] == [2, 3]
    assert result.text.splitlines()[1] == "nest = tf.contrib.framework.nest"


def test_tf1_summary_ops_and_bare_tf1_modules_go_to_tf_compat_v1():
    result = upgrade("""\
        import tensorflow as tf
        tf.summary.scalar("lr", lr)
        tf.summary.histogram(var.op.name, var)
        decay = getattr(tf.train, "exponential_decay")
        modules = [tf.nn, tf.losses]
        """)
    assert result.text.splitlines()[1:] == [
        'tf.compat.v1.summary.scalar("lr", lr)',
        "tf.compat.v1.summary.histogram(var.op.name, var)",
        'decay = getattr(tf.compat.v1.train, "exponential_decay")',
        "modules = [tf.compat.v1.nn, tf.compat.v1.losses]",
    ]
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert callable(v1.train.exponential_decay)
    with tf.Graph().as_default():
        assert v1.summary.scalar("lr", tf.constant(1.0)).dtype == tf.string  # TF 1's op: no TensorBoard needed


def test_session_hooks_go_to_tf_compat_v1_train_on_every_target():
    # TF 2.15's own rules move them to tf.estimator, which TF 2.16 removed.
    source = """\
        import tensorflow as tf
        hooks = [tf.train.StopAtStepHook(num_steps=5), tf.train.LoggingTensorHook([x], every_n_iter=1)]
        """
    expected = "hooks = [tf.compat.v1.train.StopAtStepHook(num_steps=5), tf.compat.v1.train.LoggingTensorHook([x], every_n_iter=1)]"
    for target in ("modern", "estimator"):
        result = upgrade(source, target=target)
        assert result.text.splitlines()[1] == expected, target
        assert not upgrade_issues(result), target
    assert v1.train.StopAtStepHook and v1.train.LoggingTensorHook


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(init_loss_scale=0.5, incr_every_n_steps=2), "init_loss_scale must be a finite number >= 1, got 0.5"),
        (dict(init_loss_scale=8, incr_every_n_steps="2"), "incr_every_n_steps must be a finite number >= 1, got '2'"),
        (dict(init_loss_scale=8, incr_every_n_steps=2, incr_ratio=float("inf")), "incr_ratio must be a finite"),
        (dict(init_loss_scale=8, incr_every_n_steps=2, decr_ratio=1.5), r"decr_ratio must be a number in \(0, 1\]"),
        (dict(init_loss_scale=8, incr_every_n_steps=2, decr_every_n_nan_or_inf=True), "decr_every_n_nan_or_inf"),
    ],
)
def test_exponential_update_loss_scale_refuses_bad_arguments(kwargs, message):
    from tf1clip.contrib.mixed_precision import ExponentialUpdateLossScale

    with tf.Graph().as_default(), pytest.raises(ValueError, match=message):
        ExponentialUpdateLossScale(**kwargs)
