"""Every foundation legacy example runs a few steps and learns."""

import importlib
import math
import os
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "legacy_examples")
sys.path.insert(0, EXAMPLES)


def _quiet(*_args):
    pass


@pytest.mark.parametrize(
    "module",
    [
        "clip_by_value_adam",
        "clip_by_global_norm",
        "clip_by_norm_per_tensor",
        "estimator_decorator",
        "custom_capper",
        "gradient_tape_tf2",
    ],
)
def test_recipe_example_learns(module):
    losses = importlib.import_module(module).main(steps=60, log=_quiet)
    assert len(losses) == 61
    assert all(math.isfinite(x) for x in losses)
    assert losses[-1] < 0.9 * losses[0]


def test_headline_example_unclipped_diverges_and_clipped_learns():
    lines = []
    result = importlib.import_module("exploding_rnn").main(["--steps", "120"], out=_Collect(lines))
    plain, clipped = result["unclipped"], result["clipped"]
    assert plain["diverged"] and plain["steps_run"] < 120
    assert not clipped["diverged"] and clipped["steps_run"] == 120
    assert clipped["final_loss"] < clipped["initial_loss"] / 100
    assert clipped["max_grad_norm"] > 1000  # the gradients really explode; clipping tames them
    assert any("DIVERGED" in line for line in lines) and any("learned" in line for line in lines)


class _Collect(object):
    def __init__(self, lines):
        self.lines = lines

    def write(self, text):
        self.lines.append(text)

    def flush(self):
        pass


def test_adaptive_tensorboard_example_writes_readable_event_file(tmp_path):
    import glob

    import tensorflow as tf

    result = importlib.import_module("adaptive_tensorboard").main(steps=30, logdir=str(tmp_path), log=_quiet)
    (events,) = glob.glob(str(tmp_path / "events.out.tfevents.*"))
    values = {}
    for event in tf.compat.v1.train.summary_iterator(events):
        for value in event.summary.value:
            values.setdefault(value.tag, []).append((event.step, value))
    assert {"loss", "gradient_norms/pre_clip_norm", "gradient_norms/post_clip_norm",
            "gradient_norms/clip_fraction", "gradient_norms/variable_norms"} <= set(values)
    pre = [v.simple_value for _, v in values["gradient_norms/pre_clip_norm"]]
    post = [v.simple_value for _, v in values["gradient_norms/post_clip_norm"]]
    assert [s for s, _ in values["gradient_norms/pre_clip_norm"]] == list(range(1, 31))
    assert all(b <= a * (1 + 1e-5) for a, b in zip(pre, post))
    assert sum(b < a * 0.999 for a, b in zip(pre, post)) >= 10  # AutoClip at p25 clips most steps
    fractions = [v.simple_value for _, v in values["gradient_norms/clip_fraction"]]
    assert fractions[0] == 0.0 and fractions[-1] > 0.5  # the step counters advance through the decorator
    assert values["gradient_norms/variable_norms"][0][1].HasField("histo")
    assert result["losses"][-1] < result["losses"][0]
