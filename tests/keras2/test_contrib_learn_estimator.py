"""tf1clip.contrib.learn's Estimator, RunConfig, Experiment and learn_runner in TF 1 mode (they need
tf1clip.estimator, which the companion process imports). Numbers against TF 1.15.5
(tests/data/tf115_learn/estimator_refs.json, recorded by make_estimator_refs.py) and hand-derived values.
"""

import importlib
import json
import os

import numpy as np
import pytest
import tensorflow as tf

from helpers import skip_without_estimator
from tf1clip.contrib import learn
from tf1clip.upgrade import _tables

try:
    from tf1clip.contrib.learn import learn_runner
    from tf1clip.contrib.learn.utils import saved_model_export_utils

    MISSING = None
except ImportError as err:
    MISSING = "tf1clip.estimator is not available with TensorFlow %s: %s" % (tf.__version__, err)

v1 = tf.compat.v1

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_learn")
with open(os.path.join(DATA, "estimator_refs.json")) as _f:
    REFS = json.load(_f)
X, Y = np.array(REFS["x"], np.float32), np.array(REFS["y"], np.float32)


@pytest.fixture(autouse=True)
def _estimator_available():
    """Skips without Estimator; fails instead under TF1CLIP_REQUIRE_ESTIMATOR=1 (CI)."""
    if MISSING:
        skip_without_estimator(MISSING)


def model_fn(features, labels, mode, params):
    w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer([[0.5], [-0.25]]))
    pred = tf.matmul(features, w)
    if mode == learn.ModeKeys.INFER:
        return {"pred": pred, "double": 2.0 * pred}, None, None
    loss = v1.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), pred)
    train_op = v1.train.GradientDescentOptimizer(params["lr"]).minimize(loss, global_step=v1.train.get_global_step())
    return {"pred": pred, "double": 2.0 * pred}, loss, train_op


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-6, atol=1e-7)


def test_fit_evaluate_predict_with_x_y_match_tf115(tmp_path):
    est = learn.Estimator(model_fn=model_fn, model_dir=str(tmp_path), params={"lr": 0.1})
    est.fit(x=X, y=Y, steps=3, batch_size=2)
    _close(est.get_variable_value("w").ravel(), REFS["w_after_3"])
    est.fit(x=X, y=Y, steps=4)
    _close(est.get_variable_value("w").ravel(), REFS["w_after_7"])
    metrics = {"mae": learn.MetricSpec(v1.metrics.mean_absolute_error, prediction_key="pred")}
    result = est.evaluate(x=X, y=Y, batch_size=2, metrics=metrics)
    assert sorted(result) == sorted(REFS["eval"])
    for key, value in REFS["eval"].items():
        _close(result[key], value)
    _close(est.evaluate(x=X, y=Y, batch_size=2, steps=2)["loss"], REFS["eval_2_steps"]["loss"])
    predictions = list(est.predict(x=X, batch_size=2))
    assert [sorted(p) for p in predictions] == [["double", "pred"]] * 5
    _close([p["pred"] for p in predictions], [p["pred"] for p in REFS["predict"]])
    outputs = est.predict(x=X, batch_size=3, outputs=["double"], as_iterable=False)
    assert list(outputs) == ["double"]
    _close(outputs["double"], REFS["predict_outputs"])


def test_predict_on_constant_input_reads_one_batch_as_tf115(tmp_path):
    est = learn.Estimator(model_fn=model_fn, model_dir=str(tmp_path), params={"lr": 0.1})
    with pytest.raises(learn.NotFittedError, match="Couldn't find trained model"):
        est.predict(x=X)
    est.fit(x=X, y=Y, steps=3, batch_size=2)
    est.fit(x=X, y=Y, steps=4)

    def const_input_fn():
        return tf.constant(X[:3]), None

    _close([p["pred"] for p in est.predict(input_fn=const_input_fn)], REFS["predict_const"])
    _close(est.predict(input_fn=const_input_fn, as_iterable=False)["pred"], REFS["predict_const_batch"])


