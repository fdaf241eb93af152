"""tf1clip inside Estimators (``tf1clip.estimator``: tensorflow-estimator 2.15's v1 API on TF 2.15 to newest).

Run by tests/subprocess/test_estimator.py in a subprocess with ``TF_USE_LEGACY_KERAS=1`` (the canned estimators are
Keras 2 code; the main pytest process may already have Keras 3 as ``tf.keras``). Canned and custom
Estimators train with tf1clip's clipping; the weights they save are compared with NumPy. Skipped without
tensorflow-estimator; with ``TF1CLIP_REQUIRE_ESTIMATOR=1`` (set by .ci/run in its TF 2.15 and Python 3.12
environments) a missing Estimator fails the module instead.
"""

import glob
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from helpers import skip_without_estimator

import tf1clip
from tf1clip.contrib import layers as contrib_layers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
v1 = tf.compat.v1


def _load_estimator():
    try:
        from tf1clip import estimator
    except ImportError as err:
        return None, "tf1clip.estimator is not available with TensorFlow %s: %s" % (tf.__version__, err)
    return estimator, None


est, MISSING = _load_estimator()
NEW_TF = tuple(int(p) for p in tf.__version__.split(".")[:2]) >= (2, 16)


@pytest.fixture(autouse=True)
def _estimator_available():
    """Skips without Estimator; fails instead under TF1CLIP_REQUIRE_ESTIMATOR=1 (CI)."""
    if MISSING:
        skip_without_estimator(MISSING)


X = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0], [-2.0, 1.0]], np.float32)
Y = np.array([[3.0], [-2.0], [10.0], [1.0]], np.float32)
W0 = np.array([[0.5], [-0.5]], np.float32)
B0 = np.array([0.25], np.float32)


def _clip(grads, clip_norm):
    norm = np.sqrt(sum(float(np.sum(np.square(g))) for g in grads))
    return [g * min(1.0, clip_norm / norm) for g in grads], norm


def _constant_input_fn(x=X, y=Y):
    return lambda: ({"x": tf.constant(x)}, tf.constant(y))


def _config(**kwargs):
    return est.RunConfig(tf_random_seed=1, log_step_count_steps=None, **kwargs)


def _values(estimator, names):
    return [np.asarray(estimator.get_variable_value(n), np.float64) for n in names]


# --- canned estimators ---------------------------------------------------------------------------------


def test_linear_regressor_matches_numpy(tmp_path):
    """LinearRegressor (v1: loss summed over the batch, zero-initialised) with SGD clipped to norm 5."""
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(0.01), 5.0)
    estimator = est.LinearRegressor(
        [tf.feature_column.numeric_column("x", shape=[2])],
        model_dir=str(tmp_path),
        optimizer=optimizer,
        config=_config(),
    )
    estimator.train(_constant_input_fn(), steps=4)

    w, b = np.zeros((2, 1)), np.zeros(1)
    norms = []
    for _ in range(4):
        r = X @ w + b - Y
        (gw, gb), norm = _clip([2 * X.T @ r, 2 * r.sum(0)], 5.0)
        norms.append(norm)
        w, b = w - 0.01 * gw, b - 0.01 * gb
    assert min(norms) > 5.0  # every step is clipped
    got_w, got_b = _values(estimator, ["linear/linear_model/x/weights", "linear/linear_model/bias_weights"])
    np.testing.assert_allclose(got_w, w, rtol=1e-5)
    np.testing.assert_allclose(got_b, b, rtol=1e-5)
    assert estimator.get_variable_value("global_step") == 4


