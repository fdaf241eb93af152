"""What tf1clip-upgrade rewrites, and where, and what decides the lines it adds: plain data, no TensorFlow import.

tf1clip's own names come from ``tf1clip.contrib._manifest``; the rules reading these tables are ``_registry``'s.
"""

import functools

from tf1clip.contrib import _decisions
from tf1clip.contrib import _manifest
from tf1clip.upgrade import _gan_names
from tf1clip.upgrade import _slim_names

# contrib path (under tf.contrib) -> the tf-slim public names it has
SLIM_NAMES = {
    key: frozenset(n for source in sources for n in _slim_names.NAMES[source])
    for key, sources in _slim_names.MODULES.items()
}

INFO, WARNING, ERROR = "INFO", "WARNING", "ERROR"  # the strings ast_edits uses
DECLINED = "declined"
"""What a chain rule's ``rewrite`` returns when the chain's context (its spelling, its parent, the file's bindings)
says the rule does not apply after all: the chain then goes to the rule that claims its path without this one."""

SLIM_EXTRA = "tf1clip[slim]"
GAN_EXTRA = "tf1clip[gan]"

# tf.contrib.gan modules (TF 1.13's, and their implementation modules) -> the tf1clip.contrib.gan
# namespace that routes their names to TF-GAN (``_gan_names``: TF-GAN 2.1.0's public names).
GAN_MODULES = {
    "tf.contrib.gan": "gan",
    "tf.contrib.gan.losses": "gan.losses",
    "tf.contrib.gan.losses.wargs": "gan.losses.wargs",
    "tf.contrib.gan.eval": "gan.eval",
    "tf.contrib.gan.features": "gan.features",
    "tf.contrib.gan.estimator": "gan.estimator",
    "tf.contrib.gan.python.train": "gan",
    "tf.contrib.gan.python.namedtuples": "gan",
    "tf.contrib.gan.python.losses.python.tuple_losses": "gan.losses",
    "tf.contrib.gan.python.losses.python.losses_wargs": "gan.losses.wargs",
    "tf.contrib.gan.python.losses.python.losses_impl": "gan.losses.wargs",
    "tf.contrib.gan.python.eval.python.summaries": "gan.eval",
    "tf.contrib.gan.python.eval.python.classifier_metrics": "gan.eval",
    "tf.contrib.gan.python.eval.python.eval_utils": "gan.eval",
    "tf.contrib.gan.python.eval.python.sliced_wasserstein": "gan.eval",
    "tf.contrib.gan.python.features.python.clip_weights": "gan.features",
    "tf.contrib.gan.python.features.python.conditioning_utils": "gan.features",
    "tf.contrib.gan.python.features.python.random_tensor_pool": "gan.features",
    "tf.contrib.gan.python.features.python.virtual_batchnorm": "gan.features",
    "tf.contrib.gan.python.features.python.spectral_normalization": "gan.features",
    "tf.contrib.gan.python.estimator.python.gan_estimator": "gan.estimator",
}


def extra_for(target):
    """The extra a tf1clip path routed to a successor package needs (``tf1clip[gan]`` or ``tf1clip[slim]``)."""
    route = _manifest.route_of(target)
    return GAN_EXTRA if route is not None and route.extra == "gan" else SLIM_EXTRA


def own():
    """tf1clip's own contrib drop-ins: ``{contrib module (tf_upgrade_v2's spelling): (tf1clip module, names)}``.

    Derived from ``tf1clip.contrib._manifest.ROWS``; tests/test_upgrade_rules.py checks each name exists.
    """
    return _manifest.own_table()


# ``tf.contrib.<key>`` modules whose tf-slim names go to ``tf1clip.contrib.<key>`` (tf-slim's port).
SLIM_ROOTS = tuple(r.target[len("tf1clip.contrib.") :] for r in _manifest.ROUTES if r.extra == "slim")


