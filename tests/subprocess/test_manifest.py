"""tf1clip.contrib._manifest agrees with the runtime modules and is what tf1clip-upgrade converts with."""

import ast
import collections
import importlib
import pathlib

import pytest

from tests.helpers import run_python
from tf1clip.contrib import _manifest
from tf1clip.upgrade import _fixes
from tf1clip.upgrade import _tables
from tf1clip.upgrade import upgrade_source


def _out_of_process(row):
    """Rows checked in a fresh interpreter: Keras 2 ones (the pytest process runs Keras 3, as a program without
    TF_USE_LEGACY_KERAS does) and those that import tf1clip.estimator, which this process must not
    (tests/conftest.py)."""
    return row.keras2 or row.extra == "estimator"


IN_PROCESS_ROWS = [r for r in _manifest.ROWS if not _out_of_process(r)]
IN_PROCESS_TARGETS = [t for t in _manifest.targets() if not any(_out_of_process(r) for r in _manifest.rows(t))]


def check_row(row):
    """Every name of ``row`` is on its target and impl (the same object), and impl_of says so."""
    target = importlib.import_module(row.target)
    impl = importlib.import_module(row.impl)
    for name in row.names:
        value = getattr(target, name)
        if row.impl == row.target + "." + name:
            assert value is impl, name
        else:
            assert getattr(impl, name) is value, name
            assert name in impl.__all__, (row.impl, name)
        assert _manifest.impl_of(row.target, name) == row.impl
    extras = [n for n in getattr(impl, "__all__", ()) if n not in _manifest.names_of(row.impl)]
    assert [n for n in extras if not hasattr(impl, n)] == [], row.impl


def check_target(target):
    """``target``'s ``__all__`` is the manifest's names for it, all of them in ``dir()``."""
    module = importlib.import_module(target)
    assert list(module.__all__) == list(_manifest.names(target))
    assert set(_manifest.names(target)) <= set(dir(module))


@pytest.mark.parametrize("row", IN_PROCESS_ROWS, ids=lambda r: "%s:%s" % (r.target, r.names[0]))
def test_every_name_exists_on_its_target_and_impl(row):
    check_row(row)


@pytest.mark.parametrize("target", IN_PROCESS_TARGETS)
def test_all_is_the_manifests_names(target):
    check_target(target)


def test_keras2_and_estimator_rows_agree_with_the_runtime_in_a_subprocess():
    out = run_python(
        """
        import os
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
        from tests.subprocess import test_manifest as t
        from tf1clip.contrib import _manifest
        rows = [r for r in _manifest.ROWS if r not in t.IN_PROCESS_ROWS]
        for row in rows:
            t.check_row(row)
        targets = [x for x in _manifest.targets() if x not in t.IN_PROCESS_TARGETS]
        for target in targets:
            t.check_target(target)
        print(len(rows), len(targets))
        """,
        timeout=300,
    )
    rows, targets = map(int, out.split()[-2:])
    assert rows == len(_manifest.ROWS) - len(IN_PROCESS_ROWS) and rows > 0
    assert targets == len(_manifest.targets()) - len(IN_PROCESS_TARGETS) and targets > 0


CONTRIB = pathlib.Path(_manifest.__file__).parent
DERIVED = "_manifest.names_of(__name__)"


def _module_name(path):
    parts = path.relative_to(CONTRIB.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _all_value(source):
    """The value assigned to ``__all__`` at the top level of ``source``, or None."""
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            names = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)]
            if "__all__" in names:
                return node.value
    return None


def all_problems(module, source):
    """Why the ``__all__`` of ``module`` (its ``source``) is not the manifest's: a module that rows name is
    ``__all__ = _manifest.names_of(__name__)``, or ``[*_manifest.names_of(__name__), "Extra", ...]`` with names
    no row lists."""
    listed = _manifest.names_of(module)
    if not listed:
        return []
    value = _all_value(source)
    if value is not None and ast.unparse(value) == DERIVED:
        return []
    if isinstance(value, ast.List) and value.elts and ast.unparse(value.elts[0]) == "*" + DERIVED:
        repeated = sorted(set(ast.literal_eval(e) for e in value.elts[1:]) & set(listed))
        return ["%s: __all__ repeats the manifest's %s" % (module, repeated)] if repeated else []
    return ["%s: __all__ is not %s (the manifest lists %s)" % (module, DERIVED, listed)]


