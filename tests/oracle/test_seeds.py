"""tf1clip.use_tf1_random_seeds: TF 1.15's op seeds and initial values in graph-seeded programs.

Constructs x seeding styles (tests/data/tf115_seeds/cases.py) against TF 1.15's recorded op seeds and
values (refs.json, written by make_refs.py on TF 1.15.5).
"""

import json
import os

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import seeds
from tf1clip.fidelity import _corrections

from helpers import graph_op_seeds
from helpers import run_python
from helpers import load_cases

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "tf115_seeds")
cases = load_cases(DATA)

with open(os.path.join(DATA, "refs.json")) as _f:
    REFS = json.load(_f)["cases"]

v1 = tf.compat.v1


_RUN_ALL = """
import os
os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.layers, rnn_cell and the Estimator need Keras 2
import json, sys, types
sys.path.insert(0, %r)
import tensorflow as tf
import tf1clip, tf1clip.contrib
import cases
from tf1clip import seeds
v1 = tf.compat.v1
v1.disable_v2_behavior()
graph = tf.Graph()
with graph.as_default():  # before the call: TensorFlow 2's numbering
    v1.set_random_seed(7)
    v1.get_variable("w", [3, 4])
    v1.nn.dropout(v1.placeholder(tf.float32, [None, 2]), keep_prob=0.5)
before = [op.get_attr("seed2") for op in graph.get_operations() if "seed2" in op.node_def.attr]
print("BEFORE " + json.dumps([before, seeds.tf1_random_seeds_enabled()]))
tf1clip.use_tf1_random_seeds()
ns = types.SimpleNamespace(
    layers=v1.layers,
    contrib_layers=tf1clip.contrib.layers,
    slim=tf1clip.contrib.slim,
    rnn_cell=v1.nn.rnn_cell,
    contrib_rnn=tf1clip.contrib.rnn,
    seq2seq=tf1clip.contrib.seq2seq,
    ones_like=tf.ones_like,  # TF 2's, as converted programs call it
)
out = {}
for name, (_, op_seeds) in sorted(cases.CASES.items()):
    for style in cases.STYLES if op_seeds else cases.STYLES[:1]:
        out[name + "/" + style] = cases.run_case(v1, ns, name, style)
from tf1clip import fidelity
from tf1clip.fidelity import _corrections
for entry in _corrections.CORRECTIONS:  # each correction's cases with all corrections but that one
    record = fidelity.change("tf1_random_seeds." + entry.name)
    record.undo()
    try:
        for case in entry.cases:
            out["without %%s: %%s" %% (entry.name, case)] = cases.run_case(v1, ns, case, "graph")
    finally:
        record.install()
print("RESULT " + json.dumps(out))
"""


@pytest.fixture(scope="module")
def tf2_cases():
    """Every case and style built as an upgraded program runs it: TF 1 behaviour and use_tf1_random_seeds()
    (in a subprocess: disable_v2_behavior() is for good)."""
    pytest.importorskip("tf_slim")
    out = run_python(_RUN_ALL % DATA, timeout=600)
    results = json.loads(out.split("RESULT ", 1)[1])
    results["before the call"] = json.loads(out.split("BEFORE ", 1)[1].split("\n", 1)[0])
    return results


def _assert_values_equal(got, want, what):
    assert got["shape"] == want["shape"], what
    np.testing.assert_allclose(got["values"], want["values"], rtol=1e-6, atol=1e-7, err_msg=what)
    np.testing.assert_allclose(got["sum"], want["sum"], rtol=1e-5, atol=1e-6, err_msg=what)


MATCHED = sorted(
    key
    for key in REFS
    if key.split("/")[0] not in cases.VALUES_DIFFER
    and (key.split("/")[0] not in cases.UNMATCHED or key.endswith("/graph+op"))
)


@pytest.mark.parametrize("key", MATCHED)
def test_matches_tf115(tf2_cases, key):
    got, want = tf2_cases[key], REFS[key]
    assert [s[1:] for s in got["seeds"]] == [s[1:] for s in want["seeds"]]
    assert sorted(got["variables"]) == sorted(want["variables"])
    for var, value in want["variables"].items():
        _assert_values_equal(got["variables"][var], value, var)
    assert len(got["fetched"]) == len(want["fetched"])
    for i, (g, w) in enumerate(zip(got["fetched"], want["fetched"])):
        _assert_values_equal(g, w, "fetch %d" % i)


