"""Imports TensorFlow once, with a clear message when it is missing or too old, and is the only
place tf1clip reaches TensorFlow's non-public names (listed in ``PRIVATE_NAMES`` and
``PRIVATE_INSTANCE_ATTRIBUTES``; tests/unit/test_tf_internals.py resolves them all)."""

from tf1clip.compat._excepthook import unavailable as _unavailable

MIN_TF_VERSION = (2, 15)

_INSTALL_HINT = (
    "Install a CPU build with: python3 -m pip install 'tensorflow-cpu>=%d.%d' "
    "(or, in a tf1clip checkout: python3 -m pip install '.[cpu]'); "
    "Estimator code also needs tensorflow-estimator 2.15 (the 'estimator' extra; tf1clip.estimator)." % MIN_TF_VERSION
)


try:
    import tensorflow as tf
except ImportError as err:  # pragma: no cover - exercised in a subprocess test
    raise _unavailable(
        "tf1clip needs TensorFlow >= %d.%d, which is not installed (%s). %s" % (MIN_TF_VERSION + (err, _INSTALL_HINT))
    ) from None


def version_tuple(version):
    """``(major, minor)`` of a version string (``"2.21.0rc1"`` -> ``(2, 21)``)."""
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


if version_tuple(tf.__version__) < MIN_TF_VERSION:  # pragma: no cover
    raise _unavailable(
        "tf1clip needs TensorFlow >= %d.%d; found %s. %s" % (MIN_TF_VERSION + (tf.__version__, _INSTALL_HINT))
    )


def protobuf_mismatch(tf_version, protobuf_version):
    """The warning for a TensorFlow/protobuf pair known to break TF 1 training code, or ``None``.

    TensorFlow 2.20 accepts any protobuf >= 5.28, but its ``write_graph`` (used by ``Supervisor``,
    ``slim.learning.train``, ``training.train`` and Estimators) passes ``float_format``, which protobuf 7
    removed.
    """
    if version_tuple(tf_version) == (2, 20) and version_tuple(protobuf_version) >= (7, 0):
        return (
            "TensorFlow 2.20 with protobuf %s: tf.io.write_graph (Supervisor, slim.learning.train, "
            'training.train, Estimators) fails with "MessageToString() got an unexpected keyword argument '
            "'float_format'\". Install protobuf < 7: python3 -m pip install 'protobuf<7'." % protobuf_version
        )
    return None


def _warn_protobuf_mismatch():
    import warnings

    from google import protobuf

    message = protobuf_mismatch(tf.__version__, protobuf.__version__)
    if message:
        warnings.warn(message, RuntimeWarning, stacklevel=3)


_warn_protobuf_mismatch()


# --- Non-public TensorFlow symbols (the only place tf1clip reaches them) -------------
# Each entry: what it is for, the TF versions it was checked on, the public API that
# would replace it. tests/unit/test_tf_internals.py resolves every entry in PRIVATE_NAMES.


def lso_is_dynamic(optimizer):
    """Whether a v1 ``MixedPrecisionLossScaleOptimizer`` uses a dynamic loss scale.

    ``_doing_dynamic_loss_scaling``: checked on TF 2.15, 2.16, 2.21. Public
    replacement: none for the v1 optimizer (Keras' ``LossScaleOptimizer.dynamic``
    is the v2 equivalent).
    """
    return optimizer._doing_dynamic_loss_scaling()


def is_ref_dtype(dtype):
    """True for a reference dtype (``float32_ref``: a ``disable_resource_variables`` graph).

    ``DType._is_ref_dtype``: checked on TF 2.15, 2.16, 2.21. Public replacement:
    none (``dtype.base_dtype != dtype`` says the same).
    """
    return dtype._is_ref_dtype


# Trackable hooks a delegating optimizer forwards so that object-based
# checkpoints see the wrapped optimizer's dependencies: checked on TF 2.15,
# 2.16, 2.21. Public replacement: none (tf.train.Checkpoint offers no
# delegation; a wrapper must present the wrapped object's children itself).
def trackable_children(obj, *args, **kwargs):
    return obj._trackable_children(*args, **kwargs)


def lookup_dependency(obj, name, *args, **kwargs):
    return obj._lookup_dependency(name, *args, **kwargs)


def deferred_dependencies(obj):
    obj._maybe_initialize_trackable()
    return obj._deferred_dependencies


