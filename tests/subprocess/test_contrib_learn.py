"""tf1clip.contrib.learn: the datasets helpers, and tf1clip-upgrade's conversion of tf.contrib.learn in its spellings
(the Estimator/Experiment tests: tests/keras2/test_contrib_learn_estimator.py)."""

import numpy as np
import pytest

from helpers import upgrade
from helpers import upgrade_issues
from tf1clip.contrib.learn.datasets import base


def test_load_csv_with_and_without_header(tmp_path):
    with_header = tmp_path / "iris.csv"
    with_header.write_text("3,2,a,b\n1.5,2.5,0\n3.0,4.0,1\n5.5,6.5,2\n")
    data = base.load_csv_with_header(str(with_header), target_dtype=np.int32, features_dtype=np.float32)
    assert isinstance(data, base.Dataset)
    np.testing.assert_array_equal(data.data, np.array([[1.5, 2.5], [3.0, 4.0], [5.5, 6.5]], np.float32))
    np.testing.assert_array_equal(data.target, np.array([0, 1, 2], np.int32))
    first = base.load_csv_with_header(str(with_header), np.float32, np.float32, target_column=0)
    np.testing.assert_array_equal(first.target, np.array([1.5, 3.0, 5.5], np.float32))
    np.testing.assert_array_equal(first.data, np.array([[2.5, 0], [4.0, 1], [6.5, 2]], np.float32))
    plain = tmp_path / "plain.csv"
    plain.write_text("7,1.0,2.0\n8,3.0,4.0\n")
    data = base.load_csv_without_header(str(plain), np.int64, np.float64, target_column=0)
    np.testing.assert_array_equal(data.data, [[1.0, 2.0], [3.0, 4.0]])
    assert data.target.tolist() == [7, 8] and data.target.dtype == np.int64
    base.shrink_csv(str(plain), 2)
    assert (tmp_path / "plain_small.csv").read_text().splitlines() == ["7,1.0,2.0"]
    assert base.Datasets(train=data, validation=None, test=None).train is data


SPELLINGS = """\
    import tensorflow as tf
    from tensorflow.contrib import learn
    from tensorflow.contrib.learn.python.learn import learn_runner
    from tensorflow.contrib.learn.python.learn.utils import saved_model_export_utils
    from tensorflow.contrib.learn.python.learn.estimators import run_config as run_config_lib
    import tensorflow.contrib.learn as tflearn
    vp = tf.contrib.learn.preprocessing.VocabularyProcessor(10)
    vp2 = learn.preprocessing.VocabularyProcessor.restore("vocab")
    config = tf.contrib.learn.RunConfig(master="", num_cores=2, gpu_memory_fraction=0.5, model_dir="d")
    config2 = run_config_lib.RunConfig(tf_random_seed=1)
    est = tf.contrib.learn.Estimator(model_fn=f, config=config)
    exp = tflearn.Experiment(est, train_input_fn=i, eval_input_fn=j)
    ops = tf.contrib.learn.ModelFnOps(mode=tf.contrib.learn.ModeKeys.TRAIN, loss=l, train_op=t)
    s = saved_model_export_utils.make_export_strategy(serving_input_fn, exports_to_keep=1)
    learn_runner.run(experiment_fn, output_dir="d")
    d = tf.contrib.learn.datasets.base.load_csv_with_header("f", target_dtype=int, features_dtype=float)
    """


@pytest.mark.parametrize("target", ["modern", "estimator"])
def test_upgrade_converts_contrib_learn_in_every_spelling(target):
    result = upgrade(SPELLINGS, target=target)
    assert upgrade_issues(result) == []
    text = result.text
    assert "contrib.learn" not in text.replace("tf1clip.contrib.learn", "")
    for line in [
        "from tf1clip.contrib import learn",
        "from tf1clip.contrib.learn import learn_runner",
        "from tf1clip.contrib.learn.utils import saved_model_export_utils",
        "from tf1clip.contrib.learn import run_config as run_config_lib",
        "vp = tf1clip.contrib.learn.preprocessing.VocabularyProcessor(10)",
        'config = tf1clip.contrib.learn.RunConfig(master="", num_cores=2, gpu_memory_fraction=0.5, model_dir="d")',
        "est = tf1clip.contrib.learn.Estimator(model_fn=f, config=config)",
    ]:
        assert line in text.splitlines(), line
    assert ('os.environ["TF_USE_LEGACY_KERAS"] = "1"' in text) == (target == "modern")  # TF 2.15 has Keras 2
    assert "import tf1clip.contrib.learn" in text.splitlines()


