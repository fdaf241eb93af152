"""Every process-wide change tf1clip makes, one record each (no TensorFlow import).

A record (``Change``) has a name, what it changes and why (``summary``), how it is installed, undone and
queried (``how``: a switch's call, a patch of a ``compat`` patch set, an entry of a switch, a hook), the
process state it touches (``touches``: dotted places, ``*`` patterns), the TF 1.15 case or test that proved it
(``proof``), the reads of TensorFlow functions' locals through their stack frames it relies on (``frames``) and,
for a switch tf1clip-upgrade adds, the converter's side (``conversion``: detector, report text, line comment).

tests/unit/test_fidelity.py and tests/subprocess/test_fidelity_undo.py install and undo every record and check
that what it touched is back; a read of a frame's locals anywhere in tf1clip without a ``FrameRead`` here fails
there too. tf1clip-upgrade's added lines and their INFO / WARNING texts come from the switches' conversions.
"""

import ast
import importlib
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from tf1clip.fidelity import _corrections
from tf1clip.fidelity import _detect


class FrameRead(NamedTuple):
    """A read through a stack frame: ``reader`` (the tf1clip function, ``module.function`` or
    ``module.outer.inner``) reads the locals ``names`` of a frame of ``function`` (``module.function`` or
    ``module.Class.method``; the first of several that exists on the installed versions), or with no names only
    takes the frame (of the caller of ``function``)."""

    reader: str
    function: Tuple[str, ...]
    names: Tuple[str, ...]


class Conversion(NamedTuple):
    """The converter's side of a switch: ``detect(tree) -> (subject, node) | None`` finds the first use that needs
    it (the INFO goes at ``node``); ``report`` is that INFO (``%(subject)s``, ``%(call)s``); ``comment`` ends the
    added line; ``warnings(tree) -> [(node, message)]`` are the WARNINGs of what it cannot match."""

    detect: Callable[[ast.AST], Optional[Tuple[str, ast.AST]]]
    report: str
    comment: str
    warnings: Callable[[ast.AST], List[Tuple[ast.AST, str]]] = lambda tree: []


def _module(name):
    return importlib.import_module(name)


class Switch(NamedTuple):
    """A public switch: ``module.call(True)`` installs, ``module.call(False)`` undoes, ``module.query()`` says."""

    module: str
    call: str
    query: str

    def install(self, name: str) -> None:
        getattr(_module(self.module), self.call)(True)

    def undo(self, name: str) -> None:
        getattr(_module(self.module), self.call)(False)

    def installed(self, name: str) -> bool:
        return bool(getattr(_module(self.module), self.query)())


class Patch(NamedTuple):
    """The patch ``patch`` of the patch set ``module.PATCHES``: installed with its set (``apply()``, in order, as
    tf1clip applies it), undone alone (``undo(patch)``)."""

    module: str
    patch: str

    def install(self, name: str) -> None:
        _module(self.module).PATCHES.apply()

    def undo(self, name: str) -> None:
        _module(self.module).PATCHES.undo(self.patch)

    def installed(self, name: str) -> bool:
        return self.patch in _module(self.module).PATCHES.installed()


class Entry:
    """An op-count correction of ``use_tf1_random_seeds`` (``_corrections``): in effect unless undone, while the
    switch is on."""

    def install(self, name: str) -> None:
        _corrections.activate(name.rpartition(".")[2])

    def undo(self, name: str) -> None:
        _corrections.deactivate(name.rpartition(".")[2])

    def installed(self, name: str) -> bool:
        return _corrections.is_active(name.rpartition(".")[2])


class Hook(NamedTuple):
    """``module.install()`` / ``module.undo()`` / ``module.installed()``."""

    module: str

    def install(self, name: str) -> None:
        _module(self.module).install()

    def undo(self, name: str) -> None:
        _module(self.module).undo()

    def installed(self, name: str) -> bool:
        return bool(_module(self.module).installed())


class Change(NamedTuple):
    """One process-wide change (the module docstring says what each field holds)."""

    name: str
    summary: str
    how: Any
    touches: Tuple[str, ...]
    proof: Tuple[str, ...]
    conversion: Optional[Conversion] = None
    frames: Tuple[FrameRead, ...] = ()

    def install(self) -> None:
        """Makes the change (idempotent)."""
        self.how.install(self.name)

    def undo(self) -> None:
        """Restores what the change replaced (idempotent)."""
        self.how.undo(self.name)

    def installed(self) -> bool:
        """Whether the change is in effect."""
        return self.how.installed(self.name)

    def line(self) -> str:
        """The line tf1clip-upgrade adds for a switch."""
        if self.conversion is None:
            raise ValueError("%s is not a switch tf1clip-upgrade adds" % self.name)
        return "tf1clip.%s()  # tf1clip-upgrade: %s" % (self.how.call, self.conversion.comment)


