"""The legacy examples run, learn, explain their output and keep TensorFlow's start-up quiet."""

import importlib
import math
import os
import runpy
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "legacy_examples")
sys.path.insert(0, EXAMPLES)

RECIPES = [
    "clip_by_value_adam",
    "clip_by_global_norm",
    "clip_by_norm_per_tensor",
    "estimator_decorator",
    "custom_capper",
    "gradient_tape_tf2",
]
SCRIPTS = RECIPES + ["adaptive_tensorboard", "exploding_rnn", "optimize_loss_seq2seq", "ps_cluster"]


@pytest.mark.parametrize("module", RECIPES)
def test_recipe_example_learns_and_ends_with_a_verdict(module):
    lines = []
    losses = importlib.import_module(module).main(steps=60, log=lines.append)
    assert len(losses) == 61
    assert all(math.isfinite(x) for x in losses)
    assert losses[-1] < 0.9 * losses[0]
    assert lines[-1].startswith("Verdict: ") and "-> %.4g in 60 steps" % losses[-1] in lines[-1]
    step_lines = [line for line in lines if line.startswith("step ")]
    assert step_lines and all("training loss " in line for line in step_lines)


def test_clip_by_global_norm_example_labels_the_norm():
    lines = []
    importlib.import_module("clip_by_global_norm").main(steps=10, log=lines.append)
    assert any("global norm before clipping (limit 5) " in line for line in lines)


def test_headline_example_unclipped_diverges_clipped_learns_and_plots(tmp_path):
    lines = []
    png = tmp_path / "rnn.png"
    result = importlib.import_module("exploding_rnn").main(["--steps", "120", "--plot", str(png)], out=_Collect(lines))
    plain, clipped = result["unclipped"], result["clipped"]
    assert plain["diverged"] and plain["steps_run"] < 120
    assert not clipped["diverged"] and clipped["steps_run"] == 120
    assert clipped["final_loss"] < clipped["initial_loss"] / 100
    assert clipped["max_grad_norm"] > 1000  # the gradients really explode; clipping tames them
    for before, after in zip(clipped["computed_norms"], clipped["applied_norms"]):
        assert after == pytest.approx(min(before, 1.0), rel=1e-4)  # global-norm clipping at 1
    assert plain["computed_norms"] == plain["applied_norms"]
    text = "".join(lines)
    assert "diverged at step %d" % plain["steps_run"] in text
    assert text.rstrip().splitlines()[-1].startswith("Verdict: unclipped, the RNN diverged at step")
    assert "it learned" in text.splitlines()[-1]

    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000
    assert b"IEND" in data[-12:]


class _Collect(object):
    def __init__(self, lines):
        self.lines = lines

    def write(self, text):
        self.lines.append(text)

    def flush(self):
        pass


def test_plot_without_matplotlib_is_a_clear_usage_error(monkeypatch, capsys):
    module = importlib.import_module("exploding_rnn")
    monkeypatch.setattr(module, "_pyplot", lambda: None)
    with pytest.raises(SystemExit) as exit_info:
        module.main(["--plot", "x.png"])
    assert exit_info.value.code == 2
    assert "--plot needs matplotlib, which is not installed: pip install 'tf1clip[plot]'" in capsys.readouterr().err


def test_adaptive_tensorboard_example_writes_readable_event_file(tmp_path):
    import glob

    import tensorflow as tf

    lines = []
    result = importlib.import_module("adaptive_tensorboard").main(steps=30, logdir=str(tmp_path), log=lines.append)
    (events,) = glob.glob(str(tmp_path / "events.out.tfevents.*"))
    values = {}
    for event in tf.compat.v1.train.summary_iterator(events):
        for value in event.summary.value:
            values.setdefault(value.tag, []).append((event.step, value))
    assert {
        "loss",
        "gradient_norms/pre_clip_norm",
        "gradient_norms/post_clip_norm",
        "gradient_norms/clip_fraction",
        "gradient_norms/variable_norms",
    } <= set(values)
    pre = [v.simple_value for _, v in values["gradient_norms/pre_clip_norm"]]
    post = [v.simple_value for _, v in values["gradient_norms/post_clip_norm"]]
    assert [s for s, _ in values["gradient_norms/pre_clip_norm"]] == list(range(1, 31))
    assert all(b <= a * (1 + 1e-5) for a, b in zip(pre, post))
    clipped = sum(b < a * 0.999 for a, b in zip(pre, post))
    assert clipped >= 10  # AutoClip at p25 clips most early steps
    fractions = [v.simple_value for _, v in values["gradient_norms/clip_fraction"]]
    assert fractions[0] == 0.0 and fractions[-1] > 0.5  # the step counters advance through the decorator
    assert values["gradient_norms/variable_norms"][0][1].HasField("histo")
    assert result["losses"][-1] < result["losses"][0]
    assert lines[-1].startswith("Verdict: AutoClip clipped %d of 30 steps" % clipped)


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_lists_the_defaults(script, monkeypatch, capsys):
    import tensorflow as tf

    monkeypatch.setattr(tf.compat.v1, "disable_eager_execution", lambda: None)
    monkeypatch.setattr(sys, "argv", [script + ".py", "--help"])
    with pytest.raises(SystemExit) as exit_info:
        runpy.run_path(os.path.join(EXAMPLES, script + ".py"), run_name="__main__")
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--steps STEPS" in out and "(default: " in out
    assert "default: 300" in out or "default: 200" in out


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_needs_no_tensorflow(script, tmp_path):
    """``--help`` parses before TensorFlow is imported: it works with a TensorFlow that cannot be imported."""
    fake = tmp_path / "tensorflow"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('TensorFlow must not be imported for --help')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, script + ".py"), "--help"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "--steps STEPS" in proc.stdout and "(default: " in proc.stdout


def test_an_example_run_prints_no_tensorflow_startup_lines():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "clip_by_value_adam.py"), "--steps", "5"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.splitlines()[-1].startswith("Verdict: clip_by_value(-1, 1) with Adam ")


def test_startup_filter_drops_only_info_and_warning_lines():
    import _cli

    noise = [
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n",
        "I0000 00:00:1796033420.334089   12957 port.cc:153] oneDNN custom operations are on.\n",
        "W0000 00:00:1796033420.334089   12957 cpu_feature_guard.cc:227] a warning\n",
        "2025-01-30 22:44:42.456316: I tensorflow/core/util/port.cc:153] oneDNN custom operations are on.\n",
        "To enable the following instructions: AVX2 FMA, in other operations, rebuild TensorFlow with the "
        "appropriate compiler flags.\n",
    ]
    kept = [
        "E0000 00:00:1796033420.334089   12957 cuda_executor.cc:1] failed call to cuInit\n",
        "/x.py:1: DeprecationWarning: something\n",
        "Traceback (most recent call last):\n",
    ]
    assert _cli.without_startup_noise("".join(noise + kept)) == "".join(kept)