def test_model_fn_ops_validation_and_model_fn_forms(tmp_path):
    with tf.Graph().as_default():
        loss = tf.constant([2.0])
        ops = learn.ModelFnOps(mode="eval", predictions=tf.constant([1.0]), loss=loss)
        assert ops.loss.shape == () and ops.eval_metric_ops == {} and ops.training_hooks == []
        with pytest.raises(ValueError, match="Missing train_op"):
            learn.ModelFnOps(mode="train", loss=loss)
        with pytest.raises(ValueError, match="Missing loss"):
            learn.ModelFnOps(mode="eval", predictions=loss)
        with pytest.raises(ValueError, match="Missing predictions"):
            learn.ModelFnOps(mode="infer")
        with pytest.raises(ValueError, match="Loss must be scalar"):
            learn.ModelFnOps(mode="eval", predictions=loss, loss=tf.constant([1.0, 2.0]))
        with pytest.raises(ValueError, match="Invalid mode predict"):
            learn.ModelFnOps(mode="predict", predictions=loss)
        with pytest.raises(TypeError, match="SessionRunHook instances"):
            learn.ModelFnOps(mode="eval", predictions=loss, loss=loss, training_hooks=[object()])
    assert (learn.ModeKeys.TRAIN, learn.ModeKeys.EVAL, learn.ModeKeys.INFER) == ("train", "eval", "infer")
    with pytest.raises(ValueError, match="does not have a params argument"):
        learn.Estimator(model_fn=lambda features, labels: None, params={"a": 1})
    seen = {}

    def two_args(features, labels):
        seen["called"] = True
        return features, tf.constant(0.0), None

    est = learn.Estimator(model_fn=two_args, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Missing train_op"):
        est.fit(input_fn=lambda: (tf.constant([[1.0]]), tf.constant([1.0])), steps=1)
    assert seen == {"called": True}
    with pytest.raises(ValueError, match="Can not provide both input_fn and x or y"):
        est.fit(x=X, input_fn=lambda: None)
    with pytest.raises(ValueError, match="Can not provide both steps and max_steps"):
        est.fit(x=X, y=Y, steps=1, max_steps=2)


def test_run_config_reads_tf_config_as_tf115(monkeypatch, tmp_path):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = learn.RunConfig(num_cores=2, gpu_memory_fraction=0.5, save_checkpoints_steps=10)
    assert isinstance(config, learn.RunConfig) and config.is_chief and config.master == ""
    assert (config.task_type, config.task_id, config.num_ps_replicas, config.num_worker_replicas) == (None, 0, 0, 0)
    assert config.save_checkpoints_secs is None and config.save_checkpoints_steps == 10
    assert learn.RunConfig().save_checkpoints_secs == 600 and config.session_config is None
    assert config.tf_config.intra_op_parallelism_threads == 2 and config.tf_config.inter_op_parallelism_threads == 2
    assert config.tf_config.gpu_options.per_process_gpu_memory_fraction == 0.5
    cluster = {"master": ["m:1"], "ps": ["p:1", "p:2"], "worker": ["w:1", "w:2"]}
    tf_config = {"cluster": cluster, "task": {"type": "worker", "index": 1}, "environment": "cloud"}
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
    config = learn.RunConfig()
    assert (config.master, config.task_type, config.task_id, config.is_chief) == ("grpc://w:2", "worker", 1, False)
    assert (config.num_ps_replicas, config.num_worker_replicas, config.environment) == (2, 3, "cloud")
    assert learn_runner._default_schedule(config) == "train"
    tf_config["task"] = {"type": "master", "index": 0}
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
    assert learn.RunConfig().is_chief and learn_runner._default_schedule(learn.RunConfig()) == "train_and_evaluate"
    tf_config["task"] = {"type": "ps", "index": 0}
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
    assert learn_runner._default_schedule(learn.RunConfig()) == "run_std_server"
    tf_config["environment"] = "local"
    tf_config["task"] = {"type": "worker", "index": 0}
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
    assert learn.RunConfig().is_chief
    monkeypatch.setenv("TF_CONFIG", json.dumps({"model_dir": str(tmp_path)}))
    assert learn.RunConfig().model_dir == str(tmp_path)
    with pytest.raises(ValueError, match="must have the same value as the model_dir in TF_CONFIG"):
        learn.RunConfig(model_dir=str(tmp_path / "other"))
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "chief", "index": 0}}))
    with pytest.raises(ValueError, match="chief is not a valid task_type"):
        learn.RunConfig()


