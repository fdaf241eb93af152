"""Tests for the tf1clip-upgrade command (tf1clip/upgrade.py).

The TF 1.15-era programs in tests/data/tf1_programs are upgraded by the command, then
run on TF 2.21 in ONE subprocess (PTB first, so its own TF_USE_LEGACY_KERAS line is what
makes tf.nn.rnn_cell work), and their printed numbers are compared with NumPy references
(linear models, the two-layer net) and a hand-written tf.compat.v1 LSTM (PTB model).
"""

import ast
import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

from tf1clip import upgrade
from tf1clip.upgrade import _routes

v1 = tf.compat.v1

# pasta's visitors define visit_Str/visit_Num, which Python 3.8+ deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf1_programs")
RUNNABLE = os.path.join(DATA, "runnable")
UNSUPPORTED = os.path.join(DATA, "unsupported", "contrib_unsupported.py")
SLIM_FAMILY = os.path.join(DATA, "slim_family", "contrib_layers_model.py")
SUBPROCESS_TIMEOUT = 300

_RUNNER = r"""
import contextlib, io, json, runpy, sys
results = {}
for path in sys.argv[1:]:
    if "tensorflow" in sys.modules:
        sys.modules["tensorflow"].compat.v1.reset_default_graph()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if path.endswith(".ipynb"):
            with open(path) as f:
                cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
            code = "\n".join("".join(l for l in c["source"] if not l.startswith(("%", "!")))
                             for c in cells)
            exec(compile(code, path, "exec"), {"__name__": "__main__"})
        else:
            runpy.run_path(path, run_name="__main__")
    lines = [l for l in out.getvalue().splitlines() if l.startswith("RESULT ")]
    results[path.replace("\\", "/").rsplit("/", 1)[-1]] = json.loads(lines[-1][len("RESULT "):])
print("RESULTS " + json.dumps(results))
"""


def _env():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env.pop("TF_USE_LEGACY_KERAS", None)
    return env


def _run(args, tmp_path):
    """Runs the command in-process for the TF 2.16+ target; returns (exit status, report text).

    ``--target modern`` unless ``args`` name a target: on TensorFlow 2.15 with Estimator
    installed the default (auto) would pick the estimator target.
    """
    report = str(tmp_path / "report.txt")
    target = [] if "--target" in args else ["--target", "modern"]
    status = upgrade.main(list(args) + target + ["--reportfile", report])
    with open(report) as f:
        return status, f.read()


def _convert(source, tmp_path, *extra):
    """Upgrades ``source`` (dedented) as a file; returns (status, new source, report)."""
    old, new = tmp_path / "old.py", tmp_path / "new.py"
    old.write_text(textwrap.dedent(source))
    status, report = _run(["--infile", str(old), "--outfile", str(new)] + list(extra), tmp_path)
    return status, new.read_text(), report


def _contrib_references(source):
    """Dotted names and imports in ``source``'s code that still point into contrib."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and ast.unparse(node).startswith("tf.contrib"):
            found.append(ast.unparse(node))
        elif (
            isinstance(node, (ast.Import, ast.ImportFrom))
            and "contrib" in ast.unparse(node)
            and "tf1clip" not in ast.unparse(node)
        ):
            found.append(ast.unparse(node))
    return found


def _errors(report):
    return [line for line in report.split("Detailed log follows")[0].splitlines() if ": ERROR: " in line]


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory):
    """The runnable programs upgraded as one tree: (output dir, status, report)."""
    tmp = tmp_path_factory.mktemp("upgraded")
    out = tmp / "out"
    status, report = _run(["--intree", RUNNABLE, "--outtree", str(out)], tmp)
    return out, status, report


@pytest.fixture(scope="module")
def results(upgraded):
    """Runs every upgraded program in one fresh subprocess; their RESULT dicts by file name."""
    out = upgraded[0]
    runner = out.parent / "runner.py"
    runner.write_text(_RUNNER)
    programs = sorted(p.name for p in out.iterdir() if p.suffix in (".py", ".ipynb"))
    programs.remove("ptb_lstm.py")
    programs.insert(0, "ptb_lstm.py")
    proc = subprocess.run(
        [sys.executable, str(runner)] + [str(out / p) for p in programs],
        cwd=str(out),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    line = [l for l in proc.stdout.splitlines() if l.startswith("RESULTS ")][-1]
    return json.loads(line[len("RESULTS ") :])


# ---- NumPy references for the linear-regression programs -------------------------------


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(8, 3).astype(np.float32)
    y = (x.dot(np.array([[1.0], [-2.0], [3.0]])) + 0.5).astype(np.float32)
    return x.astype(np.float64), y.astype(np.float64)


def _norm(grads):
    return np.sqrt(sum(np.sum(g * g) for g in grads))


def _clip_global(clip_norm, norms=None):
    def transform(grads):
        norm = _norm(grads)
        if norms is not None:
            norms.append(norm)
        return [g * min(1.0, clip_norm / norm) for g in grads]

    return transform


def _clip_each(clip_norm):
    return lambda grads: [g * min(1.0, clip_norm / _norm([g])) for g in grads]


def _times(index, multiplier):
    return lambda grads: [g * multiplier if i == index else g for i, g in enumerate(grads)]


def _chain(*transforms):
    def transform(grads):
        for t in transforms:
            grads = t(grads)
        return grads

    return transform


def _adaptive(decay, std_factor=2.0, epsilon=1e-8):
    """contrib's adaptive_clipping_fn as the spec gives it (spec/contrib.md section 3.4)."""
    state = {"mean": 0.0, "sq_mean": 0.0}

    def transform(grads):
        norm = _norm(grads)
        log_norm = np.log(norm + epsilon)
        state["mean"] -= (1 - decay) * (state["mean"] - log_norm)
        state["sq_mean"] -= (1 - decay) * (state["sq_mean"] - log_norm**2)
        std = np.sqrt(max(epsilon, state["sq_mean"] - state["mean"] ** 2))
        max_norm = np.exp(state["mean"] + std_factor * std)
        factor = 1.0 if norm < max_norm else np.exp(state["mean"]) / norm
        return [g * factor for g in grads]

    return transform


