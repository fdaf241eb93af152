"""Every name tf1clip re-creates or routes from ``tf.contrib``: one table, no TensorFlow import.

Each :class:`Row` says where a group of public names lives (``target``), which module defines them
(``impl``, imported on first use), the TF 1.15 module paths TF 1 code imported them from (``tf_paths``,
``tf_upgrade_v2``'s spelling, implementation modules included), the extra they need, whether they need
Keras 2 or build TF 1 graph code, and their documented differences from TF 1.15. The runtime ``__all__``
(:func:`names_of`) and lazy ``__getattr__`` of the ``tf1clip.contrib`` modules, tf1clip-upgrade's table of
what it converts (``own_table``), its legacy-Keras and graph-mode decisions, the TF 2 homes of the names TF 2 has
itself (``tf2_names``), the modules converted code imports by name (``separate_imports``) and its install lines
are derived from it.

Adding a name:

1. implement it in its module (``impl``): TF 1.15's ``tensorflow/contrib/<X>/python/<kind>/<Y>.py`` is
   ``tf1clip/contrib/<X>/<Y>.py`` (docs/layout.rst); its ``__all__`` is ``names_of(__name__)``;
2. add it to a row of :data:`TABLE` (or add a row: one per implementation module and target), listing every
   TF 1.15 module path it was imported from; a row with no ``tf_paths`` is provided at runtime but not converted
   to (tf1clip-upgrade routes those paths elsewhere). A name is in one row only: a package that exposes its
   module's names too is in the row's ``also`` (:class:`Also`), and :data:`ROWS` derives its row;
3. test it (tests/subprocess/test_manifest.py checks every row's names exist on target and impl and match ``__all__``).

Names routed to a maintained successor (tf-slim, TF-GAN) are not rows: :data:`DELEGATES` is the one table of
the routes (namespace -> successor modules); :data:`ROUTES` and the routing modules' tables derive from it.
"""

import functools
import importlib
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple


class Row(NamedTuple):
    """Public names tf1clip re-creates, defined in one module and exposed on one ``tf1clip`` module."""

    target: str
    """The public tf1clip module the names live in, e.g. ``"tf1clip.contrib.rnn"``."""
    impl: str
    """The module that defines them (``target + "." + name`` for a submodule named ``name``)."""
    names: Tuple[str, ...]
    """Public names."""
    tf_paths: Tuple[str, ...]
    """TF 1.15 module paths (``tf_upgrade_v2`` spelling) tf1clip-upgrade converts them from."""
    extra: Optional[str] = None
    """The tf1clip extra they need (``"slim"``, ``"estimator"``, ``"gan"``) or None."""
    keras2: bool = False
    """They need Keras 2 (``TF_USE_LEGACY_KERAS=1`` and tf-keras on TensorFlow 2.16+)."""
    graph: bool = False
    """They build TF 1 graph code (converted code needs ``disable_v2_behavior()``)."""
    differences: str = ""
    """Their documented differences from TF 1.15 (one sentence), or ``""``."""
    tf2_home: str = ""
    """The TF 2 module that has these names itself (``"tf.compat.v1.nn.rnn_cell"``), where tf1clip-upgrade
    converts them (their ``tf_paths`` are then empty), or ``""``."""
    separate_import: bool = False
    """For a submodule of ``tf1clip.contrib`` (a row naming it): converted code imports it by its own name
    (``import tf1clip.contrib.learn``), not through ``import tf1clip.contrib``."""
    drift: Tuple[Tuple[str, str], ...] = ()
    """Names of the row whose training drifts from TF 1.15's numbers through TensorFlow 2's kernels alone, each with
    the drift measured after 300 Adam steps (tests/oracle/test_rnn_cell_drift.py), e.g.
    ``(("EmbeddingWrapper", "0.08 % in the loss"),)``; tf1clip-upgrade names each use at its line."""
    also: Tuple["Also", ...] = ()
    """The other modules exposing names of this row (a package re-exporting its module's names); :data:`ROWS` has a
    row for each, derived from this one."""


class Also(NamedTuple):
    """Another module exposing names of a row (:attr:`Row.also`): its own target and TF 1.15 paths, the row's impl."""

    target: str
    """The tf1clip module that exposes them too."""
    tf_paths: Tuple[str, ...]
    """The TF 1.15 module paths tf1clip-upgrade converts to ``target`` for them."""
    names: Tuple[str, ...] = ()
    """The row's names it exposes, ``()`` for all."""
    graph: Optional[bool] = None
    """Its own ``graph`` flag, None for the row's."""
    differences: Optional[str] = None
    """Its own ``differences``, None for the row's."""


class Route(NamedTuple):
    """A ``tf1clip.contrib`` module whose other names come from a maintained successor package."""

    target: str
    """The tf1clip module (its submodules included)."""
    successor: str
    """The package its names come from."""
    extra: str
    """The tf1clip extra that installs it."""
    names: str
    """The module listing the routed names (tf1clip-upgrade's table)."""
    graph: Tuple[str, ...] = ()
    """Routed names (ends of dotted paths) that build TF 1 graph code."""


_C = "tf1clip.contrib"
_RNN = "tf.contrib.rnn"
_RNN_OPS = "tf.contrib.rnn.python.ops."
_OPT = "tf.contrib.opt"
_OPT_MODS = "tf.contrib.opt.python.training."
_TRAINING = "tf.contrib.training.python.training."
_KERAS2_CELLS = "Keras 2 cells on tf.compat.v1.nn.rnn_cell"
_DATA = "tf.contrib.data"
_DATA_OPS = "tf.contrib.data.python.ops."
DATA_EXPERIMENTAL = (
    "AUTOTUNE",
    "Counter",
    "CsvDataset",
    "Optional",
    "RandomDataset",
    "Reducer",
    "SqlDataset",
    "TFRecordWriter",
    "bucket_by_sequence_length",
    "choose_from_datasets",
    "copy_to_device",
    "dense_to_sparse_batch",
    "enumerate_dataset",
    "get_next_as_optional",
    "get_single_element",
    "group_by_reducer",
    "group_by_window",
    "ignore_errors",
    "make_batched_features_dataset",
    "make_csv_dataset",
    "make_saveable_from_iterator",
    "map_and_batch",
    "parallel_interleave",
    "parse_example_dataset",
    "prefetch_to_device",
    "rejection_resample",
    "sample_from_datasets",
    "scan",
    "shuffle_and_repeat",
    "unbatch",
    "unique",
)
"""``tf.contrib.data`` names (TF 1.15) that are ``tf.data.experimental``'s, with the same name."""
DATA_V1 = ("Dataset", "Iterator", "TextLineDataset", "TFRecordDataset", "FixedLengthRecordDataset")
"""``tf.contrib.data`` names (TF 1.2-1.4) that are ``tf.compat.v1.data``'s (TF 1.2-1.3's ``Dataset.map(num_threads=,
output_buffer_size=)`` is converted too: ``tf1clip.upgrade._rules_aliases``)."""
_S2S_ATTENTION = (
    "AttentionMechanism",
    "AttentionWrapper",
    "AttentionWrapperState",
    "LuongAttention",
    "BahdanauAttention",
    "hardmax",
    "safe_cumprod",
    "monotonic_attention",
    "BahdanauMonotonicAttention",
    "LuongMonotonicAttention",
)
_S2S_ATTENTION_DIFFERENCES = (
    "A probability_fn that is not callable and a bad monotonic mode raise at construction (TF 1.15: on the first "
    "call); the Keras-style *V2 mechanisms are not re-created."
)
_CUDNN = "tf.contrib.cudnn_rnn"
_CUDNN_OPS_IMPL = "tf1clip.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops"