def _input_fn():
    return tf.constant(X), tf.constant(Y)


def _experiment_fn(run_config, hparams):
    est = learn.Estimator(model_fn=model_fn, config=run_config, params={"lr": 0.1})
    serving = learn.utils.input_fn_utils.build_default_serving_input_fn({"x": tf.constant(X)})

    def serving_input_fn():
        ops = serving()
        return learn.InputFnOps(ops.features["x"], None, ops.default_inputs)

    strategy = saved_model_export_utils.make_export_strategy(serving_input_fn, exports_to_keep=1)
    return learn.Experiment(
        est, _input_fn, _input_fn, train_steps=4, eval_steps=1, eval_delay_secs=0, export_strategies=strategy
    )


def test_learn_runner_train_and_evaluate_and_exports(tmp_path, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = learn.RunConfig(model_dir=str(tmp_path), tf_random_seed=1)
    result, exports = learn_runner.run(_experiment_fn, run_config=config)
    w = np.array([[0.5], [-0.25]])
    for _ in range(4):  # full-batch gradient descent on the mean squared error, by hand
        w -= 0.1 * 2.0 * X.T.dot(X.dot(w) - Y.reshape(-1, 1)) / len(X)
    _close(tf.train.load_variable(str(tmp_path), "w"), w)
    _close(result["loss"], np.mean((X.dot(w).ravel() - Y) ** 2))
    assert result["global_step"] == 4 and len(exports) == 1
    assert os.path.isfile(os.path.join(os.fsdecode(exports[0]), "saved_model.pb"))
    assert os.fsdecode(exports[0]).startswith(os.path.join(str(tmp_path), "export", "Servo"))
    experiment = _experiment_fn(config, None)
    assert experiment.test()["global_step"] == 5
    assert len(os.listdir(os.path.join(str(tmp_path), "export", "Servo"))) == 1  # exports_to_keep=1
    with pytest.raises(ValueError, match="Schedule references non-existent task nope"):
        learn_runner.run(_experiment_fn, run_config=config, schedule="nope")
    with pytest.raises(ValueError, match="Cannot provide both `output_dir` and `run_config`"):
        learn_runner.run(_experiment_fn, output_dir="x", run_config=config)

    def other_config(run_config, hparams):
        return learn.Experiment(learn.Estimator(model_fn=model_fn, params={"lr": 0.1}), _input_fn, _input_fn)

    with pytest.raises(RuntimeError, match="expected to be used by the `Estimator`"):
        learn_runner.run(other_config, run_config=config)


def test_continuous_eval_and_train_and_eval_schedules(tmp_path):
    est = learn.Estimator(model_fn=model_fn, model_dir=str(tmp_path), params={"lr": 0.1})
    experiment = learn.Experiment(
        est, _input_fn, _input_fn, train_steps=4, eval_steps=1, eval_delay_secs=0, train_steps_per_iteration=2
    )
    results = []

    def predicate(eval_result):
        results.append(eval_result)
        return len(results) < 3

    experiment.continuous_eval(throttle_delay_secs=0, continuous_eval_predicate_fn=predicate)
    assert results == [None, {}, {}]  # no checkpoint yet: nothing evaluated
    result, exports = experiment.continuous_train_and_eval()
    assert result["global_step"] == 4 and exports == []
    assert sorted(os.listdir(str(tmp_path))).count("eval_one_pass") == 1
    ran = []
    experiment.continuous_eval(throttle_delay_secs=0, continuous_eval_predicate_fn=lambda r: not ran.append(r))
    assert ran[0] is None and ran[1]["global_step"] == 4
    assert os.path.isdir(os.path.join(str(tmp_path), "eval_continuous"))
    with pytest.raises(ValueError, match="`train_steps_per_iteration` must be an integer"):
        learn.Experiment(est, _input_fn, _input_fn, train_steps_per_iteration=1.5)


def test_export_strategy_passes_the_arguments_export_fn_takes():
    calls = []
    strategy = learn.ExportStrategy("s", lambda est, path, checkpoint_path: calls.append((path, checkpoint_path)))
    strategy.export(None, "p", checkpoint_path="c", eval_result={"a": 1})
    assert calls == [("p", "c")]
    bad = learn.ExportStrategy("s", lambda est, path, eval_result: None)
    with pytest.raises(ValueError, match="must also accept checkpoint_path"):
        bad.export(None, "p")


def test_every_name_tf1clip_upgrade_routes_exists():
    for contrib, (module, names) in _tables.own().items():
        if contrib.startswith("tf.contrib.learn"):
            target = importlib.import_module(module)
            missing = [n for n in names if not hasattr(target, n)]
            assert not missing, (contrib, missing)


def test_experiment_with_a_core_estimator_and_learn_run_config(tmp_path, monkeypatch):
    from tf1clip import estimator as core

    monkeypatch.delenv("TF_CONFIG", raising=False)

    def core_model_fn(features, labels, mode):
        ops = learn.ModelFnOps(mode, *model_fn(features, labels, mode, {"lr": 0.1}))
        return ops.estimator_spec()

    config = learn.RunConfig(model_dir=str(tmp_path), num_cores=1)
    est = core.Estimator(core_model_fn, config=config)
    experiment = learn.Experiment(est, _input_fn, _input_fn, train_steps=2, eval_steps=1, min_eval_frequency=0)
    result, exports = learn_runner.run(lambda run_config, hparams: experiment, run_config=config)
    w = np.array([[0.5], [-0.25]])
    for _ in range(2):
        w -= 0.1 * 2.0 * X.T.dot(X.dot(w) - Y.reshape(-1, 1)) / len(X)
    _close(tf.train.load_variable(str(tmp_path), "w"), w)
    assert result["global_step"] == 2 and exports == []
    with pytest.raises(ValueError, match="`eval_metrics` must be `None` with `tf.estimator.Estimator`"):
        learn.Experiment(est, _input_fn, _input_fn, eval_metrics={"a": None})


def test_model_fn_ops_estimator_spec_export_outputs():
    from tf1clip import estimator as core

    with tf.Graph().as_default():
        scores = tf.constant([[0.25, 0.75]])
        classes = tf.constant([["a", "b"]])
        alternatives = {
            "reg": (learn.ProblemType.LINEAR_REGRESSION, {"scores": tf.constant([[1.5]])}),
            "cls": (learn.ProblemType.CLASSIFICATION, {"probabilities": scores, "classes": classes}),
        }
        ops = learn.ModelFnOps("infer", predictions={"p": scores}, output_alternatives=alternatives)
        spec = ops.estimator_spec(default_serving_output_alternative_key="cls")
        assert sorted(spec.export_outputs) == ["cls", "reg", "serving_default"]
        assert isinstance(spec.export_outputs["reg"], core.export.RegressionOutput)
        assert spec.export_outputs["serving_default"].scores is scores
        assert spec.export_outputs["cls"].classes is classes and spec.mode == "infer"
        eval_ops = learn.ModelFnOps(
            "eval", predictions=scores, loss=tf.constant(1.0), eval_metric_ops={"loss": (scores, scores)}
        )
        assert eval_ops.estimator_spec().eval_metric_ops == {}  # the Estimator's own mean loss replaces it
        bad = learn.ModelFnOps("infer", predictions=scores, output_alternatives={"x": (7, {"scores": scores})})
        with pytest.raises(ValueError, match="Unknown problem_type=7"):
            bad.estimator_spec()


def dict_model_fn(features, labels, mode):
    a = v1.get_variable("a", [1, 1], initializer=v1.constant_initializer([[0.5]]))
    b = v1.get_variable("b", [2, 1], initializer=v1.constant_initializer([[0.25], [-1.0]]))
    pred = tf.matmul(features["a"], a) + tf.matmul(features["b"], b)
    y = tf.reshape(labels["y"], [-1, 1])  # a (rows, 1) label is fed as (rows,)
    loss = v1.losses.mean_squared_error(y, pred) + 0.01 * tf.reduce_mean(v1.to_float(labels["n"]))
    train_op = v1.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=v1.train.get_global_step())
    return pred, loss, train_op