def _sgd(lr):
    def apply(params, grads, step):
        for p, g in zip(params, grads):
            p -= lr * g

    return apply


def _momentum(lr, momentum):
    accumulators = {}

    def apply(params, grads, step):
        for i, (p, g) in enumerate(zip(params, grads)):
            accumulators[i] = momentum * accumulators.get(i, 0.0) + g
            p -= lr * accumulators[i]

    return apply


def _adam(lr, beta1=0.9, beta2=0.999, epsilon=1e-8):
    m, v = {}, {}

    def apply(params, grads, step):
        lr_t = lr * np.sqrt(1 - beta2**step) / (1 - beta1**step)
        for i, (p, g) in enumerate(zip(params, grads)):
            m[i] = beta1 * m.get(i, 0.0) + (1 - beta1) * g
            v[i] = beta2 * v.get(i, 0.0) + (1 - beta2) * g * g
            p -= lr_t * m[i] / (np.sqrt(v[i]) + epsilon)

    return apply


def _linear(transform, optimizer, steps=3):
    """Full-batch steps of y ~ x.w + b, MSE loss, from zeros; what the programs print."""
    x, y = _data()
    params = [np.zeros((3, 1)), np.zeros(1)]
    losses = []
    for step in range(1, steps + 1):
        residual = x.dot(params[0]) + params[1] - y
        losses.append(np.mean(residual**2))
        grads = [2.0 * x.T.dot(residual) / len(x), np.array([2.0 * residual.mean()])]
        optimizer(params, transform(grads), step)
    return {"losses": losses, "w": params[0].ravel(), "b": params[1], "global_step": steps}


def _assert_close(actual, expected, rtol=1e-5, atol=1e-6):
    assert sorted(actual) == sorted(expected)
    for key, value in expected.items():
        np.testing.assert_allclose(actual[key], value, rtol=rtol, atol=atol, err_msg=key)


LINEAR_REFERENCES = {
    "estimator_clip_gradients_by_norm.py": lambda: _linear(_clip_global(1.0), _sgd(0.1)),
    "layers_optimize_loss.py": lambda: _linear(_clip_global(1.0), _adam(0.1)),
    "layers_adaptive_clipping.py": lambda: _linear(_chain(_times(1, 2.0), _adaptive(decay=0.9)), _sgd(0.1)),
    "slim_create_train_op.py": lambda: _linear(_chain(_times(1, 2.0), _clip_each(0.5)), _momentum(0.05, 0.9)),
    "slim_learning_helpers.py": lambda: _linear(_chain(_times(0, 0.5), _clip_each(0.3)), _sgd(0.1)),
    "slim_notebook.ipynb": lambda: _linear(_clip_each(1.0), _adam(0.05)),
}


@pytest.mark.parametrize("program", sorted(LINEAR_REFERENCES))
def test_upgraded_program_reproduces_reference(results, program):
    result = dict(results[program])
    extras = {k: result.pop(k) for k in ("summary_bytes", "adaptive_vars") if k in result}
    _assert_close(result, LINEAR_REFERENCES[program]())
    if "summary_bytes" in extras:
        assert extras["summary_bytes"] is True
    if "adaptive_vars" in extras:
        assert extras["adaptive_vars"] == ["OptimizeLoss/AdaptiveMaxNorm/mean", "OptimizeLoss/AdaptiveMaxNorm/sq_mean"]


def test_upgraded_training_program_reproduces_reference(results):
    result = results["training_create_train_op.py"]
    _assert_close(result["clip_each"], _linear(_clip_each(0.5), _sgd(0.1)))
    _assert_close(result["multiply_then_clip"], _linear(_chain(_times(0, 3.0), _clip_each(0.5)), _momentum(0.05, 0.9)))


def test_upgraded_opt_program_reproduces_reference(results):
    norms = []
    expected = _linear(_clip_global(1.0, norms), _momentum(0.05, 0.9))
    expected["norms"] = norms
    assert min(norms) > 1.0  # every step clips
    _assert_close(results["opt_clip_gradients_by_global_norm.py"], expected)


