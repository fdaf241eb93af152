"""What tf1clip-upgrade rewrites, and where: plain data, no TensorFlow import."""

import functools

from tf1clip.upgrade import _slim_names

# contrib path (under tf.contrib) -> the tf-slim public names it has
SLIM_NAMES = {
    key: frozenset(n for source in sources for n in _slim_names.NAMES[source])
    for key, sources in _slim_names.MODULES.items()
}

INFO, WARNING, ERROR = "INFO", "WARNING", "ERROR"  # the strings ast_edits uses

SLIM_EXTRA = "tf1clip[slim]"

# opt1 names: tf.contrib.opt's optimizers (docs/contrib_opt.rst)
_OPT1_NAMES = (
    "LazyAdamOptimizer",
    "NadamOptimizer",
    "AdaMaxOptimizer",
    "AdamGSOptimizer",
    "LazyAdamGSOptimizer",
    "AdamWOptimizer",
    "MomentumWOptimizer",
    "DecoupledWeightDecayExtension",
    "extend_with_decoupled_weight_decay",
    "PowerSignOptimizer",
    "AddSignOptimizer",
    "LARSOptimizer",
    "RegAdagradOptimizer",
    "AGNOptimizer",
    "AGNCustomGetter",
    "GGTOptimizer",
    "ShampooOptimizer",
)
# end opt1 names