def test_fit_with_dicts_and_a_short_last_batch_matches_tf115(tmp_path):
    rng = np.random.RandomState(5)
    x = {"a": rng.randn(7).astype(np.float32), "b": rng.randn(7, 2).astype(np.float32)}
    y = {"y": rng.randn(7, 1).astype(np.float32), "n": np.arange(7, dtype=np.int64)}
    est = learn.Estimator(model_fn=dict_model_fn, model_dir=str(tmp_path))
    est.fit(x=x, y=y, steps=5, batch_size=3)
    refs = REFS["dict_fit"]
    _close(est.get_variable_value("a").ravel(), refs["a"])
    _close(est.get_variable_value("b").ravel(), refs["b"])
    result = est.evaluate(x=x, y=y, batch_size=3)
    _close(result["loss"], refs["eval"]["loss"])
    assert result["global_step"] == 5


LABELS_SEEN = []


def own_loss_metric_model_fn(features, labels, mode):
    """Records the labels each mode gets; its eval_metric_ops name their own 'loss' (sum of |pred| per batch)."""
    LABELS_SEEN.append((mode, labels))
    w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer([[0.5], [-0.25]]))
    pred = tf.matmul(features, w)
    if mode == learn.ModeKeys.INFER:
        return learn.ModelFnOps(mode, predictions={"pred": pred})
    loss = v1.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), pred)
    train_op = v1.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=v1.train.get_global_step())
    metrics = {"loss": v1.metrics.mean(tf.reduce_sum(tf.abs(pred))), "other": v1.metrics.mean(loss)}
    return learn.ModelFnOps(mode, predictions={"pred": pred}, loss=loss, train_op=train_op, eval_metric_ops=metrics)