# tf_upgrade_v2's own rules are also keyed by module aliases it guesses (``slim.l2_regularizer``,
# ``contrib_layers.xavier_initializer``, ``contrib_<module>.name``): alias -> contrib module. tf1clip drops
# those rules where tf1clip provides the name (the tf-slim name wins in every spelling), and resolves the
# file's real aliases itself.
ENGINE_ALIASES = {"slim": "tf.contrib.slim"}
ENGINE_ALIAS_PREFIX = "contrib_"

# contrib module -> the path of its implementation package, which TF 1 code also imports from.
LONG_PATHS = {
    "tf.contrib.layers": "tf.contrib.layers.python.layers",
    "tf.contrib.slim": "tf.contrib.slim.python.slim",
    "tf.contrib.framework": "tf.contrib.framework.python.ops",
}
# contrib modules tf1clip re-creates every public name of: ``getattr(tf.contrib.opt, name)`` with a name known
# only at run time is rewritten to tf1clip's module.
COMPLETE_MODULES = ("tf.contrib.opt",)

# contrib.framework's implementation modules: their names are tf-slim's framework names.
FRAMEWORK_MODULES = ("variables",)
# Implementation modules named like a function their package exports (``from ...python.ops import arg_scope``
# is the function): a path below one is read below the module in the value.
MEMBER_MODULES = {"tf.contrib.framework.python.ops.arg_scope": "tf.contrib.framework"}


def provided():
    """``{contrib module: (tf1clip module, members, members that need tf-slim)}``."""
    return _provided(_manifest.ROWS)


@functools.lru_cache(maxsize=None)
def _provided(rows):
    own_table = _manifest.own_table(rows)
    table = {}
    for contrib, (target, names) in own_table.items():
        table[contrib] = (target, frozenset(names), frozenset())
    for key, names in SLIM_NAMES.items():
        target = "tf1clip.contrib." + key
        for contrib in {"tf.contrib." + key} | {k for k, v in own_table.items() if v[0] == target}:
            own = frozenset(own_table.get(contrib, (target, ()))[1])
            table[contrib] = (target, own | frozenset(names), frozenset(names) - own)
    for short, long in LONG_PATHS.items():  # contrib's own module paths, as in "from ...python.layers import X"
        for contrib in [k for k in table if k == short or k.startswith(short + ".")]:
            table.setdefault(long + contrib[len(short) :], table[contrib])
    for module in FRAMEWORK_MODULES:
        table.setdefault(LONG_PATHS["tf.contrib.framework"] + "." + module, table["tf.contrib.framework"])
    for contrib, namespace in GAN_MODULES.items():
        names = frozenset(_gan_names.NAMES[namespace])
        table[contrib] = ("tf1clip.contrib." + namespace, names, names)
    # tf.contrib's modules: tf1clip's own, tf-slim's, and those only a successor provides (losses, metrics, gan)
    extras = {route.extra for route in _manifest.ROUTES}
    routed = frozenset(n for r in _manifest.rows("tf1clip.contrib", rows) if r.extra in extras for n in r.names)
    modules = frozenset(p.split(".")[2] for p in own_table if p.count(".") == 2) | frozenset(SLIM_ROOTS) | routed
    table["tf.contrib"] = (table["tf.contrib"][0], table["tf.contrib"][1] | modules, routed)
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

# The TF 2 homes of the ``tf.contrib.rnn`` names TF 2 has itself (the manifest's ``tf2_home`` rows of
# tf1clip.contrib.rnn; tf_upgrade_v2 maps some to names that do not exist), and the contrib modules their
# names are converted from.
RNN_CELL_HOME = "tf.compat.v1.nn.rnn_cell"
RNN_FUNCTION_HOME = "tf.compat.v1.nn"
_RNN_HOME_SOURCES = {
    RNN_CELL_HOME: ("tf.contrib.rnn", "tf.contrib.rnn.python.ops.core_rnn_cell", "tf.nn.rnn_cell"),
    RNN_FUNCTION_HOME: ("tf.contrib.rnn",),
}


def rnn_cells():
    """The ``tf.contrib.rnn`` cells TF 2 has as ``tf.compat.v1.nn.rnn_cell``'s."""
    return _manifest.tf2_names("tf1clip.contrib.rnn", RNN_CELL_HOME)