def _mlp_reference(params, steps, lr, clip_norm, loss, mean=False):
    """SGD with global-norm clipping on relu(x W1 + b1) W2 + b2, loss summed (``mean``: averaged) over the batch."""
    w1, b1, w2, b2 = [p.astype(np.float64) for p in params]
    pre_norms = []
    for _ in range(steps):
        z = X @ w1 + b1
        h = np.maximum(z, 0.0)
        out = h @ w2 + b2
        if loss == "squared":
            d_out = 2.0 * (out - Y)
        else:  # softmax cross-entropy with integer labels
            p = np.exp(out - out.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            d_out = p - np.eye(out.shape[1])[LABELS.ravel()]
        if mean:
            d_out = d_out / len(X)
        dz = (d_out @ w2.T) * (z > 0)
        grads, norm = _clip([X.T @ dz, dz.sum(0), h.T @ d_out, d_out.sum(0)], clip_norm)
        pre_norms.append(norm)
        w1, b1, w2, b2 = [p - lr * g for p, g in zip((w1, b1, w2, b2), grads)]
    return [w1, b1, w2, b2], pre_norms


LABELS = np.array([[0], [2], [1], [2]], np.int32)
DNN_NAMES = ["dnn/hiddenlayer_0/kernel", "dnn/hiddenlayer_0/bias", "dnn/logits/kernel", "dnn/logits/bias"]


@pytest.mark.parametrize("kind", ["DNNRegressor", "DNNClassifier"])
def test_dnn_estimators_match_numpy(tmp_path, kind):
    """The canned DNNs from their step-0 checkpoint (random init) on, against a hand-written MLP."""
    columns = [tf.feature_column.numeric_column("x", shape=[2])]
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(0.05), 1.0)
    if kind == "DNNRegressor":
        estimator = est.DNNRegressor([4], columns, model_dir=str(tmp_path), optimizer=optimizer, config=_config())
        labels, loss = Y, "squared"
    else:
        estimator = est.DNNClassifier(
            [4], columns, n_classes=3, model_dir=str(tmp_path), optimizer=optimizer, config=_config()
        )
        labels, loss = LABELS, "cross_entropy"
    estimator.train(_constant_input_fn(y=labels), steps=3)

    initial = [tf.train.load_variable(str(tmp_path / "model.ckpt-0"), n) for n in DNN_NAMES]
    expected, pre_norms = _mlp_reference(initial, 3, 0.05, 1.0, loss)
    assert pre_norms[0] > 1.0
    for got, want in zip(_values(estimator, DNN_NAMES), expected):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def _softmax_grad(out, labels):
    p = np.exp(out - out.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return p - np.eye(out.shape[1])[labels.ravel()]


def test_linear_classifier_matches_numpy(tmp_path):
    """LinearClassifier, 3 classes (zero-initialised, softmax cross-entropy summed over the batch)."""
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(0.1), 1.0)
    estimator = est.LinearClassifier(
        [tf.feature_column.numeric_column("x", shape=[2])],
        n_classes=3,
        model_dir=str(tmp_path),
        optimizer=optimizer,
        config=_config(),
    )
    estimator.train(_constant_input_fn(y=LABELS), steps=3)
    w, b = np.zeros((2, 3)), np.zeros(3)
    for _ in range(3):
        d_out = _softmax_grad(X @ w + b, LABELS)
        (gw, gb), norm = _clip([X.T @ d_out, d_out.sum(0)], 1.0)
        assert norm > 1.0
        w, b = w - 0.1 * gw, b - 0.1 * gb
    got_w, got_b = _values(estimator, ["linear/linear_model/x/weights", "linear/linear_model/bias_weights"])
    np.testing.assert_allclose(got_w, w, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got_b, b, rtol=1e-5, atol=1e-7)


LINEAR_NAMES = ["linear/linear_model/x/weights", "linear/linear_model/bias_weights"]


@pytest.mark.parametrize("kind", ["DNNLinearCombinedRegressor", "DNNLinearCombinedClassifier"])
def test_dnn_linear_combined_estimators_match_numpy(tmp_path, kind):
    """Each part's optimizer clips its own gradients (global norm over that part); one forward pass."""
    columns = [tf.feature_column.numeric_column("x", shape=[2])]
    common = dict(
        linear_feature_columns=columns,
        linear_optimizer=tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(0.02), 0.5),
        dnn_feature_columns=columns,
        dnn_optimizer=tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(0.05), 1.0),
        dnn_hidden_units=[4],
        model_dir=str(tmp_path),
        config=_config(),
    )
    if kind == "DNNLinearCombinedRegressor":
        estimator, labels = est.DNNLinearCombinedRegressor(**common), Y
    else:
        estimator, labels = est.DNNLinearCombinedClassifier(n_classes=3, **common), LABELS
    estimator.train(_constant_input_fn(y=labels), steps=3)

    initial = tf.train.load_variable
    w1, b1, w2, b2 = [np.asarray(initial(str(tmp_path / "model.ckpt-0"), n), np.float64) for n in DNN_NAMES]
    wl, bl = [np.asarray(initial(str(tmp_path / "model.ckpt-0"), n), np.float64) for n in LINEAR_NAMES]
    assert not wl.any() and not bl.any()
    dnn_norms, linear_norms = [], []
    for _ in range(3):
        z = X @ w1 + b1
        h = np.maximum(z, 0.0)
        out = h @ w2 + b2 + X @ wl + bl
        d_out = 2.0 * (out - Y) if kind == "DNNLinearCombinedRegressor" else _softmax_grad(out, LABELS)
        dz = (d_out @ w2.T) * (z > 0)
        dnn, dnn_norm = _clip([X.T @ dz, dz.sum(0), h.T @ d_out, d_out.sum(0)], 1.0)
        linear, linear_norm = _clip([X.T @ d_out, d_out.sum(0)], 0.5)
        dnn_norms.append(dnn_norm)
        linear_norms.append(linear_norm)
        w1, b1, w2, b2 = [p - 0.05 * g for p, g in zip((w1, b1, w2, b2), dnn)]
        wl, bl = wl - 0.02 * linear[0], bl - 0.02 * linear[1]
    assert min(linear_norms) > 0.5 and dnn_norms[0] > 1.0
    for got, want in zip(_values(estimator, DNN_NAMES + LINEAR_NAMES), [w1, b1, w2, b2, wl, bl]):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
    assert estimator.get_variable_value("global_step") == 3


