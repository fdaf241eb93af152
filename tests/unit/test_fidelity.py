"""tf1clip.fidelity: one record per process-wide change, each installed and undone with what it touched restored
(the patch sets' in tests/subprocess/test_fidelity_undo.py), each naming its proof; no read of a frame's locals
without a record (docs/layout.rst, "fidelity")."""

import ast
import functools
import importlib.util
import json
import os

import pytest
import tensorflow as tf

import tf1clip
from tf1clip import fidelity
from tf1clip.compat import _estimator, _gan, _slim
from tf1clip.fidelity import _corrections

import process_state
from helpers import graph_op_seeds
from helpers import load_cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEEDS = os.path.join(ROOT, "tests", "data", "tf115_seeds")
v1 = tf.compat.v1

IN_PROCESS = [c.name for c in fidelity.CHANGES if not c.name.startswith(("estimator.", "slim.", "gan."))]


def test_names_are_unique_and_every_record_says_what_it_changes_and_its_proof():
    names = [c.name for c in fidelity.CHANGES]
    assert len(names) == len(set(names)) and len(names) > 20
    for change in fidelity.CHANGES:
        assert change.summary and change.proof, change.name
        assert fidelity.change(change.name) is change
    with pytest.raises(ValueError, match="no process-wide change named 'tf1_seeds'"):
        fidelity.change("tf1_seeds")