_S2S_DECODING = (
    (
        "decoder",
        ("Decoder", "dynamic_decode"),
        (),
        "dynamic_decode accepts and ignores TF 1.15's BaseDecoder keyword arguments; BaseDecoder is not re-created.",
    ),
    (
        "basic_decoder",
        ("BasicDecoderOutput", "BasicDecoder"),
        (),
        "output_layer may be any callable with compute_output_shape; BasicDecoderV2 is not re-created.",
    ),
    (
        "helper",
        (
            "Helper",
            "TrainingHelper",
            "GreedyEmbeddingHelper",
            "SampleEmbeddingHelper",
            "CustomHelper",
            "ScheduledEmbeddingTrainingHelper",
            "ScheduledOutputTrainingHelper",
            "InferenceHelper",
        ),
        (),
        "Seeded sampling draws TF 1.15's numbers under v1 control flow only.",
    ),
    (
        "beam_search_decoder",
        (
            "BeamSearchDecoderOutput",
            "BeamSearchDecoderState",
            "BeamSearchDecoder",
            "FinalBeamSearchDecoderOutput",
            "tile_batch",
        ),
        ("gather_tree_from_array",),
        "output_layer may be any callable with compute_output_shape; BeamSearchDecoderV2 is not re-created.",
    ),
    (
        "beam_search_ops",
        ("gather_tree",),
        (),
        "Built from TensorFlow ops (TF 2 has no GatherTree op); an invalid parent id fails through an Assert.",
    ),
    ("loss", ("sequence_loss",), (), "Also accepts NumPy arrays; the SequenceLoss class is not re-created."),
)


def _seq2seq_rows():
    """Per decoding module: its names (with module-only names), also on ``tf1clip.contrib.seq2seq``."""
    rows = []
    for module, names, module_only, differences in _S2S_DECODING:
        impl = _C + ".seq2seq." + module
        flags = {"keras2": True, "graph": True, "differences": differences}
        on_seq2seq = Also(_C + ".seq2seq", ("tf.contrib.seq2seq",), names)
        paths = ("tf.contrib.seq2seq.python.ops." + module,)
        rows.append(Row(impl, impl, names + module_only, paths, also=(on_seq2seq,), **flags))
    return tuple(rows)


def _submodules(target, *names, tf_paths=(), **flags):
    return tuple(Row(target, target + "." + name, (name,), tf_paths, **flags) for name in names)


def _opt(names, module):
    return Row(_C + ".opt", _C + ".opt." + module, names, (_OPT, _OPT_MODS + module))


_L = _C + ".learn"
_LP = "tf.contrib.learn.python.learn"
_LEARN_PATHS = ("tf.contrib.learn", _LP, _LP + ".estimators")
_LEARN_DIFF = (
    "Runs on tf1clip.estimator.Estimator: in INFER mode model_fn gets labels=None, a 'loss' eval metric is the mean "
    "loss, monitors must be SessionRunHooks, the Estimator also writes a 'loss' summary (docs/learn.rst)."
)
_PREPROCESSING = ("ByteProcessor", "CategoricalVocabulary", "TOKENIZER_RE", "VocabularyProcessor", "tokenizer")
_DATASETS = ("Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header", "shrink_csv")
_EXPORT = ("ExportStrategy", "garbage_collect_exports", "get_timestamped_export_dir", "make_export_strategy")
_INPUT_FN = ("InputFnOps", "build_default_serving_input_fn", "build_parsing_serving_input_fn")

