"""contrib members that are TensorFlow 2 functions under another name convert in every spelling.

``tf.contrib.framework``'s checkpoint readers (TF 1.15's contrib/framework checkpoint_utils: the
same reader, ``:0`` stripping and sorted listing as ``tf.train``'s), ``tf.contrib.util``'s tensor
proto helpers and ``tf.contrib.signal`` (re-exports of TF's tensor_util and tf.signal) become the
TF 2 names; the members without an exact successor stay ERRORs that name where to go. Imports of
TF 1 modules by path (``from tensorflow import gfile``, ``import tensorflow.logging as logging``,
``from tensorflow.train import AdamOptimizer``) become their ``tensorflow.compat.v1`` spelling,
which binds the TF 1 objects on TF 2.
"""

import ast

import pytest
import tensorflow as tf

import tf1clip.contrib.estimator
from helpers import run_python
from tf1clip.upgrade import upgrade_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

# contrib module -> {member: its TF 2 name}
RENAMES = {
    "framework": {
        "list_variables": "tf.train.list_variables",
        "load_variable": "tf.train.load_variable",
        "load_checkpoint": "tf.train.load_checkpoint",
        "init_from_checkpoint": "tf.compat.v1.train.init_from_checkpoint",
    },
    "metrics": {"confusion_matrix": "tf.compat.v1.math.confusion_matrix"},
    "util": {
        "make_tensor_proto": "tf.compat.v1.make_tensor_proto",
        "make_ndarray": "tf.make_ndarray",
    },
    "signal": {
        "stft": "tf.signal.stft",
        "inverse_stft": "tf.signal.inverse_stft",
        "inverse_stft_window_fn": "tf.signal.inverse_stft_window_fn",
        "frame": "tf.signal.frame",
        "frames": "tf.signal.frame",
        "overlap_and_add": "tf.signal.overlap_and_add",
        "hann_window": "tf.signal.hann_window",
        "hamming_window": "tf.signal.hamming_window",
        "linear_to_mel_weight_matrix": "tf.signal.linear_to_mel_weight_matrix",
        "mfccs_from_log_mel_spectrograms": "tf.signal.mfccs_from_log_mel_spectrograms",
    },
}


def _spellings(module, members):
    """{spelling: (import lines, prefix of each use)} for ``tf.contrib.<module>``."""
    return {
        "chain": ("", "tf.contrib.%s." % module),
        "from tensorflow.contrib import M as alias": (
            "from tensorflow.contrib import %s as contrib_%s\n" % (module, module),
            "contrib_%s." % module,
        ),
        "from tensorflow.contrib.M import name": (
            "from tensorflow.contrib.%s import %s\n" % (module, ", ".join(sorted(members))),
            "",
        ),
    }


CASES = [(m, s) for m in sorted(RENAMES) for s in sorted(_spellings(m, RENAMES[m]))]


@pytest.mark.parametrize("module,spelling", CASES)
def test_contrib_member_with_a_tf2_name_converts_in_every_spelling(module, spelling):
    members = RENAMES[module]
    header, prefix = _spellings(module, members)[spelling]
    uses = "".join("u_%s = %s%s\n" % (name, prefix, name) for name in sorted(members))
    result = upgrade_source("import tensorflow as tf\n" + header + uses, target="modern")
    assert not [e for e in result.log if e.severity == "ERROR"], (result.log, result.text)
    assert "tensorflow.contrib" not in result.text and "tf.contrib" not in result.text, result.text
    got = {
        n.targets[0].id[2:]: ast.unparse(n.value)
        for n in ast.parse(result.text).body
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id.startswith("u_")
    }
    assert got == members, result.text


@pytest.mark.parametrize("new", sorted(n for names in RENAMES.values() for n in names.values()))
def test_every_tf2_name_exists(new):
    obj = tf
    for part in new.split(".")[1:]:
        obj = getattr(obj, part)
    assert callable(obj), new


def test_converted_checkpoint_readers_read_a_tf1_checkpoint(tmp_path):
    """The converted program lists and loads what a tf.compat.v1 Saver wrote, as contrib did."""
    source = (
        "import tensorflow as tf\n"
        "def read(path):\n"
        "    names = [n for n, _ in tf.contrib.framework.list_variables(path)]\n"
        "    reader = tf.contrib.framework.load_checkpoint(path)\n"
        "    return names, tf.contrib.framework.load_variable(path, 'b:0'), reader.get_tensor('a')\n"
    )
    result = upgrade_source(source, target="modern")
    with tf.Graph().as_default():
        a = tf.compat.v1.get_variable("a", initializer=[1.0, 2.0])
        b = tf.compat.v1.get_variable("b", initializer=[[3.0]])
        saver = tf.compat.v1.train.Saver([a, b])
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            saver.save(sess, str(tmp_path / "model.ckpt"))
    namespace = {}
    exec(compile(result.text, "converted", "exec"), namespace)
    names, b_value, a_value = namespace["read"](str(tmp_path))
    assert names == ["a", "b"]
    assert b_value.tolist() == [[3.0]] and a_value.tolist() == [1.0, 2.0]