X4 = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], np.float32)
Y4 = np.array([1.0, 0.0, 1.0, 1.0], np.float32)


def test_model_fn_own_loss_metric_is_kept_as_tf115(tmp_path):
    est = learn.Estimator(model_fn=own_loss_metric_model_fn, model_dir=str(tmp_path))
    est.fit(x=X4, y=Y4, steps=2, batch_size=2)
    result = est.evaluate(x=X4, y=Y4, batch_size=2)
    pred = np.array([p["pred"] for p in est.predict(x=X4)], np.float64).ravel()
    assert sorted(result) == ["global_step", "loss", "other"]
    _close(result["loss"], np.mean([np.abs(pred[:2]).sum(), np.abs(pred[2:]).sum()]))
    _close(result["other"], np.mean([np.mean((pred[:2] - Y4[:2]) ** 2), np.mean((pred[2:] - Y4[2:]) ** 2)]))
    _close([result["loss"], result["other"]], [1.4454, 0.3606776])  # TF 1.15.5's evaluate of this program
    summaries = [
        value.simple_value
        for path in tf.io.gfile.glob(os.path.join(str(tmp_path), "eval", "events.*"))
        for event in v1.train.summary_iterator(path)
        for value in event.summary.value
        if value.tag == "loss"
    ]
    _close(summaries, [result["loss"]])


