"""Real TensorFlow 1.15 as the oracle (issue 21): every program in tests/oracle/programs, run unchanged
on TF 1.15 with tf.contrib and upgraded by tf1clip-upgrade on the current TensorFlow, computes the same
values (rtol 1e-4; float16 programs 2e-3), and checkpoints move both ways.

For each program (tests/oracle/harness.py has the details):

- ``upgraded/full``: the upgraded program's every value (losses, every global variable with its
  name, summaries) equals TF 1.15's;
- ``upgraded/save``: the same for the first half of the training;
- ``upgraded/resume``: resuming from TF 1.15's half-way checkpoint, it reaches TF 1.15's final values;
- ``tf115/resume_from_upgraded``: TF 1.15 resuming from the upgraded program's checkpoint reaches them too.

Values TF 1.15 computes differently on two runs (races in the program) are reported as a warning,
not compared. TF 1.15 runs in a Python 3.7 venv built once (tests/oracle/tf115_env.py) and its
results are cached per program text, so only the upgraded side runs in every environment. Without
Python 3.7 these tests skip; a failing build fails them.
"""

import os
import warnings

import pytest

from oracle import harness
from oracle import tf115_env


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    try:
        tf115_env.ensure()
    except tf115_env.Unavailable as e:
        pytest.skip(str(e))
    return harness.run_all(workdir=str(tmp_path_factory.mktemp("oracle")))


@pytest.mark.parametrize("run,reference", harness.CHECKS, ids=[c[0] for c in harness.CHECKS])
@pytest.mark.parametrize("program", harness.programs())
def test_program_matches_tensorflow_1_15(oracle, program, run, reference):
    error, mismatches, unstable = harness.check(program, oracle[program], run, reference)
    assert error is None, error
    if unstable:
        warnings.warn(
            "%s %s: values TF 1.15 computes differently on two runs, not compared: %s"
            % (program, run, ", ".join(unstable)),
            stacklevel=1,
        )
    assert not mismatches, "\n".join(
        "%s: TF 1.15 %s, got %s" % (k, harness.short(w), harness.short(g)) for k, w, g in mismatches
    )


def test_every_promised_api_has_a_program():
    """The contrib APIs tf1clip replaces each appear in some oracle program."""
    text = ""
    for name in harness.programs():
        with open(os.path.join(harness.PROGRAMS, name + ".py")) as f:
            text += f.read()
    for api in [
        "tf.clip_by_global_norm",
        "tf.clip_by_norm",
        "tf.clip_by_value",
        "tf.contrib.layers.optimize_loss",
        "tf.contrib.layers.embed_sequence",
        "learning_rate_decay_fn",
        "gradient_noise_scale=None",
        "gradient_multipliers",
        "UPDATE_OPS",
        "tf.contrib.estimator.clip_gradients_by_norm",
        "adaptive_clipping_fn",
        "tf.contrib.training.create_train_op",
        "tf.contrib.training.clip_gradient_norms",
        "tf.contrib.training.multiply_gradients",
        "tf.contrib.training.train",
        "tf.contrib.opt.clip_gradients_by_global_norm",
        "slim.learning.clip_gradient_norms",
        "slim.learning.multiply_gradients",
        "tf.contrib.training.clip_gradient_norms_fn",
        "tf.contrib.training.add_gradients_summaries",
        "slim.learning.create_train_op",
        "slim.learning.train",
        "tf.contrib.mixed_precision.LossScaleOptimizer",
        "FixedLossScaleManager",
        "ExponentialUpdateLossScaleManager",
        "tf.contrib.opt.LazyAdamOptimizer",
        "tf.contrib.opt.AdamWOptimizer",
        "tf.contrib.opt.MomentumWOptimizer",
        "decay_var_list",
        "tf.contrib.opt.MultitaskOptimizerWrapper",
        "tf.contrib.opt.MovingAverageOptimizer",
        "swapping_saver",
        "tf.contrib.opt.NadamOptimizer",
        "tf.contrib.opt.AdaMaxOptimizer",
        "tf.contrib.opt.LARSOptimizer",
        "tf.contrib.opt.PowerSignOptimizer",
        "tf.contrib.opt.AddSignOptimizer",
        "sign_decay.get_linear_decay_fn",
        "sign_decay.get_cosine_decay_fn",
        "tf.contrib.opt.VariableClippingOptimizer",
        "tf.estimator.DNNRegressor",
        "tf.feature_column.embedding_column",
        "warm_start_from",
        "tf.estimator.inputs.numpy_input_fn",
        "tf.contrib.seq2seq.TrainingHelper",
        "tf.contrib.seq2seq.GreedyEmbeddingHelper",
        "tf.contrib.seq2seq.BasicDecoder",
        "tf.contrib.seq2seq.dynamic_decode",
        "tf.contrib.seq2seq.sequence_loss",
        "tf.contrib.seq2seq.BeamSearchDecoder",
        "tf.contrib.seq2seq.tile_batch",
        "tf.contrib.seq2seq.BahdanauAttention",
        "tf.contrib.seq2seq.AttentionWrapper",
        "input_data.read_data_sets",
        "tf.contrib.lookup.index_table_from_tensor",
        "tf.contrib.data.batch_and_drop_remainder",
        "map_and_batch",
        "tf.data.Iterator.from_structure",
        "learn_runner.run",
        "tf.contrib.learn.Experiment",
        "tf.contrib.learn.Estimator",
        "tf.contrib.learn.RunConfig",
        "tf.contrib.learn.ModelFnOps",
        "tf.contrib.learn.ModeKeys",
        "saved_model_export_utils.make_export_strategy",
        "tf.contrib.crf.crf_log_likelihood",
        "tf.contrib.crf.crf_decode",
        "tf.contrib.crf.viterbi_decode",
    ]:
        assert api in text, api