# --- custom model_fn -------------------------------------------------------------------------------------


def _linear_model_fn(make_train_op):
    """pred = x w + b from W0, B0; mean squared error; ``make_train_op(loss)`` builds the step."""

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", initializer=tf.constant(W0))
        b = v1.get_variable("b", initializer=tf.constant(B0))
        loss = v1.losses.mean_squared_error(labels, tf.matmul(features["x"], w) + b)
        return est.EstimatorSpec(mode, loss=loss, train_op=make_train_op(loss))

    return model_fn


def _mse_grads(w, b, x=X, y=Y):
    r = x @ w + b - y
    return [2.0 * x.T @ r / len(x), 2.0 * r.sum(0) / len(x)]


def _adam_reference(steps, lr, clip_norm, batches=None):
    """TF1 AdamOptimizer (beta1 .9, beta2 .999, epsilon 1e-8) on global-norm-clipped MSE gradients."""
    params = [W0.astype(np.float64), B0.astype(np.float64)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    batches = batches or [(X, Y)] * steps
    for t, (x, y) in enumerate(batches, start=1):
        grads, _ = _clip(_mse_grads(*params, x=x, y=y), clip_norm)
        lr_t = lr * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        for i, g in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] = params[i] - lr_t * m[i] / (np.sqrt(v[i]) + 1e-8)
    return params


def test_optimize_loss_model_fn_matches_numpy(tmp_path):
    def train_op(loss):
        return contrib_layers.optimize_loss(
            loss, v1.train.get_global_step(), learning_rate=0.1, optimizer="SGD", clip_gradients=1.0
        )

    estimator = est.Estimator(_linear_model_fn(train_op), model_dir=str(tmp_path), config=_config())
    estimator.train(_constant_input_fn(), steps=3)
    w, b = W0.astype(np.float64), B0.astype(np.float64)
    for _ in range(3):
        (gw, gb), norm = _clip(_mse_grads(w, b), 1.0)
        assert norm > 1.0
        w, b = w - 0.1 * gw, b - 0.1 * gb
    got_w, got_b = _values(estimator, ["w", "b"])
    np.testing.assert_allclose(got_w, w, rtol=1e-5)
    np.testing.assert_allclose(got_b, b, rtol=1e-5)
    assert estimator.get_variable_value("global_step") == 3


def _decorated_adam_train_op(loss, **options):
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.1), 1.0, **options)
    return optimizer.minimize(loss, global_step=v1.train.get_global_step())


def test_decorator_model_fn_matches_numpy(tmp_path):
    estimator = est.Estimator(_linear_model_fn(_decorated_adam_train_op), model_dir=str(tmp_path), config=_config())
    estimator.train(_constant_input_fn(), steps=4)
    for got, want in zip(_values(estimator, ["w", "b"]), _adam_reference(4, 0.1, 1.0)):
        np.testing.assert_allclose(got, want, rtol=1e-4)
    assert estimator.get_variable_value("global_step") == 4


