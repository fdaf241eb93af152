"""Contrib names whose TF 1.15 object was a core TensorFlow name, TF 1.0-1.4 module paths, and
``tf.contrib.distribute``'s strategies (rules of the registry; imports TensorFlow's converter).

* An alias (``tf.contrib.distributions.Normal`` was ``tf.distributions.Normal``; ``tf.contrib.keras.layers.Dense``
  was ``tf.keras.layers.Dense``; ``tf.contrib.framework.nest.flatten`` was ``tf.nest.flatten``), recorded in
  ``_tf115_contrib`` by running TF 1.15, becomes that core name, which tf_upgrade_v2's rules then convert as in any
  TF 1 program; when the core name's TF 2 spelling does not resolve in the installed TensorFlow, its
  ``tf.compat.v1`` form is used, and when neither does, the name stays an ERROR (``_decisions``).
* A TF 1.0-1.4 module path (``tf.contrib.rnn.core_rnn_cell.BasicLSTMCell``,
  ``from tensorflow.contrib.rnn.python.ops.core_rnn_cell_impl import LSTMCell``) is respelled as the TF 1.15 module
  its names moved to (``_contrib_names.HISTORICAL_MODULES``) before the other rules run.
* ``tf.contrib.distribute.MirroredStrategy(num_gpus=N)`` becomes ``tf.compat.v1.distribute.MirroredStrategy`` with
  the device list TF 1.15 built for ``N`` (``/device:GPU:0`` ... ``GPU:N-1``; ``/device:CPU:0`` for 0), and
  ``OneDeviceStrategy`` the ``tf.compat.v1`` class: TF 1.15's contrib strategies were the v1 strategies (``StrategyV1``:
  ``make_dataset_iterator``, ``experimental_run``), which ``tf.compat.v1.distribute`` keeps.
"""

import ast
import functools

from tf1clip.upgrade import _contrib_names
from tf1clip.upgrade._astutil import chains
from tf1clip.upgrade._astutil import collect_aliases
from tf1clip.upgrade._astutil import parents
from tf1clip.upgrade._astutil import resolve
from tf1clip.upgrade._engine import pasta
from tf1clip.upgrade._routes import contrib_error
from tf1clip.upgrade._rules_imports import defer_binding
from tf1clip.upgrade._tables import DECLINED
from tf1clip.upgrade._tables import ERROR
from tf1clip.upgrade._tables import INFO


@functools.lru_cache(maxsize=None)
def resolves(path):
    """Whether the dotted ``tf.*`` ``path`` names something in the installed TensorFlow."""
    from tf1clip.compat import _tf  # the converter has imported TensorFlow by now

    value = _tf.tf
    for part in path.split(".")[1:]:
        try:
            value = getattr(value, part)
        except AttributeError as e:  # tf.compat.v1.layers and nn.rnn_cell names resolve under Keras 2 only
            return _KERAS2_ONLY in str(e)
        except Exception:  # a lazy module that fails to load does not resolve
            return False
    return True


_KERAS2_ONLY = "is not available with Keras 3"
"""TF 2.16+'s message for a ``tf.compat.v1`` Keras-2 name under Keras 3: converted code that names one gets
``TF_USE_LEGACY_KERAS=1`` (``_fixes``), under which it resolves."""


def tf2_spelling(spec, core):
    """How converted code spells the TF 1.15 core name ``core``: ``core`` itself when its TF 2 form (what the
    change ``spec`` renames it to, or itself) resolves, else its ``tf.compat.v1`` form when that resolves, else
    None."""
    renamed = spec.symbol_renames.get(core, core)
    if resolves(renamed):
        return core
    v1 = core if core.startswith("tf.compat.v1.") else "tf.compat.v1." + core[len("tf.") :]
    return v1 if resolves(v1) else None


def alias_target(chain):
    """The core name replacing the contrib name of ``chain`` (see :func:`tf2_spelling`), or None: the listing's
    preferred core path (``tf.*`` before ``tf.compat.v1.*``, fewer parts first), one with the contrib name's own last
    part first (``tf.keras.losses.mean_squared_error``, not its alias ``MSE``)."""
    found = _contrib_names.entry(chain.path)
    if found is None or found.kind == "module" or not found.core:
        return None
    for core in sorted(found.core, key=lambda p: (p.startswith("tf.compat."), not p.endswith("." + found.name))):
        spelled = tf2_spelling(chain.edits.spec, core)
        if spelled is not None:
            return spelled
    return None


def renamed_to_nothing(chain):
    """A contrib name that tf_upgrade_v2 renames to a name the installed TensorFlow lacks (TF 2.16+ dropped
    ``tf.distribute.cluster_resolver.UnionClusterResolver``, ``tf.data.experimental.CheckpointInputPipelineHook``)."""
    renamed = chain.edits.spec.symbol_renames.get(chain.path)
    return renamed is not None and renamed.startswith("tf.") and not resolves(renamed)