def test_upgraded_keras_layers_program_reproduces_reference(results):
    """tf.layers.dense + tf.keras.layers.Dense, optimize_loss(clip_gradients=0.5), Momentum."""
    x, y = _data()
    init = np.random.RandomState(7)
    params = {
        "hidden/kernel": init.uniform(-0.5, 0.5, (3, 4)).astype(np.float32).astype(np.float64),
        "hidden/bias": np.full(4, 0.1),
        "output/kernel": init.uniform(-0.5, 0.5, (4, 1)).astype(np.float32).astype(np.float64),
        "output/bias": np.zeros(1),
    }
    names = sorted(params)
    apply = _momentum(0.05, 0.9)
    losses = []
    for step in range(1, 4):
        pre = x.dot(params["hidden/kernel"]) + params["hidden/bias"]
        hidden = np.maximum(pre, 0.0)
        residual = hidden.dot(params["output/kernel"]) + params["output/bias"] - y
        losses.append(np.mean(residual**2))
        d_out = 2.0 * residual / len(x)
        d_pre = d_out.dot(params["output/kernel"].T) * (pre > 0)
        grads = {
            "output/kernel": hidden.T.dot(d_out),
            "output/bias": d_out.sum(0),
            "hidden/kernel": x.T.dot(d_pre),
            "hidden/bias": d_pre.sum(0),
        }
        ordered = _clip_global(0.5)([grads[n] for n in names])
        values = [params[n] for n in names]
        apply(values, ordered, step)
    result = results["layers_dense_keras.py"]
    np.testing.assert_allclose(result["losses"], losses, rtol=1e-5)
    assert sorted(result["variables"]) == names
    for name in names:
        np.testing.assert_allclose(result["variables"][name], params[name].ravel(), rtol=1e-5, atol=1e-6, err_msg=name)


PTB_VARIABLES = [
    ("Model/embedding", (10, 8)),
    ("Model/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias", (32,)),
    ("Model/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel", (16, 32)),
    ("Model/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias", (32,)),
    ("Model/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel", (16, 32)),
    ("Model/softmax_b", (10,)),
    ("Model/softmax_w", (8, 10)),
]