_SEEDS_PROOF = (
    "tests/oracle/test_seeds.py",
    "tests/data/tf115_seeds/make_refs.py",
    "tests/oracle/programs/graph_seed_only.py",
    "tests/oracle/programs/seq2seq_estimator_feed.py",
)
_SEEDS_FRAMES = (
    FrameRead("tf1clip.compat._tf.caller_frame", ("tensorflow.python.framework.random_seed.get_seed",), ()),
    FrameRead(
        "tf1clip.compat._tf.get_seed_call_site",
        ("tensorflow.python.ops.random_ops.random_uniform",),
        ("dtype", "minval_is_zero", "maxval_is_one"),
    ),
    FrameRead("tf1clip.compat._tf.get_seed_call_site", ("tensorflow.python.ops.random_ops.random_gamma",), ()),
    FrameRead("tf1clip.compat._tf.get_seed_call_site", ("tensorflow.python.ops.nn_ops._dropout",), ("is_rate_number",)),
    FrameRead(
        "tf1clip.compat._tf.wrap_convolution.convolution_internal",
        ("tensorflow.python.ops.nn_ops.convolution_internal",),
        (),
    ),
    FrameRead(
        "tf1clip.compat._tf._calling_conv_layer",
        (
            "tf_keras.src.layers.convolutional.base_conv.Conv.convolution_op",
            "keras.src.layers.convolutional.base_conv.Conv.convolution_op",
        ),
        ("self",),
    ),
)

SWITCHES = (
    Change(
        "tf1_random_seeds",
        "Random ops without an op-level seed, in graphs seeded only at the graph level, get TF 1.15's op seeds "
        "(the graph's op count, corrected where TensorFlow 2 builds other ops: the entries below).",
        Switch("tf1clip.fidelity.seeds", "use_tf1_random_seeds", "tf1_random_seeds_enabled"),
        (
            "tensorflow.python.framework.random_seed._graph_to_seed_dict",
            "tensorflow.python.framework.random_seed.get_seed",
            "tensorflow.python.ops.nn_ops.convolution_internal",
        ),
        _SEEDS_PROOF,
        Conversion(
            _detect.graph_seed,
            "%(subject)s sets a graph-level seed: added '%(call)s', which gives random ops without an op-level seed "
            "TF 1.15's op seeds (and so TF 1.15's initial values and dropout masks).",
            "TF 1.15's op seeds for the graph-level seed",
            _detect.seed_warnings,
        ),
        _SEEDS_FRAMES,
    ),
    Change(
        "tf1_shapes",
        "TensorFlow takes a whole-number float as a dimension (``8.0`` is ``8``; ``7.5`` raises TF 1.15's "
        "``ValueError: Ambiguous dimension``), as TF 1.15 did.",
        Switch("tf1clip.fidelity.shapes", "use_tf1_shapes", "tf1_shapes_enabled"),
        ("tensorflow.python.framework.tensor_shape.Dimension.__init__",),
        (
            "tests/unit/test_shapes.py",
            "tests/upgrade/test_upgrade_shapes.py",
            "tests/oracle/programs/seq2seq_estimator_feed.py",
        ),
        Conversion(
            _detect.size_quotient,
            "%(subject)s takes a quotient (/) as an argument: added '%(call)s', with which TensorFlow 2 takes a "
            "whole-number float (num_units / 2 is 8.0 in Python 3) as a size, as TF 1.15 did (docs/upgrade.rst, "
            "'Whole-number floats as sizes').",
            "TF 1.15 took whole-number floats (n / 2) as sizes",
        ),
    ),
)

CORRECTIONS = tuple(
    Change(
        "tf1_random_seeds." + entry.name,
        "%s: %s" % (entry.construct, entry.correction),
        Entry(),
        (),
        tuple("tests/data/tf115_seeds/cases.py::" + case for case in entry.cases),
    )
    for entry in _corrections.CORRECTIONS
)


def _patch(patch_set, name, summary, touches, proof):
    return Change("%s.%s" % (patch_set, name), summary, Patch("tf1clip.compat._" + patch_set, name), touches, proof)


_ESTIMATOR_PROOF = ("tests/subprocess/test_estimator_compat.py", "tests/subprocess/test_estimator.py")
_SLIM_PROOF = ("tests/subprocess/test_slim_compat.py", "tests/subprocess/test_slim_learning.py")
_GAN_PROOF = ("tests/oracle/test_contrib_gan.py",)