# tf1clip's own contrib drop-ins: contrib module (as tf_upgrade_v2 spells it) -> (tf1clip
# module, the members tf1clip itself implements). tests/test_upgrade_rules.py checks each exists.
OWN = {
    "tf.contrib": ("tf1clip.contrib", ("estimator", "framework", "layers", "opt", "slim", "training")),
    "tf.contrib.estimator": ("tf1clip.contrib.estimator", ("clip_gradients_by_norm",)),
    "tf.contrib.framework": ("tf1clip.contrib.framework", ("get_global_step", "get_or_create_global_step")),
    "tf.contrib.layers": (
        "tf1clip.contrib.layers",
        ("OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "adaptive_clipping_fn", "optimize_loss"),
    ),
    "tf.contrib.layers.python.layers.optimizers": (
        "tf1clip.contrib.layers",
        ("OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "adaptive_clipping_fn", "optimize_loss"),
    ),
    "tf.contrib.opt": ("tf1clip.contrib.opt", ("clip_gradients_by_global_norm",) + _OPT1_NAMES),
    # opt1 names: contrib.opt's own module paths ("from tensorflow.contrib.opt.python.training.X import Y")
    "tf.contrib.opt.python.training.lazy_adam_optimizer": ("tf1clip.contrib.opt", ("LazyAdamOptimizer",)),
    "tf.contrib.opt.python.training.nadam_optimizer": ("tf1clip.contrib.opt", ("NadamOptimizer",)),
    "tf.contrib.opt.python.training.adamax": ("tf1clip.contrib.opt", ("AdaMaxOptimizer",)),
    "tf.contrib.opt.python.training.adam_gs_optimizer": ("tf1clip.contrib.opt", ("AdamGSOptimizer",)),
    "tf.contrib.opt.python.training.lazy_adam_gs_optimizer": ("tf1clip.contrib.opt", ("LazyAdamGSOptimizer",)),
    "tf.contrib.opt.python.training.weight_decay_optimizers": (
        "tf1clip.contrib.opt",
        ("AdamWOptimizer", "MomentumWOptimizer", "DecoupledWeightDecayExtension", "extend_with_decoupled_weight_decay"),
    ),
    "tf.contrib.opt.python.training.powersign": ("tf1clip.contrib.opt", ("PowerSignOptimizer",)),
    "tf.contrib.opt.python.training.addsign": ("tf1clip.contrib.opt", ("AddSignOptimizer",)),
    "tf.contrib.opt.python.training.sign_decay": (
        "tf1clip.contrib.opt.sign_decay",
        ("get_linear_decay_fn", "get_cosine_decay_fn", "get_restart_decay_fn"),
    ),
    "tf.contrib.opt.python.training.lars_optimizer": ("tf1clip.contrib.opt", ("LARSOptimizer",)),
    "tf.contrib.opt.python.training.reg_adagrad_optimizer": ("tf1clip.contrib.opt", ("RegAdagradOptimizer",)),
    "tf.contrib.opt.python.training.agn_optimizer": ("tf1clip.contrib.opt", ("AGNOptimizer", "AGNCustomGetter")),
    "tf.contrib.opt.python.training.ggt": ("tf1clip.contrib.opt", ("GGTOptimizer",)),
    "tf.contrib.opt.python.training.shampoo": ("tf1clip.contrib.opt", ("ShampooOptimizer",)),
    # end opt1 names
    "tf.contrib.slim": ("tf1clip.contrib.slim", ("learning", "get_global_step", "get_or_create_global_step")),
    "tf.contrib.slim.learning": (
        "tf1clip.contrib.slim.learning",
        ("add_gradients_summaries", "clip_gradient_norms", "create_train_op", "multiply_gradients"),
    ),
    "tf.contrib.training": (
        "tf1clip.contrib.training",
        (
            "add_gradients_summaries",
            "clip_gradient_norms",
            "clip_gradient_norms_fn",
            "create_train_op",
            "multiply_gradients",
        ),
    ),
    "tf.contrib.training.python.training.training": (
        "tf1clip.contrib.training",
        (
            "add_gradients_summaries",
            "clip_gradient_norms",
            "clip_gradient_norms_fn",
            "create_train_op",
            "multiply_gradients",
        ),
    ),
}

# ``tf.contrib.<key>`` modules whose tf-slim names go to ``tf1clip.contrib.<key>`` (tf-slim's port).
SLIM_ROOTS = ("slim", "layers", "framework", "losses", "metrics", "training")


# contrib module -> the path of its implementation package, which TF 1 code also imports from.
LONG_PATHS = {"tf.contrib.layers": "tf.contrib.layers.python.layers", "tf.contrib.slim": "tf.contrib.slim.python.slim"}


@functools.lru_cache(maxsize=None)
def provided():
    """``{contrib module: (tf1clip module, members, members that need tf-slim)}``."""
    table = {}
    for contrib, (target, names) in OWN.items():
        table[contrib] = (target, frozenset(names), frozenset())
    for key, names in SLIM_NAMES.items():
        target = "tf1clip.contrib." + key
        for contrib in {"tf.contrib." + key} | {k for k, v in OWN.items() if v[0] == target}:
            own = frozenset(OWN.get(contrib, (target, ()))[1])
            table[contrib] = (target, own | frozenset(names), frozenset(names) - own)
    for short, long in LONG_PATHS.items():  # contrib's own module paths, as in "from ...python.layers import X"
        for contrib in [k for k in table if k == short or k.startswith(short + ".")]:
            table.setdefault(long + contrib[len(short) :], table[contrib])
    table["tf.contrib"] = (
        table["tf.contrib"][0],
        table["tf.contrib"][1] | frozenset(SLIM_ROOTS),
        frozenset(("losses", "metrics")),
    )
    return table


# ``tf.compat.v1.layers`` members; TF 2.21's tf_upgrade_v2 renames only three.
TF_LAYERS = (
    "AveragePooling1D",
    "AveragePooling2D",
    "AveragePooling3D",
    "BatchNormalization",
    "Conv1D",
    "Conv2D",
    "Conv2DTranspose",
    "Conv3D",
    "Conv3DTranspose",
    "Dense",
    "Dropout",
    "Flatten",
    "InputSpec",
    "Layer",
    "MaxPooling1D",
    "MaxPooling2D",
    "MaxPooling3D",
    "SeparableConv1D",
    "SeparableConv2D",
    "average_pooling1d",
    "average_pooling2d",
    "average_pooling3d",
    "batch_normalization",
    "conv1d",
    "conv2d",
    "conv2d_transpose",
    "conv3d",
    "conv3d_transpose",
    "dense",
    "dropout",
    "flatten",
    "max_pooling1d",
    "max_pooling2d",
    "max_pooling3d",
    "separable_conv1d",
    "separable_conv2d",
    "experimental.keras_style_scope",
    "experimental.set_keras_style",
)

# ``tf.contrib.rnn`` members that live on in TF 2 (tf_upgrade_v2 maps some to names that do not exist).
RNN_CELLS = (
    "BasicLSTMCell",
    "BasicRNNCell",
    "DeviceWrapper",
    "DropoutWrapper",
    "GRUCell",
    "LSTMCell",
    "LSTMStateTuple",
    "MultiRNNCell",
    "RNNCell",
    "ResidualWrapper",
)
RNN_FUNCTIONS = ("static_rnn", "static_bidirectional_rnn", "static_state_saving_rnn")


def rnn_target(path):
    """The TF 2 home of a ``tf.contrib.rnn`` symbol, or None."""
    module, _, name = path.rpartition(".")
    if module not in ("tf.contrib.rnn", "tf.contrib.rnn.python.ops.core_rnn_cell", "tf.nn.rnn_cell"):
        return None
    if name in RNN_CELLS:
        return "tf.compat.v1.nn.rnn_cell." + name
    if name in RNN_FUNCTIONS and module == "tf.contrib.rnn":
        return "tf.compat.v1.nn." + name
    return None


# contrib modules whose members tf_upgrade_v2 or tf1clip convert one by one: an alias of the module is
# pointed at the successor module once every use was converted (an import of any contrib module is
# then removed).
MEMBERWISE = {"tf.contrib.rnn": "tf.compat.v1.nn.rnn_cell", "tf.contrib.framework.nest": "tf.nest"}


# tf.summary ops that TF 2.21's tf_upgrade_v2 leaves on TF 2's tf.summary (a different API that needs
# TensorBoard, a default writer and a step) while its own message says they became tf.compat.v1.summary.
SUMMARY_OPS = ("scalar", "histogram", "image", "audio", "text", "tensor_summary")

# TF 1 modules whose module object, used bare (``getattr(tf.train, name)``), becomes the tf.compat.v1 one.
V1_MODULES = (
    "train",
    "nn",
    "losses",
    "metrics",
    "summary",
    "layers",
    "initializers",
    "logging",
    "image",
    "math",
    "io",
    "data",
    "saved_model",
    "estimator",
)

# Prefixes renamed wherever they start a dotted name (absl flags live on in tf.compat.v1).
PREFIX_RENAMES = {
    "tf.flags": "tf.compat.v1.flags",
    "tf.app.flags": "tf.compat.v1.app.flags",
    "tf.app": "tf.compat.v1.app",
}

# tf.contrib.mixed_precision -> TF 2's tf.compat.v1 loss scaling.
MIXED_PRECISION = "tf.contrib.mixed_precision"
LOSS_SCALE_OPTIMIZER = "tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer"
DYNAMIC_LOSS_SCALE = "tf1clip.contrib.mixed_precision.ExponentialUpdateLossScale"

# The successor of each contrib module nothing maintained replaces symbol for symbol.
SUCCESSORS = {
    "tf.contrib.gan": "use the tensorflow-gan package (pip install tensorflow-gan; import tensorflow_gan as tfgan)",
    "tf.contrib.rnn": "use the cells in tf.compat.v1.nn.rnn_cell (or tf.keras.layers RNN layers); the "
    "other contrib cells have no maintained successor",
    "tf.contrib.cudnn_rnn": "use tf.keras.layers.LSTM or tf.keras.layers.GRU, which run cuDNN kernels on a GPU",
    "tf.contrib.quantize": "use the tensorflow-model-optimization package (tfmot.quantization.keras)",
    "tf.contrib.tpu": "use tf.compat.v1.tpu and tf.distribute.TPUStrategy",
    "tf.contrib.learn": "nothing maintained replaces it: build the model in a tf.compat.v1 graph and train "
    "it with a Session loop (or port it to tf.keras)",
    "tf.contrib.estimator": "tf.estimator needs TensorFlow 2.15 with tensorflow-estimator "
    "(pip install 'tf1clip[estimator]', Python <= 3.11); convert with --target estimator",
    "tf.contrib.opt": "tf1clip.contrib.opt provides clip_gradients_by_global_norm and the optimizers listed "
    "in its docs (docs/contrib_opt.rst), not this one; use a tf.compat.v1.train optimizer instead",
    "tf.contrib.distributions": "use the tensorflow-probability package (tfp.distributions)",
    "tf.contrib.bayesflow": "use the tensorflow-probability package",
    "tf.contrib.seq2seq": "use tensorflow-addons' tfa.seq2seq (in maintenance mode) or Keras layers",
    "tf.contrib.crf": "use tensorflow-addons' tfa.text.crf (in maintenance mode)",
    "tf.contrib.image": "use tf.image or tensorflow-addons' tfa.image (in maintenance mode)",
    "tf.contrib.data": "use tf.data and tf.data.experimental",
    "tf.contrib.lookup": "use tf.lookup",
    "tf.contrib.summary": "use tf.compat.v2.summary",
    "tf.contrib.predictor": "use tf.saved_model.load",
    "tf.contrib.keras": "use tf.keras",
    "tf.contrib.eager": "TensorFlow 2 runs eagerly by default; use tf.function and tf.GradientTape",
    "tf.contrib.mixed_precision": "use tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer "
    "or tf.keras.mixed_precision",
    "tf.contrib.layers": "tf-slim has no such name; tf.feature_column replaces the feature columns",
    "tf.contrib.framework": "tf-slim has no such name; see tf.nest, tf.compat.v1 and tf.sort",
    "tf.contrib.framework.nest": "use tf.nest (flatten, map_structure, pack_sequence_as, assert_same_structure; "
    "is_sequence is tf.nest.is_nested)",
    "tf.contrib.learn.ModeKeys": "use the strings 'train', 'eval' and 'infer' (or tf.estimator.ModeKeys)",
    "tf.contrib.metrics": "tf-slim has no such name; use tf.compat.v1.metrics",
    "tf.contrib.training": "tf-slim has no such name; tf.data.experimental.bucket_by_sequence_length "
    "replaces bucketing, a dict or tensorboard's hparams plugin replaces HParams",
    "tf.contrib.slim": "tf-slim has no such name (its model zoo is tf_slim.nets: pip install tf-slim)",
    "tf.contrib.losses": "tf-slim has no such name; use tf.compat.v1.losses",
}

GENERIC_SUCCESSOR = "port it by hand (tf.compat.v1, tf-slim or your own code)"


def successor(path):
    """One clause naming where to go for the contrib ``path``."""
    parts = path.split(".")
    for k in range(len(parts), 1, -1):
        found = SUCCESSORS.get(".".join(parts[:k]))
        if found:
            return found
    return GENERIC_SUCCESSOR


# Mode keys are strings; their values (TF 1.15) replace them where tf.estimator is gone.
MODE_KEYS = {
    "tf.contrib.learn.ModeKeys": {"TRAIN": "train", "EVAL": "eval", "INFER": "infer"},
    "tf.estimator.ModeKeys": {"TRAIN": "train", "EVAL": "eval", "PREDICT": "infer"},
}

ESTIMATOR_INSTALL = "pip install 'tf1clip[estimator]' (TensorFlow 2.15 + tensorflow-estimator 2.15, Python <= 3.11)"

# tf_upgrade_v2 (TF 2.15) sends a canned estimator to tf.compat.v1.estimator when the call passes one of
# these arguments (v2 canned estimators take only Keras optimizers); ``True``: it also sets the v1
# default loss_reduction explicitly.
CANNED_ESTIMATORS = {
    "BaselineEstimator": (("optimizer",), False),
    "BaselineClassifier": (("optimizer",), True),
    "BaselineRegressor": (("input_layer_partitioner", "optimizer"), True),
    "DNNEstimator": (("input_layer_partitioner", "optimizer"), False),
    "DNNClassifier": (("input_layer_partitioner", "optimizer"), True),
    "DNNRegressor": (("input_layer_partitioner", "optimizer"), True),
    "LinearEstimator": (("input_layer_partitioner", "optimizer"), False),
    "LinearClassifier": (("input_layer_partitioner", "optimizer"), True),
    "LinearRegressor": (("input_layer_partitioner", "optimizer"), True),
    "DNNLinearCombinedEstimator": (("input_layer_partitioner", "dnn_optimizer", "linear_optimizer"), False),
    "DNNLinearCombinedClassifier": (("input_layer_partitioner", "dnn_optimizer", "linear_optimizer"), True),
    "DNNLinearCombinedRegressor": (("input_layer_partitioner", "dnn_optimizer", "linear_optimizer"), True),
}

# tf.estimator members whose TF 1 form only tf.compat.v1.estimator keeps (tf_upgrade_v2 2.15's renames).
ESTIMATOR_V1_ONLY = (
    "inputs",
    "tpu",
    "experimental.KMeans",
    "experimental.dnn_logit_fn_builder",
    "experimental.linear_logit_fn_builder",
    "experimental.build_raw_supervised_input_receiver_fn",
)

# tf.contrib.estimator members -> their tf.estimator home (TF 1.15 moved them there).
CONTRIB_ESTIMATOR = {
    "add_metrics": "tf.estimator.add_metrics",
    "stop_if_higher_hook": "tf.estimator.experimental.stop_if_higher_hook",
    "stop_if_lower_hook": "tf.estimator.experimental.stop_if_lower_hook",
    "stop_if_no_decrease_hook": "tf.estimator.experimental.stop_if_no_decrease_hook",
    "stop_if_no_increase_hook": "tf.estimator.experimental.stop_if_no_increase_hook",
    "make_early_stopping_hook": "tf.estimator.experimental.make_early_stopping_hook",
    "InMemoryEvaluatorHook": "tf.estimator.experimental.InMemoryEvaluatorHook",
}