def _ptb_reference():
    """The PTB program's model, hand-written in tf.compat.v1 ops (LSTM gates i, j, f, o)."""
    vocab, size, steps, batch = 10, 8, 5, 2
    raw = np.random.RandomState(0).randint(0, vocab, size=32)
    data = raw.reshape(batch, -1)
    batches = [
        (data[:, i * steps : (i + 1) * steps], data[:, i * steps + 1 : (i + 1) * steps + 1])
        for i in range((data.shape[1] - 1) // steps)
    ]
    rng = np.random.RandomState(1234)
    initial = {name: rng.uniform(-0.1, 0.1, shape) for name, shape in PTB_VARIABLES}
    with tf.Graph().as_default():
        var = {name: tf.Variable(value.astype(np.float32)) for name, value in initial.items()}
        x = v1.placeholder(tf.int32, [batch, steps])
        y = v1.placeholder(tf.int32, [batch, steps])
        state_in = [
            (v1.placeholder(tf.float32, [batch, size]), v1.placeholder(tf.float32, [batch, size])) for _ in range(2)
        ]
        inputs = tf.einsum("btv,vh->bth", tf.one_hot(x, vocab), var["Model/embedding"])
        state, outputs = list(state_in), []
        for t in range(steps):
            layer_input = inputs[:, t, :]
            for layer in range(2):
                prefix = "Model/rnn/multi_rnn_cell/cell_%d/basic_lstm_cell/" % layer
                c, h = state[layer]
                gates = tf.matmul(tf.concat([layer_input, h], 1), var[prefix + "kernel"])
                i, j, f, o = tf.split(gates + var[prefix + "bias"], 4, axis=1)
                c = c * tf.sigmoid(f) + tf.sigmoid(i) * tf.tanh(j)
                h = tf.tanh(c) * tf.sigmoid(o)
                state[layer] = (c, h)
                layer_input = h
            outputs.append(layer_input)
        logits = tf.matmul(tf.reshape(tf.stack(outputs, 1), [-1, size]), var["Model/softmax_w"])
        logits += var["Model/softmax_b"]
        labels = tf.one_hot(tf.reshape(y, [-1]), vocab)
        cost = tf.reduce_sum(tf.reduce_logsumexp(logits, 1) - tf.reduce_sum(labels * logits, 1)) / batch
        names = sorted(var)
        grads = tf.gradients(cost, [var[n] for n in names])
        norm = tf.sqrt(tf.add_n([tf.reduce_sum(tf.square(g)) for g in grads]))
        scale = 1.0 / tf.maximum(norm, 1.0)  # max_grad_norm 1.0, learning rate 1.0
        updates = [var[n].assign_sub(scale * g) for n, g in zip(names, grads)]
        costs, norms = [], []
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            carried = [(np.zeros((batch, size)), np.zeros((batch, size)))] * 2
            for bx, by in batches:
                feed = {x: bx, y: by}
                for (c_in, h_in), (c_val, h_val) in zip(state_in, carried):
                    feed[c_in], feed[h_in] = c_val, h_val
                cost_value, norm_value, carried, _ = sess.run([cost, norm, state, updates], feed)
                costs.append(cost_value)
                norms.append(norm_value)
            values = dict(zip(names, sess.run([var[n] for n in names])))
    return costs, norms, values


def test_upgraded_ptb_lstm_reproduces_hand_written_reference(results):
    result = results["ptb_lstm.py"]
    costs, norms, values = _ptb_reference()
    assert len(result["costs"]) == 3
    assert max(norms) > 1.0  # the clipping is exercised
    np.testing.assert_allclose(result["costs"], costs, rtol=1e-5)
    np.testing.assert_allclose(result["norms"], norms, rtol=1e-5)
    assert sorted(result["variables"]) == [name for name, _ in PTB_VARIABLES]
    for name, value in values.items():
        np.testing.assert_allclose(result["variables"][name], value.ravel(), rtol=1e-4, atol=1e-6, err_msg=name)


# ---- the converted text ------------------------------------------------------------------


def test_tree_is_converted_without_errors_and_other_files_are_copied(upgraded):
    out, status, report = upgraded
    assert status == 0
    assert "Converted 10 files" in report
    assert "(0 errors)" in report and not _errors(report)
    for name in ("README.txt", "hparams.json"):
        with open(os.path.join(RUNNABLE, name), "rb") as a, open(out / name, "rb") as b:
            assert a.read() == b.read()
    for name in os.listdir(RUNNABLE):
        if name.endswith(".py"):
            assert _contrib_references((out / name).read_text()) == [], name


def test_copyotherfiles_false_copies_only_converted_files(tmp_path):
    out = tmp_path / "out"
    status, _ = _run(["--intree", RUNNABLE, "--outtree", str(out), "--copyotherfiles", "False"], tmp_path)
    assert status == 0
    names = sorted(os.listdir(out))
    assert names == sorted(n for n in os.listdir(RUNNABLE) if n.endswith((".py", ".ipynb")))


def test_every_spelling_is_rewritten_and_arguments_are_kept(upgraded):
    out = upgraded[0]

    def text(name):
        return (out / name).read_text()

    assert "tf1clip.contrib.estimator.clip_gradients_by_norm(\n" in text("estimator_clip_gradients_by_norm.py")
    assert "global_step = tf1clip.contrib.framework.get_or_create_global_step()" in text(
        "estimator_clip_gradients_by_norm.py"
    )
    layers = text("layers_optimize_loss.py")
    assert "from tf1clip.contrib.layers import optimize_loss\n" in layers
    assert "global_step=tf1clip.contrib.framework.get_global_step()," in layers
    assert "summaries=tf1clip.contrib.layers.OPTIMIZER_SUMMARIES," in layers
    assert "colocate_gradients_with_ops=True)" in layers
    adaptive = text("layers_adaptive_clipping.py")
    assert "from tf1clip.contrib import layers as optimizers_lib\n" in adaptive
    assert 'optimizer=tf1clip.contrib.layers.OPTIMIZER_CLS_NAMES["SGD"],' in adaptive
    assert "clip_gradients=optimizers_lib.adaptive_clipping_fn(decay=0.9))" in adaptive
    training = text("training_create_train_op.py")
    assert "from tf1clip.contrib import training as contrib_training\n" in training
    assert "tf1clip.contrib.training.multiply_gradients(grads_and_vars, {w: 3.0})" in training
    assert training.count("colocate_gradients_with_ops=True)") == 1
    slim = text("slim_create_train_op.py")
    assert "import tf1clip.contrib.slim as slim\n" in slim
    assert "train_op = slim.learning.create_train_op(" in slim
    assert "colocate_gradients_with_ops=True)" in slim
    assert "slim = tf1clip.contrib.slim\n" in text("slim_learning_helpers.py")
    assert "tf1clip.contrib.opt.clip_gradients_by_global_norm(" in text("opt_clip_gradients_by_global_norm.py")


def test_import_graph_mode_and_legacy_keras_lines_are_added_once_where_needed(upgraded):
    out, _, report = upgraded
    disable = "tf.compat.v1.disable_v2_behavior()"
    for name in sorted(os.listdir(out)):
        if not name.endswith(".py"):
            continue
        lines = (out / name).read_text().splitlines()
        tf_index = lines.index("import tensorflow as tf")
        assert sum(disable in line for line in lines) == 1, name
        extra = lines[tf_index + 1 : tf_index + 3]
        assert disable in extra[-1] or disable in extra[0], name
        uses_tf1clip = any("tf1clip.contrib." in l and not l.startswith(("import", "from")) for l in lines)
        assert lines.count("import tf1clip.contrib") == (1 if uses_tf1clip else 0), name
        if uses_tf1clip:
            assert lines[tf_index + 1] == "import tf1clip.contrib", name
        legacy = [i for i, l in enumerate(lines) if l.startswith('os.environ["TF_USE_LEGACY_KERAS"] = "1"')]
        needs_keras = name in ("ptb_lstm.py", "layers_dense_keras.py")
        assert len(legacy) == (1 if needs_keras else 0), name
        if needs_keras:
            assert lines[legacy[0] - 1] == "import os" and legacy[0] < tf_index, name
    assert "needs graph mode and TF 1 semantics, which TensorFlow 2 turns off" in report
    assert "tf.compat.v1.nn.rnn_cell.BasicLSTMCell needs Keras 2" in report
    summary = report.split("Added so that the code runs on TensorFlow 2")[1].split("-" * 80)[0]
    assert 'ptb_lstm.py: os.environ["TF_USE_LEGACY_KERAS"] = "1"; tf.compat.v1.disable_v2_behavior()\n' in summary
    assert "slim_learning_helpers.py: import tf1clip.contrib; tf.compat.v1.disable_v2_behavior()\n" in summary
    ptb = (out / "ptb_lstm.py").read_text()
    assert ptb.startswith('"""A small PTB-style LSTM')  # docstring and __future__ stay first
    assert "from __future__ import print_function\n\nimport os\n" in ptb


def test_second_run_changes_nothing(upgraded, tmp_path):
    out = upgraded[0]
    again = tmp_path / "again"
    status, report = _run(["--intree", str(out), "--outtree", str(again)], tmp_path)
    assert status == 0
    for name in sorted(os.listdir(out)):
        assert (again / name).read_bytes() == (out / name).read_bytes(), name
    assert "INFO" not in report.split("Detailed log follows")[1]


def test_notebook_is_converted_cell_by_cell(tmp_path):
    source = os.path.join(RUNNABLE, "slim_notebook.ipynb")
    out = tmp_path / "out.ipynb"
    status, report = _run(["--infile", source, "--outfile", str(out)], tmp_path)
    assert status == 0, report
    with open(source) as f:
        before = json.load(f)
    after = json.loads(out.read_text())
    assert [c["cell_type"] for c in after["cells"]] == [c["cell_type"] for c in before["cells"]]
    assert after["cells"][0] == before["cells"][0]  # markdown untouched
    # Its kernel is Python 2: converted as Python 2, and its kernel is now python3 (docs/upgrade.rst, "Python 2 sources").
    assert before["metadata"]["kernelspec"]["name"] == "python2"
    assert after["metadata"]["kernelspec"] == {"display_name": "Python 3", "language": "python", "name": "python3"}
    assert after["metadata"]["language_info"] == {"name": "python", "pygments_lexer": "ipython3"}
    others = [
        {k: v for k, v in m["metadata"].items() if k not in ("kernelspec", "language_info")} for m in (before, after)
    ]
    assert others[0] == others[1]
    assert after["cells"][1]["source"] == [
        "%matplotlib inline\n",
        "import json\n",
        "\n",
        "import numpy as np\n",
        "import tensorflow as tf\n",
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: placeholders and Sessions need TF 1 behavior\n",
        "from tf1clip.contrib import slim",
    ]
    code = "".join(after["cells"][2]["source"])
    assert "tf.compat.v1.placeholder(tf.float32" in code
    assert "slim.learning.create_train_op(loss, tf.compat.v1.train.AdamOptimizer(0.05)," in code
    again = tmp_path / "again.ipynb"
    assert _run(["--infile", str(out), "--outfile", str(again)], tmp_path)[0] == 0
    assert again.read_text() == out.read_text()


def test_inplace_file_and_tree_match_outfile_conversion(upgraded, tmp_path):
    out = upgraded[0]
    tree = tmp_path / "tree"
    shutil.copytree(RUNNABLE, tree)
    single = tree / "slim_learning_helpers.py"
    assert _run(["--infile", str(single), "--inplace"], tmp_path)[0] == 0
    assert single.read_text() == (out / single.name).read_text()
    assert _run(["--intree", str(tree), "--inplace"], tmp_path)[0] == 0
    for name in sorted(os.listdir(out)):
        assert (tree / name).read_bytes() == (out / name).read_bytes(), name


def test_unsupported_contrib_symbols_are_errors_naming_the_successor(tmp_path):
    out = tmp_path / "out.py"
    status, report = _run(["--infile", UNSUPPORTED, "--outfile", str(out)], tmp_path)
    assert status == 1
    errors = _errors(report)
    assert all(e.startswith(UNSUPPORTED + ":") for e in errors)
    located = [(int(e.split(":")[1]), e.split(": ERROR: ")[1]) for e in errors]
    # tfgan (3, 9) is routed to TF-GAN; line 4, ``from tensorflow.contrib import cudnn_rnn``, becomes
    # tf1clip.contrib.cudnn_rnn, which re-creates CudnnLSTM (line 8); learn.LinearClassifier is re-created too.
    assert [line for line, _ in located] == [5, 10, 11, 12, 13, 14]
    successors = {
        5: "tf.compat.v1.train optimizer",
        10: "tensorflow-model-optimization",
        11: "keep this program on TensorFlow 1.15",  # contrib.timeseries: no maintained successor
        12: "tf.compat.v1.train optimizer",
        13: "tf.compat.v1.train",
        14: "tf.compat.v1.nn.rnn_cell",
    }
    for line, message in located:
        assert successors[line] in message, (line, message)
    assert "(6 errors)" in report
    text = out.read_text()  # written anyway, with what could be converted
    assert 'optimizer = getattr(tf.contrib.opt, "DelayCompensatedGradientDescentOptimizer")(0.1)\n' in text
    assert "x = tf.compat.v1.placeholder(tf.float32, [None, 8])\n" in text


def test_slim_family_is_routed_to_tf1clip_contrib_with_one_info_line(tmp_path):
    out = tmp_path / "out.py"
    status, report = _run(["--infile", SLIM_FAMILY, "--outfile", str(out)], tmp_path)
    assert status == 0 and not _errors(report), report
    assert report.count("pip install 'tf1clip[slim]'") == 3  # the summary, the one INFO line, the install line
    text = out.read_text()
    assert "import tf1clip.contrib.slim as slim\n" in text
    assert "from tf1clip.contrib.layers import l2_regularizer, optimize_loss\n" in text
    assert "arg_scope = tf1clip.contrib.framework.arg_scope\n" in text
    assert "prediction = tf1clip.contrib.layers.fully_connected(hidden, 1, activation_fn=None)\n" in text
    assert "eval_op = slim.learning.create_train_op(loss, tf.compat.v1.train.AdamOptimizer(0.01))" in text


def test_console_script_and_module_run_and_set_exit_status(upgraded, tmp_path):
    """``tf1clip-upgrade --infile old.py --outfile new.py && python new.py``, then ``-m``."""
    script = shutil.which("tf1clip-upgrade")
    if script is None:
        pytest.skip("the tf1clip-upgrade console script is not installed (pip install -e .)")
    old = os.path.join(RUNNABLE, "estimator_clip_gradients_by_norm.py")
    command = (
        '"{script}" --infile "{old}" --outfile new.py --reportfile r1.txt > log1.txt '
        '&& "{py}" new.py > run.txt '
        '&& "{py}" -m tf1clip.upgrade --infile "{bad}" --outfile bad.py --reportfile r2.txt '
        '> log2.txt; echo "status=$?"'
    ).format(script=script, old=old, py=sys.executable, bad=UNSUPPORTED)
    proc = subprocess.run(
        ["bash", "-c", command],
        cwd=str(tmp_path),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
    )
    assert proc.stdout.strip().endswith("status=1"), proc.stdout + proc.stderr[-3000:]
    result = json.loads((tmp_path / "run.txt").read_text().split("RESULT ", 1)[1])
    _assert_close(result, LINEAR_REFERENCES["estimator_clip_gradients_by_norm.py"]())
    assert (tmp_path / "new.py").read_text() == (upgraded[0] / "estimator_clip_gradients_by_norm.py").read_text()
    assert "Make sure to read the detailed log 'r2.txt'" in (tmp_path / "log2.txt").read_text()


# ---- rewriting rules on small sources ----------------------------------------------------


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "import tensorflow as tf\nfn = tf.contrib.layers.adaptive_clipping_fn()\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nfn = tf1clip.contrib.layers.adaptive_clipping_fn()\n",
        ),
        (
            "from tensorflow.contrib.layers.python.layers.optimizers import adaptive_clipping_fn\n",
            "from tf1clip.contrib.layers import adaptive_clipping_fn\n",
        ),
        ("from tensorflow.contrib.slim.python.slim import learning\n", "from tf1clip.contrib.slim import learning\n"),
        (
            "from tensorflow import contrib\nop = contrib.training.create_train_op(loss, opt)\n",
            "from tf1clip import contrib\nop = contrib.training.create_train_op(loss, opt)\n",
        ),
        (
            "import tensorflow.contrib.slim\nop = tensorflow.contrib.slim.learning.create_train_op(l, o)\n",
            "import tf1clip.contrib.slim\nop = tf1clip.contrib.slim.learning.create_train_op(l, o)\n",
        ),
        (
            "import tensorflow as tf\nlayers = tf.contrib.layers\nol = layers.optimize_loss\n"
            "names = layers.OPTIMIZER_CLS_NAMES.keys()\n",
            "import tensorflow as tf\nimport tf1clip.contrib\ntf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: TF 1 graph code needs TF 1 behavior\n"
            "layers = tf1clip.contrib.layers\nol = layers.optimize_loss\nnames = layers.OPTIMIZER_CLS_NAMES.keys()\n",
        ),
        (
            "import tensorflow as tf\nnames = tf.contrib.layers.OPTIMIZER_CLS_NAMES.keys()\n",
            "import tensorflow as tf\nimport tf1clip.contrib\n"
            "names = tf1clip.contrib.layers.OPTIMIZER_CLS_NAMES.keys()\n",
        ),
        (
            "import tensorflow as tf\nslim = tf.contrib.slim\nlearning = slim.learning\n"
            "step = slim.get_or_create_global_step()\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nslim = tf1clip.contrib.slim\n"
            "learning = slim.learning\nstep = slim.get_or_create_global_step()\n",
        ),
        (
            "from tensorflow.contrib.layers import (optimize_loss,  # the one we use\n"
            "                                       OPTIMIZER_SUMMARIES)\n",
            "from tf1clip.contrib.layers import (optimize_loss,  # the one we use\n"
            "                                       OPTIMIZER_SUMMARIES)\n",
        ),
        (
            "import tensorflow as tf\nimport tf1clip\nx = tf1clip.contrib.opt.clip_gradients_by_global_norm(g)\n",
            "import tensorflow as tf\nimport tf1clip.contrib\nimport tf1clip\n"
            "x = tf1clip.contrib.opt.clip_gradients_by_global_norm(g)\n",
        ),
        (
            "import tensorflow as tf\nimport tf1clip\nopt = tf1clip.clip_gradients_by_norm(o, 1.0)\n",
            "import tensorflow as tf\nimport tf1clip\nopt = tf1clip.clip_gradients_by_norm(o, 1.0)\n",
        ),
    ],
)
def test_rewrites(tmp_path, before, after):
    status, text, report = _convert(before, tmp_path)
    assert (status, text) == (0, after), report


