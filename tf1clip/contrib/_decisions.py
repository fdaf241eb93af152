"""What becomes of each ``tf.contrib`` module of TF 1.15: one row per module (or member with its own successor),
no TensorFlow import.

tf1clip-upgrade converts a contrib name in this order: a name tf1clip re-creates or routes (a row or a route of
``_manifest``); a name whose TF 1.15 object was a core TensorFlow name (the recorded listing,
``tf1clip.upgrade._tf115_contrib``), to that name's TF 2 spelling; a rule of its own (``tf1clip.upgrade``). Every
other name is an ERROR naming the successor of the row that covers it (the longest row path that starts the name)
and how to install it. tests/upgrade/test_upgrade_sweep.py walks every public name of TF 1.15's contrib through
the converter and checks that each one ends in exactly one of these.

Verdicts: ``tf1clip`` (tf1clip re-creates the module's names or routes them to tf-slim / TF-GAN; a name it lacks
names the successor below), ``tensorflow`` (the successor is part of TensorFlow 2: nothing to install),
``package`` (a maintained package: its install line) and ``none`` (no maintained successor: port by hand, or keep
the program on TensorFlow 1.15).
"""

from typing import Dict, NamedTuple, Optional

TF1CLIP, TENSORFLOW, PACKAGE, NONE = "tf1clip", "tensorflow", "package", "none"
VERDICTS = (TF1CLIP, TENSORFLOW, PACKAGE, NONE)


class Decision(NamedTuple):
    """The decision for a contrib module (or member) path."""

    verdict: str
    successor: str
    """One clause naming where to go (``"use the tensorflow-probability package (tfp.distributions)"``)."""
    install: str = ""
    """The package to install for a ``package`` verdict (``"tensorflow-probability"``), or the tf1clip extra a
    ``tf1clip`` one routes to (``"slim"``: the ERROR says that neither has the name); empty otherwise."""


_TF1_15 = "keep this program on TensorFlow 1.15 or port it by hand"


def _package(successor, package):
    return Decision(PACKAGE, successor, package)


def _tf(successor):
    return Decision(TENSORFLOW, successor)


def _none(what):
    return Decision(NONE, "%s has no maintained successor: %s" % (what, _TF1_15))


def _tf1clip(successor, extra=""):
    return Decision(TF1CLIP, successor, extra)


_TFIO = "tensorflow-io"
_TFA = "tensorflow-addons"
_TFP = "tensorflow-probability"
_TFDF = "tensorflow-decision-forests"
# TensorForestEstimator (tf.contrib.learn in TF 0.12-1.0, tf.contrib.tensor_forest.client.random_forest since): not
# re-created, not routed. Its training ran tensor_forest's own C++ kernels, which left with tf.contrib; TensorFlow
# Decision Forests is the maintained successor (Keras models, not Estimators).
_TENSOR_FOREST = Decision(
    PACKAGE,
    "TensorForestEstimator is not re-created: its training ops (tensor_forest's C++ kernels) left with tf.contrib and "
    "nothing ports them to TensorFlow 2. Its successor is TensorFlow Decision Forests (python3 -m pip install "
    "tensorflow_decision_forests; tensorflow_decision_forests.keras.RandomForestModel, a Keras model), or keep this "
    "program on TensorFlow 1.15",
    "tensorflow-decision-forests",
)
_MIRRORED = "use tf.distribute.MirroredStrategy, passed as tf.estimator.RunConfig(train_distribute=...), with the "
_HSV_IN_YIQ = _tf1clip(
    "use tf1clip.contrib.image.distort_image_ops (adjust_hsv_in_yiq, random_hsv_in_yiq), where TF 1.15 had them"
)
_STEREOGRAMS = _none(
    "single_image_random_dot_stereograms (TF 1.15's SingleImageRandomDotStereograms kernel, whose dots came from the "
    "C library's rand(), process-wide and unseeded: no re-creation can give its images)"
)