def test_new_estimator_resumes_from_the_checkpoint(tmp_path):
    """2 + 2 steps by two Estimators on one model_dir equal 4 steps; the checkpoint is plain Adam's."""
    model_fn = _linear_model_fn(_decorated_adam_train_op)
    est.Estimator(model_fn, model_dir=str(tmp_path / "run"), config=_config()).train(_constant_input_fn(), steps=2)
    resumed = est.Estimator(model_fn, model_dir=str(tmp_path / "run"), config=_config())
    resumed.train(_constant_input_fn(), steps=2)
    assert resumed.get_variable_value("global_step") == 4
    for got, want in zip(_values(resumed, ["w", "b"]), _adam_reference(4, 0.1, 1.0)):
        np.testing.assert_allclose(got, want, rtol=1e-4)

    plain = est.Estimator(
        _linear_model_fn(lambda loss: v1.train.AdamOptimizer(0.1).minimize(loss, v1.train.get_global_step())),
        model_dir=str(tmp_path / "plain"),
        config=_config(),
    )
    plain.train(_constant_input_fn(), steps=1)
    assert sorted(tf.train.list_variables(str(tmp_path / "run"))) == sorted(
        tf.train.list_variables(str(tmp_path / "plain"))
    )
    assert {"w/Adam", "w/Adam_1", "beta1_power"} <= set(resumed.get_variable_names())


def test_skip_policy_inside_an_estimator(tmp_path):
    """A batch whose loss is finite but whose gradient is NaN is skipped (Estimator's NanTensorHook
    only watches the loss): |pred - y| written as sqrt(square(.)) has a NaN gradient on a padding row."""
    batches_x = np.stack([X[:2], X[2:], np.array([[1.0, 1.0], [0.0, 0.0]], np.float32), X[1:3]])
    batches_y = np.stack([Y[:2], Y[2:], np.array([[2.0], [0.0]], np.float32), Y[1:3]])

    counts = []

    class CountAtEnd(v1.train.SessionRunHook):
        def __init__(self, counter):
            self.counter = counter

        def end(self, session):
            counts.append(int(session.run(self.counter)))

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", initializer=tf.constant(W0))
        loss = tf.reduce_mean(tf.sqrt(tf.square(tf.matmul(features["x"], w) - labels)))
        optimizer = tf1clip.clip_gradients_by_norm(v1.train.AdamOptimizer(0.1), 1.0, on_nonfinite="skip")
        train_op = optimizer.minimize(loss, global_step=v1.train.get_global_step())
        return est.EstimatorSpec(
            mode, loss=loss, train_op=train_op, training_hooks=[CountAtEnd(optimizer.skipped_steps)]
        )

    estimator = est.Estimator(model_fn, model_dir=str(tmp_path), config=_config())
    estimator.train(lambda: tf.data.Dataset.from_tensor_slices(({"x": batches_x}, batches_y)))

    w, m, v = W0.astype(np.float64), np.zeros((2, 1)), np.zeros((2, 1))
    for t, k in enumerate([0, 1, 3], start=1):
        r = batches_x[k] @ w - batches_y[k]
        (g,), _ = _clip([batches_x[k].T @ np.sign(r) / len(r)], 1.0)
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        w = w - 0.1 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t) * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(estimator.get_variable_value("w"), w, rtol=1e-4)
    assert estimator.get_variable_value("global_step") == 3  # a skipped step does not count
    assert counts == [1]
    np.testing.assert_allclose(estimator.get_variable_value("beta1_power"), 0.9**4, rtol=1e-6)


def test_report_norms_summaries_reach_the_event_files(tmp_path):
    def train_op(loss):
        optimizer = tf1clip.clip_gradients_by_norm(
            v1.train.GradientDescentOptimizer(0.1), 1.0, report_norms="summaries"
        )
        return optimizer.minimize(loss, global_step=v1.train.get_global_step())

    estimator = est.Estimator(_linear_model_fn(train_op), model_dir=str(tmp_path), config=_config(save_summary_steps=1))
    estimator.train(_constant_input_fn(), steps=3)

    seen = {}
    for path in glob.glob(str(tmp_path / "events.out.tfevents.*")):
        for event in v1.train.summary_iterator(path):
            for value in event.summary.value:
                seen.setdefault(value.tag, {})[event.step] = value.simple_value
    before = [seen["global_norm/gradient_norm"][s] for s in sorted(seen["global_norm/gradient_norm"])]
    after = [seen["global_norm/clipped_gradient_norm"][s] for s in sorted(seen["global_norm/clipped_gradient_norm"])]
    w, b = W0.astype(np.float64), B0.astype(np.float64)
    expected = []
    for _ in range(3):
        (gw, gb), norm = _clip(_mse_grads(w, b), 1.0)
        expected.append(norm)
        w, b = w - 0.1 * gw, b - 0.1 * gb
    np.testing.assert_allclose(before, expected, rtol=1e-5)
    np.testing.assert_allclose(after, np.minimum(expected, 1.0), rtol=1e-5)
    assert expected[0] > 1.0