def test_keeps_colocate_gradients_with_ops_where_tf1clip_takes_it(tmp_path):
    status, text, _ = _convert(
        """\
        import tensorflow as tf
        slim = tf.contrib.slim
        a = tf.contrib.layers.optimize_loss(loss, step, 0.1, "SGD", colocate_gradients_with_ops=True)
        b = tf.contrib.training.create_train_op(loss, opt, colocate_gradients_with_ops=True)
        c = slim.learning.create_train_op(loss, opt, colocate_gradients_with_ops=True)
        d = opt.minimize(loss, colocate_gradients_with_ops=True)
        """,
        tmp_path,
    )
    assert status == 0
    assert text.count("colocate_gradients_with_ops=True") == 3
    assert "tf1clip.contrib.layers.optimize_loss(" in text
    assert "tf1clip.contrib.training.create_train_op(" in text
    assert "d = opt.minimize(loss)\n" in text  # what tf_upgrade_v2 does to Optimizer.minimize


def test_alias_of_a_contrib_symbol_tf_upgrade_v2_knows_is_converted_by_it(tmp_path):
    status, text, report = _convert(
        """\
        import tensorflow as tf
        framework = tf.contrib.framework
        order = framework.argsort(x)
        init = framework.get_variables()
        """,
        tmp_path,
    )
    assert status == 0, report
    assert text == (
        "import tensorflow as tf\nimport tf1clip.contrib\nframework = tf1clip.contrib.framework\n"
        "order = tf.argsort(x)\ninit = framework.get_variables()\n"
    )
    assert "Renamed 'framework.argsort' to 'tf.contrib.framework.argsort' so that tf_upgrade_v2 converts it" in report