def create_or_restore_slot_variable(optimizer, *args, **kwargs):
    return optimizer._create_or_restore_slot_variable(*args, **kwargs)


def restore_slot_variable(optimizer, *args, **kwargs):
    return optimizer._restore_slot_variable(*args, **kwargs)


def handle_deferred_dependencies(obj, name, trackable):
    """Restores ``trackable`` from a pending ``tf.train.Checkpoint`` restore of ``obj``."""
    return obj._handle_deferred_dependencies(name=name, trackable=trackable)


def save_slice_info(var):
    """The ``SaveSliceInfo`` of a partition of a ``PartitionedVariable`` (else None).

    ``Variable._save_slice_info``, an instance attribute set on each partition: checked
    on TF 2.15, 2.16, 2.21 (tests/unit/test_partitioned.py builds partitioned variables on
    each). Public replacement: none in ``tf.compat.v1``.
    """
    return getattr(var, "_save_slice_info", None)


# tf.compat.v1.mixed_precision's loss scales (tf1clip.contrib.mixed_precision subclasses DynamicLossScale
# with contrib's update rule). Checked on TF 2.15, 2.16, 2.18, 2.21. Public replacement: none (a
# v1 MixedPrecisionLossScaleOptimizer updates, and skips steps for, only a DynamicLossScale).


def init_loss_scale_base(loss_scale):
    """Runs ``LossScale.__init__`` on a ``DynamicLossScale`` subclass instance, skipping
    ``DynamicLossScale.__init__`` (which makes variables the subclass does not use)."""
    tf.compat.v1.mixed_precision.LossScale.__init__(loss_scale)


def add_loss_scale_weight(loss_scale, name, initial_value, dtype):
    """``LossScale._add_weight``: a variable tracked by the loss scale (and its checkpoints)."""
    return loss_scale._add_weight(name, initial_value, dtype)


def set_dynamic_loss_scale_config(loss_scale, initial_loss_scale, increment_period, multiplier):
    """Sets the attributes behind ``DynamicLossScale``'s ``initial_loss_scale``,
    ``increment_period`` and ``multiplier`` properties."""
    loss_scale._initial_loss_scale = float(initial_loss_scale)
    loss_scale._increment_period = int(increment_period)
    loss_scale._multiplier = float(multiplier)


# tf.compat.v1.train.Supervisor's coordinator, replaced so that its service threads build in its graph
# (tf1clip.compat._slim). Checked on TF 2.15, 2.16, 2.18, 2.21. Public replacement: none
# (``Supervisor.coord`` is read-only; the constructor takes no coordinator).


def supervisor_graph(supervisor):
    """``Supervisor._graph``: the graph the supervisor was built in."""
    return supervisor._graph


def set_supervisor_coordinator(supervisor, coordinator):
    """Sets ``Supervisor._coord``, the coordinator behind ``Supervisor.coord``."""
    supervisor._coord = coordinator


def sync_replicas_local_step(sync_optimizer):
    """``SyncReplicasOptimizer._local_step``: the worker's local step, the global step its next gradient is for.

    Made by ``apply_gradients`` (``None`` before); ``tf1clip.contrib.slim.learning.train``
    logs by it. Checked on TF 2.15, 2.21. Public replacement: none (a local
    variable named ``sync_rep_local_step``, found only by name).
    """
    return getattr(sync_optimizer, "_local_step", None)


# tensorflow.tools.compatibility: the package behind TensorFlow's tf_upgrade_v2 script, which
# tf1clip-upgrade runs. Not public API; shipped in every TF 2 wheel. Checked on TF 2.15, 2.16, 2.18,
# 2.21. Public replacement: none (it would be a copy of the tf_upgrade_v2 rules).


def upgrade_modules():
    """``(ast_edits, ipynb, tf_upgrade_v2, tf_upgrade_v2_safety)`` from ``tensorflow.tools.compatibility``."""
    from tensorflow.tools.compatibility import ast_edits
    from tensorflow.tools.compatibility import ipynb
    from tensorflow.tools.compatibility import tf_upgrade_v2
    from tensorflow.tools.compatibility import tf_upgrade_v2_safety

    return ast_edits, ipynb, tf_upgrade_v2, tf_upgrade_v2_safety


def pasta_edit_visitor(spec):
    """``ast_edits._PastaEditVisitor(spec)``: tf_upgrade_v2's rewriting pass over a pasta tree."""
    from tensorflow.tools.compatibility import ast_edits

    return ast_edits._PastaEditVisitor(spec)


