"""The patch sets' records of tf1clip.fidelity: installed, they change only the places they declare, through their
journal; undone, every place of TensorFlow, tensorflow-estimator, tf-slim and TF-GAN is back to its original object
(each set in a fresh process: the patches are process-wide). tests/unit/test_fidelity.py does the same for the
switches, corrections and the hook."""

import importlib.util
import json

import process_state
import pytest
import tensorflow as tf

from helpers import ROOT
from helpers import run_python
from helpers import skip_without_estimator
from tf1clip.compat._tf import version_tuple

_SCRIPT = """
import json, os, sys
sys.path.insert(0, os.path.join(%(root)r, "tests"))
%(setup)s
import importlib
import tensorflow as tf
import process_state
from tf1clip import fidelity

records = [c for c in fidelity.CHANGES if c.name.startswith(%(prefix)r + ".")]
patches = importlib.import_module(records[0].how.module).PATCHES
prefixes = ("tensorflow", "tensorflow_estimator", "tf_slim", "tensorflow_gan", "tf_keras", "keras", "tf1clip")
# Once first: every module the set imports is loaded before the snapshot, so that their places are compared.
records[0].install()
first = [c.name for c in records if c.installed()]
for change in reversed(records):
    change.undo()
before = process_state.snapshot(prefixes)
records[0].install()
installed = [c.name for c in records if c.installed()]
touched = process_state.changed(before, process_state.snapshot(prefixes))
journal = dict((c.name, patches.journal.changes(c.how.patch)) for c in records)
for change in reversed(records):
    change.undo()
    change.undo()
print("RESULT " + json.dumps({
    "first": first,
    "installed": installed,
    "after undo": [c.name for c in records if c.installed()],
    "touched": touched,
    "journal": journal,
    "not restored": process_state.changed(before, process_state.snapshot(prefixes)),
    "journal after undo": patches.journal.changes(),
    "gan modules after undo": sorted(n for n in sys.modules if n.startswith("tensorflow_gan")),
    %(extra)s
}))
"""

SETS = {
    # Without TF_USE_LEGACY_KERAS, so that legacy_keras sets it (TF 2.16+); tensorflow-estimator loads in the set.
    "estimator": (
        'os.environ.pop("TF_USE_LEGACY_KERAS", None)',
        '"keras variable": os.environ.get("TF_USE_LEGACY_KERAS"),',
    ),
    "slim": ("import tf_slim", '"supervisor": type(sys.modules["tf_slim.learning"].supervisor).__name__,'),
    "gan": ("", '"getargspec": hasattr(__import__("inspect"), "getargspec"),'),
}
NEEDS = {"estimator": "tensorflow_estimator", "slim": "tf_slim", "gan": "tensorflow_gan"}
NEW_TF = version_tuple(tf.__version__) >= (2, 16)


def _run(prefix):
    if importlib.util.find_spec(NEEDS[prefix]) is None:
        if prefix == "estimator":
            skip_without_estimator("tensorflow-estimator is not installed")
        pytest.skip("%s is not installed" % NEEDS[prefix])
    setup, extra = SETS[prefix]
    out = run_python(_SCRIPT % dict(root=ROOT, prefix=prefix, setup=setup, extra=extra), timeout=600)
    return json.loads(out.split("RESULT ", 1)[1])


def _check_undo(prefix, got):
    from tf1clip import fidelity

    touches = dict((c.name, c.touches) for c in fidelity.CHANGES if c.name.startswith(prefix + "."))
    assert got["installed"] == got["first"] and got["after undo"] == []
    for name in got["installed"]:
        assert got["journal"][name], name  # what it changed went through the journal
        assert [p for p in got["journal"][name] if not process_state.matches(p, touches[name])] == [], name
    for name in set(touches) - set(got["installed"]):
        assert got["journal"].get(name, []) == [], name
    journaled = set(place for places in got["journal"].values() for place in places)
    assert [p for p in got["touched"] if p not in journaled] == []  # no change outside the journal
    assert got["not restored"] == [] and got["journal after undo"] == []


@pytest.mark.parametrize("prefix", sorted(SETS))
def test_a_patch_set_undone_leaves_every_place_as_it_found_it(prefix):
    got = _run(prefix)
    _check_undo(prefix, got)
    if prefix == "estimator":
        expected = ["tf_export_estimator_api", "distribute_estimator_training", "tpu_removed_modules"]
        expected = (expected + ["legacy_keras"] if NEW_TF else []) + ["session_threads"]
        assert got["installed"] == ["estimator." + name for name in expected]
        assert got["keras variable"] is None  # legacy_keras undone: the variable is unset again
        assert len(got["touched"]) >= 5  # TF 2.15: the Estimator methods session_threads wraps (no legacy_keras)
    elif prefix == "slim":
        assert got["installed"][0] == "slim.moved_tf_symbols" and got["supervisor"] == "module"
        assert any(p.startswith("tf_slim.") for p in got["touched"])
    else:
        assert "gan.lazy_hub_and_probability" in got["installed"] and got["gan modules after undo"] == []
        assert ("gan.estimator_namespace" in got["installed"]) == NEW_TF
        assert ("gan.inspect_getargspec" in got["installed"]) == (not got["getargspec"])


def test_the_check_fails_for_a_change_left_in_place():
    """A place still changed after the undo, or changed outside the journal, fails the check."""
    got = {
        "first": ["slim.batch_norm_legacy_layer"],
        "installed": ["slim.batch_norm_legacy_layer"],
        "after undo": [],
        "journal": {"slim.batch_norm_legacy_layer": ["tf_slim.layers.layers.normalization_layers"]},
        "touched": ["tf_slim.layers.layers.normalization_layers"],
        "not restored": [],
        "journal after undo": [],
    }
    _check_undo("slim", got)
    for key, value in [("not restored", ["tf_slim.learning.supervisor"]), ("touched", ["tensorflow.python.ops.x"])]:
        with pytest.raises(AssertionError):
            _check_undo("slim", dict(got, **{key: value}))
