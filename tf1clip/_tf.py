"""Imports TensorFlow once, with a clear message when it is missing or too old."""

MIN_TF_VERSION = (2, 15)

_INSTALL_HINT = (
    "Install a CPU build with: python3 -m pip install 'tensorflow-cpu>=%d.%d' "
    "(or, in a tf1clip checkout: python3 -m pip install '.[cpu]'); "
    "Estimator code needs TensorFlow 2.15 with tensorflow-estimator 2.15 (the 'estimator' extra)." % MIN_TF_VERSION
)

try:
    import tensorflow as tf
except ImportError as err:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "tf1clip needs TensorFlow >= %d.%d, which is not installed (%s). %s" % (MIN_TF_VERSION + (err, _INSTALL_HINT))
    ) from err


def _version_tuple(version):
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


if _version_tuple(tf.__version__) < MIN_TF_VERSION:  # pragma: no cover
    raise ImportError(
        "tf1clip needs TensorFlow >= %d.%d; found %s. %s" % (MIN_TF_VERSION + (tf.__version__, _INSTALL_HINT))
    )


# --- Non-public TensorFlow symbols (the only place tf1clip reaches them) -------------
# Each entry: what it is for, the TF versions it was checked on, the public API that
# would replace it. tests/test_tf_internals.py resolves every entry in PRIVATE_NAMES.


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
    on TF 2.15, 2.16, 2.21 (tests/test_partitioned.py builds partitioned variables on
    each). Public replacement: none in ``tf.compat.v1``.
    """
    return getattr(var, "_save_slice_info", None)


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
    ("tensorflow.compat.v1.train.Optimizer", "_zeros_slot"),
    ("tensorflow.compat.v1.train.Optimizer", "_get_or_make_slot"),
    ("tensorflow.compat.v1.train.Optimizer", "_create_non_slot_variable"),
    ("tensorflow.compat.v1.train.Optimizer", "_get_non_slot_variable"),
    ("tensorflow.compat.v1.train.AdamOptimizer", "_get_beta_accumulators"),
]

__all__ = ["tf", "MIN_TF_VERSION"]