def test_upgrade_leaves_what_tf1clip_does_not_provide_an_error_naming_the_successor():
    errors = upgrade_issues(
        upgrade(
            """\
            import tensorflow as tf
            from tensorflow.contrib.learn.python.learn.estimators import rnn_common
            f = tf.contrib.learn.TensorForestEstimator(params)
            g = tf.contrib.tensor_forest.client.random_forest.TensorForestEstimator(params)
            m = tf.contrib.learn.models.bidirectional_rnn(fw, bw, x)
            ops = rnn_common.get_eval_metric_ops(p, q, r)
            e = tf.contrib.learn.monitors.ExportMonitor(every_n_steps=10, export_dir="x")
            k = tf.contrib.learn.KMeansClustering(3)
            """
        )
    )
    assert [line for line, _ in errors] == [3, 4, 5, 6, 7, 8]
    for line in (0, 1):
        assert "TensorFlow Decision Forests (python3 -m pip install tensorflow_decision_forests" in errors[line][1]
    assert "tf.compat.v1.nn.static_bidirectional_rnn" in errors[2][1]
    assert "rnn_common.get_eval_metric_ops" in errors[3][1]
    assert "pass an ExportStrategy (tf1clip.contrib.learn.make_export_strategy)" in errors[4][1]
    assert "not this one (KMeansClustering, SVM" in errors[5][1] and "tf1clip.estimator" in errors[5][1]


CANNED = """\
    import tensorflow as tf
    from tensorflow.contrib.learn.python.learn.datasets import mnist
    from tensorflow.contrib.learn.python.learn.estimators import dnn
    from tensorflow.contrib.learn.python.learn.estimators import head as head_lib
    from tensorflow.contrib.learn.python.learn import monitors as monitor_lib
    from tensorflow.contrib import learn
    data = mnist.read_data_sets("MNIST_data", one_hot=True)
    iris = tf.contrib.learn.datasets.load_iris()
    cols = tf.contrib.learn.infer_real_valued_columns_from_input(iris.data)
    c = dnn.DNNClassifier(hidden_units=[3], feature_columns=cols)
    r = tf.contrib.learn.DNNLinearCombinedRegressor(linear_feature_columns=cols, dnn_feature_columns=cols)
    l = learn.LinearClassifier(feature_columns=[tf.contrib.layers.real_valued_column("x", dimension=4)])
    h = head_lib.multi_class_head(3)
    v = monitor_lib.ValidationMonitor(iris.data, iris.target, every_n_steps=50, early_stopping_rounds=200)
    s = tf.contrib.learn.monitors.StopAtStep(num_steps=10)
    p, loss = tf.contrib.learn.models.logistic_regression(x, y)
    o = learn.ops.softmax_classifier(x, y, w, b)
    d = tf.contrib.learn.datasets.base.load_boston()
    """


@pytest.mark.parametrize("target", ["modern", "estimator"])
def test_upgrade_converts_the_canned_estimators_datasets_monitors_ops_and_models(target):
    result = upgrade(CANNED, target=target)
    assert upgrade_issues(result) == []
    lines = result.text.splitlines()
    for line in [
        "from tf1clip.contrib.learn.datasets import mnist",
        "from tf1clip.contrib.learn import dnn",
        "from tf1clip.contrib.learn import head as head_lib",
        "from tf1clip.contrib.learn import monitors as monitor_lib",
        "iris = tf1clip.contrib.learn.datasets.load_iris()",
        "cols = tf1clip.contrib.learn.infer_real_valued_columns_from_input(iris.data)",
        "r = tf1clip.contrib.learn.DNNLinearCombinedRegressor(linear_feature_columns=cols, dnn_feature_columns=cols)",
        'l = learn.LinearClassifier(feature_columns=[tf1clip.contrib.layers.real_valued_column("x", dimension=4)])',
        "s = tf1clip.contrib.learn.monitors.StopAtStep(num_steps=10)",
        "p, loss = tf1clip.contrib.learn.models.logistic_regression(x, y)",
        "d = tf1clip.contrib.learn.datasets.base.load_boston()",
    ]:
        assert line in lines, line
    assert "tf.contrib" not in result.text


def test_learn_run_config_with_a_core_estimator_is_one_consistent_conversion():
    # TF 1.15 programs passed tf.contrib.learn.RunConfig to tf.estimator.Estimator; it used to become
    # tf.estimator.RunConfig and then be reported as removed.
    result = upgrade(
        """\
        import tensorflow as tf
        config = tf.contrib.learn.RunConfig(num_cores=4, save_checkpoints_steps=10)
        est = tf.estimator.Estimator(model_fn, model_dir="d", config=config)
        """
    )
    assert result.text.splitlines()[-2:] == [
        "config = tf1clip.contrib.learn.RunConfig(num_cores=4, save_checkpoints_steps=10)",
        'est = tf1clip.estimator.Estimator(model_fn, model_dir="d", config=config)',
    ]
    assert upgrade_issues(result) == []
