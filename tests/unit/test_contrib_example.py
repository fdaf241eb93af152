"""legacy_examples/optimize_loss_seq2seq.py: trains, and its TensorBoard events carry contrib's tags."""

import collections
import glob
import importlib.util
import os

import pytest
import tensorflow as tf

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "legacy_examples", "optimize_loss_seq2seq.py")


def _load_example():
    spec = importlib.util.spec_from_file_location("optimize_loss_seq2seq", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read_events(logdir):
    [path] = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    values = collections.defaultdict(dict)
    for event in tf.compat.v1.train.summary_iterator(path):
        for value in event.summary.value:
            values[value.tag][event.step] = value.simple_value
    return values


def test_seq2seq_example_trains_and_writes_contrib_summaries(tmp_path, capsys):
    example = _load_example()
    result = example.main(
        [
            "--steps",
            "80",
            "--logdir",
            str(tmp_path),
            "--clip-gradients",
            "0.1",
            "--decay-steps",
            "20",
            "--summary-every",
            "5",
        ]
    )
    assert "trained 80 steps" in capsys.readouterr().out
    assert result["global_step"] == 80
    assert result["final_loss"] < 0.5 * result["first_loss"]

    values = _read_events(str(tmp_path))
    variables = [
        "embedding",
        "encoder/kernel",
        "encoder/bias",
        "decoder/kernel",
        "decoder/bias",
        "output/kernel",
        "output/bias",
    ]
    assert sorted(values) == sorted(
        [
            "OptimizeLoss/loss",
            "OptimizeLoss/learning_rate_1",
            "OptimizeLoss/global_norm/gradient_norm",
            "OptimizeLoss/global_norm/clipped_gradient_norm",
        ]
        + ["OptimizeLoss/gradient_norm/seq2seq/%s_0" % name for name in variables]
    )
    steps = sorted(values["OptimizeLoss/loss"])
    assert steps == list(range(0, 80, 5)) + [79]
    for step in steps:
        norm = values["OptimizeLoss/global_norm/gradient_norm"][step]
        clipped = values["OptimizeLoss/global_norm/clipped_gradient_norm"][step]
        assert clipped == pytest.approx(min(norm, 0.1), rel=1e-4)  # global-norm clipping at 0.1
        assert values["OptimizeLoss/learning_rate_1"][step] == pytest.approx(0.01 * 0.9 ** (step // 20))
    assert any(values["OptimizeLoss/global_norm/gradient_norm"][s] > 0.1 for s in steps)
    assert values["OptimizeLoss/loss"][0] == pytest.approx(result["first_loss"], rel=1e-5)