def instead_of_missing(chain):
    """The listing's core name where one resolves, else the contrib name's ERROR (``_decisions``); either way
    tf_upgrade_v2's rename is dropped (its target is missing from this process's TensorFlow, for every file)."""
    renamed = chain.edits.spec.symbol_renames.pop(chain.path)
    if alias_target(chain) is not None:
        from_listing(chain)
        return
    chain.edits.count_unconverted(chain.name.split(".")[0])
    chain.edits.add(
        ERROR,
        chain.node,
        contrib_error(chain.name, chain.path).rstrip(".")
        + "; tf_upgrade_v2's name for it, %s, is not in this TensorFlow." % renamed,
    )


def is_listed(chain):
    """A contrib name whose TF 1.15 object was a core name (:func:`alias_target`), or a contrib module of the listing
    some of whose names were (``tf.contrib.keras.layers``)."""
    found = _contrib_names.entry(chain.path)
    if found is not None and found.kind == "module":
        return _has_aliases(_contrib_names.listed_module(chain.path))
    return alias_target(chain) is not None


@functools.lru_cache(maxsize=None)
def _has_aliases(module):
    """Whether some name of the listed contrib ``module`` was a core TF 1.15 name (its uses may all convert)."""
    return module is not None and any(core for _, core in _contrib_names.modules().get(module, {}).values())


def from_listing(chain):
    """Rewrites what :func:`is_listed` accepts: the core name, or ``alias = <the module>``
    (``layers = tf.contrib.keras.layers``) deferred until its uses are known; declined for another use of the
    module."""
    target = alias_target(chain)
    if target is None:
        return None if defer_binding(chain.edits, chain.node, chain.parent) else DECLINED
    chain.edits.replace(chain.parent, chain.node, target, "(the same object in TF 1.15)")


# --- TF 1.0-1.4 module paths ----------------------------------------------------------------------------------


def _modern_module(module):
    """``tensorflow.contrib...`` module ``module`` respelled as TF 1.15 has it, or None when it is not historical."""
    if not module.startswith("tensorflow."):
        return None
    path = "tf" + module[len("tensorflow") :]
    modern = _contrib_names.modern(path)
    return None if modern == path else "tensorflow" + modern[len("tf") :]


def _modernize_import(edits, node):
    for alias in node.names:
        modern = _modern_module(alias.name)
        if modern is not None and alias.asname:
            edits.add(INFO, node, "Changed import of %r to %r (its TF 1.15 module)" % (alias.name, modern))
            alias.name = modern


def _modernize_import_from(edits, node):
    if node.level or not node.module:
        return
    modern = _modern_module(node.module)
    if modern is not None:
        edits.add(
            INFO, node, "Changed 'from %s import' to 'from %s import' (its TF 1.15 module)" % (node.module, modern)
        )
        node.module = modern
        return
    alias = node.names[0]  # ``from tensorflow.contrib.rnn.python.ops import core_rnn_cell_impl [as x]``
    modern = _modern_module(node.module + "." + alias.name) if len(node.names) == 1 else None
    if modern is not None:
        module, _, name = modern.rpartition(".")
        edits.add(
            INFO, node, "Changed the import of %s.%s to %s (its TF 1.15 module)" % (node.module, alias.name, modern)
        )
        alias.asname = alias.asname or (alias.name if name != alias.name else None)
        node.module, alias.name = module, name


def _modern_chain(aliases, name):
    """The respelled dotted ``name`` when it spells a TF 1.0-1.4 module path past its alias, else None."""
    root = name.split(".")[0]
    path = resolve(aliases, name)
    if path is None:
        return None
    modern = _contrib_names.modern(path)
    base = aliases[root]
    if modern == path or not (modern == base or modern.startswith(base + ".")) or _contrib_names.modern(base) != base:
        return None
    return root + modern[len(base) :]


_HISTORICAL_PARTS = frozenset(path.rpartition(".")[2] for path in _contrib_names.HISTORICAL_MODULES)


def _spells_historical(tree):
    """Whether ``tree`` names a last part of a TF 1.0-1.4 module path anywhere (else nothing is respelled)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in _HISTORICAL_PARTS:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            spelled = [a.name for a in node.names] + ([node.module] if getattr(node, "module", None) else [])
            if any(part in _HISTORICAL_PARTS for name in spelled for part in name.split(".")):
                return True
    return False


def modernize(edits, tree):
    """Respells TF 1.0-1.4 contrib module paths (imports and dotted names) as their TF 1.15 modules, in place."""
    if not _spells_historical(tree):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            _modernize_import(edits, node)
        elif isinstance(node, ast.ImportFrom):
            _modernize_import_from(edits, node)
    aliases = collect_aliases(tree)
    found = parents(tree)
    for name, node in chains(tree):
        modern = _modern_chain(aliases, name)
        if modern is not None and modern != name:
            edits.replace(found[node], node, modern, "(its TF 1.15 module)")


# --- TF 1.2-1.3's tf.contrib.data.Dataset.map ---------------------------------------------------------------

MAP_KEYWORDS = ("num_threads", "output_buffer_size")


def passes_tf12_map_keywords(call):
    """``x.map(f, num_threads=..., output_buffer_size=...)``: keywords only TF 1.2-1.3's contrib ``Dataset.map`` had."""
    return any(k.arg in MAP_KEYWORDS for k in call.keywords)