# (object or class path, attribute) for every private name above that an object or class has.
def optimizer_update_method(optimizer, name):
    """A v1 optimizer's per-variable update method ``name`` (``_apply_dense``, ``_resource_apply_sparse``, ...).

    tf1clip.contrib.opt.MultitaskOptimizerWrapper wraps them during its
    ``apply_gradients``, as contrib did. Checked on TF 2.15, 2.16, 2.21. Public
    replacement: none (they are the v1 ``Optimizer`` subclass API).
    """
    return getattr(optimizer, name)


def optimizer_learning_rate(optimizer):
    """The learning rate a v1 optimizer was constructed with (``None`` if it has none).

    ElasticAverageOptimizer's default ``rho`` (TF 1.15: ``moving_rate / opt._learning_rate``,
    an ``AttributeError`` for Adam, whose attribute is ``_lr``). Instance attributes
    ``_learning_rate`` (GradientDescent, Momentum, Adagrad, RMSProp, ...) or ``_lr``
    (Adam): checked on TF 2.15, 2.16, 2.21 (tests/unit/test_tf_internals.py). Public
    replacement: none.
    """
    for name in ("_learning_rate", "_lr"):
        if hasattr(optimizer, name):
            return getattr(optimizer, name)
    return None


def tf_export_module():
    """``tensorflow.python.util.tf_export``: tensorflow-estimator's ``estimator_export`` builds on its
    ``api_export``, ``API_ATTRS``, ``API_ATTRS_V1`` and ``TENSORFLOW_API_NAME``; TF 2.15 also had
    ``ESTIMATOR_API_NAME``, which tf1clip.estimator adds back on 2.16+ (``tf1clip.compat._estimator``). Checked on
    TF 2.15, 2.16, 2.21. Public replacement: none (TensorFlow's API-export machinery).
    """
    from tensorflow.python.util import tf_export

    return tf_export


def lookup_ops():
    """``tensorflow.python.ops.lookup_ops``: the v1 table functions and classes TF 1.15's ``tf.contrib.lookup``
    re-exported (``index_table_from_file``, ``IdTableWithHashBuckets``, ``FastHashSpec``, ...), which TF 2 keeps
    but no longer exports. Checked on TF 2.15, 2.16, 2.21. Public replacement: ``tf.lookup.StaticHashTable`` /
    ``StaticVocabularyTable`` (other signatures and semantics).
    """
    from tensorflow.python.ops import lookup_ops as module

    return module


def parse_saved_model(export_dir):
    """``loader_impl.parse_saved_model``: the ``SavedModel`` proto of ``export_dir`` (``saved_model.pb`` or
    ``.pbtxt``; ``OSError`` when neither exists), as TF 1.15's ``tf.contrib.saved_model`` reader read it for
    ``tf.contrib.predictor``. Checked on TF 2.15, 2.16, 2.21. Public replacement: none (``tf.saved_model.load``
    loads the model, it does not return its MetaGraphDefs).
    """
    from tensorflow.python.saved_model import loader_impl

    return loader_impl.parse_saved_model(export_dir)


def broadcast_weights(weights, values):
    """``weights_broadcast_ops.broadcast_weights``: ``weights`` times ``ones_like(values)`` after TF's
    broadcastability assertion (``weights`` itself when the static shapes already match), which TF 1.15's
    ``tf.contrib.learn`` heads applied to example weights. Checked on TF 2.15, 2.16, 2.21. Public replacement:
    none (``tf.broadcast_to`` makes other ops and asserts nothing).
    """
    from tensorflow.python.ops import weights_broadcast_ops

    return weights_broadcast_ops.broadcast_weights(weights, values)


# The v1 Optimizer's subclassing protocol, used by tf1clip.contrib.opt's optimizers
# (subclasses of tf.compat.v1.train.Optimizer, as contrib's were): checked on TF 2.15,
# 2.16, 2.21. Public replacement: none for v1 optimizers (Keras optimizers have
# add_variable_from_reference, but they are not v1 optimizers).
def zeros_slot(optimizer, var, slot_name, op_name):
    return optimizer._zeros_slot(var, slot_name, op_name)


def get_or_make_slot(optimizer, var, val, slot_name, op_name):
    return optimizer._get_or_make_slot(var, val, slot_name, op_name)