# contrib members with no exact TF 2 name: their ERROR names the successor to port to.
ERROR_SUCCESSORS = {
    "tf.contrib.estimator.replicate_model_fn": "tf.distribute.MirroredStrategy",
    "tf.contrib.estimator.TowerOptimizer": "tf.distribute.MirroredStrategy",
    "tf.contrib.distribute.CollectiveAllReduceStrategy": "tf.distribute",
    "tf.contrib.deprecated.scalar_summary": "tf.compat.v1.summary.scalar",
    "tf.contrib.deprecated.histogram_summary": "tf.compat.v1.summary.histogram",
}


@pytest.mark.parametrize("path", sorted(ERROR_SUCCESSORS))
def test_member_without_an_exact_successor_is_an_error_naming_one(path):
    result = upgrade_source("import tensorflow as tf\nx = %s\n" % path, target="modern")
    errors = [e.message for e in result.log if e.severity == "ERROR"]
    assert len(errors) == 1 and path in errors[0], result.log
    assert ERROR_SUCCESSORS[path] in errors[0], errors[0]


# TF 1 modules imported by name from tensorflow: TF 2 lacks them at the top level or changed their API.
V1_FROM_IMPORTS = ["gfile", "logging", "train", "layers", "losses", "metrics", "summary", "nn", "python_io", "data"]


@pytest.mark.parametrize("asname", [None, "m"])
@pytest.mark.parametrize("module", V1_FROM_IMPORTS)
def test_from_tensorflow_import_of_a_tf1_module_becomes_tf_compat_v1(module, asname):
    """``from tensorflow import gfile [as m]`` -> ``from tensorflow.compat.v1 import gfile [as m]``, which
    imports on TF 2 and has the TF 1 API the uses expect."""
    alias = " as %s" % asname if asname else ""
    result = upgrade_source("from tensorflow import %s%s\n" % (module, alias), target="modern")
    assert not [e for e in result.log if e.severity == "ERROR"], result.log
    assert result.text == "from tensorflow.compat.v1 import %s%s\n" % (module, alias), result.text
    namespace = {}
    exec(result.text, namespace)
    assert namespace[asname or module] is getattr(tf.compat.v1, module)


# tf.compat.v1.layers' members load Keras 2, which this process may not have as tf.keras.
@pytest.mark.parametrize("module", [m for m in V1_FROM_IMPORTS if m != "layers"])
def test_bare_import_of_a_tf1_module_path_and_its_uses_become_tf_compat_v1(module):
    """``import tensorflow.gfile`` binds ``tensorflow``; the import and every ``tensorflow.gfile...`` use
    become ``tensorflow.compat.v1.gfile`` (TF 2 has no ``tensorflow.gfile`` module: the import failed)."""
    member = sorted(n for n in dir(getattr(tf.compat.v1, module)) if not n.startswith("_"))[0]
    source = "import tensorflow.%s\n\nm = tensorflow.%s\nx = tensorflow.%s.%s\n" % (module, module, module, member)
    result = upgrade_source(source, target="modern")
    assert not [e for e in result.log if e.severity in ("ERROR", "WARNING")], result.log
    assert result.text.endswith(
        "import tensorflow.compat.v1.%s\n\nm = tensorflow.compat.v1.%s\nx = tensorflow.compat.v1.%s.%s\n"
        % (module, module, module, member)
    ), result.text
    namespace = {}
    exec(result.text, namespace)
    assert namespace["m"] is getattr(tf.compat.v1, module)
    assert namespace["x"] is getattr(getattr(tf.compat.v1, module), member)


def test_from_tensorflow_import_keeps_tf2_names_and_moves_tf1_modules():
    source = "from tensorflow import app, flags, gfile, logging, keras, Variable\n"
    result = upgrade_source(source, target="modern")
    namespace = {}
    exec(result.text, namespace)
    assert namespace["gfile"] is tf.compat.v1.gfile and namespace["logging"] is tf.compat.v1.logging
    assert namespace["app"] is tf.compat.v1.app and namespace["flags"] is tf.compat.v1.flags
    assert namespace["Variable"] is tf.Variable and namespace["keras"] is tf.keras, result.text