def to_tf14_map(call, logs):
    """``map(f, num_threads=n, output_buffer_size=b)`` -> ``map(f, num_parallel_calls=n).prefetch(b)``: TF 1.4 renamed
    the first and replaced the second by ``prefetch`` (a buffer of ``b`` mapped elements)."""
    buffer = None
    kept = []
    for keyword in call.keywords:
        if keyword.arg == "num_threads":
            keyword.arg = "num_parallel_calls"
        if keyword.arg == "output_buffer_size":
            buffer = keyword.value
            continue
        kept.append(keyword)
    call.keywords = kept
    logs.append((INFO, call.lineno, call.col_offset, "Changed TF 1.3's Dataset.map keywords to TF 1.4's"))
    if buffer is None:
        return call
    prefetch = ast.Call(func=ast.Attribute(value=call, attr="prefetch", ctx=ast.Load()), args=[buffer], keywords=[])
    return ast.copy_location(prefetch, call)


# --- tf.contrib.distribute ---------------------------------------------------------------------------------

STRATEGIES = ("MirroredStrategy", "OneDeviceStrategy")
_MIRRORED_ARGS = (
    "devices",
    "num_gpus",
    "num_gpus_per_worker",
    "cross_device_ops",
    "auto_shard_dataset",
    "cross_tower_ops",
)


def is_strategy(chain):
    return chain.path in ["tf.contrib.distribute." + s for s in STRATEGIES] or chain.path in [
        "tf.contrib.distribute.python.%s.%s" % (m, s)
        for m, s in (("mirrored_strategy", "MirroredStrategy"), ("one_device_strategy", "OneDeviceStrategy"))
    ]


def _devices_for(value):
    """The expression of TF 1.15's device list for ``num_gpus=value`` (``device_util.local_devices_from_num_gpus``)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, int) and value.value >= 0:
        devices = ["/device:GPU:%d" % i for i in range(value.value)] or ["/device:CPU:0"]
        return repr(devices).replace("'", '"')
    return '["/device:GPU:%%d" %% i for i in range(%s)] or ["/device:CPU:0"]' % pasta.dump(value).strip()


def _rewrite_mirrored_call(edits, call):
    """``MirroredStrategy(devices, num_gpus, num_gpus_per_worker, cross_device_ops, auto_shard_dataset,
    cross_tower_ops)`` (TF 1.15's contrib signature) -> the keywords of ``tf.compat.v1.distribute.MirroredStrategy``;
    False (and an ERROR) for an argument it has no counterpart of."""
    keywords = {name: value for name, value in zip(_MIRRORED_ARGS, call.args)}
    keywords.update((k.arg, k.value) for k in call.keywords if k.arg)
    if (
        len(call.args) > len(_MIRRORED_ARGS)
        or any(k.arg is None for k in call.keywords)
        or "auto_shard_dataset" in keywords
    ):
        edits.add(
            ERROR,
            call,
            "tf.contrib.distribute.MirroredStrategy(auto_shard_dataset=...) (or *args/**kwargs) has no counterpart in "
            "tf.compat.v1.distribute.MirroredStrategy: set the dataset's tf.data.Options().experimental_distribute."
            "auto_shard_policy instead (install: nothing, it is part of TensorFlow 2).",
        )
        return False
    gpus = keywords.pop("num_gpus", None) or keywords.pop("num_gpus_per_worker", None)
    keywords.pop("num_gpus_per_worker", None)
    if "cross_tower_ops" in keywords:
        keywords["cross_device_ops"] = keywords.pop("cross_tower_ops")
    devices = keywords.get("devices")
    if isinstance(devices, ast.Constant) and devices.value is None:
        del keywords["devices"]
    if gpus is not None and "devices" not in keywords:
        keywords["devices"] = pasta.parse(_devices_for(gpus)).body[0].value
        edits.add(
            INFO,
            call,
            "num_gpus=%s became devices=%s (the devices TF 1.15 mirrored on)"
            % (pasta.dump(gpus).strip(), _devices_for(gpus)),
        )
    call.args = []
    call.keywords = [ast.keyword(arg=k, value=keywords[k]) for k in ("devices", "cross_device_ops") if k in keywords]
    return True


def to_v1_strategy(chain):
    """A contrib strategy -> ``tf.compat.v1.distribute``'s (``MirroredStrategy``'s arguments rewritten)."""
    name = chain.path.rpartition(".")[2]
    parent = chain.parent
    if name == "MirroredStrategy" and isinstance(parent, ast.Call) and parent.func is chain.node:
        if not _rewrite_mirrored_call(chain.edits, parent):
            return
    chain.edits.replace(
        parent, chain.node, "tf.compat.v1.distribute." + name, "(TF 1.15's contrib strategies were v1 strategies)"
    )


__all__ = [
    "resolves",
    "tf2_spelling",
    "alias_target",
    "renamed_to_nothing",
    "instead_of_missing",
    "is_listed",
    "from_listing",
    "modernize",
    "MAP_KEYWORDS",
    "passes_tf12_map_keywords",
    "to_tf14_map",
    "STRATEGIES",
    "is_strategy",
    "to_v1_strategy",
]