@functools.lru_cache(maxsize=None)
def _defined_names(path):
    with open(path) as f:
        return {n.name for n in ast.walk(ast.parse(f.read())) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def test_every_proof_exists():
    """A proof is a test or recorded case file, ``path::name`` a function or class in it."""
    missing = []
    for change in fidelity.CHANGES:
        for proof in change.proof:
            path, _, name = proof.partition("::")
            full = os.path.join(ROOT, path)
            if not os.path.isfile(full) or (name and name not in _defined_names(full)):
                missing.append((change.name, proof))
    assert missing == []


def test_each_correction_names_recorded_tf115_cases_and_the_unmatched_ones_are_the_cases_unmatched():
    cases = load_cases(SEEDS)
    with open(os.path.join(SEEDS, "refs.json")) as f:
        refs = json.load(f)["cases"]
    for entry in _corrections.CORRECTIONS:
        assert entry.cases and entry.scan in ("op", "call", "convolution"), entry.name
        for case in entry.cases:
            assert case in cases.CASES and case + "/graph" in refs, (entry.name, case)
    assert {case for entry in _corrections.UNMATCHED for case in entry.cases} == set(cases.UNMATCHED)
    assert [c.name for c in fidelity.CHANGES if c.name.startswith("tf1_random_seeds.")] == [
        "tf1_random_seeds." + e.name for e in _corrections.CORRECTIONS
    ]


def test_every_patch_of_every_patch_set_is_a_record_in_order():
    for prefix, module in (("estimator", _estimator), ("slim", _slim), ("gan", _gan)):
        rows = [c.name for c in fidelity.CHANGES if c.name.startswith(prefix + ".")]
        assert rows == ["%s.%s" % (prefix, name) for name in module.PATCHES], prefix


def test_the_switches_are_tf1clips_public_names_and_the_old_paths_re_export_them():
    from tf1clip import seeds, shapes
    from tf1clip.fidelity import seeds as fidelity_seeds
    from tf1clip.fidelity import shapes as fidelity_shapes

    for switch in fidelity.SWITCHES:
        assert switch.how.call in tf1clip.__all__ and switch.conversion is not None
        assert getattr(tf1clip, switch.how.call) is getattr(fidelity, switch.how.call)
        assert switch.line().startswith("tf1clip.%s()  # tf1clip-upgrade: " % switch.how.call)
    assert seeds.use_tf1_random_seeds is fidelity_seeds.use_tf1_random_seeds
    assert seeds.tf1_random_seeds_enabled is fidelity.tf1_random_seeds_enabled
    assert shapes.use_tf1_shapes is fidelity_shapes.use_tf1_shapes
    assert shapes.tf1_shapes_enabled is fidelity.tf1_shapes_enabled
    with pytest.raises(ValueError, match="install_hint_excepthook is not a switch tf1clip-upgrade adds"):
        fidelity.change("install_hint_excepthook").line()


@pytest.mark.parametrize("name", IN_PROCESS)
def test_install_then_undo_restores_every_place_it_touched(name):
    """Installed twice (idempotent), the change touches its declared places and no other; undone twice, every
    place is back to its original object. (Corrections and the hook, which import no TensorFlow, against
    tf1clip's modules and the process's places only.)"""
    change = fidelity.change(name)
    prefixes = ("tensorflow", "tf1clip") if change in fidelity.SWITCHES else ("tf1clip",)
    was_installed = change.installed()
    try:
        change.undo()
        assert not change.installed()
        without = process_state.snapshot(prefixes)
        change.install()
        change.install()
        assert change.installed()
        touched = process_state.changed(without, process_state.snapshot(prefixes))
        assert [p for p in touched if not process_state.matches(p, change.touches)] == []
        assert len(touched) == len(change.touches)
        change.undo()
        change.undo()
        assert not change.installed()
        assert process_state.changed(without, process_state.snapshot(prefixes)) == []
    finally:
        (change.install if was_installed else change.undo)()
    assert change.installed() == was_installed


def _split_then_random():
    v1.split(v1.placeholder(tf.float32, [4, 2]), 2)
    v1.random_normal([2])


def test_an_undone_correction_no_longer_counts_and_install_brings_it_back():
    """``tf.split``: TF 1.15 made one more op (the constant of ``n``); without the correction the op seed of the
    random op after it is one lower."""
    correction = fidelity.change("tf1_random_seeds.split_constant")
    tf1clip.use_tf1_random_seeds()
    try:
        with_it = graph_op_seeds(_split_then_random)
        correction.undo()
        without = graph_op_seeds(_split_then_random)
        correction.install()
        again = graph_op_seeds(_split_then_random)
    finally:
        correction.install()
        tf1clip.use_tf1_random_seeds(False)
    assert without == [with_it[0] - 1] and again == with_it
    with pytest.raises(ValueError, match="no op-count correction named 'split'"):
        _corrections.deactivate("split")


# ---- reads of frames' locals ------------------------------------------------------------------------------------

FRAME_ATTRIBUTES = {"f_locals", "f_back", "f_globals", "_getframe", "currentframe", "stack", "trace"}


def _reads_frames(node):
    """Whether ``node`` is ``x.f_locals`` (``f_back``, ``f_globals``, ``sys._getframe``, ``inspect.stack`` ...), a bare
    ``_getframe`` / ``currentframe`` or its import by name, or such a name as a string (``getattr(f, "f_locals")``)."""
    if isinstance(node, ast.Attribute) and node.attr in FRAME_ATTRIBUTES:
        if node.attr not in ("stack", "trace", "currentframe"):
            return True
        return isinstance(node.value, ast.Name) and node.value.id == "inspect"
    if isinstance(node, (ast.Name, ast.alias)):
        return (node.id if isinstance(node, ast.Name) else node.name) in ("_getframe", "currentframe")
    return isinstance(node, ast.Constant) and node.value in ("f_locals", "f_back", "f_globals", "_getframe")


def _frame_readers(path, module):
    """The functions (``module.outer.inner``) of the source ``path`` that use a frame attribute or function."""
    with open(path) as f:
        text = f.read()
    if not any(name in text for name in FRAME_ATTRIBUTES):
        return set()
    tree = ast.parse(text, path)
    found = set()

    def visit(node, scope):
        for child in ast.iter_child_nodes(node):
            inner = scope + [child.name] if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else scope
            if _reads_frames(child):
                found.add(".".join([module] + scope))
            visit(child, inner)

    visit(tree, [])
    return found


def unregistered_frame_readers(root, frames):
    """The functions under ``root/tf1clip`` that read frames and that no ``FrameRead`` of ``frames`` names."""
    readers = set()
    for folder, _, files in os.walk(os.path.join(root, "tf1clip")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                module = os.path.relpath(path, root)[: -len(".py")].replace(os.sep, ".").replace(".__init__", "")
                readers |= _frame_readers(path, module)
    return sorted(readers - {read.reader for read in frames})


ALL_FRAMES = [read for change in fidelity.CHANGES for read in change.frames]


def test_every_read_of_a_frame_has_a_record():
    assert unregistered_frame_readers(ROOT, ALL_FRAMES) == []
    assert len({read.reader for read in ALL_FRAMES}) == 4


def test_an_unregistered_frame_read_is_reported(tmp_path):
    (tmp_path / "tf1clip" / "compat").mkdir(parents=True)
    (tmp_path / "tf1clip" / "compat" / "_tf.py").write_text(
        "import sys\n\ndef caller_frame(d):\n    return sys._getframe(d)\n\n"
        "def peek():\n    def inner(frame):\n        return frame.f_back.f_locals['x']\n    return inner\n"
    )
    (tmp_path / "tf1clip" / "m.py").write_text(
        "from sys import _getframe as frame\nimport inspect\n\n"
        "def a(f):\n    return getattr(f, 'f_locals')\n\ndef b():\n    return inspect.stack()\n"
        "\ndef c(stack):\n    return stack.trace\n"
    )
    assert unregistered_frame_readers(str(tmp_path), ALL_FRAMES) == [
        "tf1clip.compat._tf.peek.inner",
        "tf1clip.m",
        "tf1clip.m.a",
        "tf1clip.m.b",
    ]


@functools.lru_cache(maxsize=None)
def _parsed(path):
    with open(path) as f:
        return ast.parse(f.read(), path)


def _source_function(dotted):
    """The ``ast`` function ``module.function`` / ``module.Class.method``, read from the installed source without
    importing it, or None where the module is not installed."""
    parts = dotted.split(".")
    for k in range(len(parts) - 1, 0, -1):
        spec = importlib.util.find_spec(parts[0])
        if spec is None or not spec.submodule_search_locations:
            return None
        path = os.path.join(list(spec.submodule_search_locations)[0], *parts[1:k]) + ".py"
        if os.path.isfile(path):
            node = _parsed(path)
            for name in parts[k:]:
                node = next((n for n in ast.iter_child_nodes(node) if getattr(n, "name", None) == name), None)
                if node is None:
                    return None
            return node
    return None


def _local_names(function):
    args = function.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    return names | {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


@pytest.mark.parametrize(
    "read", ALL_FRAMES, ids=["%s:%s" % (r.reader.split(".")[-1], r.function[0]) for r in ALL_FRAMES]
)
def test_each_frame_read_resolves_on_the_installed_versions(read):
    """The function whose frame is read exists (its first installed candidate) and has the locals read."""
    functions = [f for f in map(_source_function, read.function) if f is not None]
    assert functions, "none of %s exists here" % (read.function,)
    assert set(read.names) <= _local_names(functions[0]), read.function[0]
    module = importlib.import_module(read.reader.split(".")[0] + "." + ".".join(read.reader.split(".")[1:3]))
    assert hasattr(module, read.reader.split(".")[3])