# The harness itself: what counts as a mismatch.


def test_compare_finds_changed_missing_and_unexpected_values():
    expected = {"w": [[1.0, 2.0]], "losses": [3.0, 4.0], "form": {"b": [0.5], "name": "Adam"}}
    assert harness.compare(expected, expected) == ([], [])
    near = {"w": [[1.0, 2.0 * (1 + 5e-5)]], "losses": [3.0, 4.0], "form": {"b": [0.5], "name": "Adam"}}
    assert harness.compare(expected, near) == ([], [])
    # In a matrix, an element is also compared to 1e-5 of the largest one; not in a vector.
    assert harness.compare({"m": [[1.0, 1e-3]]}, {"m": [[1.0, 1e-3 + 9e-6]]}) == ([], [])
    assert harness.compare({"m": [[1.0, 1e-3]]}, {"m": [[1.0, 1e-3 + 2e-5]]})[0] != []
    assert harness.compare({"v": [1.0, 1e-3]}, {"v": [1.0, 1e-3 + 9e-6]})[0] != []
    actual = {"w": [[1.0, 2.001]], "losses": [3.0], "form": {"c": [0.5], "name": "SGD"}}
    mismatches, _ = harness.compare(expected, actual)
    assert [m[0] for m in mismatches] == ["form/b", "form/c", "form/name", "losses", "w"]
    assert mismatches[:2] == [("form/b", [0.5], harness.MISSING), ("form/c", harness.MISSING, [0.5])]


def test_values_tf115_does_not_reproduce_are_reported_not_compared():
    runs = {
        "full.0": {"w": [1.0], "racy": 1.0},
        "full.1": {"w": [1.0], "racy": 2.0},
        "save.0": {"w": [1.0]},
        "save.1": {"w": [1.0]},
        "resume.0": {"w": [1.0]},
        "resume.1": {"w": [1.0]},
    }
    assert harness.unstable_keys(runs) == {"racy"}
    runs["upgraded/full"], runs["errors"] = {"w": [1.0], "racy": 7.0}, {}
    assert harness.check("p", runs, "upgraded/full", "full") == (None, [], ["racy"])
    runs["upgraded/full"] = {"w": [1.1], "racy": 7.0}
    assert harness.check("p", runs, "upgraded/full", "full")[1] == [("w", [1.0], [1.1])]


def test_a_failed_run_is_an_error():
    runs = {"upgraded/full": None, "errors": {"upgraded/full": "Traceback ...\nValueError: boom"}}
    assert harness.check("p", runs, "upgraded/full", "full")[0].endswith("boom")


def test_tf115_environment_without_python_3_7_skips_with_the_reason(monkeypatch, tmp_path):
    monkeypatch.setenv("TF1CLIP_TF115_VENV", str(tmp_path / "venv"))
    monkeypatch.setattr(tf115_env.shutil, "which", lambda name: None)
    with pytest.raises(tf115_env.Unavailable, match=r"no Python 3\.7 .*pyenv prefix 3\.7.*python3\.7"):
        tf115_env.ensure()


def test_tf115_processes_do_not_inherit_tf2_behavior(monkeypatch):
    monkeypatch.setenv("TF2_BEHAVIOR", "1")
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    env = tf115_env.clean_env()
    assert "TF2_BEHAVIOR" not in env and "PYTHONPATH" not in env