# tf.contrib.learn (TF 1.15) on tf1clip.estimator: docs/learn.rst. Rows whose modules import tf1clip.estimator
# (extra "estimator") are checked in a subprocess by tests/subprocess/test_manifest.py.
_LEARN_ESTIMATOR: Dict[str, Any] = {"extra": "estimator", "keras2": True, "graph": True}
_ON_ESTIMATOR = (Also(_L + ".estimator", (_LP + ".estimators.estimator",)),)
_LEARN_ROWS: Tuple[Row, ...] = (
    Row(
        _L,
        _L + ".estimator",
        ("BaseEstimator", "Estimator", "SKCompat"),
        _LEARN_PATHS,
        differences=_LEARN_DIFF,
        also=_ON_ESTIMATOR,
        **_LEARN_ESTIMATOR,
    ),
    Row(
        _L,
        _L + ".estimator",
        ("MetricSpec",),
        _LEARN_PATHS + (_LP + ".metric_spec",),
        also=_ON_ESTIMATOR,
        **_LEARN_ESTIMATOR,
    ),
    Row(
        _L,
        _L + ".estimator",
        ("NotFittedError",),
        _LEARN_PATHS + (_LP + ".estimators._sklearn",),
        also=_ON_ESTIMATOR,
        **_LEARN_ESTIMATOR,
    ),
    Row(
        _L,
        _L + ".run_config",
        ("ClusterConfig", "Environment", "RunConfig", "TaskType"),
        _LEARN_PATHS,
        also=(Also(_L + ".run_config", (_LP + ".estimators.run_config",)),),
        **_LEARN_ESTIMATOR,
    ),
    Row(
        _L,
        _L + ".experiment",
        ("Experiment",),
        _LEARN_PATHS[:2],
        also=(Also(_L + ".experiment", (_LP + ".experiment",)),),
        **_LEARN_ESTIMATOR,
    ),
    Row(
        _L,
        _L + ".model_fn",
        ("ModeKeys", "ModelFnOps", "PredictionKey", "ProblemType"),
        _LEARN_PATHS,
        also=(
            Also(_L + ".model_fn", (_LP + ".estimators.model_fn",), ("ModeKeys", "ModelFnOps")),
            Also(_L + ".model_fn", (_LP + ".estimators.prediction_key",), ("PredictionKey",)),
            Also(_L + ".model_fn", (_LP + ".estimators.constants",), ("ProblemType",)),
        ),
    ),
    Row(_L, _L + ".learn_runner", ("learn_runner",), _LEARN_PATHS[:2], extra="estimator", keras2=True, graph=True),
)
_LEARN_ROWS += _submodules(_L, "preprocessing", "datasets", "utils", tf_paths=_LEARN_PATHS[:2])
_LEARN_ROWS += (
    Row(
        _L + ".learn_runner",
        _L + ".learn_runner",
        ("run", "tune"),
        ("tf.contrib.learn.learn_runner", _LP + ".learn_runner", _LP + ".learn_runner_lib"),
        extra="estimator",
        keras2=True,
        graph=True,
    ),
    Row(_L + ".model_fn", _L + ".model_fn", ("MetricKey",), (_LP + ".estimators.metric_key",)),
    Row(
        _L + ".preprocessing",
        _L + ".preprocessing",
        _PREPROCESSING,
        (
            "tf.contrib.learn.preprocessing",
            _LP + ".preprocessing",
            _LP + ".preprocessing.text",
            _LP + ".preprocessing.categorical_vocabulary",
        ),
        differences="VocabularyProcessor.restore reads TF 1.x pickles with an unpickler mapping TF 1.x's module paths.",
    ),
    Row(_L + ".preprocessing", _L + ".preprocessing", ("MODULE_ALIASES", "Unpickler", "load"), ()),
)
_DATASET_PATHS = ("tf.contrib.learn.datasets", _LP + ".datasets")
_LEARN_ROWS += _submodules(_L + ".datasets", "base", tf_paths=_DATASET_PATHS)
_MNIST = (
    "DEFAULT_SOURCE_URL",
    "DataSet",
    "dense_to_one_hot",
    "extract_images",
    "extract_labels",
    "load_mnist",
    "read_data_sets",
)
_LEARN_ROWS += (
    Row(_L + ".datasets", _L + ".datasets", ("DATASETS", "SYNTHETIC", "load_dataset", "make_dataset"), _DATASET_PATHS),
)
_LEARN_ROWS += _submodules(_L + ".datasets", "mnist", "synthetic", "text_datasets", tf_paths=_DATASET_PATHS)
_LEARN_ROWS += (
    Row(
        _L + ".datasets.mnist",
        _L + ".datasets.mnist",
        _MNIST,
        ("tf.contrib.learn.datasets.mnist", _LP + ".datasets.mnist"),
        differences="tensorflow.examples.tutorials.mnist.input_data's re-creation: a missing file is downloaded "
        "only where the network allows, else an OSError names the file to put in train_dir.",
    ),
    Row(
        _L + ".datasets.synthetic",
        _L + ".datasets.synthetic",
        ("circles", "spirals"),
        ("tf.contrib.learn.datasets.synthetic", _LP + ".datasets.synthetic"),
    ),
    Row(
        _L + ".datasets.text_datasets",
        _L + ".datasets.text_datasets",
        ("DBPEDIA_URL", "load_dbpedia", "maybe_download_dbpedia"),
        ("tf.contrib.learn.datasets.text_datasets", _LP + ".datasets.text_datasets"),
    ),
)
_LEARN_ROWS += (
    Row(
        _L + ".datasets.base",
        _L + ".datasets.base",
        _DATASETS + ("load_boston", "load_iris", "maybe_download", "retry", "urlretrieve_with_retry"),
        ("tf.contrib.learn.datasets.base", _LP + ".datasets.base"),
        also=(Also(_L + ".datasets", _DATASET_PATHS, _DATASETS + ("load_boston", "load_iris")),),
    ),
    Row(
        _L + ".utils.saved_model_export_utils",
        _L + ".utils.saved_model_export_utils",
        _EXPORT,
        (
            "tf.contrib.learn.utils.saved_model_export_utils",
            _LP + ".utils.saved_model_export_utils",
            _LP + ".export_strategy",
        ),
        extra="estimator",
        also=(
            Also(_L, _LEARN_PATHS[:2], ("ExportStrategy", "make_export_strategy")),
            Also(_L + ".utils", ("tf.contrib.learn.utils", _LP + ".utils"), ("make_export_strategy",)),
        ),
    ),
    Row(
        _L + ".utils.input_fn_utils",
        _L + ".utils.input_fn_utils",
        _INPUT_FN,
        ("tf.contrib.learn.utils.input_fn_utils", _LP + ".utils.input_fn_utils"),
        also=(
            Also(_L, _LEARN_PATHS[:2], ("InputFnOps", "build_parsing_serving_input_fn")),
            Also(_L + ".utils", ("tf.contrib.learn.utils", _LP + ".utils"), _INPUT_FN),
        ),
    ),
)
_LEARN_ROWS += _submodules(
    _L + ".utils", "input_fn_utils", "saved_model_export_utils", tf_paths=("tf.contrib.learn.utils", _LP + ".utils")
)
_RNN_COMMON_PATHS = (_LP + ".estimators.rnn_common",)
_LEARN_ROWS += (
    Row(_L, _L + ".rnn_common", ("rnn_common",), (_LP + ".estimators",)),
    Row(
        _L + ".rnn_common",
        _L + ".rnn_common",
        ("PredictionType", "RNNKeys", "mask_activations_and_labels", "select_last_activations"),
        _RNN_COMMON_PATHS,
        graph=True,
    ),
    Row(
        _L + ".rnn_common",
        _L + ".rnn_common",
        ("apply_dropout", "construct_rnn_cell"),
        _RNN_COMMON_PATHS,
        keras2=True,
        graph=True,
    ),
)

_CANNED_DIFF = (
    "As TF 1.15 (variables, slots and checkpoint keys, default optimizers and learning rates, TF 1.15's metrics); "
    "of the contrib feature columns only real_valued_column is re-created (tf.feature_column's columns are taken "
    "too), the SDCA optimizer and joint weights are not (ValueError)."
)
_CANNED = (
    ("dnn", ("DNNClassifier", "DNNEstimator", "DNNRegressor")),
    ("linear", ("LinearClassifier", "LinearEstimator", "LinearRegressor")),
    (
        "dnn_linear_combined",
        ("DNNLinearCombinedClassifier", "DNNLinearCombinedEstimator", "DNNLinearCombinedRegressor"),
    ),
)
_HEADS = (
    "Head",
    "binary_svm_head",
    "multi_class_head",
    "no_op_train_fn",
    "poisson_regression_head",
    "regression_head",
)


def _canned_rows():
    """Per canned-estimator module: its names (also on tf1clip.contrib.learn), and the module there."""
    flags = {"extra": "estimator", "keras2": True, "graph": True}
    on_learn = (Also(_L, _LEARN_PATHS),)
    rows = []
    for module, names in _CANNED + (("head", _HEADS),):
        impl = _L + "." + module
        differences = _CANNED_DIFF if module != "head" else ""
        paths = (_LP + ".estimators." + module,)
        rows.append(Row(impl, impl, names, paths, differences=differences, also=on_learn, **flags))
        rows.append(Row(_L, impl, (module,), _LEARN_PATHS[1:], **flags))
    infer = ("infer_real_valued_columns_from_input", "infer_real_valued_columns_from_input_fn")
    paths = (_LP + ".estimators.estimator",)
    rows.append(Row(_L + ".estimator", _L + ".estimator", infer, paths, also=on_learn, **flags))
    return tuple(rows)


_LEARN_ROWS += _canned_rows()
_MONITORS = (
    "BaseMonitor",
    "CaptureVariable",
    "CheckpointSaver",
    "EveryN",
    "GraphDump",
    "LoggingTrainable",
    "NanLoss",
    "NanLossDuringTrainingError",
    "PrintTensor",
    "RunHookAdapterForMonitors",
    "StepCounter",
    "StopAtStep",
    "SummarySaver",
    "ValidationMonitor",
    "get_default_monitors",
    "replace_monitors_with_hooks",
)
_LEARN_ROWS += _submodules(_L, "monitors", "ops", "models", tf_paths=_LEARN_PATHS[:2])
_LEARN_OPS: Tuple[Tuple[str, Tuple[str, ...], Dict[str, Any]], ...] = (
    ("embeddings_ops", ("categorical_variable", "embedding_lookup"), {}),
    ("losses_ops", ("mean_squared_error_regressor", "softmax_classifier"), {}),
    ("seq2seq_ops", ("rnn_decoder", "rnn_seq2seq", "seq2seq_inputs", "sequence_classifier"), {"keras2": True}),
)
for _module, _names, _flags in _LEARN_OPS:
    _impl = _L + ".ops." + _module
    _on_ops = (Also(_L + ".ops", ("tf.contrib.learn.ops", _LP + ".ops")),)
    _LEARN_ROWS += (
        Row(_impl, _impl, _names, (_LP + ".ops." + _module,), graph=True, also=_on_ops, **_flags),
        Row(_L + ".ops", _impl, (_module,), (_LP + ".ops",), **_flags),
    )