def test_implementation_modules_take_all_from_the_manifest():
    paths = sorted(CONTRIB.rglob("*.py"))
    assert [p for path in paths for p in all_problems(_module_name(path), path.read_text())] == []
    assert sum(1 for path in paths if _manifest.names_of(_module_name(path))) > 60


def test_a_literal_all_beside_the_manifest_is_reported():
    module = "tf1clip.contrib.opt.lazy_adam_optimizer"
    assert all_problems(module, "__all__ = _manifest.names_of(__name__)\n") == []
    assert all_problems(module, '__all__ = ["LazyAdamOptimizer"]\n') == [
        "%s: __all__ is not %s (the manifest lists ['LazyAdamOptimizer'])" % (module, DERIVED)
    ]
    assert all_problems(module, "x = 1\n") == [
        "%s: __all__ is not %s (the manifest lists ['LazyAdamOptimizer'])" % (module, DERIVED)
    ]
    assert all_problems(module, '__all__ = [*_manifest.names_of(__name__), "LazyAdamOptimizer", "Other"]\n') == [
        "%s: __all__ repeats the manifest's ['LazyAdamOptimizer']" % module
    ]
    assert all_problems(module, '__all__ = [*_manifest.names_of(__name__), "Other"]\n') == []
    assert all_problems("tf1clip.contrib.opt.matrix_functions", '__all__ = ["matrix_square_root"]\n') == []


def test_no_name_in_two_rows_of_one_target():
    counts = collections.Counter((r.target, n) for r in _manifest.ROWS for n in r.names)
    assert [key for key, count in counts.items() if count > 1] == []


def test_rows_are_well_formed():
    for row in _manifest.ROWS:
        assert row.target.startswith("tf1clip.") and row.impl.startswith("tf1clip."), row
        assert row.names and all(isinstance(n, str) and n.isidentifier() for n in row.names), row
        assert all(p.startswith("tf.contrib.") or p == "tf.contrib" for p in row.tf_paths), row
        assert row.extra in (None, "slim", "estimator", "gan"), row
        assert all(name in row.names and measured for name, measured in row.drift), row


def test_every_upgrade_own_entry_comes_from_the_manifest():
    derived = {}
    for row in _manifest.ROWS:
        for path in row.tf_paths:
            derived.setdefault(path, (row.target, set()))[1].update(row.names)
    own = _tables.own()
    assert {path: (target, set(names)) for path, (target, names) in own.items()} == derived
    provided = _tables.provided()
    for path, (target, names) in own.items():
        assert provided[path][0] == target and set(names) <= provided[path][1], path


def test_a_new_row_reaches_the_upgrade_table(monkeypatch):
    row = _manifest.Row("tf1clip.contrib.opt", "tf1clip.contrib.opt._adam", ("FakeOptimizer",), ("tf.contrib.opt",))
    monkeypatch.setattr(_manifest, "ROWS", _manifest.ROWS + (row,))
    assert "FakeOptimizer" in _tables.own()["tf.contrib.opt"][1]
    assert "FakeOptimizer" in _tables.provided()["tf.contrib.opt"][1]
    assert "FakeOptimizer" in _manifest.names("tf1clip.contrib.opt")
    result = upgrade_source("import tensorflow as tf\nx = tf.contrib.opt.FakeOptimizer(0.1)\n")
    assert "tf1clip.contrib.opt.FakeOptimizer(0.1)" in result.text


def test_a_new_drift_reaches_the_report(monkeypatch):
    source = "import tensorflow as tf\nx = tf.contrib.opt.FakeOptimizer(0.1)\n"
    row = _manifest.Row("tf1clip.contrib.opt", "tf1clip.contrib.opt._adam", ("FakeOptimizer",), ("tf.contrib.opt",))
    monkeypatch.setattr(_manifest, "ROWS", _manifest.ROWS + (row,))
    assert [e for e in upgrade_source(source).log if "differs from TF 1.15" in e.message] == []
    monkeypatch.setattr(_manifest, "ROWS", _manifest.ROWS[:-1] + (row._replace(drift=(("FakeOptimizer", "1 %"),)),))
    [entry] = [e for e in upgrade_source(source).log if "differs from TF 1.15" in e.message]
    assert (entry.severity, entry.line) == ("INFO", 2)
    assert entry.message.startswith("tf1clip.contrib.opt.FakeOptimizer differs from TF 1.15 in its numbers: ")
    assert "(1 % after 300 Adam steps" in entry.message


