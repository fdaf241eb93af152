"""An im2txt-style TF 1.x script upgraded by tf1clip-upgrade reproduces a hand-written reference.

tests/data/corpus/im2txt_train.py trains like tensorflow/models' im2txt train.py:
tf.contrib.layers.optimize_loss with a tensor learning rate, a staircase
exponential-decay learning_rate_decay_fn and clip_gradients=5.0, then
tf.contrib.slim.learning.train(train_op, train_dir, number_of_steps=N,
saver=tf.train.Saver(...), init_fn=None). The test upgrades it, runs it in a subprocess,
reads the final checkpoint and compares every variable with a tf.compat.v1 loop that
does optimize_loss's math by hand: global-norm clipping at 5.0, then plain SGD with
lr_t = 0.5 * 0.5 ** (t // 2).
"""

import ast
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

v1 = tf.compat.v1

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAM = os.path.join(os.path.dirname(HERE), "data", "corpus", "im2txt_train.py")
TIMEOUT = 600
STEPS = 5

# The program's configuration (TrainingConfig / ModelConfig in im2txt_train.py).
INITIAL_LEARNING_RATE = 0.5
DECAY_FACTOR = 0.5
DECAY_STEPS = 2  # num_examples_per_epoch / batch_size * num_epochs_per_decay
CLIP_NORM = 5.0


def synthetic_batch():
    """im2txt_train.synthetic_batch: 8 images of 4 features, 8 targets of 3."""
    rng = np.random.RandomState(0)
    images = 3.0 * rng.randn(8, 4)
    targets = 10.0 * rng.randn(8, 3)
    return images.astype(np.float32), targets.astype(np.float32)


def initial_weights():
    """im2txt_train.initial_weights."""
    weights = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    biases = np.arange(3) * 0.1 - 0.1
    return weights.astype(np.float32), biases.astype(np.float32)


def learning_rate(step):
    return INITIAL_LEARNING_RATE * DECAY_FACTOR ** (step // DECAY_STEPS)


def reference(steps, clip_norm=CLIP_NORM, decay=True):
    """Hand-written tf.compat.v1 training loop; returns (weights, biases, pre-clip norms)."""
    images, targets = synthetic_batch()
    w0, b0 = initial_weights()
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant(w0))
        b = v1.get_variable("b", initializer=tf.constant(b0))
        loss = tf.reduce_mean(tf.square(tf.matmul(images, w) + b - targets))
        grads = tf.gradients(loss, [w, b])
        norm = tf.linalg.global_norm(grads)
        scale = tf.minimum(1.0, clip_norm / norm)
        lr = v1.placeholder(tf.float32, [])
        step_op = tf.group(*[v1.assign_sub(v, lr * scale * g) for v, g in zip((w, b), grads)])
        norms = []
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for t in range(steps):
                norms.append(sess.run(norm))
                sess.run(step_op, {lr: learning_rate(t) if decay else INITIAL_LEARNING_RATE})
            return sess.run(w), sess.run(b), norms


def _env():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Upgrades and runs the program: (upgraded source, report, train dir, run stdout)."""
    tmp = tmp_path_factory.mktemp("im2txt")
    new, report, train_dir = tmp / "train.py", tmp / "report.txt", tmp / "train_dir"
    upgrade = subprocess.run(
        [
            sys.executable,
            "-m",
            "tf1clip.upgrade",
            "--infile",
            PROGRAM,
            "--outfile",
            str(new),
            "--reportfile",
            str(report),
        ],
        cwd=str(tmp),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert upgrade.returncode == 0, upgrade.stdout[-3000:] + upgrade.stderr[-3000:]
    run = subprocess.run(
        [sys.executable, str(new), "--train_dir=%s" % train_dir, "--number_of_steps=%d" % STEPS],
        cwd=str(tmp),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    return new.read_text(), report.read_text(), str(train_dir), run.stdout


def test_upgrade_leaves_no_contrib_and_no_tf1_only_names(trained):
    source, report, _, _ = trained
    assert ": ERROR: " not in report.split("Detailed log follows")[0]
    left = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            name = ast.unparse(node)
            if name.startswith(("tf.contrib", "tf.flags", "tf.app.", "tf.gfile", "tf.logging")):
                left.append(name)
    assert not left, left


def test_final_checkpoint_matches_the_hand_written_reference(trained):
    _, _, train_dir, _ = trained
    checkpoint = tf.train.latest_checkpoint(train_dir)
    assert checkpoint is not None and checkpoint.endswith("-%d" % STEPS), checkpoint
    reader = tf.train.load_checkpoint(checkpoint)
    assert set(reader.get_variable_to_shape_map()) == {
        "global_step",
        "image_embedding/weights",
        "image_embedding/biases",
    }
    assert reader.get_tensor("global_step") == STEPS
    w, b, _ = reference(STEPS)
    np.testing.assert_allclose(reader.get_tensor("image_embedding/weights"), w, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(reader.get_tensor("image_embedding/biases"), b, rtol=1e-5, atol=1e-5)


def test_the_reference_is_sensitive_to_clipping_and_decay(trained):
    """Steps with and without clipping occur, and dropping clipping or decay changes the result."""
    _, _, train_dir, _ = trained
    reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(train_dir))
    trained_w = reader.get_tensor("image_embedding/weights")
    _, _, norms = reference(STEPS)
    assert norms[0] > CLIP_NORM > min(norms), norms
    unclipped, _, _ = reference(STEPS, clip_norm=np.inf)
    undecayed, _, _ = reference(STEPS, decay=False)
    assert np.max(np.abs(trained_w - unclipped)) > 1e-2
    assert np.max(np.abs(trained_w - undecayed)) > 1e-2


def test_the_loop_reports_the_last_loss(trained):
    _, _, _, stdout = trained
    images, targets = synthetic_batch()
    line = [l for l in stdout.splitlines() if l.startswith("RESULT final_loss=")][-1]
    final_loss = float(line.split("=", 1)[1])
    # slim's train step returns the loss computed before its last update (step STEPS-1).
    w, b, _ = reference(STEPS - 1)
    expected = np.mean(np.square(images.dot(w) + b - targets))
    np.testing.assert_allclose(final_loss, expected, rtol=1e-5)