_LEARN_ROWS += (
    Row(
        _L + ".models",
        _L + ".models",
        ("linear_regression", "linear_regression_zero_init", "logistic_regression", "logistic_regression_zero_init"),
        ("tf.contrib.learn.models", _LP + ".models"),
        graph=True,
        differences="bidirectional_rnn and get_rnn_model are not re-created.",
    ),
)
_LEARN_ROWS += (
    Row(
        _L + ".monitors",
        _L + ".monitors",
        _MONITORS,
        ("tf.contrib.learn.monitors", _LP + ".monitors"),
        graph=True,
        differences="Run by Estimator.fit through RunHookAdapterForMonitors as in TF 1.15; ExportMonitor (TF 1.15's "
        "deprecated Estimator.export) is not re-created.",
        also=(Also(_L, _LEARN_PATHS[:2], ("NanLossDuringTrainingError",), graph=False, differences=""),),
    ),
)

_FC = "tf.contrib.layers.python.layers."
_LAYERS_FC_ROWS = (
    Row(
        _C + ".layers",
        _C + ".layers.feature_column",
        ("real_valued_column",),
        ("tf.contrib.layers", _FC + "feature_column"),
        differences="The only contrib feature column re-created; the others are tf.feature_column's "
        "(categorical_column_with_hash_bucket, embedding_column, bucketized_column, crossed_column ...).",
    ),
    Row(
        _C + ".layers",
        _C + ".layers.feature_column_ops",
        (
            "check_feature_columns",
            "infer_real_valued_columns",
            "input_from_feature_columns",
            "weighted_sum_from_feature_columns",
        ),
        ("tf.contrib.layers", _FC + "feature_column_ops"),
        graph=True,
        differences="For real_valued_column columns (NotImplementedError for another contrib column).",
    ),
)


_PRED = _C + ".predictor"
# tf.contrib.staging and tf.contrib.predictor (TF 1.15): docs/contrib.rst, "staging and predictor".
_STAGING_PREDICTOR_ROWS = _submodules(_C, "staging", "predictor", tf_paths=("tf.contrib",)) + (
    Row(
        _C + ".staging",
        _C + ".staging",
        ("StagingArea",),
        ("tf.contrib.staging",),
        graph=True,
        differences="Values that are not tensors, and creating one eagerly, raise TypeError / RuntimeError (TF 1.15 "
        "failed later, with an AttributeError).",
    ),
    Row(
        _PRED + ".predictor_factories",
        _PRED + ".predictor_factories",
        ("from_contrib_estimator", "from_estimator", "from_saved_model"),
        ("tf.contrib.predictor.predictor_factories",),
        differences="A signature_def_key the SavedModel lacks raises TF 1.15's intended ValueError (TF 1.15 gave a "
        "predictor with no inputs or outputs); from_contrib_estimator takes tensor features and passes labels=None.",
        also=(Also(_PRED, ("tf.contrib.predictor",)),),
    ),
    Row(_PRED + ".predictor", _PRED + ".predictor", ("Predictor",), ("tf.contrib.predictor.predictor",)),
    Row(
        _PRED + ".saved_model_predictor",
        _PRED + ".saved_model_predictor",
        ("DEFAULT_TAGS", "SavedModelPredictor", "get_meta_graph_def"),
        ("tf.contrib.predictor.saved_model_predictor",),
        differences="A signature_def_key the SavedModel lacks raises TF 1.15's intended ValueError (TF 1.15 gave a "
        "predictor with no inputs or outputs).",
    ),
    Row(
        _PRED + ".core_estimator_predictor",
        _PRED + ".core_estimator_predictor",
        ("CoreEstimatorPredictor",),
        ("tf.contrib.predictor.core_estimator_predictor",),
    ),
    Row(
        _PRED + ".contrib_estimator_predictor",
        _PRED + ".contrib_estimator_predictor",
        ("ContribEstimatorPredictor",),
        ("tf.contrib.predictor.contrib_estimator_predictor",),
        differences="Takes tensor features (TF 1.15: a dict only) and passes labels=None to the model_fn.",
    ),
)


_I = _C + ".image"
_IMAGE_OPS = "tf.contrib.image.python.ops."
_IMAGE_ROWS = _submodules(_C, "image", tf_paths=("tf.contrib",)) + (
    Row(
        _I,
        _I + ".image_ops",
        (
            "angles_to_projective_transforms",
            "bipartite_match",
            "compose_transforms",
            "connected_components",
            "flat_transforms_to_matrices",
            "matrices_to_flat_transforms",
            "rotate",
            "transform",
            "translate",
            "translations_to_projective_transforms",
        ),
        ("tf.contrib.image", _IMAGE_OPS + "image_ops"),
    ),
    Row(_I, _I + ".distort_image_ops", ("distort_image_ops",), ()),
    Row(
        _I + ".distort_image_ops",
        _I + ".distort_image_ops",
        ("adjust_hsv_in_yiq", "random_hsv_in_yiq"),
        (_IMAGE_OPS + "distort_image_ops",),
    ),
    Row(_I, _I + "._dense_image_warp", ("dense_image_warp",), ("tf.contrib.image", _IMAGE_OPS + "dense_image_warp")),
    Row(
        _I,
        _I + "._interpolate_spline",
        ("interpolate_spline",),
        ("tf.contrib.image", _IMAGE_OPS + "interpolate_spline"),
    ),
    Row(
        _I,
        _I + "._sparse_image_warp",
        ("sparse_image_warp",),
        ("tf.contrib.image", _IMAGE_OPS + "sparse_image_warp"),
    ),
)