@pytest.mark.parametrize("name, case", [(e.name, case) for e in _corrections.CORRECTIONS for case in e.cases])
def test_each_correction_is_needed_by_its_recorded_cases(tf2_cases, name, case):
    """With every op-count correction but ``name`` (its tf1clip.fidelity record undone), each case the entry names
    draws other op seeds than TF 1.15: no correction is dead, no case proves nothing (with all, they match above)."""
    got, want = tf2_cases["without %s: %s" % (name, case)], REFS[case + "/graph"]
    assert [s[1:] for s in got["seeds"]] != [s[1:] for s in want["seeds"]], "%s: %s matches without it" % (name, case)


@pytest.mark.parametrize("name", sorted(cases.UNMATCHED))
def test_documented_mismatches_still_differ(tf2_cases, name):
    """The constructs docs/oracle.rst names as unmatched: the op seeds after them differ from TF 1.15's."""
    got, want = tf2_cases[name + "/graph"], REFS[name + "/graph"]
    assert got["seeds"][-1][1:] != want["seeds"][-1][1:]


@pytest.mark.parametrize("key", sorted(k for k in REFS if k.split("/")[0] in cases.VALUES_DIFFER))
def test_documented_value_differences_still_differ(tf2_cases, key):
    """``shuffle(...).repeat(...)``: the op seeds and the random op after it match TF 1.15's, the order does not
    (TF 1.15 fused the two into ``ShuffleAndRepeatDataset``); each epoch is still a permutation."""
    got, want = tf2_cases[key], REFS[key]
    assert [s[1:] for s in got["seeds"]] == [s[1:] for s in want["seeds"]]
    _assert_values_equal(got["fetched"][-1], want["fetched"][-1], "random op after the dataset")
    got_order, want_order = got["fetched"][0]["values"], want["fetched"][0]["values"]
    assert got_order != want_order
    assert sorted(got_order[:12]) == sorted(want_order[:12]) == list(range(12))


def test_dropout_masks_equal_tf115(tf2_cases):
    got = tf2_cases["dropout/graph"]
    for g, w in zip(got["fetched"][:3], REFS["dropout/graph"]["fetched"][:3]):
        assert (np.asarray(g["values"]) == 0).tolist() == (np.asarray(w["values"]) == 0).tolist()


def test_idempotent_and_reversible():
    original = tf1clip.compat._tf.graph_seed_counter()
    try:
        tf1clip.use_tf1_random_seeds()
        counter = tf1clip.compat._tf.graph_seed_counter()
        tf1clip.use_tf1_random_seeds()
        assert tf1clip.compat._tf.graph_seed_counter() is counter
        assert seeds.tf1_random_seeds_enabled()
    finally:
        seeds.use_tf1_random_seeds(False)
    assert tf1clip.compat._tf.graph_seed_counter() is original
    assert not seeds.tf1_random_seeds_enabled()
    with pytest.raises(TypeError, match="enabled must be True or False, got 'yes'"):
        seeds.use_tf1_random_seeds("yes")


def test_graphs_seeded_before_the_call_keep_tf2_numbering():
    graph = tf.Graph()
    try:
        with graph.as_default():
            v1.set_random_seed(7)
            v1.random_normal([2])
            seeds.use_tf1_random_seeds()
            v1.random_normal([2])
            v1.random_normal([2])
        assert [op.get_attr("seed2") for op in graph.get_operations() if "seed2" in op.node_def.attr] == [0, 1, 2]
        assert graph_op_seeds(lambda: [v1.random_normal([2]) for _ in range(2)]) == [3, 9]
    finally:
        seeds.use_tf1_random_seeds(False)
    assert graph_op_seeds(lambda: [v1.random_normal([2]) for _ in range(2)]) == [0, 1]


def test_eager_and_op_seeds_unchanged():
    try:
        seeds.use_tf1_random_seeds()
        tf.random.set_seed(3)
        eager = tf.random.uniform([3]).numpy()
        with_op_seed = graph_op_seeds(lambda: v1.random_normal([2], seed=5))
    finally:
        seeds.use_tf1_random_seeds(False)
    tf.random.set_seed(3)
    np.testing.assert_array_equal(eager, tf.random.uniform([3]).numpy())
    assert with_op_seed == [5]


def test_a_process_without_the_call_keeps_tensorflow_2_numbering(tf2_cases):
    """The subprocess builds a graph before its use_tf1_random_seeds() call: TF 2's op seeds 0, 1."""
    assert tf2_cases["before the call"] == [[0, 1], False]


# ---- tf1clip-upgrade inserts the call -----------------------------------------------------------

_SEEDS_LINE = "tf1clip.use_tf1_random_seeds()  # tf1clip-upgrade: TF 1.15's op seeds for the graph-level seed"