def rnn_target(path):
    """The TF 2 home of a ``tf.contrib.rnn`` symbol, or None."""
    module, _, name = path.rpartition(".")
    for home, modules in _RNN_HOME_SOURCES.items():
        if module in modules and name in _manifest.tf2_names("tf1clip.contrib.rnn", home):
            return home + "." + name
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

# ``from tensorflow import <module>`` -> ``from tensorflow.compat.v1 import <module>``: the TF 1 modules
# above (their uses keep TF 1's API) and those TF 2 has no longer at the top level.
V1_FROM_IMPORTS = tuple(m for m in V1_MODULES if m != "estimator") + (
    "gfile",
    "python_io",
    "resource_loader",
    "manip",
    "spectral",
    "user_ops",
    "distributions",
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

# contrib members that TF 2 has under another name, with the same behaviour (TF 1.15's contrib
# checkpoint_utils readers are tf.train's; contrib.util and contrib.signal re-export tensor_util's and
# tf.signal's; contrib.metrics.confusion_matrix called tf.confusion_matrix, whose argument order
# tf.compat.v1.math keeps; contrib's init_from_checkpoint is tf.train's but for its first keyword and where
# contrib raised: tf.train's also takes PartitionedVariable objects and scope entries ending in "/").
CONTRIB_RENAMES = {
    "tf.contrib.framework.list_variables": "tf.train.list_variables",
    "tf.contrib.framework.load_variable": "tf.train.load_variable",
    "tf.contrib.framework.load_checkpoint": "tf.train.load_checkpoint",
    "tf.contrib.framework.init_from_checkpoint": "tf.compat.v1.train.init_from_checkpoint",
    "tf.contrib.metrics.confusion_matrix": "tf.compat.v1.math.confusion_matrix",
    "tf.contrib.util.make_tensor_proto": "tf.compat.v1.make_tensor_proto",
    "tf.contrib.util.make_ndarray": "tf.make_ndarray",
    "tf.contrib.signal.frames": "tf.signal.frame",
}
# Keywords that a CONTRIB_RENAMES member's TF 2 name spells otherwise: {contrib path: {old keyword: new}}.
CONTRIB_RENAMED_KEYWORDS = {"tf.contrib.framework.init_from_checkpoint": {"checkpoint_dir": "ckpt_dir_or_file"}}
CONTRIB_RENAMES.update(
    ("tf.contrib.signal." + name, "tf.signal." + name)
    for name in (
        "stft",
        "inverse_stft",
        "inverse_stft_window_fn",
        "frame",
        "overlap_and_add",
        "hann_window",
        "hamming_window",
        "linear_to_mel_weight_matrix",
        "mfccs_from_log_mel_spectrograms",
    )
)

# tf.contrib.data's names that tf.data.experimental / tf.compat.v1.data have (TF 1.15's contrib.data called
# them), in the module and the implementation modules TF 1 code imported them from.
_DATA_MODULES = {
    "batching": ("dense_to_sparse_batch", "map_and_batch", "unbatch"),
    "counter": ("Counter",),
    "enumerate_ops": ("enumerate_dataset",),
    "error_ops": ("ignore_errors",),
    "get_single_element": ("get_single_element",),
    "grouping": ("bucket_by_sequence_length", "group_by_reducer", "group_by_window", "Reducer"),
    "interleave_ops": ("choose_from_datasets", "parallel_interleave", "sample_from_datasets"),
    "iterator_ops": ("make_saveable_from_iterator",),
    "parsing_ops": ("parse_example_dataset",),
    "prefetching_ops": ("copy_to_device", "prefetch_to_device"),
    "random_ops": ("RandomDataset",),
    "readers": ("CsvDataset", "make_batched_features_dataset", "make_csv_dataset", "SqlDataset"),
    "resampling": ("rejection_resample",),
    "scan_ops": ("scan",),
    "shuffle_ops": ("shuffle_and_repeat",),
}
for _name in _manifest.tf2_names("tf1clip.contrib.data", "tf.data.experimental"):
    CONTRIB_RENAMES["tf.contrib.data." + _name] = "tf.data.experimental." + _name
for _module, _names in _DATA_MODULES.items():
    for _name in _names:
        CONTRIB_RENAMES["tf.contrib.data.python.ops.%s.%s" % (_module, _name)] = "tf.data.experimental." + _name
for _name in _manifest.tf2_names("tf1clip.contrib.data", "tf.compat.v1.data"):
    CONTRIB_RENAMES["tf.contrib.data." + _name] = "tf.compat.v1.data." + _name


def successor(path):
    """One clause naming where to go for the contrib ``path`` and how to install it (``_decisions``, the one table of
    what becomes of each contrib module)."""
    return _decisions.successor(path)


# Mode keys are strings; their values (TF 1.15) replace them where tf.estimator is gone.
MODE_KEYS = {
    "tf.contrib.learn.ModeKeys": {"TRAIN": "train", "EVAL": "eval", "INFER": "infer"},
    "tf.estimator.ModeKeys": {"TRAIN": "train", "EVAL": "eval", "PREDICT": "infer"},
}

ESTIMATOR_INSTALL = _manifest.install_line(("estimator",), keras2=True) + " (tensorflow-estimator 2.15.0 and tf-keras)"

# Where Estimator code goes on the modern target: tensorflow-estimator's v1 API on every supported TF.
TF1CLIP_ESTIMATOR = "tf1clip.estimator"

# TF 1 names of the Estimator API (the v1 API) -> the prefix they become on the modern target.
ESTIMATOR_PREFIXES = ("tf.estimator", "tf.compat.v1.estimator")

# TF 1.15's tf.estimator classes that tensorflow-estimator 2.15 (tf1clip.estimator's API, and the estimator
# target's tf.compat.v1.estimator) no longer has: a use is an ERROR with this reason (never a missing name).
_BOOSTED_TREES = (
    "tensorflow-estimator 2.15 (the API of tf1clip.estimator and of tf.compat.v1.estimator on TensorFlow 2) "
    "no longer has the boosted-trees Estimators; their successor is TensorFlow Decision Forests "
    "(tensorflow_decision_forests.keras.GradientBoostedTreesModel), or keep this program on TensorFlow 1.15"
)
ESTIMATOR_REMOVED = {
    "BoostedTreesClassifier": _BOOSTED_TREES,
    "BoostedTreesEstimator": _BOOSTED_TREES,
    "BoostedTreesRegressor": _BOOSTED_TREES,
}


def removed_estimator(path):
    """The ERROR text for ``path`` (``tf.estimator.X...``, ``tf.compat.v1.estimator.X...``) if ``X`` is gone."""
    for prefix in ESTIMATOR_PREFIXES:
        if path.startswith(prefix + "."):
            member = path[len(prefix) + 1 :].split(".")[0]
            if member in ESTIMATOR_REMOVED:
                return "%s.%s cannot be converted: %s." % (prefix, member, ESTIMATOR_REMOVED[member])
    return None


# tf.contrib.tpu members that tensorflow-estimator's v1 API keeps under estimator.tpu.
CONTRIB_TPU_ESTIMATOR = ("TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig")

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

# tf.contrib.estimator's head-taking Estimators (TF 1.13 moved them to tf.estimator): tf1clip.estimator.X on the
# modern target, tf.compat.v1.estimator.X on the estimator target (TF 2's tf.estimator.X takes a v2 head).
CONTRIB_ESTIMATOR_V1 = ("DNNEstimator", "DNNLinearCombinedEstimator", "LinearEstimator")

# tf_upgrade_v2 rewrites these TF 1 names to TF 2 ones that compute other numbers in a TF 1 graph;
# tf1clip-upgrade keeps TF 1.15's function (docs/upgrade.rst, "Conversions that keep TF 1.15's numbers").
# name -> why the TF 2 target differs
NUMERIC_V1 = {
    "tf.nn.embedding_lookup": "partition_strategy: TF 1 'mod', TF 2 'div'",
    "tf.nn.embedding_lookup_sparse": "partition_strategy: TF 1 'mod', TF 2 'div'",
    "tf.nn.safe_embedding_lookup_sparse": "partition_strategy: TF 1 'mod', TF 2 'div'",
    "tf.nn.nce_loss": "partition_strategy: TF 1 'mod', TF 2 'div'",
    "tf.nn.sampled_softmax_loss": "partition_strategy: TF 1 'mod', TF 2 'div'",
    "tf.image.resize_bilinear": "tf.image.resize samples at half-pixel centres",
    "tf.image.resize_nearest_neighbor": "tf.image.resize samples at half-pixel centres",
    "tf.image.resize_bicubic": "tf.image.resize uses Keys' a=-0.5 cubic at half-pixel centres",
    "tf.image.resize_area": "tf.image.resize drops align_corners",
    "tf.image.resize_images": "tf.image.resize samples at half-pixel centres",
}
# Called, tf.Variable makes TF 2's resource variable even under disable_v2_behavior(); tf.compat.v1.Variable
# makes what TF 1.15 made (a reference variable unless resource variables are enabled).
V1_VARIABLE = "tf.Variable"
V1_VARIABLE_WHY = (
    "TF 1.15's variable kind (a reference variable under disable_v2_behavior(): a value fetched with the "
    "op that assigns it reads the assignment, as on TF 1.15)."
)

# AdamW/MomentumW ``minimize(loss, ..., decay_var_list)``: TF 1.15's apply_gradients reset the list.
DECAY_VAR_LIST_POSITION = 8
DECAY_VAR_LIST_WARNING = (
    "minimize(..., decay_var_list=...) of tf.contrib.opt's AdamW/MomentumW decayed every variable on TF 1.15 "
    "(its apply_gradients reset the list); tf1clip.contrib.opt does the same. To decay only the listed "
    "variables, add decay_listed_only=True (numbers then differ from TF 1.15's)."
)

# tf.contrib.opt / tf.contrib.estimator names whose TF 1.15 quirk tf1clip keeps unless a keyword opts into the
# fix (docs/contrib_opt.rst, docs/contrib.rst): name -> (keyword, the WARNING at each call without it). A
# MultitaskOptimizerWrapper is reported only where its optimizer is a name (one made inline has no other use),
# clip_gradients_by_norm only in a file that uses tf.distribute (without a strategy both stages are the same),
# ElasticAverageOptimizer only in a file that passes a var_list to compute_gradients/minimize.
OPT_IN_FIXES = {
    "clip_gradients_by_norm": (
        "clip_stage",
        "Under a tf.distribute strategy, tf.contrib.estimator.clip_gradients_by_norm clipped each replica's "
        "gradients before they were summed on TF 1.15; tf1clip.contrib.estimator does the same "
        "(clip_stage='per_replica'). To clip the summed gradients, as one device on the whole batch would, add "
        "clip_stage='aggregated' (numbers then differ from TF 1.15's with several replicas).",
    ),
    "MultitaskOptimizerWrapper": (
        "leave_optimizer_unmodified",
        "tf.contrib.opt.MultitaskOptimizerWrapper replaced the update methods of the optimizer it wraps on TF "
        "1.15, so that optimizer, used directly too, skipped all-zero gradients; tf1clip.contrib.opt does the "
        "same. To leave it unmodified, add leave_optimizer_unmodified=True (numbers then differ from TF 1.15's "
        "where the wrapped optimizer itself applies an all-zero gradient).",
    ),
    "VariableClippingOptimizer": (
        "clip_repeated_rows_once",
        "tf.contrib.opt.VariableClippingOptimizer clipped a row once per occurrence of its index in a sparse "
        "gradient on TF 1.15 (a repeated row was clipped too far, even through zero); tf1clip.contrib.opt does "
        "the same. To clip each row once, add clip_repeated_rows_once=True (numbers then differ from TF 1.15's "
        "where an index repeats).",
    ),
    "ElasticAverageOptimizer": (
        "pair_own_centers",
        "tf.contrib.opt.ElasticAverageOptimizer's compute_gradients/minimize(var_list=...) paired "
        "trainable_variables() in order with var_list's centers on TF 1.15; tf1clip.contrib.opt does the same. "
        "To pair each variable with its own center, add pair_own_centers=True (numbers then differ from TF "
        "1.15's for a var_list that is not every trainable variable in creation order).",
    ),
}

# TF 1 import paths that TF 2 lacks, moved wherever they start a module path (tf1clip re-creates them).
PATH_MOVES = {"tf.examples.tutorials.mnist": "tf1clip.examples.tutorials.mnist"}

# ``tensorflow.python.estimator.<module>`` (TF 1.15's shims of tensorflow_estimator's modules) -> (names that
# tf.compat.v1.estimator has under the same name, {name: its other path there}): the objects identical in
# TF 1.15 (generated there by comparing the objects). The estimator target keeps the modules themselves
# (ESTIMATOR_PACKAGE); the modern target takes these names from tf1clip.estimator.
ESTIMATOR_PACKAGE = "tensorflow_estimator.python.estimator"
PY_ESTIMATOR = {
    "canned.baseline": (("BaselineClassifier", "BaselineEstimator", "BaselineRegressor", "ModeKeys"), {}),
    "canned.boosted_trees": (
        ("BoostedTreesClassifier", "BoostedTreesEstimator", "BoostedTreesRegressor", "ModeKeys"),
        {},
    ),
    "canned.dnn": (
        ("DNNClassifier", "DNNEstimator", "DNNRegressor", "ModeKeys"),
        {"dnn_logit_fn_builder": "experimental.dnn_logit_fn_builder"},
    ),
    "canned.dnn_linear_combined": (
        ("DNNLinearCombinedClassifier", "DNNLinearCombinedEstimator", "DNNLinearCombinedRegressor", "ModeKeys"),
        {},
    ),
    "canned.head": (("ModeKeys",), {}),
    "canned.linear": (
        ("LinearClassifier", "LinearEstimator", "LinearRegressor", "ModeKeys"),
        {"LinearSDCA": "experimental.LinearSDCA", "linear_logit_fn_builder": "experimental.linear_logit_fn_builder"},
    ),
    "canned.parsing_utils": (("classifier_parse_example_spec", "regressor_parse_example_spec"), {}),
    "estimator": (("Estimator", "ModeKeys", "VocabInfo", "WarmStartSettings"), {}),
    "estimator_lib": (
        (
            "BaselineClassifier",
            "BaselineEstimator",
            "BaselineRegressor",
            "BinaryClassHead",
            "BoostedTreesClassifier",
            "BoostedTreesRegressor",
            "DNNClassifier",
            "DNNEstimator",
            "DNNLinearCombinedClassifier",
            "DNNLinearCombinedEstimator",
            "DNNLinearCombinedRegressor",
            "DNNRegressor",
            "Estimator",
            "EstimatorSpec",
            "EvalSpec",
            "Exporter",
            "FinalExporter",
            "Head",
            "LatestExporter",
            "LinearClassifier",
            "LinearEstimator",
            "LinearRegressor",
            "LogisticRegressionHead",
            "ModeKeys",
            "MultiClassHead",
            "MultiHead",
            "MultiLabelHead",
            "PoissonRegressionHead",
            "RegressionHead",
            "RunConfig",
            "TrainSpec",
            "VocabInfo",
            "WarmStartSettings",
            "add_metrics",
            "classifier_parse_example_spec",
            "regressor_parse_example_spec",
            "train_and_evaluate",
        ),
        {
            "KMeansClustering": "experimental.KMeans",
            "TPUEstimator": "tpu.TPUEstimator",
            "call_logit_fn": "experimental.call_logit_fn",
            "dnn_logit_fn_builder": "experimental.dnn_logit_fn_builder",
            "linear_logit_fn_builder": "experimental.linear_logit_fn_builder",
            "make_early_stopping_hook": "experimental.make_early_stopping_hook",
            "stop_if_higher_hook": "experimental.stop_if_higher_hook",
            "stop_if_lower_hook": "experimental.stop_if_lower_hook",
            "stop_if_no_decrease_hook": "experimental.stop_if_no_decrease_hook",
            "stop_if_no_increase_hook": "experimental.stop_if_no_increase_hook",
        },
    ),
    "export.export": (
        (),
        {
            "ServingInputReceiver": "export.ServingInputReceiver",
            "TensorServingInputReceiver": "export.TensorServingInputReceiver",
            "build_parsing_serving_input_receiver_fn": "export.build_parsing_serving_input_receiver_fn",
            "build_raw_serving_input_receiver_fn": "export.build_raw_serving_input_receiver_fn",
            "build_raw_supervised_input_receiver_fn": "experimental.build_raw_supervised_input_receiver_fn",
        },
    ),
    "export.export_lib": (
        (),
        {
            "ClassificationOutput": "export.ClassificationOutput",
            "ExportOutput": "export.ExportOutput",
            "PredictOutput": "export.PredictOutput",
            "RegressionOutput": "export.RegressionOutput",
            "ServingInputReceiver": "export.ServingInputReceiver",
            "TensorServingInputReceiver": "export.TensorServingInputReceiver",
            "build_parsing_serving_input_receiver_fn": "export.build_parsing_serving_input_receiver_fn",
            "build_raw_serving_input_receiver_fn": "export.build_raw_serving_input_receiver_fn",
            "build_raw_supervised_input_receiver_fn": "experimental.build_raw_supervised_input_receiver_fn",
        },
    ),
    "export.export_output": (
        (),
        {
            "ClassificationOutput": "export.ClassificationOutput",
            "ExportOutput": "export.ExportOutput",
            "PredictOutput": "export.PredictOutput",
            "RegressionOutput": "export.RegressionOutput",
        },
    ),
    "exporter": (("BestExporter", "Exporter", "FinalExporter", "LatestExporter"), {}),
    "inputs.inputs": ((), {"numpy_input_fn": "inputs.numpy_input_fn", "pandas_input_fn": "inputs.pandas_input_fn"}),
    "inputs.numpy_io": ((), {"numpy_input_fn": "inputs.numpy_input_fn"}),
    "inputs.pandas_io": ((), {"pandas_input_fn": "inputs.pandas_input_fn"}),
    "keras": (("ModeKeys",), {}),
    "model_fn": (("EstimatorSpec", "ModeKeys"), {"call_logit_fn": "experimental.call_logit_fn"}),
    "run_config": (("RunConfig",), {}),
    "training": (("EvalSpec", "TrainSpec", "train_and_evaluate"), {}),
}


# What converted code uses that decides the lines tf1clip-upgrade adds (``_fixes``).

# TF 1 names (after ``tf.`` or ``tf.compat.v1.``) that need graph mode: ``disable_v2_behavior()`` is added.
GRAPH_SYMBOLS = frozenset(
    [
        "placeholder",
        "placeholder_with_default",
        "sparse_placeholder",
        "Session",
        "InteractiveSession",
        "train.MonitoredSession",
        "train.MonitoredTrainingSession",
        "train.SingularMonitoredSession",
        "train.Supervisor",
        "train.Saver",
        "train.start_queue_runners",
        "get_collection",
        "add_to_collection",
        "global_variables_initializer",
        "local_variables_initializer",
        "tables_initializer",
    ]
)
# tf1clip modules built on Keras 2 besides the contrib ones (``_manifest.keras2_targets()``): the Estimator's
# canned estimators and feature columns.
KERAS2_MODULES = ("tf1clip.estimator",)
# Calls that set the execution mode themselves: no ``disable_v2_behavior()`` is added.
MODE_CALLS = ("disable_eager_execution", "disable_v2_behavior", "enable_eager_execution")
LEGACY_KERAS_VAR = "TF_USE_LEGACY_KERAS"

# ``ConfigProto`` keywords TF 2 may ignore (``_fixes``' thread-count note).
THREAD_KEYWORDS = ("intra_op_parallelism_threads", "inter_op_parallelism_threads")