TABLE: Tuple[Row, ...] = (
    _submodules(
        _C, "data", "estimator", "framework", "layers", "lookup", "opt", "slim", "training", tf_paths=("tf.contrib",)
    )
    + _submodules(_C, "rnn", tf_paths=("tf.contrib",), keras2=True)
    + _submodules(_C, "legacy_seq2seq", "cudnn_rnn", tf_paths=("tf.contrib",), keras2=True, separate_import=True)
    + _submodules(_C, "seq2seq", tf_paths=("tf.contrib",), keras2=True)
    + _submodules(_C, "crf", tf_paths=("tf.contrib",))
    + _submodules(_C, "quantize", tf_paths=("tf.contrib",))
    + _submodules(_C, "distributions")
    + _submodules(_C, "losses", "metrics", extra="slim")
    + _submodules(_C, "gan", extra="gan")
    + _submodules(_C, "learn", tf_paths=("tf.contrib",), separate_import=True)
    + (
        Row(
            _C + ".estimator",
            _C + ".estimator",
            ("clip_gradients_by_norm",),
            ("tf.contrib.estimator",),
            differences="tf1clip.clip_gradients_by_norm with TF 1.15's clip_stage='per_replica' default; "
            "clip_stage='aggregated' clips the gradients summed over the replicas.",
        ),
        Row(
            _C + ".estimator",
            _C + ".estimator",
            (
                "binary_classification_head",
                "logistic_regression_head",
                "multi_class_head",
                "multi_head",
                "multi_label_head",
                "poisson_regression_head",
                "regression_head",
            ),
            ("tf.contrib.estimator",),
            extra="estimator",
            keras2=True,
            differences="They return a tf.compat.v1.estimator.EstimatorSpec, do not support TPUEstimator, and "
            "multi_head's create_estimator_spec raises ValueError for regularization_losses.",
        ),
        Row(
            _C + ".framework",
            _C + ".framework",
            ("get_global_step", "get_or_create_global_step"),
            ("tf.contrib.framework",),
            also=(Also(_C + ".slim", ("tf.contrib.slim",)),),
        ),
        Row(
            _C + ".layers",
            _C + ".layers.optimizers",
            ("OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "adaptive_clipping_fn"),
            ("tf.contrib.layers", "tf.contrib.layers.python.layers.optimizers"),
            also=(Also(_C + ".slim", ()),),
        ),
        Row(
            _C + ".layers",
            _C + ".layers.optimizers",
            ("optimize_loss",),
            ("tf.contrib.layers", "tf.contrib.layers.python.layers.optimizers"),
            graph=True,
            also=(Also(_C + ".slim", ()),),
        ),
        Row(
            _C + ".layers",
            _C + ".layers.encoders",
            ("embed_sequence",),
            ("tf.contrib.layers", "tf.contrib.layers.python.layers.encoders"),
        ),
        Row(_C + ".training", _C + ".training.hparam", ("HParams",), ("tf.contrib.training", _TRAINING + "hparam")),
        Row(
            _C + ".training",
            _C + ".training.training",
            ("add_gradients_summaries", "clip_gradient_norms", "clip_gradient_norms_fn", "multiply_gradients"),
            ("tf.contrib.training", _TRAINING + "training"),
            also=(
                Also(
                    _C + ".slim.learning", ("tf.contrib.slim.learning",), ("clip_gradient_norms", "multiply_gradients")
                ),
            ),
        ),
        Row(
            _C + ".training",
            _C + ".training.training",
            ("create_train_op",),
            ("tf.contrib.training", _TRAINING + "training"),
            graph=True,
        ),
        Row(_C + ".training", _C + ".training.training", ("train",), (), extra="slim", graph=True),
        Row(_C + ".slim", _C + ".slim.learning", ("learning",), ("tf.contrib.slim",)),
        Row(_C + ".slim.learning", _C + ".slim.learning", ("add_gradients_summaries",), ("tf.contrib.slim.learning",)),
        Row(
            _C + ".slim.learning",
            _C + ".slim.learning",
            ("create_train_op",),
            ("tf.contrib.slim.learning",),
            graph=True,
        ),
        Row(_C + ".slim.learning", _C + ".slim.learning", ("train",), (), extra="slim", graph=True),
        Row(_C + ".slim.learning", _C + ".slim.learning", ("train_step",), (), extra="slim"),
        _opt(("LazyAdamOptimizer",), "lazy_adam_optimizer"),
        _opt(("NadamOptimizer",), "nadam_optimizer"),
        _opt(("AdaMaxOptimizer",), "adamax"),
        _opt(("AdamGSOptimizer",), "adam_gs_optimizer"),
        _opt(("LazyAdamGSOptimizer",), "lazy_adam_gs_optimizer"),
        _opt(
            (
                "AdamWOptimizer",
                "MomentumWOptimizer",
                "DecoupledWeightDecayExtension",
                "extend_with_decoupled_weight_decay",
            ),
            "weight_decay_optimizers",
        ),
        _opt(("PowerSignOptimizer",), "powersign"),
        _opt(("AddSignOptimizer",), "addsign"),
        _opt(("LARSOptimizer",), "lars_optimizer"),
        _opt(("RegAdagradOptimizer",), "reg_adagrad_optimizer"),
        _opt(("AGNOptimizer", "AGNCustomGetter"), "agn_optimizer"),
        _opt(("GGTOptimizer",), "ggt"),
        _opt(("ShampooOptimizer",), "shampoo"),
        Row(
            _C + ".opt",
            _C + ".opt",
            ("clip_gradients_by_global_norm",),
            (_OPT, _OPT_MODS + "multitask_optimizer_wrapper"),
        ),
        _opt(("MultitaskOptimizerWrapper",), "multitask_optimizer_wrapper"),
        _opt(("VariableClippingOptimizer",), "variable_clipping_optimizer"),
        _opt(("DropStaleGradientOptimizer",), "drop_stale_gradient_optimizer"),
        _opt(("MovingAverageOptimizer",), "moving_average_optimizer"),
        _opt(
            ("ElasticAverageCustomGetter", "ElasticAverageOptimizer", "LOCAL_VARIABLE_NAME"),
            "elastic_average_optimizer",
        ),
        _opt(("ModelAverageCustomGetter", "ModelAverageOptimizer"), "model_average_optimizer"),
        Row(
            _C + ".opt",
            _C + ".opt.elastic_average_optimizer",
            ("GLOBAL_VARIABLE_NAME",),
            (_OPT, _OPT_MODS + "elastic_average_optimizer", _OPT_MODS + "model_average_optimizer"),
        ),
        _opt(("ExternalOptimizerInterface", "ScipyOptimizerInterface"), "external_optimizer"),
        Row(_C + ".opt", _C + ".opt.sign_decay", ("sign_decay",), ()),
        Row(
            _C + ".opt.sign_decay",
            _C + ".opt.sign_decay",
            ("get_linear_decay_fn", "get_cosine_decay_fn", "get_restart_decay_fn"),
            (_OPT_MODS + "sign_decay",),
            also=(Also(_C + ".opt", ()),),
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.core_rnn_cell",
            ("EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper"),
            (_RNN, _RNN_OPS + "core_rnn_cell"),
            keras2=True,
            drift=(("EmbeddingWrapper", "0.08 % in the loss"),),
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.rnn_cell",
            (
                "AttentionCellWrapper",
                "BidirectionalGridLSTMCell",
                "CompiledWrapper",
                "Conv1DLSTMCell",
                "Conv2DLSTMCell",
                "Conv3DLSTMCell",
                "ConvLSTMCell",
                "CoupledInputForgetGateLSTMCell",
                "GLSTMCell",
                "GridLSTMCell",
                "HighwayWrapper",
                "IndRNNCell",
                "IndyGRUCell",
                "IndyLSTMCell",
                "IntersectionRNNCell",
                "LayerNormBasicLSTMCell",
                "NASCell",
                "PhasedLSTMCell",
                "SRUCell",
                "TimeFreqLSTMCell",
                "UGRNNCell",
            ),
            (_RNN, _RNN_OPS + "rnn_cell"),
            keras2=True,
            drift=(("AttentionCellWrapper", "3.7 % in the loss"), ("LayerNormBasicLSTMCell", "0.9 % in the loss")),
            differences="TimeFreqLSTMCell falls back to the dynamic batch size where TF 1.15 needed a static one; "
            "GLSTMCell rejects a non-positive number_of_groups with a ValueError.",
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.lstm_ops",
            ("LSTMBlockCell", "LSTMBlockFusedCell", "LSTMBlockWrapper"),
            (_RNN, _RNN_OPS + "lstm_ops"),
            keras2=True,
            differences="LSTMBlockCell is TensorFlow ops, not TF 1.15's fused kernel (same numbers; its gradient "
            "ignores cell_clip as TF 1.15's did); LSTMBlockFusedCell runs TF 1.15's BlockLSTM op.",
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.fused_rnn_cell",
            ("FusedRNNCell", "FusedRNNCellAdaptor", "TimeReversedFusedRNN"),
            (_RNN, _RNN_OPS + "fused_rnn_cell"),
            keras2=True,
            differences="FusedRNNCellAdaptor raises TypeError for a non-cell at construction.",
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.gru_ops",
            ("GRUBlockCell", "GRUBlockCellV2"),
            (_RNN, _RNN_OPS + "gru_ops"),
            keras2=True,
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.rnn",
            ("stack_bidirectional_dynamic_rnn", "stack_bidirectional_rnn"),
            (_RNN, _RNN_OPS + "rnn"),
            keras2=True,
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.rnn",
            ("best_effort_input_batch_size", "transpose_batch_time"),
            (_RNN,),
            keras2=True,
            differences="TF 1.15's tensorflow/python/ops/rnn.py helpers, which TF 2 made private.",
        ),
        Row(
            _C + ".rnn",
            _C + ".rnn.rnn",
            ("static_bidirectional_rnn", "static_rnn", "static_state_saving_rnn"),
            (),
            keras2=True,
            tf2_home="tf.compat.v1.nn",
            differences="tf.compat.v1.nn's own functions; tf1clip-upgrade converts them to tf.compat.v1.nn.",
        ),
        Row(_C + ".rnn", _C + ".rnn._base", ("LayerRNNCell",), (), keras2=True),
        Row(
            _C + ".rnn",
            _C + ".rnn._base",
            (
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
            ),
            (),
            keras2=True,
            tf2_home="tf.compat.v1.nn.rnn_cell",
            differences="tf.compat.v1.nn.rnn_cell's own classes; tf1clip-upgrade converts them to it.",
        ),
        Row(
            _C + ".legacy_seq2seq",
            _C + ".legacy_seq2seq",
            (
                "attention_decoder",
                "basic_rnn_seq2seq",
                "embedding_attention_decoder",
                "embedding_attention_seq2seq",
                "embedding_rnn_decoder",
                "embedding_rnn_seq2seq",
                "embedding_tied_rnn_seq2seq",
                "model_with_buckets",
                "one2many_rnn_seq2seq",
                "rnn_decoder",
                "sequence_loss",
                "sequence_loss_by_example",
                "tied_rnn_seq2seq",
            ),
            ("tf.contrib.legacy_seq2seq", "tf.contrib.legacy_seq2seq.python.ops.seq2seq"),
            keras2=True,
            graph=True,
        ),
        Row(
            _C + ".cudnn_rnn",
            _CUDNN_OPS_IMPL,
            ("CudnnCompatibleGRUCell", "CudnnCompatibleLSTMCell"),
            (_CUDNN, _CUDNN + ".python.layers.cudnn_rnn", _CUDNN + ".python.ops.cudnn_rnn_ops"),
            keras2=True,
            drift=(("CudnnCompatibleGRUCell", "0.06 % in the loss"),),
        ),
        Row(
            _C + ".cudnn_rnn",
            _C + ".cudnn_rnn.python.layers.cudnn_rnn",
            ("CudnnGRU", "CudnnLSTM", "CudnnRNNRelu", "CudnnRNNTanh"),
            (_CUDNN, _CUDNN + ".python.layers.cudnn_rnn"),
            keras2=True,
            graph=True,
            differences="Off a GPU they compute cuDNN's function with TensorFlow ops (no skip_input; dropout masks "
            "are not cuDNN's) and write TF 1.15's checkpoints (opaque buffer in cuDNN's packed layout plus canonical "
            "weights); Saver-based checkpoints only.",
        ),
        Row(
            _C + ".seq2seq.attention_wrapper",
            _C + ".seq2seq.attention_wrapper",
            _S2S_ATTENTION,
            ("tf.contrib.seq2seq.python.ops.attention_wrapper",),
            keras2=True,
            graph=True,
            differences=_S2S_ATTENTION_DIFFERENCES,
            also=(Also(_C + ".seq2seq", ("tf.contrib.seq2seq",)),),
        ),
        Row(
            _C + ".seq2seq.attention_wrapper",
            _C + ".seq2seq.attention_wrapper",
            (
                "_BaseAttentionMechanism",
                "_BaseMonotonicAttentionMechanism",
                "_bahdanau_score",
                "_luong_score",
                "_prepare_memory",
                "_maybe_mask_score",
                "_monotonic_probability_fn",
                "_compute_attention",
                "_zero_state_tensors",
            ),
            ("tf.contrib.seq2seq.python.ops.attention_wrapper",),
            keras2=True,
            graph=True,
            differences="TF 1.15's private helpers, which TF 1 code subclassed and imported from the module.",
        ),
        Row(
            _C + ".cudnn_rnn",
            _CUDNN_OPS_IMPL,
            (
                "CudnnGRUSaveable",
                "CudnnLSTMSaveable",
                "CudnnParamsFormatConverterGRU",
                "CudnnParamsFormatConverterLSTM",
                "CudnnParamsFormatConverterRelu",
                "CudnnParamsFormatConverterTanh",
                "CudnnRNNReluSaveable",
                "CudnnRNNTanhSaveable",
            ),
            (_CUDNN, _CUDNN + ".python.ops.cudnn_rnn_ops"),
            keras2=True,
            graph=True,
        ),
        Row(
            _C + ".cudnn_rnn",
            _CUDNN_OPS_IMPL,
            (
                "CUDNN_GRU",
                "CUDNN_GRU_PARAMS_PER_LAYER",
                "CUDNN_INPUT_AUTO_MODE",
                "CUDNN_INPUT_LINEAR_MODE",
                "CUDNN_INPUT_SKIP_MODE",
                "CUDNN_LSTM",
                "CUDNN_LSTM_PARAMS_PER_LAYER",
                "CUDNN_RNN_BIDIRECTION",
                "CUDNN_RNN_RELU",
                "CUDNN_RNN_RELU_PARAMS_PER_LAYER",
                "CUDNN_RNN_TANH",
                "CUDNN_RNN_TANH_PARAMS_PER_LAYER",
                "CUDNN_RNN_UNIDIRECTION",
            ),
            (_CUDNN + ".python.layers.cudnn_rnn", _CUDNN + ".python.ops.cudnn_rnn_ops"),
            keras2=True,
            differences="Also on tf1clip.contrib.cudnn_rnn (TF 1.15 had them in its two modules only).",
        ),
        Row(
            _C + ".crf",
            _C + ".crf.crf",
            (
                "CrfDecodeBackwardRnnCell",
                "CrfDecodeForwardRnnCell",
                "CrfForwardRnnCell",
                "crf_binary_score",
                "crf_decode",
                "crf_log_likelihood",
                "crf_log_norm",
                "crf_multitag_sequence_score",
                "crf_sequence_score",
                "crf_unary_score",
            ),
            ("tf.contrib.crf", "tf.contrib.crf.python.ops.crf"),
            graph=True,
            differences="The three cells are cell-like objects, not RNNCell subclasses (no Keras needed).",
        ),
        Row(_C + ".crf", _C + ".crf.crf", ("viterbi_decode",), ("tf.contrib.crf", "tf.contrib.crf.python.ops.crf")),
        Row(
            _C + ".quantize",
            _C + ".quantize.quantize_graph",
            (
                "create_eval_graph",
                "create_training_graph",
                "experimental_create_eval_graph",
                "experimental_create_training_graph",
            ),
            ("tf.contrib.quantize", "tf.contrib.quantize.python.quantize_graph"),
            graph=True,
            differences="An input_graph that is not a tf.Graph, arguments of the wrong type and bit widths outside "
            "2-16 raise TypeError/ValueError when the rewrite starts (docs/quantize.rst).",
        ),
        Row(
            _C + ".distributions",
            _C + ".distributions.mvn_diag",
            ("MultivariateNormalDiag",),
            ("tf.contrib.distributions", "tf.contrib.distributions.python.ops.mvn_diag"),
            differences="No bijector/distribution attributes; with no seed= and a graph-level seed, its op seed "
            "(TF's count of the graph's ops) differs from TF 1.15's.",
        ),
        Row(_C + ".tfprof", _C + ".tfprof.model_analyzer", ("model_analyzer",), ("tf.contrib.tfprof",)),
        Row(_C + ".tfprof", _C + ".tfprof.tfprof_logger", ("tfprof_logger",), ("tf.contrib.tfprof",)),
        Row(
            _C + ".tfprof.model_analyzer",
            _C + ".tfprof.model_analyzer",
            (
                "ALL_ADVICE",
                "FLOAT_OPS_OPTIONS",
                "PRINT_ALL_TIMING_MEMORY",
                "Profiler",
                "TRAINABLE_VARS_PARAMS_STAT_OPTIONS",
                "advise",
                "print_model_analysis",
            ),
            ("tf.contrib.tfprof.model_analyzer",),
        ),
        Row(
            _C + ".tfprof.tfprof_logger",
            _C + ".tfprof.tfprof_logger",
            ("TRAINABLE_VARIABLES", "write_op_log"),
            ("tf.contrib.tfprof.tfprof_logger",),
        ),
        Row(
            _C + ".data",
            _C + ".data",
            ("batch_and_drop_remainder", "padded_batch_and_drop_remainder"),
            (_DATA, _DATA_OPS + "batching"),
        ),
        Row(_C + ".data", _C + ".data", ("sliding_window_batch",), (_DATA, _DATA_OPS + "sliding")),
        Row(_C + ".data", _C + ".data", ("sloppy_interleave",), (_DATA, _DATA_OPS + "interleave_ops")),
        Row(
            _C + ".data",
            _C + ".data",
            DATA_EXPERIMENTAL,
            (),
            differences="tf.data.experimental's own; tf1clip-upgrade converts them there.",
            tf2_home="tf.data.experimental",
        ),
        Row(
            _C + ".data",
            _C + ".data",
            DATA_V1,
            (),
            differences="tf.compat.v1.data's own; tf1clip-upgrade converts them there.",
            tf2_home="tf.compat.v1.data",
        ),
        Row(
            _C + ".lookup",
            _C + ".lookup",
            (
                "FastHashSpec",
                "HasherSpec",
                "IdTableWithHashBuckets",
                "InitializableLookupTableBase",
                "KeyValueTensorInitializer",
                "LookupInterface",
                "MutableDenseHashTable",
                "MutableHashTable",
                "StrongHashSpec",
                "TableInitializerBase",
                "TextFileIdTableInitializer",
                "TextFileIndex",
                "TextFileInitializer",
                "TextFileStringTableInitializer",
                "index_table_from_file",
                "index_table_from_tensor",
                "index_to_string",
                "index_to_string_table_from_file",
                "index_to_string_table_from_tensor",
                "string_to_index",
                "string_to_index_table_from_file",
                "string_to_index_table_from_tensor",
            ),
            ("tf.contrib.lookup", "tf.contrib.lookup.lookup_ops"),
        ),
        Row(
            _C + ".lookup",
            _C + ".lookup",
            ("HashTable",),
            ("tf.contrib.lookup", "tf.contrib.lookup.lookup_ops"),
            differences="shared_name does not share the table between Sessions (TF 2 names the table resource).",
        ),
        Row(
            _C + ".mixed_precision",
            _C + ".mixed_precision",
            ("ExponentialUpdateLossScale",),
            (),
            differences="TF 2's LossScale form of contrib's ExponentialUpdateLossScaleManager, which tf1clip-upgrade "
            "converts to it.",
        ),
    )
    + _STAGING_PREDICTOR_ROWS
    + _seq2seq_rows()
    + _LEARN_ROWS
    + _LAYERS_FC_ROWS
    + _IMAGE_ROWS
)
"""The manifest as written: each name of a module in one row (:func:`claims` checks it)."""


def _derived(row: Row, also: Also) -> Row:
    names = also.names or row.names
    if not set(names) <= set(row.names):
        raise ValueError(
            "also: %r exposes %r, not names of the row" % (also.target, sorted(set(names) - set(row.names)))
        )
    return row._replace(
        target=also.target,
        names=names,
        tf_paths=also.tf_paths,
        graph=row.graph if also.graph is None else also.graph,
        differences=row.differences if also.differences is None else also.differences,
        drift=tuple(d for d in row.drift if d[0] in names),
        also=(),
    )


def expanded(table: Iterable[Row]) -> Tuple[Row, ...]:
    """``table`` with, after each row, a row for each module in its :attr:`Row.also`."""
    return tuple(r for row in table for r in (row._replace(also=()),) + tuple(_derived(row, a) for a in row.also))


ROWS: Tuple[Row, ...] = expanded(TABLE)
"""Every module's rows, re-exports included (:data:`TABLE` expanded): what the runtime, tf1clip-upgrade and the docs
read."""


def claims(table: Iterable[Row]) -> Dict[Tuple[str, str], List[int]]:
    """``{(impl, name): indices of the rows of table that list it}`` for every name more than one row lists (a row
    naming a submodule of its target claims nothing)."""
    found: Dict[Tuple[str, str], List[int]] = {}
    for i, r in enumerate(table):
        for n in r.names:
            if r.impl != r.target + "." + n:
                found.setdefault((r.impl, n), []).append(i)
    return {key: indices for key, indices in found.items() if len(indices) > 1}


DELEGATES: Dict[str, Tuple[str, ...]] = {
    "slim": ("tf_slim",),
    "slim.learning": ("tf_slim.learning",),
    "slim.nets": ("tf_slim.nets",),
    "layers": ("tf_slim.layers",),
    "framework": ("tf_slim.ops.arg_scope", "tf_slim.ops.variables", "tf_slim.ops.framework_ops"),
    "losses": ("tf_slim.losses",),
    "metrics": ("tf_slim.metrics",),
    "training": ("tf_slim.training.training", "tf_slim.training.evaluation"),
    "gan": ("tensorflow_gan",),
    "gan.losses": ("tensorflow_gan.python.losses",),
    "gan.losses.wargs": ("tensorflow_gan.python.losses.losses_wargs",),
    "gan.eval": ("tensorflow_gan.python.eval",),
    "gan.features": ("tensorflow_gan.python.features",),
    "gan.estimator": ("tensorflow_gan.python.estimator",),
    "gan.tpu": ("tensorflow_gan.python.tpu",),
}
"""The routes to the maintained successors: ``tf1clip.contrib`` namespace -> the successor modules whose public
names it has besides tf1clip's own, searched in order. :data:`ROUTES`, ``tf1clip.compat._slim.DELEGATES``,
``tf1clip.compat._gan.DELEGATES`` and tf1clip-upgrade's generated name tables (``_slim_names``, ``_gan_names``)
are derived from it."""

_SUCCESSORS: Dict[str, Tuple[str, str, Tuple[str, ...]]] = {
    "tf_slim": (
        "slim",
        "tf1clip.upgrade._slim_names",
        ("get_variables_to_restore", "assign_from_checkpoint_fn", "get_model_variables"),
    ),
    "tensorflow_gan": ("gan", "tf1clip.upgrade._gan_names", ("gan.gan_model", "gan.gan_train_ops", "gan.gan_train")),
}
"""Successor package -> (its tf1clip extra, the module listing its routed names, ends of its names that build TF 1
graph code)."""

ROUTES: Tuple[Route, ...] = tuple(
    Route(_C + "." + namespace, modules[0].split(".")[0], *_SUCCESSORS[modules[0].split(".")[0]])
    for namespace, modules in DELEGATES.items()
    if "." not in namespace
)
"""The ``tf1clip.contrib`` modules routed to a successor (their submodules included), from :data:`DELEGATES`."""

ROUTED_GRAPH = tuple(dict.fromkeys(name for route in ROUTES for name in route.graph))
"""Ends of routed names (tf-slim's, TF-GAN's) that build TF 1 graph code."""


def delegates(successor: str) -> Dict[str, Tuple[str, ...]]:
    """The :data:`DELEGATES` of the namespaces routed to the package ``successor`` (``"tf_slim"``)."""
    return {ns: modules for ns, modules in DELEGATES.items() if modules[0].split(".")[0] == successor}


def rows(target: Optional[str] = None, table: Optional[Iterable[Row]] = None) -> Tuple[Row, ...]:
    """The rows of ``target`` (all rows when None), from ``table`` (default :data:`ROWS`)."""
    return tuple(r for r in (ROWS if table is None else table) if target is None or r.target == target)


def targets() -> Tuple[str, ...]:
    """Every target module, in first-row order."""
    return tuple(dict.fromkeys(r.target for r in ROWS))


def names(target: str) -> Tuple[str, ...]:
    """The public names of ``target`` (its ``__all__``), in row order."""
    return tuple(n for r in rows(target) for n in r.names)


def names_of(module: str) -> List[str]:
    """The ``__all__`` of a ``tf1clip.contrib`` module: its :func:`names` when it is a target, else the names rows
    define in it (``impl``), in row order."""
    if module in targets():
        return list(names(module))
    defined = (n for r in ROWS if r.impl == module for n in r.names if r.impl != r.target + "." + n)
    return list(dict.fromkeys(defined))


def impl_of(target: str, name: str) -> str:
    """The module defining ``name`` of ``target``; ``AttributeError`` when no row has it."""
    for r in rows(target):
        if name in r.names:
            return r.impl
    raise AttributeError("module %r has no attribute %r" % (target, name))


def load(target: str, name: str) -> Any:
    """Imports and returns ``name`` of ``target`` from its implementation module."""
    impl = impl_of(target, name)
    module = importlib.import_module(impl)
    return module if impl == target + "." + name else getattr(module, name)


def module_getattr(target: str, globals_: Dict[str, Any]) -> Callable[[str], Any]:
    """A PEP 562 ``__getattr__`` for ``target`` that loads its names on first use and keeps them in ``globals_``."""

    def __getattr__(name: str) -> Any:  # noqa: N807
        value = load(target, name)
        globals_[name] = value
        return value

    return __getattr__


def module_dir(target: str, globals_: Dict[str, Any]) -> Callable[[], List[str]]:
    """A PEP 562 ``__dir__`` for ``target``: its globals and its names."""
    return lambda: sorted(set(globals_) | set(names(target)))


@functools.lru_cache(maxsize=None)
def _own_table(table: Tuple[Row, ...]) -> Dict[str, Tuple[str, Tuple[str, ...]]]:
    own: Dict[str, Tuple[str, Tuple[str, ...]]] = {}
    for r in table:
        for path in r.tf_paths:
            target, known = own.get(path, (r.target, ()))
            if target != r.target:
                raise ValueError("tf_paths: %r maps to %r and %r" % (path, target, r.target))
            own[path] = (target, known + tuple(n for n in r.names if n not in known))
    return own


def own_table(table: Optional[Iterable[Row]] = None) -> Dict[str, Tuple[str, Tuple[str, ...]]]:
    """tf1clip-upgrade's conversions: ``{TF 1.15 module path: (tf1clip module, names)}`` of ``table`` (default
    :data:`ROWS`); cached, do not mutate."""
    return _own_table(ROWS if table is None else tuple(table))


@functools.lru_cache(maxsize=None)
def _flagged(table: Tuple[Row, ...], flag: str) -> Tuple[str, ...]:
    """Whole targets whose rows all have ``flag``, then ``target.name`` of the other flagged names."""
    whole = tuple(t for t in dict.fromkeys(r.target for r in table) if all(getattr(r, flag) for r in rows(t, table)))
    paths = (r.target + "." + n for r in table if getattr(r, flag) and r.target not in whole for n in r.names)
    return tuple(dict.fromkeys(whole + tuple(paths)))


def keras2_targets() -> Tuple[str, ...]:
    """Targets, and ``target.name`` paths, that need Keras 2 (a path under one of them needs it too)."""
    return _flagged(ROWS, "keras2")


def graph_targets() -> Tuple[str, ...]:
    """Targets, and ``target.name`` paths, that build TF 1 graph code (a path under one of them does too)."""
    return _flagged(ROWS, "graph")


@functools.lru_cache(maxsize=None)
def _tf2_names(table: Tuple[Row, ...], target: str, home: str) -> Tuple[str, ...]:
    return tuple(n for r in rows(target, table) if r.tf2_home == home for n in r.names)


def tf2_names(target: str, home: str) -> Tuple[str, ...]:
    """The names of ``target`` that the TF 2 module ``home`` has itself (rows with that ``tf2_home``)."""
    return _tf2_names(ROWS, target, home)


def separate_imports() -> Tuple[str, ...]:
    """The ``tf1clip.contrib`` submodules converted code imports by their own name: those flagged
    ``separate_import`` and those that are no name of ``tf1clip.contrib`` (``tfprof``, ``mixed_precision``)."""
    return _separate_imports(ROWS)


@functools.lru_cache(maxsize=None)
def _separate_imports(table: Tuple[Row, ...]) -> Tuple[str, ...]:
    contrib = rows(_C, table)
    flagged = [_C + "." + n for r in contrib if r.separate_import for n in r.names]
    submodules = {r.target for r in table if r.target.count(".") == 2 and r.target.startswith(_C + ".")}
    unnamed = [t for t in sorted(submodules) if t.rsplit(".", 1)[1] not in {n for r in contrib for n in r.names}]
    return tuple(dict.fromkeys(flagged + unnamed))


def drifting() -> Dict[str, str]:
    """``{"target.name": drift measured}`` for every name in a row's ``drift``."""
    return {r.target + "." + name: measured for r in ROWS for name, measured in r.drift}


def extra_for(target: str) -> Tuple[str, ...]:
    """The extras some name of ``target`` needs, sorted."""
    return tuple(sorted({r.extra for r in rows(target) if r.extra}))


def route_of(target: str) -> Optional[Route]:
    """The route of ``target`` or of the module it is under, or None."""
    found = [r for r in ROUTES if target == r.target or target.startswith(r.target + ".")]
    return max(found, key=lambda r: len(r.target)) if found else None


def install_line(extras: Iterable[str], keras2: bool = False) -> str:
    """The shell command installing tf1clip with ``extras`` (and tf-keras when ``keras2``)."""
    chosen = sorted(set(extras))
    line = "python3 -m pip install 'tf1clip%s'" % ("[%s]" % ",".join(chosen) if chosen else "")
    return line + (" && python3 -m tf1clip.install_extras legacy-keras" if keras2 else "")