def test_imports_of_unprovided_contrib_are_errors_but_convertible_uses_are_converted(tmp_path):
    status, text, report = _convert(
        """\
        import tensorflow as tf
        import tensorflow.contrib.rnn as rnn
        from tensorflow.contrib.layers import *
        cell = rnn.LSTMCell(4)
        op = getattr(tf.contrib.layers, "optimize_loss")
        """,
        tmp_path,
    )
    assert status == 1
    errors = [e.split("old.py:")[1] for e in _errors(report)]
    assert len(errors) == 1
    assert errors[0].startswith("3:0: ERROR: from tensorflow.contrib.layers import * fails")
    assert "import tensorflow.contrib.rnn" not in text  # every use was converted
    assert "cell = tf.compat.v1.nn.rnn_cell.LSTMCell(4)\n" in text
    assert 'op = getattr(tf1clip.contrib.layers, "optimize_loss")\n' in text


def test_graph_mode_is_added_only_when_needed(tmp_path):
    eager = "import tensorflow as tf\nx = tf.constant(1.0)\nmodel = tf.keras.Sequential()\n"
    status, text, _ = _convert(eager, tmp_path)
    assert (status, text) == (0, eager)  # TF2-style Keras code: no graph mode, no legacy Keras
    for explicit in (
        "tf.enable_eager_execution()",
        "tf.compat.v1.disable_eager_execution()",
        "tf.compat.v1.disable_v2_behavior()",
    ):
        source = "import tensorflow as tf\n%s\nx = tf.placeholder(tf.float32)\n" % explicit
        text = _convert(source, tmp_path)[1]
        assert "# tf1clip-upgrade" not in text and text.count(explicit.split(".")[-1]) == 1
    status, text, report = _convert(
        """\
        import numpy as np
        try:
            import tensorflow as tf
        except ImportError:
            raise
        sess = tf.Session()
        """,
        tmp_path,
    )
    assert text.splitlines()[5] == (
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: placeholders and Sessions need TF 1 behavior"
    )
    status, text, report = _convert("import numpy\n\ndef f():\n    sess = tf.Session()\n", tmp_path)
    assert status == 0 and "disable_v2_behavior" not in text
    assert "WARNING: tf.compat.v1.Session needs graph mode, but this file has no module-level" in report