def create_non_slot_variable(optimizer, initial_value, name, colocate_with):
    return optimizer._create_non_slot_variable(initial_value=initial_value, name=name, colocate_with=colocate_with)


def get_non_slot_variable(optimizer, name, graph=None):
    return optimizer._get_non_slot_variable(name, graph=graph)


def adam_beta_powers(optimizer):
    """``(beta1_power, beta2_power)`` of a v1 ``AdamOptimizer`` (its non-slot variables)."""
    return optimizer._get_beta_accumulators()


# The TF 1.15 fidelity switches (tf1clip/fidelity/: seeds.py, shapes.py), whose records in
# tf1clip/fidelity/_registry.py name every place below they change and every frame read (FrameRead).
# ``random_seed._graph_to_seed_dict`` is the per-graph counter TF 2's ``get_seed`` numbers op seeds by; the frame
# readers name the TF 2 functions that call ``get_seed`` and their locals. Checked on TF 2.15, 2.16, 2.21
# (random_seed.py, random_ops.random_uniform and nn_ops._dropout are the same in all three; tests/unit/
# test_fidelity.py finds each read function and local in the installed sources). Public replacement: none
# (``tf.random.set_seed`` keeps TF 2's numbering).


def graph_seed_counter():
    """``random_seed._graph_to_seed_dict``: ``get_seed``'s per-graph op seed counter (``setdefault``, ``+= 1``)."""
    from tensorflow.python.framework import random_seed

    return random_seed._graph_to_seed_dict


def set_graph_seed_counter(counter):
    """Makes ``get_seed`` draw graph op seeds from ``counter`` (a mapping with ``setdefault``)."""
    from tensorflow.python.framework import random_seed

    random_seed._graph_to_seed_dict = counter


def wrap_dimension_init(make_wrapper):
    """Replaces ``tf.compat.v1.Dimension.__init__`` (TF 2's ``tensor_shape.Dimension``, which every ``TensorShape``
    dimension goes through) with ``make_wrapper(original)``; returns a function restoring the original. Public
    class, checked on TF 2.15, 2.16, 2.21 (``__init__(self, value)``)."""
    dimension = tf.compat.v1.Dimension
    original = dimension.__dict__["__init__"]
    dimension.__init__ = make_wrapper(original)

    def restore():
        dimension.__init__ = original

    return restore


def _frame_in(frame, name, filename):
    code = frame.f_code
    return code.co_name == name and code.co_filename.replace("\\", "/").endswith(filename)


def get_seed_call_site(caller):
    """What calls TF 2's ``random_seed.get_seed`` from the frame ``caller``, as a dict, or None.

    ``{"op": "random_uniform", "default_range": ..., "zero_min": ..., "integer": ..., "dropout_rate_is_number":
    None | bool}``: a ``random_ops.random_uniform`` call, made (or not) by ``nn_ops._dropout``;
    ``{"op": "random_gamma"}``: a ``random_ops.random_gamma`` call.
    """
    if caller is not None and _frame_in(caller, "random_gamma", "ops/random_ops.py"):
        return {"op": "random_gamma"}
    if caller is None or not _frame_in(caller, "random_uniform", "ops/random_ops.py"):
        return None
    local = caller.f_locals
    site = {
        "op": "random_uniform",
        "integer": bool(local["dtype"].is_integer),
        "zero_min": bool(local.get("minval_is_zero")),
        "default_range": bool(local.get("minval_is_zero")) and bool(local.get("maxval_is_one")),
        "dropout_rate_is_number": None,
    }
    outer = caller.f_back
    for _ in range(4):
        if outer is None:
            break
        if _frame_in(outer, "_dropout", "ops/nn_ops.py"):
            site["dropout_rate_is_number"] = bool(outer.f_locals["is_rate_number"])
            break
        outer = outer.f_back
    return site


def wrap_get_seed(make_wrapper):
    """Replaces ``random_seed.get_seed`` with ``make_wrapper(original)``; returns the undo function.

    TensorFlow's random ops and initializers look ``get_seed`` up in ``random_seed`` at each call.
    """
    from tensorflow.python.framework import random_seed

    original = random_seed.get_seed
    random_seed.get_seed = make_wrapper(original)

    def undo():
        random_seed.get_seed = original

    return undo