def _upgrade(source, **kwargs):
    import textwrap

    from tf1clip import upgrade

    return upgrade.upgrade_source(textwrap.dedent(source), **kwargs)


def test_upgrade_inserts_the_call_after_disable_v2_behavior():
    result = _upgrade(
        """\
        import tensorflow as tf
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.nn.dropout(x, 0.5)
        """
    )
    assert result.text.splitlines()[:5] == [
        "import tensorflow as tf",
        "import tf1clip",
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: placeholders and Sessions need TF 1 behavior",
        _SEEDS_LINE,
        "tf.compat.v1.set_random_seed(1)",
    ]
    assert "tf1clip.use_tf1_random_seeds()" in result.added
    info = [e for e in result.log if "use_tf1_random_seeds" in e.message]
    assert [(e.severity, e.line) for e in info] == [("INFO", 2)]
    assert not [e for e in result.log if e.severity == "WARNING" and "seed" in e.message]


@pytest.mark.parametrize(
    "call",
    [
        "tf.compat.v1.set_random_seed(3)",
        "tf.compat.v1.random.set_random_seed(3)",
        "config = tf.estimator.RunConfig(model_dir='m', tf_random_seed=3)",
        "config = tf.estimator.RunConfig().replace(tf_random_seed=3)",
    ],
)
def test_upgrade_inserts_the_call_for_every_graph_level_seed(call):
    result = _upgrade("import tensorflow as tf\nimport tf1clip.contrib\n%s\n" % call)
    assert _SEEDS_LINE in result.text.splitlines()
    assert result.text.count("use_tf1_random_seeds") == 1


def test_upgrade_adds_nothing_without_a_graph_level_seed_and_once_with_the_call():
    assert "use_tf1_random_seeds" not in _upgrade("import tensorflow as tf\nw = tf.get_variable('w', [2])\n").text
    source = "import tensorflow as tf\nimport tf1clip\ntf1clip.use_tf1_random_seeds()\ntf.set_random_seed(1)\n"
    assert _upgrade(source).text.count("use_tf1_random_seeds") == 1


def test_upgrade_warns_at_gradients_only_after_which_op_counts_differ():
    """random_gamma and dilated convolutions are matched (no WARNING); gradients are not."""
    result = _upgrade(
        """\
        import tensorflow as tf
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.get_variable("w", [3, 1])
        train_op = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(tf.matmul(x, w)))
        g = tf.random_gamma([2], 1.0)
        h = tf.layers.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3, dilation_rate=2)
        v = tf.get_variable("v", [2])
        z = tf.random_gamma([2], 1.0)
        """
    )
    warnings = [
        (e.line, e.message.split(":")[0]) for e in result.log if e.severity == "WARNING" and "seed=" in e.message
    ]
    assert warnings == [
        (
            5,
            "TensorFlow 2 builds gradients with another number of ops than TF 1.15 (reduce_mean, broadcasting arithmetic, strided slices, sparse softmax cross-entropy, while loops)",
        )
    ]


# ---- Estimators: RunConfig(tf_random_seed=...) ---------------------------------------------------

_RUN_ESTIMATORS = """
import os
os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf.layers, rnn_cell and the Estimator need Keras 2
import json, sys
sys.path.insert(0, %r)
import tensorflow as tf
import tf1clip, tf1clip.estimator
import estimator_case
tf1clip.use_tf1_random_seeds()
tf.compat.v1.disable_v2_behavior()
out = dict((kind, estimator_case.run(tf.compat.v1, tf1clip.estimator, kind)) for kind in ("custom", "dnn"))
print("RESULT " + json.dumps(out))
"""


def test_estimators_seeded_by_run_config_match_tf115():
    """A custom Estimator (dense layers, dropout, 3 steps) and a DNNRegressor's initial values, seeded only by
    RunConfig(tf_random_seed=42), equal TF 1.15's."""
    import importlib.util

    from helpers import skip_without_estimator

    if importlib.util.find_spec("tensorflow_estimator") is None:
        skip_without_estimator("tensorflow-estimator is not installed")
    with open(os.path.join(DATA, "refs.json")) as f:
        want = json.load(f)["estimator"]
    got = json.loads(run_python(_RUN_ESTIMATORS % DATA, timeout=600).split("RESULT ", 1)[1])
    assert sorted(got) == sorted(want)
    for kind in want:
        assert sorted(got[kind]) == sorted(want[kind]), kind
        for name, values in want[kind].items():
            np.testing.assert_allclose(got[kind][name], values, rtol=1e-5, atol=1e-6, err_msg=kind + " " + name)