# --- MirroredStrategy ----------------------------------------------------------------------------------


def test_mirrored_strategy_clips_after_aggregation_like_one_device():
    env = dict(
        os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")])
    )
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tests", "subprocess", "_estimator_worker.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.splitlines()[-1])
    BX, BY, CLIP, LR = np.array(result["x"]), np.array(result["y"]), result["clip"], result["lr"]

    def reference(per_replica):
        w, b = np.zeros((2, 1)), np.zeros(1)
        for k in (0, 2):
            parts = []
            for x, y in ((BX[k], BY[k]), (BX[k + 1], BY[k + 1])):
                r = x @ w + b - y
                parts.append([2 * x.T @ r, 2 * r.sum(0)])
            if per_replica:
                grads = [sum(g) for g in zip(*[_clip(p, CLIP)[0] for p in parts])]
            else:
                grads, _ = _clip([sum(g) for g in zip(*parts)], CLIP)
            w, b = w - LR * grads[0], b - LR * grads[1]
        return w, b

    names = ["linear/linear_model/x/weights", "linear/linear_model/bias_weights"]
    w, b = reference(per_replica=False)
    for run in ("mirrored", "single"):
        assert result[run]["global_step"] == 2
        np.testing.assert_allclose(result[run][names[0]], w, rtol=1e-5)
        np.testing.assert_allclose(result[run][names[1]], b, rtol=1e-5)
    legacy_w, _ = reference(per_replica=True)
    assert np.max(np.abs(legacy_w - w)) > 1e-2  # clipping each replica's part would differ


# --- the Crash Course example, upgraded --------------------------------------------------------------------


