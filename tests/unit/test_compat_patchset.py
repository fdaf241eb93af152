"""tf1clip.compat._patchset.PatchSet: named patches run once, in order, after their requirement."""

import threading

import pytest

from tf1clip.compat._patchset import PatchSet


def _recording(calls, name, changed):
    def patch():
        calls.append(name)
        return changed

    return patch


def test_apply_runs_each_patch_once_in_order_and_returns_those_that_changed_something():
    calls = []
    patches = PatchSet(
        {"a": _recording(calls, "a", True), "b": _recording(calls, "b", False), "c": _recording(calls, "c", True)},
        checked_on="TensorFlow 2.21",
    )
    assert list(patches) == ["a", "b", "c"] and len(patches) == 3 and patches.checked_on == "TensorFlow 2.21"
    assert patches.apply() == ["a", "c"]
    assert patches.apply() == ["a", "c"]
    assert calls == ["a", "b", "c"]
    assert patches["b"]() is False and calls == ["a", "b", "c", "b"]


def test_a_failing_requirement_applies_nothing_and_the_next_apply_tries_again():
    calls, missing = [], [True]

    def requires():
        if missing[0]:
            raise ImportError("pip install 'tf1clip[slim]'")

    patches = PatchSet({"a": _recording(calls, "a", True)}, checked_on="x", requires=requires)
    with pytest.raises(ImportError, match=r"pip install 'tf1clip\[slim\]'"):
        patches.apply()
    assert calls == []
    missing[0] = False
    assert patches.apply() == ["a"] and calls == ["a"]


def test_concurrent_first_applies_run_the_patches_once():
    calls, started = [], threading.Barrier(4)
    patches = PatchSet({"a": _recording(calls, "a", True)}, checked_on="x")
    results = []

    def run():
        started.wait(timeout=30)
        results.append(patches.apply())

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert calls == ["a"] and results == [["a"]] * 4


def test_shim_adds_what_is_missing_and_forwards_the_rest():
    import types

    from tf1clip.compat._patchset import Shim

    base = types.ModuleType("pkg.mod", "doc")
    base.kept = 1
    shim = Shim(base, "moved_tf_symbols", {"added": 2})
    assert (shim.__name__, shim.__doc__, shim.kept, shim.added) == ("pkg.mod", "doc", 1, 2)
    assert shim._tf1clip_patch == "moved_tf_symbols" and not hasattr(base, "added")
    with pytest.raises(AttributeError, match="missing"):
        _ = shim.missing


def test_undo_restores_what_each_patch_changed_through_the_journal_and_apply_runs_it_again(monkeypatch):
    import os
    import sys
    import types

    from tf1clip.compat._patchset import Journal

    journal, target, table = Journal(), types.ModuleType("pkg_target"), {"kept": 1}
    target.present = "original"
    monkeypatch.delenv("TF1CLIP_TEST_PATCH", raising=False)

    def first():
        journal.setattr(target, "present", "patched")
        journal.setattr(target, "added", "new")
        journal.setitem(table, "kept", 2, "pkg_target.table['kept']")
        return True

    def second():
        journal.setenv("TF1CLIP_TEST_PATCH", "1")
        journal.add_module(types.ModuleType("pkg_target_stand_in"))
        return True

    patches = PatchSet({"first": first, "second": second}, checked_on="x", journal=journal)
    assert patches.apply() == ["first", "second"] == patches.installed()
    assert (target.present, target.added, table, os.environ["TF1CLIP_TEST_PATCH"]) == (
        "patched",
        "new",
        {"kept": 2},
        "1",
    )
    assert journal.changes("first") == ["pkg_target.present", "pkg_target.added", "pkg_target.table['kept']"]
    assert patches.undo("second") == ["os.environ['TF1CLIP_TEST_PATCH']", "sys.modules['pkg_target_stand_in']"]
    assert "TF1CLIP_TEST_PATCH" not in os.environ and "pkg_target_stand_in" not in sys.modules
    assert patches.installed() == ["first"] and target.present == "patched"
    assert patches.apply() == ["first", "second"] and os.environ["TF1CLIP_TEST_PATCH"] == "1"
    patches.undo()
    assert (target.present, hasattr(target, "added"), table) == ("original", False, {"kept": 1})
    assert "TF1CLIP_TEST_PATCH" not in os.environ and patches.installed() == [] and journal.changes() == []
    with pytest.raises(ValueError, match=r"undo: 'third' is not a patch of this set \(first, second\)"):
        patches.undo("third")


def test_a_patch_that_cannot_finish_takes_its_last_change_back():
    import types

    from tf1clip.compat._patchset import Journal, where

    journal, target = Journal(), types.ModuleType("pkg_target")
    journal.setattr(target, "x", 1)
    journal.setattr(target, "y", 2)
    journal.undo_last()
    assert (target.x, hasattr(target, "y"), journal.changes()) == (1, False, ["pkg_target.x"])
    assert where(PatchSet, "apply") == "tf1clip.compat._patchset.PatchSet.apply"