def test_legacy_keras_is_set_before_the_first_import(tmp_path):
    status, text, report = _convert(
        '''\
        """Doc."""
        import os
        import tensorflow as tf
        y = tf.layers.dense(tf.ones([1, 2]), 3)
        ''',
        tmp_path,
    )
    assert status == 0, report
    assert text == (
        '"""Doc."""\nimport os\nos.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf1clip-upgrade: '
        "tf.compat.v1.layers.dense needs Keras 2 (tf-keras)\nimport tensorflow as tf\n"
        "y = tf.compat.v1.layers.dense(tf.ones([1, 2]), 3)\n"
    )
    graph_keras = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\ny = tf.keras.layers.Dense(2)(x)\n"
    text = _convert(graph_keras, tmp_path)[1]
    assert text.startswith(
        'import os\nos.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf1clip-upgrade: '
        "tf.keras.layers.Dense needs Keras 2 (tf-keras)\nimport tensorflow as tf\n"
    )


def test_safety_mode_keeps_v1_api_and_still_rewrites_contrib(tmp_path):
    status, text, report = _convert(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32)
        opt = tf.contrib.estimator.clip_gradients_by_norm(tf.train.AdamOptimizer(0.1), 1.0)
        """,
        tmp_path,
        "--mode",
        "SAFETY",
    )
    assert status == 0, report
    assert text == (
        "import tensorflow.compat.v1 as tf\nimport tf1clip.contrib\n"
        "tf.compat.v1.disable_v2_behavior()  # tf1clip-upgrade: placeholders and Sessions need "
        "TF 1 behavior\nx = tf.placeholder(tf.float32)\n"
        "opt = tf1clip.contrib.estimator.clip_gradients_by_norm(tf.train.AdamOptimizer(0.1), 1.0)\n"
    )


def test_identical_errors_are_merged_and_different_ones_kept():
    from tf1clip.upgrade import _convert
    from tf1clip.upgrade import LogEntry

    log = [
        LogEntry("ERROR", 3, 0, "A."),
        LogEntry("INFO", 3, 0, "A."),
        LogEntry("ERROR", 5, 2, "B."),
        LogEntry("ERROR", 7, 4, "A."),
        LogEntry("ERROR", 7, 9, "A."),
        LogEntry("WARNING", 8, 0, "A."),
    ]
    assert _convert.merge_repeated_errors(log) == [
        LogEntry("ERROR", 3, 0, "A. Lines: 3, 7."),
        LogEntry("INFO", 3, 0, "A."),
        LogEntry("ERROR", 5, 2, "B."),
        LogEntry("WARNING", 8, 0, "A."),
    ]


def test_tf_estimator_becomes_tf1clip_estimator(tmp_path):
    status, new, report = _convert("import tensorflow as tf\nest = tf.estimator.Estimator(model_fn)\n", tmp_path)
    assert status == 0 and ": ERROR: " not in report
    assert "est = tf1clip.estimator.Estimator(model_fn)" in new


def test_unparsable_file_is_an_error_and_is_left_unchanged(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("print 'neither Python 2 nor 3' +\n")
    status, report = _run(["--infile", str(broken), "--inplace"], tmp_path)
    assert status == 1
    assert broken.read_text() == "print 'neither Python 2 nor 3' +\n"
    assert "broken.py:0:0: ERROR: Failed to parse" in report


def test_an_unparsable_line_is_an_error_at_its_line_and_the_rest_converts(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import tensorflow as tf\nprint 'neither Python 2 nor 3' +\nx = tf.random_normal([2])\n")
    status, report = _run(["--infile", str(broken), "--inplace"], tmp_path)
    assert status == 1
    assert (
        broken.read_text() == "import tensorflow as tf\nprint 'neither Python 2 nor 3' +\nx = tf.random.normal([2])\n"
    )
    assert "broken.py:2:0: ERROR: Could not parse this line, left unchanged" in report


@pytest.mark.parametrize(
    "args, message",
    [
        (["--infile", "x.py"], "exactly one of --outfile and --inplace"),
        (["--infile", "missing.py", "--outfile", "y.py"], "is not a file"),
        (["--intree", ".", "--outtree", "."], "must not exist"),
        (["--intree", ".", "--outtree", "new", "--copyotherfiles", "maybe"], "expected True or False"),
    ],
)
def test_command_line_errors_exit_with_status_2(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text("x = 1\n")
    with pytest.raises(SystemExit) as exit_info:
        upgrade.main(args)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_every_rewrite_target_exists_in_tf1clip_contrib():
    targets = {
        "tf.contrib.estimator.clip_gradients_by_norm": "tf1clip.contrib.estimator.clip_gradients_by_norm",
        "tf.contrib.layers.optimize_loss": "tf1clip.contrib.layers.optimize_loss",
        "tf.contrib.layers.OPTIMIZER_CLS_NAMES": "tf1clip.contrib.layers.OPTIMIZER_CLS_NAMES",
        "tf.contrib.layers.OPTIMIZER_SUMMARIES": "tf1clip.contrib.layers.OPTIMIZER_SUMMARIES",
        "tf.contrib.layers.adaptive_clipping_fn": "tf1clip.contrib.layers.adaptive_clipping_fn",
        "tf.contrib.layers.python.layers.optimizers.adaptive_clipping_fn": "tf1clip.contrib.layers.adaptive_clipping_fn",
        "tf.contrib.layers.embed_sequence": "tf1clip.contrib.layers.embed_sequence",
        "tf.contrib.layers.python.layers.encoders.embed_sequence": "tf1clip.contrib.layers.embed_sequence",
        "tf.contrib.training.clip_gradient_norms": "tf1clip.contrib.training.clip_gradient_norms",
        "tf.contrib.training.clip_gradient_norms_fn": "tf1clip.contrib.training.clip_gradient_norms_fn",
        "tf.contrib.training.multiply_gradients": "tf1clip.contrib.training.multiply_gradients",
        "tf.contrib.training.add_gradients_summaries": "tf1clip.contrib.training.add_gradients_summaries",
        "tf.contrib.training.create_train_op": "tf1clip.contrib.training.create_train_op",
        "tf.contrib.slim": "tf1clip.contrib.slim",
        "tf.contrib.slim.learning.clip_gradient_norms": "tf1clip.contrib.slim.learning.clip_gradient_norms",
        "tf.contrib.slim.learning.multiply_gradients": "tf1clip.contrib.slim.learning.multiply_gradients",
        "tf.contrib.slim.learning.add_gradients_summaries": "tf1clip.contrib.slim.learning.add_gradients_summaries",
        "tf.contrib.slim.learning.create_train_op": "tf1clip.contrib.slim.learning.create_train_op",
        "tf.contrib.opt.clip_gradients_by_global_norm": "tf1clip.contrib.opt.clip_gradients_by_global_norm",
        "tf.contrib.framework.get_global_step": "tf1clip.contrib.framework.get_global_step",
        "tf.contrib.framework.get_or_create_global_step": "tf1clip.contrib.framework.get_or_create_global_step",
    }
    for contrib, target in sorted(targets.items()):
        assert _routes.supported(contrib)[:2] == (len(contrib.split(".")), target), contrib
        module, _, name = target.rpartition(".")
        assert hasattr(importlib.import_module(module), name), target
    for missing in (
        "tf.contrib.layers.embedding_column",
        "tf.contrib.opt.DelayCompensatedGradientDescentOptimizer",
        "tf.contrib.rnn.LSTMCell",
        "tf.contrib.layers.python.layers.target_column",  # its feature_column module is re-created (learn)
        "tf.contrib.layers.python.layers.encoders.bow_encoder",
        "tf.contrib.model_pruning",
    ):
        assert _routes.supported(missing) is None, missing