def _calling_conv_layer(frame):
    """The Keras convolution layer whose ``convolution_op`` method (or its autograph conversion, which TF 2.15's
    ``tf.compat.v1.layers`` call in graph mode) is among the 8 frames from ``frame``, or None."""
    for _ in range(8):
        if frame is None:
            return None
        converted = frame.f_code.co_name == "tf__convolution_op"
        if converted or _frame_in(frame, "convolution_op", "layers/convolutional/base_conv.py"):
            layer = frame.f_locals.get("self")
            return layer if hasattr(layer, "dilation_rate") else None
        frame = frame.f_back
    return None


def wrap_convolution(before_call):
    """Makes ``nn_ops.convolution_internal`` call ``before_call(dilations, layer)`` first; returns the undo function.

    ``tf.nn.convolution`` (v1 and v2), and through it the Keras / ``tf.compat.v1.layers`` and tf-slim
    convolution layers, look the function up in ``nn_ops`` at each call; ``tf.nn.conv2d`` does not use it.
    ``layer``: the Keras convolution layer (tf-keras / Keras 2 ``convolution_op``) making the call, or None.
    """
    import sys

    from tensorflow.python.ops import nn_ops

    original = nn_ops.convolution_internal

    def convolution_internal(*args, **kwargs):
        layer = _calling_conv_layer(sys._getframe(1))
        before_call(kwargs.get("dilations", args[5] if len(args) > 5 else None), layer)
        return original(*args, **kwargs)

    nn_ops.convolution_internal = convolution_internal

    def undo():
        nn_ops.convolution_internal = original

    return undo


def caller_frame(depth):
    """The frame ``depth`` levels above the caller of this function."""
    import sys

    return sys._getframe(depth + 1)


def control_flow_contexts(graph=None):
    """``(in_while_loop, in_xla)`` for the v1 control-flow context ops are being built in now.

    tf1clip.contrib.seq2seq.dynamic_decode reads it as TF 1.15 did (``Graph._get_control_flow_context`` and
    ``control_flow_util``'s ``GetContainingWhileContext``/``GetContainingXLAContext``). Checked on TF 2.15, 2.21.
    Public replacement: none.
    """
    from tensorflow.python.ops import control_flow_util

    ctxt = (graph or tf.compat.v1.get_default_graph())._get_control_flow_context()
    return (
        control_flow_util.GetContainingWhileContext(ctxt) is not None,
        control_flow_util.GetContainingXLAContext(ctxt) is not None,
    )


def saveable_classes():
    """``(SaveableObject, SaveSpec)``: what a ``tf.compat.v1.train.Saver`` saves besides variables.

    ``tensorflow.python.training.saving.saveable_object``: checked on TF 2.15, 2.21 (the v1 ``Saver`` still
    saves the ``SAVEABLE_OBJECTS`` collection). Public replacement: none for ``tf.compat.v1`` graphs.
    """
    from tensorflow.python.training.saving import saveable_object

    return saveable_object.SaveableObject, saveable_object.SaveSpec


def op_is_stateful(op_type):
    """Whether the registered op ``op_type`` is stateful (``CompiledWrapper`` keeps those out of XLA)."""
    from tensorflow.python.framework import op_def_registry

    op_def = op_def_registry.get(op_type)
    return op_def is not None and op_def.is_stateful


def update_op_input(op, index, tensor):
    """Makes input ``index`` of the graph op ``op`` read ``tensor`` (a graph rewrite, in place).

    ``Operation._update_input``: tf1clip.contrib.quantize reroutes consumers to the fake-quant ops it inserts, as
    TF 1.15's ``contrib/quantize`` did. Checked on TF 2.15, 2.21. Public replacement: none (graph editing left
    TensorFlow with ``tf.contrib.graph_editor``).
    """
    op._update_input(index, tensor)


def set_op_attr(op, name, attr_value):
    """Sets the attribute ``name`` of the graph op ``op`` to the ``AttrValue`` ``attr_value``, in place.

    ``Operation._set_attr``: tf1clip.contrib.quantize gives a folded batch norm TF 1.15's gradient
    (``_gradient_op_type``) after the op exists. Checked on TF 2.15, 2.21. Public replacement:
    ``Graph.gradient_override_map``, which acts only on ops created inside it.
    """
    op._set_attr(name, attr_value)