PATCHES = (
    _patch(
        "estimator",
        "tf_export_estimator_api",
        "``tf_export.ESTIMATOR_API_NAME`` and its ``API_ATTRS`` / ``API_ATTRS_V1`` entries (removed in TF 2.16), "
        "with TF 2.15's values.",
        (
            "tensorflow.python.util.tf_export.ESTIMATOR_API_NAME",
            "tensorflow.python.util.tf_export.API_ATTRS['estimator']",
            "tensorflow.python.util.tf_export.API_ATTRS_V1['estimator']",
        ),
        _ESTIMATOR_PROOF,
    ),
    _patch(
        "estimator",
        "distribute_estimator_training",
        "``tensorflow.python.distribute.estimator_training`` (removed in TF 2.16), without the distribute coordinator.",
        (
            "sys.modules['tensorflow.python.distribute.estimator_training']",
            "tensorflow.python.distribute.estimator_training",
        ),
        _ESTIMATOR_PROOF,
    ),
    _patch(
        "estimator",
        "tpu_removed_modules",
        "``tensorflow.python.tpu``'s ``tpu_embedding``, ``tpu_embedding_gradient`` and ``session_support`` "
        "(removed in TF 2.16/2.17), as stand-ins that raise ``NotImplementedError`` when used.",
        ("sys.modules['tensorflow.python.tpu.*']", "tensorflow.python.tpu.*"),
        _ESTIMATOR_PROOF,
    ),
    _patch(
        "estimator",
        "legacy_keras",
        "``TF_USE_LEGACY_KERAS=1`` on TF 2.16+ when unset, so that ``tf.keras`` is tf-keras (undo restores the "
        "variable; a ``tf.keras`` already resolved stays tf-keras).",
        ("os.environ['TF_USE_LEGACY_KERAS']",),
        _ESTIMATOR_PROOF,
    ),
    _patch(
        "estimator",
        "session_threads",
        "The Estimator's ``train`` / ``evaluate`` / ``predict`` / exports first give TensorFlow's runtime "
        "``RunConfig(session_config=...)``'s thread counts, as TF 1.x's first Session did.",
        ("tensorflow_estimator.python.estimator.estimator.Estimator.*",),
        ("tests/subprocess/test_estimator_threads.py",) + _ESTIMATOR_PROOF,
    ),
    _patch(
        "slim",
        "moved_tf_symbols",
        "tf-slim's modules see ``ops.Tensor``, ``ops.IndexedSlices``, ``array_ops.stack`` / ``unstack``, "
        "``control_flow_ops.cond`` / ``case`` / ``while_loop`` / ``Assert`` and ``variable_scope.variable`` "
        "again (module stand-ins in their globals).",
        ("tf_slim.*",),
        _SLIM_PROOF,
    ),
    _patch(
        "slim",
        "batch_norm_legacy_layer",
        "``slim.batch_norm`` finds the v1 ``BatchNormalization`` layer in tf-keras.",
        ("tf_slim.layers.layers.normalization_layers",),
        _SLIM_PROOF,
    ),
    _patch(
        "slim",
        "supervisor_threads_graph_mode",
        "``slim.learning.train``'s ``Supervisor`` runs its service threads in its graph and ends its sync chief "
        "queue runners at ``stop``.",
        ("tf_slim.learning.supervisor",),
        _SLIM_PROOF,
    ),
    _patch(
        "gan",
        "estimator_namespace",
        "On a TensorFlow without ``tf.estimator`` (2.16+), TF-GAN's modules, loaded afterwards, get a ``tf`` "
        "whose ``estimator`` is a stand-in.",
        ("tf1clip.compat._gan._estimator_patched",),
        _GAN_PROOF,
    ),
    _patch(
        "gan",
        "lazy_hub_and_probability",
        "TF-GAN is imported through tf1clip's loader: its ``tensorflow_hub`` and ``tensorflow_probability`` "
        "imports are deferred to first use (undo removes its modules from ``sys.modules``).",
        ("sys.modules['tensorflow_gan*']",),
        _GAN_PROOF,
    ),
    _patch(
        "gan",
        "inspect_getargspec",
        "TF-GAN's modules get an ``inspect`` with ``getargspec`` (Python 3.11 removed it).",
        ("tensorflow_gan.*.inspect", "tensorflow_gan.inspect"),
        _GAN_PROOF,
    ),
)

HOOKS = (
    Change(
        "install_hint_excepthook",
        "Where TensorFlow is missing or too old, ``sys.excepthook`` prints tf1clip's install hint before the "
        "traceback of the uncaught ``ImportError``.",
        Hook("tf1clip.compat._excepthook"),
        ("sys.excepthook",),
        ("tests/subprocess/test_package.py",),
    ),
)

CHANGES = SWITCHES + CORRECTIONS + PATCHES + HOOKS
_BY_NAME = dict((change.name, change) for change in CHANGES)


def change(name: str) -> Change:
    """The record named ``name``."""
    if name not in _BY_NAME:
        raise ValueError("no process-wide change named %r (tf1clip.fidelity.CHANGES)" % (name,))
    return _BY_NAME[name]