def test_crash_course_example_upgrades_and_matches_numpy(tmp_path):
    """legacy_examples/tf1_inputs/crash_course_estimator.py (TF 1.x) through tf1clip-upgrade's default target (auto):
    TF 2.15's own Estimator there, tf1clip.estimator on TF 2.16+; against NumPy and, where a TF 1.15
    interpreter exists, the unchanged program's numbers under TensorFlow 1.15."""
    env = dict(
        os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")])
    )
    new = tmp_path / "crash_course_tf2.py"
    upgrade = subprocess.run(
        [
            sys.executable,
            "-m",
            "tf1clip.upgrade",
            "--infile",
            os.path.join(ROOT, "legacy_examples", "tf1_inputs", "crash_course_estimator.py"),
            "--outfile",
            str(new),
            "--reportfile",
            str(tmp_path / "report.txt"),
        ],
        cwd=str(tmp_path),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
    text = new.read_text()
    assert "tf.contrib" not in text.split('"""', 2)[2]  # the code after the module docstring
    assert "tf1clip.contrib.estimator.clip_gradients_by_norm(my_optimizer, CLIP_NORM)" in text
    # the v1 class takes a v1 optimizer
    assert ("tf1clip.estimator.LinearRegressor(" if NEW_TF else "tf.compat.v1.estimator.LinearRegressor(") in text
    run = subprocess.run(
        [sys.executable, str(new)], cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    (line,) = [l for l in run.stdout.splitlines() if l.startswith("RESULT ")]
    result = json.loads(line[len("RESULT ") :])

    rng = np.random.RandomState(0)
    x = np.linspace(0.5, 5.0, 100).astype(np.float32).astype(np.float64)
    y = (2.0 * x + 1.0 + 0.3 * rng.randn(100)).astype(np.float32).astype(np.float64)
    w = b = 0.0
    clipped = 0
    for step in range(100):  # batches of 10 in order, summed squared error
        xb, yb = x[10 * (step % 10) : 10 * (step % 10) + 10], y[10 * (step % 10) : 10 * (step % 10) + 10]
        r = w * xb + b - yb
        (gw, gb), norm = _clip([2 * np.sum(xb * r), 2 * np.sum(r)], 5.0)
        clipped += norm > 5.0
        w, b = w - 0.01 * gw, b - 0.01 * gb
    assert clipped > 50
    np.testing.assert_allclose([result["weight"], result["bias"]], [w, b], rtol=1e-4)
    np.testing.assert_allclose(result["rmse"], np.sqrt(np.mean(np.square(w * x + b - y))), rtol=1e-4)

    found = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tests", "oracle", "tf115_env.py")],
        capture_output=True,
        text=True,
        timeout=1000,
    )
    if found.returncode != 0:
        pytest.skip("matches NumPy; no TensorFlow 1.15 environment to compare with: " + found.stderr.strip()[-500:])
    oracle = found.stdout.strip().splitlines()[-1]
    tf115_env = {k: v for k, v in env.items() if k not in ("TF2_BEHAVIOR", "PYTHONPATH", "TF_USE_LEGACY_KERAS")}
    original = subprocess.run(
        [oracle, os.path.join(ROOT, "legacy_examples", "tf1_inputs", "crash_course_estimator.py")],
        cwd=str(tmp_path),
        env=tf115_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert original.returncode == 0, original.stderr[-3000:]
    (line,) = [l for l in original.stdout.splitlines() if l.startswith("RESULT ")]
    tf115 = json.loads(line[len("RESULT ") :])
    for key in ("weight", "bias", "rmse"):  # the unchanged TF 1 program under TensorFlow 1.15 with tf.contrib
        np.testing.assert_allclose(result[key], tf115[key], rtol=1e-6)


# --- hooks, warm start, SavedModel, train_and_evaluate ------------------------------------------------------


def _mse(w, b, x=X, y=Y):
    return float(np.mean(np.square(x @ w + b - y)))


def _adam_trajectory(steps, lr, clip_norm):
    return [_adam_reference(k, lr, clip_norm) for k in range(steps + 1)]


def test_training_hooks_see_every_step_and_stop_at_step_hook_stops(tmp_path):
    seen = []

    class LossHook(v1.train.SessionRunHook):
        def before_run(self, run_context):
            return v1.train.SessionRunArgs(v1.get_default_graph().get_tensor_by_name("loss:0"))

        def after_run(self, run_context, run_values):
            # The step the run reached, read after it: a read fetched in the same run races its increment.
            step = run_context.session.run(v1.train.get_global_step())
            seen.append((int(step), float(run_values.results)))

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", initializer=tf.constant(W0))
        b = v1.get_variable("b", initializer=tf.constant(B0))
        loss = tf.identity(v1.losses.mean_squared_error(labels, tf.matmul(features["x"], w) + b), name="loss")
        return est.EstimatorSpec(mode, loss=loss, train_op=_decorated_adam_train_op(loss))

    estimator = est.Estimator(model_fn, model_dir=str(tmp_path), config=_config())
    repeated = lambda: tf.data.Dataset.from_tensors(({"x": X}, Y)).repeat()
    estimator.train(repeated, hooks=[LossHook(), v1.train.StopAtStepHook(last_step=3)])
    assert [step for step, _ in seen] == [1, 2, 3]
    expected = [_mse(*params) for params in _adam_trajectory(2, 0.1, 1.0)]
    np.testing.assert_allclose([loss for _, loss in seen], expected, rtol=1e-5)
    assert estimator.get_variable_value("global_step") == 3


def _sgd_train_op(loss):
    optimizer = tf1clip.clip_gradients_by_norm(v1.train.GradientDescentOptimizer(0.1), 1.0)
    return optimizer.minimize(loss, global_step=v1.train.get_global_step())


def _sgd_reference(w, b, steps):
    for _ in range(steps):
        (gw, gb), _ = _clip(_mse_grads(w, b), 1.0)
        w, b = w - 0.1 * gw, b - 0.1 * gb
    return w, b


def test_warm_start_from_takes_the_weights_not_the_step(tmp_path):
    first = est.Estimator(_linear_model_fn(_sgd_train_op), model_dir=str(tmp_path / "a"), config=_config())
    first.train(_constant_input_fn(), steps=2)
    second = est.Estimator(
        _linear_model_fn(_sgd_train_op),
        model_dir=str(tmp_path / "b"),
        config=_config(),
        warm_start_from=str(tmp_path / "a"),
    )
    second.train(_constant_input_fn(), steps=2)
    start = _sgd_reference(W0.astype(np.float64), B0.astype(np.float64), 2)
    for got, want in zip(_values(second, ["w", "b"]), _sgd_reference(*start, 2)):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    assert second.get_variable_value("global_step") == 2  # the step is not warm-started


def _serving_model_fn(features, labels, mode):
    w = v1.get_variable("w", initializer=tf.constant(W0))
    b = v1.get_variable("b", initializer=tf.constant(B0))
    pred = tf.matmul(features["x"], w) + b
    if mode == est.ModeKeys.PREDICT:
        return est.EstimatorSpec(
            mode, predictions={"y": pred}, export_outputs={"serving_default": est.export.PredictOutput({"y": pred})}
        )
    loss = v1.losses.mean_squared_error(labels, pred)
    return est.EstimatorSpec(mode, loss=loss, train_op=_decorated_adam_train_op(loss))


def test_export_saved_model_then_load_and_serve(tmp_path):
    estimator = est.Estimator(_serving_model_fn, model_dir=str(tmp_path / "model"), config=_config())
    estimator.train(_constant_input_fn(), steps=3)

    def receiver():
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        return est.export.ServingInputReceiver({"x": x}, {"x": x})

    path = estimator.export_saved_model(str(tmp_path / "export"), receiver)
    w, b = _adam_reference(3, 0.1, 1.0)
    queries = np.array([[1.0, 1.0], [-3.0, 0.5], [2.0, 2.0]], np.float32)
    served = tf.saved_model.load(path.decode() if isinstance(path, bytes) else path)
    out = served.signatures["serving_default"](x=tf.constant(queries))
    np.testing.assert_allclose(out["y"].numpy(), queries @ w + b, rtol=1e-5, atol=1e-5)
    predicted = [p["y"] for p in estimator.predict(lambda: tf.data.Dataset.from_tensors({"x": queries}))]
    np.testing.assert_allclose(np.stack(predicted), queries @ w + b, rtol=1e-5, atol=1e-5)


def test_train_and_evaluate_locally(tmp_path):
    estimator = est.Estimator(_linear_model_fn(_decorated_adam_train_op), model_dir=str(tmp_path), config=_config())
    metrics, _ = est.train_and_evaluate(
        estimator,
        est.TrainSpec(_constant_input_fn(), max_steps=4),
        est.EvalSpec(_constant_input_fn(), steps=1, throttle_secs=0),
    )
    w, b = _adam_reference(4, 0.1, 1.0)
    assert metrics["global_step"] == 4
    np.testing.assert_allclose(metrics["loss"], _mse(w, b), rtol=1e-5)


# --- a stateful capper ------------------------------------------------------------------------------------


def test_autoclip_state_is_checkpointed_and_resumes(tmp_path):
    """tf1clip.AutoClip's norm history lives in the Estimator's checkpoints: 3 + 2 steps equal 5 steps."""

    def train_op(loss):
        optimizer = tf1clip.transform_gradients(
            v1.train.GradientDescentOptimizer(0.1), tf1clip.AutoClip(percentile=50.0, history_size=8)
        )
        return optimizer.minimize(loss, global_step=v1.train.get_global_step())

    est.Estimator(_linear_model_fn(train_op), model_dir=str(tmp_path), config=_config()).train(
        _constant_input_fn(), steps=3
    )
    resumed = est.Estimator(_linear_model_fn(train_op), model_dir=str(tmp_path), config=_config())
    resumed.train(_constant_input_fn(), steps=2)

    w, b = W0.astype(np.float64), B0.astype(np.float64)
    history = []
    for _ in range(5):
        grads = _mse_grads(w, b)
        norm = np.sqrt(sum(float(np.sum(g * g)) for g in grads))
        history.append(norm)
        scale = min(np.percentile(history, 50.0) / norm, 1.0)
        w, b = w - 0.1 * scale * grads[0], b - 0.1 * scale * grads[1]
    assert history[-1] < max(history)  # the threshold moved with the history
    for got, want in zip(_values(resumed, ["w", "b"]), [w, b]):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    np.testing.assert_allclose(resumed.get_variable_value("AutoClip/history")[:5], history, rtol=1e-5)
    assert resumed.get_variable_value("AutoClip/count") == 5


# --- the compatibility layer --------------------------------------------------------------------------------


def test_patches_are_applied_once_and_only_where_needed():
    from tf1clip.compat import _estimator

    applied = _estimator.apply()
    assert _estimator.apply() == applied
    for name, patch in _estimator.PATCHES.items():
        assert patch() is False, name  # idempotent: nothing left to do
    # .ci and tests/subprocess/test_estimator.py set TF_USE_LEGACY_KERAS=1, so legacy_keras has nothing to do here.
    expected = ["tf_export_estimator_api", "distribute_estimator_training", "tpu_removed_modules"] if NEW_TF else []
    assert applied == expected + ["session_threads"]  # session_threads: on every TF 2.x


@pytest.mark.skipif(not NEW_TF, reason="TensorFlow 2.15 has the TPU embedding and the distribute coordinator")
def test_what_tf_removed_fails_where_used_with_a_message(monkeypatch):
    with pytest.raises(NotImplementedError, match=r"TPUEstimator's TPU embedding \(embedding_config_spec\) is not "):
        est.tpu.experimental.EmbeddingConfigSpec(
            feature_to_config_dict={"a": object()}, table_to_config_dict={"t": object()}, optimization_parameters=None
        )
    cluster = {"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "chief", "index": 0}}))
    with pytest.raises(NotImplementedError, match=r"The distribute coordinator .* TensorFlow removed tensorflow\."):
        est.RunConfig(train_distribute=tf.distribute.OneDeviceStrategy("/cpu:0"))
    config = est.RunConfig()  # a cluster without train_distribute: as on TF 2.15
    assert (config.task_type, config.num_worker_replicas, config.num_ps_replicas) == ("chief", 2, 0)


# --- checkpoints between TensorFlow 2.15 and this TensorFlow -----------------------------------------------

TF215_DATA = os.path.join(ROOT, "tests", "data", "estimator_tf215")
CHECKPOINT_WORKER = os.path.join(ROOT, "tests", "subprocess", "_estimator_checkpoint_worker.py")


def _tf215_python():
    """TF1CLIP_TF215_PYTHON, else /work/venvs/tf215/bin/python (the project machine's TF 2.15 venv)."""
    python = os.environ.get("TF1CLIP_TF215_PYTHON", "/work/venvs/tf215/bin/python")
    return python if os.path.exists(python) else None


def test_checkpoint_written_by_tf215_resumes_here(tmp_path):
    """tests/data/estimator_tf215: 2 steps of TF 2.15.1 + tensorflow-estimator 2.15.0 (see the worker)."""
    committed = tf.train.load_checkpoint(os.path.join(TF215_DATA, "model.ckpt-2"))
    for name, want in zip(["w", "b"], _adam_reference(2, 0.1, 1.0)):
        np.testing.assert_allclose(committed.get_tensor(name), want, rtol=1e-4)
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    for name in os.listdir(TF215_DATA):
        (model_dir / name).write_bytes(open(os.path.join(TF215_DATA, name), "rb").read())
    resumed = est.Estimator(_linear_model_fn(_decorated_adam_train_op), model_dir=str(model_dir), config=_config())
    resumed.train(_constant_input_fn(), steps=2)
    assert resumed.get_variable_value("global_step") == 4
    for got, want in zip(_values(resumed, ["w", "b"]), _adam_reference(4, 0.1, 1.0)):
        np.testing.assert_allclose(got, want, rtol=1e-4)


@pytest.mark.skipif(not NEW_TF, reason="this is TensorFlow 2.15: the other direction is the test above")
@pytest.mark.skipif(
    _tf215_python() is None,
    reason="no TensorFlow 2.15 interpreter: set TF1CLIP_TF215_PYTHON to a Python with tensorflow-cpu 2.15 "
    "and tensorflow-estimator 2.15 (the project machine has /work/venvs/tf215)",
)
def test_checkpoint_written_here_resumes_on_tf215(tmp_path):
    est.Estimator(_linear_model_fn(_decorated_adam_train_op), model_dir=str(tmp_path), config=_config()).train(
        _constant_input_fn(), steps=2
    )
    # TF 2.15 has Keras 2 built in: no TF_USE_LEGACY_KERAS (its interpreter may lack tf-keras).
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TF1CLIP_TF215_PYTHON", "TF_USE_LEGACY_KERAS")
    }
    env.update(TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=ROOT)
    proc = subprocess.run(
        [_tf215_python(), CHECKPOINT_WORKER, str(tmp_path), "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["tf"].startswith("2.15.") and result["global_step"] == 4
    for got, want in zip([result["w"], result["b"]], _adam_reference(4, 0.1, 1.0)):
        np.testing.assert_allclose(got, want, rtol=1e-4)