def test_a_new_keras2_row_reaches_the_legacy_keras_decision(monkeypatch):
    source = "import tensorflow as tf\nx = tf.contrib.opt.FakeOptimizer(0.1)\n"
    row = _manifest.Row("tf1clip.contrib.opt", "tf1clip.contrib.opt._adam", ("FakeOptimizer",), ("tf.contrib.opt",))
    monkeypatch.setattr(_manifest, "ROWS", _manifest.ROWS + (row,))
    assert "TF_USE_LEGACY_KERAS" not in upgrade_source(source, target="modern").text
    monkeypatch.setattr(_manifest, "ROWS", _manifest.ROWS[:-1] + (row._replace(keras2=True),))
    assert 'os.environ["TF_USE_LEGACY_KERAS"] = "1"' in upgrade_source(source, target="modern").text


def test_flags_give_the_upgrade_paths():
    keras2 = _manifest.keras2_targets()
    assert {"tf1clip.contrib.rnn", "tf1clip.contrib.legacy_seq2seq", "tf1clip.contrib.cudnn_rnn"} <= set(keras2)
    assert "tf1clip.contrib.estimator.multi_head" in keras2
    assert "tf1clip.contrib.estimator.clip_gradients_by_norm" not in keras2
    assert len(keras2) == len(set(keras2))
    graph = _manifest.graph_targets()
    assert "tf1clip.contrib.legacy_seq2seq" in graph and "tf1clip.contrib.layers.optimize_loss" in graph
    assert _fixes._builds_graph("tf1clip.contrib.legacy_seq2seq.rnn_decoder")
    assert _fixes._builds_graph("tf1clip.contrib.slim.learning.train")
    assert _fixes._builds_graph("tf1clip.contrib.slim.get_variables_to_restore")  # routed to tf-slim
    assert not _fixes._builds_graph("tf1clip.contrib.layers.adaptive_clipping_fn")


def test_routes_and_extras():
    assert _manifest.route_of("tf1clip.contrib.gan.losses").successor == "tensorflow_gan"
    assert _manifest.route_of("tf1clip.contrib.slim.learning").extra == "slim"
    assert _manifest.route_of("tf1clip.contrib.rnn") is None
    assert _tables.extra_for("tf1clip.contrib.gan.eval") == "tf1clip[gan]"
    assert _tables.SLIM_ROOTS == ("slim", "layers", "framework", "losses", "metrics", "training")
    assert _manifest.extra_for("tf1clip.contrib.estimator") == ("estimator",)
    assert _manifest.extra_for("tf1clip.contrib.rnn") == ()


def test_install_line():
    assert _manifest.install_line([]) == "python3 -m pip install 'tf1clip'"
    assert _manifest.install_line(["slim", "estimator", "slim"]) == "python3 -m pip install 'tf1clip[estimator,slim]'"
    assert _manifest.install_line(["estimator"], keras2=True) == (
        "python3 -m pip install 'tf1clip[estimator]' && python3 -m tf1clip.install_extras legacy-keras"
    )
    assert _tables.ESTIMATOR_INSTALL.startswith(_manifest.install_line(["estimator"], keras2=True))


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="module 'tf1clip.contrib.rnn' has no attribute 'NoSuchCell'"):
        _manifest.impl_of("tf1clip.contrib.rnn", "NoSuchCell")
    rnn = importlib.import_module("tf1clip.contrib.rnn")
    with pytest.raises(AttributeError, match="'NoSuchCell'"):
        rnn.NoSuchCell  # noqa: B018


def test_two_targets_for_one_tf_path_is_an_error():
    rows = (
        _manifest.Row("tf1clip.contrib.a", "tf1clip.contrib.a", ("x",), ("tf.contrib.a",)),
        _manifest.Row("tf1clip.contrib.b", "tf1clip.contrib.b", ("y",), ("tf.contrib.a",)),
    )
    with pytest.raises(ValueError, match="'tf.contrib.a' maps to 'tf1clip.contrib.a' and 'tf1clip.contrib.b'"):
        _manifest.own_table(rows)


def test_manifest_contrib_and_upgrade_import_no_tensorflow():
    out = run_python(
        """
        import sys
        import tf1clip.contrib._manifest
        import tf1clip.contrib
        print(sorted(tf1clip.contrib.__all__) == sorted(tf1clip.contrib._manifest.names("tf1clip.contrib")))
        import tf1clip.upgrade._tables
        tf1clip.upgrade._tables.provided()
        print("tensorflow" in sys.modules)
        """
    )
    assert out.split() == ["True", "False"]