DECISIONS: Dict[str, Decision] = {
    # tf1clip re-creates or routes these (their names are rows or routes of the manifest).
    "tf.contrib.crf": _tf1clip(
        "tf1clip.contrib.crf re-creates TF 1.15's public crf names (docs/rnn.rst), not this one"
    ),
    "tf.contrib.cudnn_rnn": _tf1clip(
        "tf1clip.contrib.cudnn_rnn re-creates TF 1.15's public cudnn_rnn names (the layers, the compatible cells, the "
        "saveables and format converters; docs/rnn.rst), not this one"
    ),
    "tf.contrib.data": _tf1clip("tf.data.experimental and tf1clip.contrib.data have no such name; use tf.data"),
    "tf.contrib.estimator": _tf1clip(
        "tf1clip.estimator (tensorflow-estimator 2.15's API) has no such name", "estimator"
    ),
    "tf.contrib.estimator.replicate_model_fn": _tf(_MIRRORED + "unwrapped model_fn"),
    "tf.contrib.estimator.TowerOptimizer": _tf(_MIRRORED + "unwrapped optimizer"),
    "tf.contrib.framework": _tf1clip("tf-slim has no such name; see tf.nest, tf.compat.v1 and tf.sort", "slim"),
    "tf.contrib.framework.nest": _tf(
        "use tf.nest (flatten, map_structure, pack_sequence_as, assert_same_structure; is_sequence is "
        "tf.nest.is_nested)"
    ),
    "tf.contrib.layers": _tf1clip("tf-slim has no such name; tf.feature_column replaces the feature columns", "slim"),
    "tf.contrib.learn": _tf1clip(
        "tf1clip.contrib.learn re-creates Estimator, SKCompat, the canned DNN, Linear and DNNLinearCombined "
        "estimators with their heads, RunConfig, Experiment, learn_runner, the export utils, datasets, monitors, ops, "
        "models and preprocessing (docs/learn.rst), not this one (KMeansClustering, SVM, LogisticRegressor, "
        "DynamicRnnEstimator, learn_io, graph_actions ...): port it to tf.estimator (tf1clip.estimator) or tf.keras",
        "estimator",
    ),
    "tf.contrib.learn.models": _tf1clip(
        "tf1clip.contrib.learn.models re-creates linear_regression and logistic_regression (and their _zero_init "
        "forms) only; use tf.compat.v1.nn.static_bidirectional_rnn for bidirectional_rnn and build get_rnn_model's "
        "network with tf.compat.v1.nn.rnn_cell or tf.keras",
        "estimator",
    ),
    "tf.contrib.learn.monitors.ExportMonitor": _tf1clip(
        "pass an ExportStrategy (tf1clip.contrib.learn.make_export_strategy) to tf1clip.contrib.learn.Experiment, as "
        "TF 1.15 advised: ExportMonitor called the deprecated Estimator.export",
        "estimator",
    ),
    "tf.contrib.learn.TensorForestEstimator": _TENSOR_FOREST,
    "tf.contrib.learn.python.learn.estimators.random_forest": _TENSOR_FOREST,
    "tf.contrib.tensor_forest.client.random_forest": _TENSOR_FOREST,
    "tf.contrib.legacy_seq2seq": _tf1clip("tf1clip.contrib.legacy_seq2seq re-creates its public functions only"),
    "tf.contrib.lookup": _tf1clip("tf1clip.contrib.lookup has no such name; use tf.lookup"),
    "tf.contrib.losses": _tf1clip("tf-slim has no such name; use tf.compat.v1.losses", "slim"),
    "tf.contrib.metrics": _tf1clip("tf-slim has no such name; use tf.compat.v1.metrics", "slim"),
    "tf.contrib.mixed_precision": _tf1clip(
        "use tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer or tf.keras.mixed_precision"
    ),
    "tf.contrib.opt": _tf1clip(
        "tf1clip.contrib.opt provides clip_gradients_by_global_norm and the optimizers listed in its docs "
        "(docs/contrib_opt.rst), not this one; use a tf.compat.v1.train optimizer instead"
    ),
    "tf.contrib.predictor": _tf1clip(
        "tf1clip.contrib.predictor re-creates from_saved_model, from_estimator and from_contrib_estimator; "
        "use tf.saved_model.load for new code"
    ),
    "tf.contrib.rnn": _tf1clip(
        "tf1clip.contrib.rnn re-creates every name TF 1.15's tf.contrib.rnn exported (docs/rnn.rst; the core cells "
        "are tf.compat.v1.nn.rnn_cell's); the cells it did not export (NTMCell, LayerNormLSTMCell, "
        "WeightNormLSTMCell, MinimalRNNCell, CFNCell) have no maintained successor (tf.keras.layers RNN layers for "
        "new code)"
    ),
    "tf.contrib.seq2seq": _tf1clip(
        "tf1clip.contrib.seq2seq re-creates TF 1.15's public names (docs/seq2seq.rst), not this one"
    ),
    "tf.contrib.slim": _tf1clip("tf-slim has no such name", "slim"),
    "tf.contrib.image": _tf1clip(
        "tf1clip.contrib.image re-creates every name TF 1.15's tf.contrib.image exported but "
        "single_image_random_dot_stereograms (docs/contrib.rst), not this one; use tf.image"
    ),
    "tf.contrib.image.single_image_random_dot_stereograms": _STEREOGRAMS,
    "tf.contrib.image.python.ops.single_image_random_dot_stereograms": _STEREOGRAMS,
    "tf.contrib.image.ops": _tf(
        "use tf.raw_ops.ImageProjectiveTransformV2 (fill_mode='CONSTANT' is TF 1.15's kernel), or the tf1clip.contrib."
        "image functions re-creating BipartiteMatch, ImageConnectedComponents and AdjustHsvInYiq"
    ),
    "tf.contrib.image.adjust_hsv_in_yiq": _HSV_IN_YIQ,
    "tf.contrib.image.random_hsv_in_yiq": _HSV_IN_YIQ,
    "tf.contrib.staging": _tf1clip(
        "tf1clip.contrib.staging re-creates StagingArea only; use tf.data (prefetch_to_device) for input pipelines"
    ),
    "tf.contrib.tfprof": _tf1clip(
        "use tf.compat.v1.profiler (Profiler, profile, advise, ProfileOptionBuilder); ProfileContext has no TF 2 "
        "counterpart"
    ),
    "tf.contrib.training": _tf1clip(
        "tf-slim has no such name; tf.data.experimental.bucket_by_sequence_length replaces bucketing", "slim"
    ),
    "tf.contrib.gan": _tf1clip(
        "TF-GAN 2.1.0 (tensorflow_gan), which tf1clip.contrib.gan routes to, has no such name", "gan"
    ),
    "tf.contrib.quantize": _tf1clip(
        "tf1clip.contrib.quantize re-creates TF 1.15's four graph-rewrite functions (docs/quantize.rst), not this "
        "name; quantization-aware training of Keras models is in the tensorflow-model-optimization package "
        "(tfmot.quantization.keras.quantize_model)"
    ),
    # Not re-created (2026-12): the package that carries the technique on.
    "tf.contrib.model_pruning": _package(
        "pruning moved to Keras models in the tensorflow-model-optimization package "
        "(tfmot.sparsity.keras.prune_low_magnitude)",
        "tensorflow-model-optimization",
    ),
    # Successors in TensorFlow 2 itself.
    "tf.contrib.all_reduce": _tf("use tf.distribute's cross-device ops (tf.distribute.NcclAllReduce ...)"),
    "tf.contrib.autograph": _tf("use tf.autograph (tf.autograph.to_graph, tf.autograph.experimental)"),
    "tf.contrib.batching": _tf("use tf.nondifferentiable_batch_function"),
    "tf.contrib.checkpoint": _tf("use tf.train.Checkpoint and tf.Module's tracking (tf.train.CheckpointManager)"),
    "tf.contrib.cluster_resolver": _tf("use tf.distribute.cluster_resolver"),
    "tf.contrib.compiler": _tf("use tf.function(jit_compile=True) or tf.xla.experimental"),
    "tf.contrib.deprecated": _tf(
        "use tf.compat.v1.summary.scalar, tf.compat.v1.summary.histogram, tf.compat.v1.summary.image, "
        "tf.compat.v1.summary.audio, tf.compat.v1.summary.merge or tf.compat.v1.summary.merge_all, which take one "
        "name (prefixed by the name scope) where these took a tensor of tags"
    ),
    "tf.contrib.distribute": _tf(
        "use tf.distribute (MirroredStrategy(devices=...) for num_gpus=, tf.distribute.experimental for the rest)"
    ),
    "tf.contrib.eager": _tf("TensorFlow 2 runs eagerly by default; use tf.function and tf.GradientTape"),
    "tf.contrib.feature_column": _tf(
        "use tf.feature_column (its sequence_* columns) with tf.keras.experimental.SequenceFeatures (tf-keras)"
    ),
    "tf.contrib.hooks": _tf("use the tf.compat.v1.train session hooks"),
    "tf.contrib.keras": _tf("use tf.keras"),
    "tf.contrib.memory_stats": _tf("use tf.config.experimental.get_memory_info"),
    "tf.contrib.nn": _tf("use tf.nn (or tf.compat.v1.nn)"),
    "tf.contrib.optimizer_v2": _tf("use tf.keras.optimizers (TF 2's OptimizerV2)"),
    "tf.contrib.proto": _tf("use tf.io.decode_proto and tf.io.encode_proto"),
    "tf.contrib.quantization": _tf("use tf.quantization"),
    "tf.contrib.saved_model": _tf("use tf.saved_model and tf.keras.models.save_model / load_model"),
    "tf.contrib.session_bundle": _tf("use tf.saved_model (tf.compat.v1.saved_model.loader.load)"),
    "tf.contrib.signal": _tf("use tf.signal"),
    "tf.contrib.stateless": _tf("use tf.random.stateless_uniform, stateless_normal ... (tf.random)"),
    "tf.contrib.summary": _tf("use tf.compat.v2.summary"),
    "tf.contrib.tensorrt": _tf("use tf.experimental.tensorrt (TF-TRT)"),
    "tf.contrib.testing": _tf("use tf.test"),
    "tf.contrib.tpu": _tf("use tf.compat.v1.tpu and tf.distribute.TPUStrategy"),
    "tf.contrib.util": _tf("use tf.compat.v1.make_tensor_proto, tf.make_ndarray and tf.get_static_value"),
    # Successors in maintained packages.
    "tf.contrib.bayesflow": _package("use the tensorflow-probability package", _TFP),
    "tf.contrib.distributions": _package("use the tensorflow-probability package (tfp.distributions)", _TFP),
    "tf.contrib.integrate": _package("use tensorflow-probability's tfp.math.ode", _TFP),
    "tf.contrib.boosted_trees": _package(
        "use TensorFlow Decision Forests (tfdf.keras.GradientBoostedTreesModel)", _TFDF
    ),
    "tf.contrib.decision_trees": _package("use TensorFlow Decision Forests", _TFDF),
    "tf.contrib.tensor_forest": _package("use TensorFlow Decision Forests (tfdf.keras.RandomForestModel)", _TFDF),
    "tf.contrib.constrained_optimization": _package(
        "use the tensorflow-constrained-optimization package (tfco)", "tensorflow-constrained-optimization"
    ),
    "tf.contrib.cloud": _package("use tensorflow-io (tfio.bigquery) and tf.io.gfile for GCS", _TFIO),
    "tf.contrib.bigtable": _package("use tensorflow-io (tfio.bigtable)", _TFIO),
    "tf.contrib.ffmpeg": _package("use tensorflow-io (tfio.audio, tfio.experimental.ffmpeg)", _TFIO),
    "tf.contrib.hadoop": _package("use tensorflow-io (tfio.IODataset)", _TFIO),
    "tf.contrib.ignite": _package("use tensorflow-io (tfio.experimental.ignite)", _TFIO),
    "tf.contrib.kafka": _package("use tensorflow-io (tfio.IODataset.from_kafka)", _TFIO),
    "tf.contrib.kinesis": _package("use tensorflow-io (tfio.kinesis)", _TFIO),
    "tf.contrib.libsvm": _package("use tensorflow-io (tfio.experimental.text / your own parser)", _TFIO),
    "tf.contrib.resampler": _package("use tensorflow-addons' tfa.image.resampler (in maintenance mode)", _TFA),
    "tf.contrib.sparsemax": _package(
        "use tensorflow-addons' tfa.activations.sparsemax and tfa.losses.sparsemax_loss (in maintenance mode)", _TFA
    ),
    "tf.contrib.tensorboard": _package("use the tensorboard package (tensorboard.plugins.projector)", "tensorboard"),
    "tf.contrib.text": _package("use the tensorflow-text package", "tensorflow-text"),
    "tf.contrib.factorization": _package(
        "tf1clip.estimator.experimental.KMeans (tensorflow-estimator 2.15) replaces KMeansClustering; WALS and the "
        "GMM have no maintained successor",
        "tf1clip[estimator]",
    ),
    "tf.contrib.linear_optimizer": _package(
        "use tf1clip.estimator.experimental.LinearSDCA (tensorflow-estimator 2.15)", "tf1clip[estimator]"
    ),
    "tf.contrib.kernel_methods": _package(
        "use tf.keras.layers.experimental.RandomFourierFeatures (tf-keras)", "tf-keras"
    ),
    # No maintained successor.
    "tf.contrib.copy_graph": _none("tf.contrib.copy_graph"),
    "tf.contrib.fused_conv": _none("tf.contrib.fused_conv (cuDNN's fused convolution)"),
    "tf.contrib.graph_editor": _none("tf.contrib.graph_editor (graph surgery on tf.compat.v1 graphs)"),
    "tf.contrib.grid_rnn": _none("tf.contrib.grid_rnn"),
    "tf.contrib.input_pipeline": _none("tf.contrib.input_pipeline (use tf.data for new code)"),
    "tf.contrib.labeled_tensor": _none("tf.contrib.labeled_tensor"),
    "tf.contrib.meta_graph_transform": _none("tf.contrib.meta_graph_transform"),
    "tf.contrib.nearest_neighbor": _none("tf.contrib.nearest_neighbor"),
    "tf.contrib.periodic_resample": _none("tf.contrib.periodic_resample"),
    "tf.contrib.receptive_field": _none("tf.contrib.receptive_field"),
    "tf.contrib.recurrent": _none("tf.contrib.recurrent (tf.keras.layers.RNN for new code)"),
    "tf.contrib.reduce_slice_ops": _none("tf.contrib.reduce_slice_ops (tf.math.segment_* for new code)"),
    "tf.contrib.remote_fused_graph": _none("tf.contrib.remote_fused_graph"),
    "tf.contrib.rpc": _none("tf.contrib.rpc"),
    "tf.contrib.solvers": _none("tf.contrib.solvers (tf.linalg for new code)"),
    "tf.contrib.specs": _none("tf.contrib.specs"),
    "tf.contrib.stat_summarizer": _none("tf.contrib.stat_summarizer"),
    "tf.contrib.timeseries": _none("tf.contrib.timeseries (its Estimators and state-space models)"),
}
"""Contrib module (or member) path -> what becomes of the names under it that nothing converts."""