# (TF 1 source, converted source, {name: the tf.compat.v1 object it must bind})
V1_IMPORT_SPELLINGS = [
    ("import tensorflow.gfile as gfile\n", "import tensorflow.compat.v1.gfile as gfile\n", {"gfile": "gfile"}),
    (
        "import tensorflow.logging as logging\n",
        "import tensorflow.compat.v1.logging as logging\n",
        {"logging": "logging"},
    ),
    (
        "from tensorflow.train import AdamOptimizer, Saver\n",
        "from tensorflow.compat.v1.train import AdamOptimizer, Saver\n",
        {"AdamOptimizer": "train.AdamOptimizer", "Saver": "train.Saver"},
    ),
    (
        "from tensorflow.gfile import Exists\n",
        "from tensorflow.compat.v1.gfile import Exists\n",
        {"Exists": "gfile.Exists"},
    ),
    (
        "from tensorflow.nn import rnn_cell as rc\n",
        "from tensorflow.compat.v1.nn import rnn_cell as rc\n",
        {"rc": "nn.rnn_cell"},
    ),
    (
        "from tensorflow.data import Dataset\n",
        "from tensorflow.compat.v1.data import Dataset\n",
        {"Dataset": "data.Dataset"},
    ),
]


@pytest.mark.parametrize("source,converted,bound", V1_IMPORT_SPELLINGS, ids=[c[0].strip() for c in V1_IMPORT_SPELLINGS])
def test_imports_from_a_tf1_module_path_become_tf_compat_v1(source, converted, bound):
    """``import tensorflow.gfile as g`` and ``from tensorflow.train import X`` import TF 1's objects on TF 2."""
    result = upgrade_source(source, target="modern")
    assert not [e for e in result.log if e.severity == "ERROR"], result.log
    assert result.text.endswith(converted), result.text  # after a Keras 2 note where the module needs it
    namespace = {}
    exec(converted, namespace)
    for name, v1_path in bound.items():
        expected = tf.compat.v1
        for part in v1_path.split("."):
            expected = getattr(expected, part)
        assert namespace[name] is expected, (name, v1_path)


# Every head tf1clip.contrib.estimator has (its __all__ but the optimizer decorator).
CONTRIB_HEADS = [name for name in tf1clip.contrib.estimator.__all__ if name.endswith("_head")]
CONTRIB_ESTIMATORS = ["DNNEstimator", "DNNLinearCombinedEstimator", "LinearEstimator"]


@pytest.mark.parametrize("target", ["modern", "estimator"])
@pytest.mark.parametrize("spelling", sorted(_spellings("estimator", ())))
def test_contrib_estimator_heads_and_estimators_convert_in_every_spelling(spelling, target):
    """tf.contrib.estimator's heads become tf1clip.contrib.estimator's (on both targets); its head-taking
    Estimators become the v1 API's: tf1clip.estimator.X (modern), tf.compat.v1.estimator.X (estimator)."""
    members = CONTRIB_HEADS + CONTRIB_ESTIMATORS
    header, prefix = _spellings("estimator", members)[spelling]
    uses = "".join("u_%s = %s%s\n" % (name, prefix, name) for name in members)
    result = upgrade_source("import tensorflow as tf\n" + header + uses, target=target)
    assert not [e for e in result.log if e.severity == "ERROR"], (result.log, result.text)
    assert "tensorflow.contrib" not in result.text and "tf.contrib" not in result.text, result.text
    tree = ast.parse(result.text)
    got = {
        n.targets[0].id[2:]: ast.unparse(n.value)
        for n in tree.body
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id.startswith("u_")
    }
    home = "tf1clip.estimator." if target == "modern" else "tf.compat.v1.estimator."
    assert {name: got[name] for name in CONTRIB_ESTIMATORS} == {name: home + name for name in CONTRIB_ESTIMATORS}
    imports = [
        n
        for n in tree.body
        if isinstance(n, ast.ImportFrom)
        and (n.module or "").startswith("tf1clip.contrib")
        or isinstance(n, ast.Import)
        and n.names[0].name == "tf1clip.contrib"
    ]
    namespace: dict = {}
    exec(compile(ast.Module(body=imports, type_ignores=[]), "<converted>", "exec"), namespace)
    for name in CONTRIB_HEADS:
        assert eval(got[name], namespace) is getattr(tf1clip.contrib.estimator, name), (name, result.text)