def test_infer_labels_are_placeholders_of_the_training_labels_as_tf115(tmp_path):
    del LABELS_SEEN[:]
    learn.Estimator(model_fn=own_loss_metric_model_fn, model_dir=str(tmp_path)).fit(x=X4, y=Y4, steps=1)
    fresh = learn.Estimator(model_fn=own_loss_metric_model_fn, model_dir=str(tmp_path))
    list(fresh.predict(x=X4))  # not fit in this object: no labels signature
    fresh.evaluate(x=X4, y=Y4)  # TF 1.15's evaluate recorded the labels signature as well
    list(fresh.predict(x=X4))
    modes = [mode for mode, _ in LABELS_SEEN]
    assert modes == ["train", "infer", "eval", "infer"]
    assert LABELS_SEEN[1][1] is None
    labels = LABELS_SEEN[3][1]
    assert labels.op.type == "Placeholder" and labels.op.name == "Placeholder"
    assert labels.dtype == tf.float32 and labels.shape.as_list() == [None]
    with pytest.raises(ValueError, match="Labels are incompatible with given information"):
        fresh.evaluate(x=X4, y=Y4.astype(np.int32))
    with pytest.raises(
        ValueError,
        match=r"Features are incompatible with given information\. Given features: Tensor\(\"input:0\", shape=\(\?, 1\)"
        r".*required signatures: TensorSignature\(dtype=tf\.float32, shape=TensorShape\(\[Dimension\(None\), Dimension\(2\)\]\), is_sparse=False\)\.",
    ):
        fresh.evaluate(x=X4[:, :1], y=Y4)
    fresh.evaluate(input_fn=lambda: (tf.constant(X4[:3]), tf.constant(Y4[:3])), steps=1)  # only dimension 0 differs

    def serving_input_fn():
        features = v1.placeholder(tf.float32, [None, 2])
        return learn.InputFnOps(features, None, {"x": features})

    fresh.export_savedmodel(str(tmp_path / "export"), serving_input_fn)
    assert LABELS_SEEN[-1] == ("infer", None)  # export_savedmodel passed None, as TF 1.15


def test_canned_estimators_raise_tf115s_errors(tmp_path):
    columns = learn.infer_real_valued_columns_from_input(X)
    with pytest.raises(ValueError, match=r"^n_classes must be > 1 for classification: 1\.$"):
        learn.DNNClassifier(hidden_units=[2], feature_columns=columns, n_classes=1)
    with pytest.raises(ValueError, match=r"^label_keys is not supported for n_classes=2\.$"):
        learn.LinearClassifier(feature_columns=columns, label_keys=["a", "b"])
    with pytest.raises(ValueError, match="Either linear_feature_columns or dnn_feature_columns must be defined"):
        learn.DNNLinearCombinedRegressor()
    with pytest.raises(ValueError, match="LinearRegressor: feature_columns must not be empty"):
        learn.LinearRegressor(feature_columns=[])
    with pytest.raises(ValueError, match="does not re-create _joint_weight"):
        learn.LinearClassifier(feature_columns=columns, _joint_weight=True)
    swish = learn.DNNRegressor(
        hidden_units=[2], feature_columns=columns, activation_fn="swish", model_dir=str(tmp_path)
    )
    with pytest.raises(
        ValueError, match=r"Activation name should be one of \[relu, tanh, sigmoid\], you provided swish"
    ):
        swish.fit(x=X, y=Y, steps=1)
    regressor = learn.LinearRegressor(feature_columns=columns, model_dir=str(tmp_path / "linear"))
    with pytest.raises(
        TypeError, match="monitors: expected .*SessionRunHook or tf.contrib.learn.monitors .* got object"
    ):
        regressor.fit(x=X, y=Y, steps=1, monitors=[object()])


def test_classifier_predictions_are_consistent_with_label_keys(tmp_path):
    keys = [b"cat", b"dog", b"emu"]

    def input_fn():
        features = {"x": tf.constant(X)}
        return features, tf.constant(np.array(keys * 2)[: len(X)].reshape(-1, 1))

    classifier = learn.DNNClassifier(
        hidden_units=[3],
        feature_columns=[learn.infer_real_valued_columns_from_input({"x": X})[0]],
        n_classes=3,
        label_keys=[k.decode() for k in keys],
        activation_fn="tanh",
        model_dir=str(tmp_path),
        config=learn.RunConfig(tf_random_seed=3),
    )
    classifier.fit(input_fn=input_fn, steps=2)
    assert set(classifier.evaluate(input_fn=input_fn, steps=1)) == {"loss", "accuracy", "global_step"}
    classes = list(classifier.predict(input_fn=input_fn))
    assert len(classes) == len(X) and set(classes) <= set(keys)
    rows = list(classifier.predict(input_fn=input_fn, outputs=["probabilities", "logits"]))
    for row, label in zip(rows, classes):
        assert sorted(row) == ["logits", "probabilities"]
        expected = np.exp(row["logits"]) / np.exp(row["logits"]).sum()
        np.testing.assert_allclose(row["probabilities"], expected, rtol=1e-5)
        assert keys[int(np.argmax(row["probabilities"]))] == label