# (object or class path, attribute) for every private name above.
PRIVATE_NAMES = [
    ("tensorflow.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer", "_doing_dynamic_loss_scaling"),
    ("tensorflow.dtypes.DType", "_is_ref_dtype"),
    ("tensorflow.compat.v1.train.Optimizer", "_trackable_children"),
    ("tensorflow.compat.v1.train.Optimizer", "_lookup_dependency"),
    ("tensorflow.compat.v1.train.Optimizer", "_maybe_initialize_trackable"),
    ("tensorflow.compat.v1.train.Optimizer", "_deferred_dependencies"),
    ("tensorflow.compat.v1.train.Optimizer", "_create_or_restore_slot_variable"),
    ("tensorflow.compat.v1.train.Optimizer", "_restore_slot_variable"),
    ("tensorflow.compat.v1.train.Optimizer", "_handle_deferred_dependencies"),
    ("tensorflow.compat.v1.mixed_precision.LossScale", "_add_weight"),
    ("tensorflow.tools.compatibility.ast_edits", "_PastaEditVisitor"),
    ("tensorflow.compat.v1.train.Optimizer", "_apply_dense"),
    ("tensorflow.compat.v1.train.Optimizer", "_resource_apply_dense"),
    ("tensorflow.compat.v1.train.Optimizer", "_apply_sparse"),
    ("tensorflow.compat.v1.train.Optimizer", "_resource_apply_sparse"),
    ("tensorflow.python.util.tf_export", "api_export"),
    ("tensorflow.python.util.tf_export", "API_ATTRS"),
    ("tensorflow.python.util.tf_export", "API_ATTRS_V1"),
    ("tensorflow.python.util.tf_export", "TENSORFLOW_API_NAME"),
    ("tensorflow.compat.v1.train.Optimizer", "_zeros_slot"),
    ("tensorflow.compat.v1.train.Optimizer", "_get_or_make_slot"),
    ("tensorflow.compat.v1.train.Optimizer", "_create_non_slot_variable"),
    ("tensorflow.compat.v1.train.Optimizer", "_get_non_slot_variable"),
    ("tensorflow.compat.v1.train.AdamOptimizer", "_get_beta_accumulators"),
    ("tensorflow.python.framework.random_seed", "_graph_to_seed_dict"),
    ("tensorflow.python.ops.nn_ops", "convolution_internal"),
    ("tensorflow.python.framework.random_seed", "get_seed"),
    ("tensorflow.Graph", "_get_control_flow_context"),
    ("tensorflow.python.ops.control_flow_util", "GetContainingWhileContext"),
    ("tensorflow.python.ops.control_flow_util", "GetContainingXLAContext"),
    ("tensorflow.python.training.saving.saveable_object", "SaveableObject"),
    ("tensorflow.python.training.saving.saveable_object", "SaveSpec"),
    ("tensorflow.python.ops.lookup_ops", "index_table_from_file"),
    ("tensorflow.python.ops.lookup_ops", "index_table_from_tensor"),
    ("tensorflow.python.ops.lookup_ops", "index_to_string_table_from_file"),
    ("tensorflow.python.ops.lookup_ops", "index_to_string_table_from_tensor"),
    ("tensorflow.python.ops.lookup_ops", "IdTableWithHashBuckets"),
    ("tensorflow.python.ops.lookup_ops", "FastHashSpec"),
    ("tensorflow.python.framework.op_def_registry", "get"),
    ("tensorflow.python.ops.weights_broadcast_ops", "broadcast_weights"),
    ("tensorflow.python.saved_model.loader_impl", "parse_saved_model"),
    ("tensorflow.Operation", "_update_input"),
    ("tensorflow.Operation", "_set_attr"),
]

# (class path, attribute) for the private attributes that instances get in ``__init__``.
PRIVATE_INSTANCE_ATTRIBUTES = [
    ("tensorflow.compat.v1.mixed_precision.DynamicLossScale", "_initial_loss_scale"),
    ("tensorflow.compat.v1.mixed_precision.DynamicLossScale", "_increment_period"),
    ("tensorflow.compat.v1.mixed_precision.DynamicLossScale", "_multiplier"),
    ("tensorflow.compat.v1.train.Supervisor", "_graph"),
    ("tensorflow.compat.v1.train.Supervisor", "_coord"),
    ("tensorflow.compat.v1.train.SyncReplicasOptimizer", "_local_step"),
]

__all__ = ["tf", "MIN_TF_VERSION", "version_tuple", "protobuf_mismatch"]