GENERIC = Decision(NONE, "port it by hand (tf.compat.v1, tf-slim or your own code)")
"""For a path under ``tf.contrib`` that no row covers (``tf.contrib`` itself)."""

TF115_INSTALL = "python3.7 -m pip install tensorflow==1.15.5"


def decision(path: str) -> Decision:
    """The row covering the contrib ``path`` (its longest path that starts ``path``), else :data:`GENERIC`."""
    parts = path.split(".")
    for k in range(len(parts), 1, -1):
        found: Optional[Decision] = DECISIONS.get(".".join(parts[:k]))
        if found is not None:
            return found
    return GENERIC


def install_clause(found: Decision) -> str:
    """How to install ``found``'s successor, as the end of an ERROR."""
    if found.verdict == PACKAGE and found.install.startswith("tf1clip"):
        return "install: python3 -m pip install '%s'" % found.install
    if found.verdict == PACKAGE:
        return "install: python3 -m pip install %s" % found.install
    if found.verdict == TF1CLIP and found.install:
        return "install: nothing; neither tf1clip nor tf1clip[%s] adds this name" % found.install
    if found.verdict == TF1CLIP:
        return "install: nothing; tf1clip has no such name"
    if found.verdict == TENSORFLOW:
        return "install: nothing, it is part of TensorFlow 2"
    return "install: %s keeps TensorFlow 1.15 (Python 3.7)" % TF115_INSTALL


def successor(path: str) -> str:
    """One clause naming where to go for the contrib ``path`` and how to install it."""
    found = decision(path)
    return "%s (%s)" % (found.successor, install_clause(found))


__all__ = [
    "TF1CLIP",
    "TENSORFLOW",
    "PACKAGE",
    "NONE",
    "VERDICTS",
    "Decision",
    "DECISIONS",
    "GENERIC",
    "TF115_INSTALL",
    "decision",
    "install_clause",
    "successor",
]