# tf.contrib.seq2seq (tf1clip.contrib.seq2seq re-creates all of it): the package's spellings, and each
# implementation module imported by path.
SEQ2SEQ_DECODING = ["BasicDecoder", "GreedyEmbeddingHelper", "TrainingHelper", "dynamic_decode", "sequence_loss"]
SEQ2SEQ_DECODING += ["BeamSearchDecoder", "tile_batch", "gather_tree", "FinalBeamSearchDecoderOutput"]
SEQ2SEQ_SPELLINGS = {
    "chain": ("", "tf.contrib.seq2seq.", "import tf1clip.contrib"),
    "from tensorflow.contrib import seq2seq": (
        "from tensorflow.contrib import seq2seq\n",
        "seq2seq.",
        "from tf1clip.contrib import seq2seq",
    ),
    "import tensorflow.contrib.seq2seq as seq2seq": (
        "import tensorflow.contrib.seq2seq as seq2seq\n",
        "seq2seq.",
        "import tf1clip.contrib.seq2seq as seq2seq",
    ),
    "from tensorflow.contrib.seq2seq import name": (
        "from tensorflow.contrib.seq2seq import %s\n" % ", ".join(SEQ2SEQ_DECODING + ["BahdanauAttention"]),
        "",
        "from tf1clip.contrib.seq2seq import %s" % ", ".join(SEQ2SEQ_DECODING + ["BahdanauAttention"]),
    ),
}


def _upgrade_clean(source):
    result = upgrade_source(source, target="modern")  # on TF 2.15 "auto" is the estimator target: no Keras line
    assert not [e for e in result.log if e.severity == "ERROR"], (result.log, result.text)
    assert "tensorflow.contrib" not in result.text and "tf.contrib" not in result.text, result.text
    return result.text


def _run_imports_and_uses(text):
    """The converted file's tf1clip imports and ``u_`` assignments, executed: {name: value}."""
    tree = ast.parse(text)
    body = [
        n
        for n in tree.body
        if isinstance(n, (ast.Import, ast.ImportFrom))
        and "tf1clip" in ast.unparse(n)
        or isinstance(n, ast.Assign)
        and isinstance(n.targets[0], ast.Name)
        and n.targets[0].id.startswith("u_")
    ]
    namespace: dict = {}
    exec(compile(ast.Module(body=body, type_ignores=[]), "<converted>", "exec"), namespace)
    return {k[2:]: v for k, v in namespace.items() if k.startswith("u_")}


@pytest.mark.parametrize("spelling", sorted(SEQ2SEQ_SPELLINGS))
def test_contrib_seq2seq_converts_in_every_spelling_without_error(spelling):
    header, prefix, import_line = SEQ2SEQ_SPELLINGS[spelling]
    uses = "".join("u_%s = %s%s\n" % (name, prefix, name) for name in SEQ2SEQ_DECODING)
    text = _upgrade_clean("import tensorflow as tf\n" + header + uses + "a = %sBahdanauAttention\n" % prefix)
    assert import_line in text.splitlines(), text
    assert 'os.environ["TF_USE_LEGACY_KERAS"] = "1"' in text
    assert "tf.compat.v1.disable_v2_behavior()" in text
    # The converted imports run where they would: with Keras 2 (attention_wrapper builds on rnn_cell).
    out = run_python(
        """
        import os, sys
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
        sys.path[:0] = ["tests", "tests/subprocess"]
        import tf1clip.contrib.seq2seq as seq2seq
        import test_upgrade_contrib_renames as t
        got = t._run_imports_and_uses(%r)
        print(sorted(got), all(v is getattr(seq2seq, n) for n, v in got.items()))
        """
        % text
    )
    assert out.split("\n")[-2] == "%s True" % sorted(SEQ2SEQ_DECODING)


@pytest.mark.parametrize(
    "module, names",
    [
        ("decoder", ["Decoder", "dynamic_decode"]),
        ("basic_decoder", ["BasicDecoder", "BasicDecoderOutput"]),
        ("helper", ["TrainingHelper", "GreedyEmbeddingHelper", "ScheduledOutputTrainingHelper", "CustomHelper"]),
        ("beam_search_decoder", ["BeamSearchDecoder", "tile_batch", "gather_tree_from_array"]),
        ("beam_search_ops", ["gather_tree"]),
        ("loss", ["sequence_loss"]),
    ],
)
def test_contrib_seq2seq_implementation_modules_convert(module, names):
    import importlib

    target = importlib.import_module("tf1clip.contrib.seq2seq." + module)
    source = "import tensorflow as tf\nfrom tensorflow.contrib.seq2seq.python.ops import %s\n" % module
    source += "".join("u_%s = %s.%s\n" % (name, module, name) for name in names)
    source += "from tensorflow.contrib.seq2seq.python.ops.%s import %s\n" % (module, names[0])
    source += "u_first = %s\n" % names[0]
    text = _upgrade_clean(source)
    assert "from tf1clip.contrib.seq2seq import %s" % module in text.splitlines(), text
    got = _run_imports_and_uses(text)
    assert got == dict({name: getattr(target, name) for name in names}, first=getattr(target, names[0]))
