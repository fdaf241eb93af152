"""The tf1clip-upgrade command line: fast --help/--version without TensorFlow, a missing TensorFlow,
quiet TensorFlow logging, the report's layout, the --target flag."""

import os
import subprocess
import sys
import textwrap

import pytest

from tf1clip import upgrade

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_PROBE = r"""
import contextlib, io, json, os, sys
from tf1clip.upgrade import main
results = {}
for args in (["--help"], ["--version"]):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(args)
        except SystemExit as exit:
            code = exit.code
    results[args[0]] = [code, out.getvalue(), "tensorflow" in sys.modules]
status = main(sys.argv[1:])
results["convert"] = [status, os.environ.get("TF_CPP_MIN_LOG_LEVEL")]
print("PROBE " + json.dumps(results))
"""


def _probe(tmp_path, env_extra=None, fake_tensorflow=None):
    """Runs --help, --version, then a conversion, in one fresh interpreter."""
    paths = [ROOT]
    if fake_tensorflow is not None:
        fake = tmp_path / "fake" / "tensorflow"
        fake.mkdir(parents=True)
        (fake / "__init__.py").write_text(fake_tensorflow)
        paths.insert(0, str(tmp_path / "fake"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    env.pop("TF_ENABLE_ONEDNN_OPTS", None)
    env.update(env_extra or {})
    source = tmp_path / "old.py"
    source.write_text("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
    args = ["--infile", str(source), "--outfile", str(tmp_path / "new.py"), "--reportfile", str(tmp_path / "r.txt")]
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE] + args, env=env, capture_output=True, text=True, timeout=300, cwd=str(tmp_path)
    )
    line = [l for l in proc.stdout.splitlines() if l.startswith("PROBE ")]
    return proc, (__import__("json").loads(line[0][6:]) if line else None)


def test_help_and_version_do_not_import_tensorflow_and_tf_logging_is_quieted(tmp_path):
    proc, results = _probe(tmp_path)
    assert results is not None, proc.stderr[-3000:]
    code, text, imported = results["--help"]
    assert code == 0 and not imported
    assert "--target {auto,modern,estimator}" in text and "Exit status" in text
    code, text, imported = results["--version"]
    assert code == 0 and not imported
    assert text.startswith("tf1clip-upgrade (tf1clip) ")
    assert results["convert"] == [0, "2"]  # TF_CPP_MIN_LOG_LEVEL=2 set before TensorFlow was imported
    assert "oneDNN" not in proc.stderr and "I0000" not in proc.stderr, proc.stderr
    assert "tf.compat.v1.placeholder" in (tmp_path / "new.py").read_text()


def test_a_level_the_user_chose_is_kept_and_a_missing_tensorflow_is_one_line(tmp_path):
    proc, results = _probe(
        tmp_path, {"TF_CPP_MIN_LOG_LEVEL": "1"}, fake_tensorflow="raise ImportError('No module named tensorflow')\n"
    )
    assert results is not None, proc.stderr[-3000:]
    assert results["--help"][0] == 0 and results["--version"][0] == 0
    assert results["convert"] == [3, "1"]
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("tf1clip-upgrade: tf1clip-upgrade needs TensorFlow")
    assert "pip install 'tf1clip[cpu]'" in lines[0]
    assert not (tmp_path / "new.py").exists()


def test_without_tensorflow_or_pasta_the_message_names_tensorflow(tmp_path):
    source = tmp_path / "old.py"
    source.write_text("import tensorflow as tf\n")
    code = (
        "import sys\n"
        "sys.modules['tensorflow'] = sys.modules['pasta'] = None  # neither is installed\n"
        "from tf1clip.upgrade import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run(
        [sys.executable, "-c", code, "--infile", str(source), "--outfile", str(tmp_path / "new.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(tmp_path),
    )
    assert proc.returncode == 3
    assert proc.stderr.strip() == (
        "tf1clip-upgrade: tf1clip-upgrade needs TensorFlow (it runs TensorFlow's own tf_upgrade_v2 engine), "
        "which is not installed here. Install it: pip install 'tf1clip[cpu]' (or 'tf1clip[tf]'; for Estimator "
        "code pip install 'tf1clip[estimator]')."
    )


def test_engine_internals_import_on_this_tensorflow():
    from tf1clip.upgrade import _engine

    for name in ("ast_edits", "ipynb", "tf_upgrade_v2", "tf_upgrade_v2_safety", "pasta"):
        assert getattr(_engine, name) is not None
    assert callable(_engine.PastaEditVisitor) and callable(_engine.ast_edits.full_name_node)
    assert callable(_engine.ast_edits.get_arg_value)
    assert _engine.tensorflow_version() >= (2, 15)


def _report_run(tmp_path, capsys, source, *extra):
    old = tmp_path / "old.py"
    old.write_text(textwrap.dedent(source))
    target = [] if "--target" in extra else ["--target", "modern"]  # auto is "estimator" on TF 2.15
    status = upgrade.main(
        ["--infile", str(old), "--outfile", str(tmp_path / "new.py"), "--reportfile", str(tmp_path / "r.txt")]
        + target
        + list(extra)
    )
    return status, capsys.readouterr().out, (tmp_path / "r.txt").read_text()


def test_report_layout(tmp_path, capsys):
    source = """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32)
        y = tf.contrib.model_pruning.get_masks()
        opt = tf.train.AdamOptimizer(0.1)
        """
    status, out, report = _report_run(tmp_path, capsys, source)
    assert status == 1
    assert "tf-keras" not in out and "legacy-keras" not in out  # no Keras line was added
    assert "Added so that the code runs on TensorFlow 2:\n" in out
    lines = out.splitlines()
    assert not any(a == b == "-" * 80 for a, b in zip(lines, lines[1:]))  # no doubled separators
    assert not any(": INFO: " in line for line in lines)  # only the issues without --print_all
    assert sum(": ERROR: " in line for line in lines) == 1
    assert "INFO: Renamed 'tf.train.AdamOptimizer'" in report  # the detailed log keeps everything
    status, out, _ = _report_run(tmp_path, capsys, source, "--print_all")
    assert "INFO: Renamed 'tf.train.AdamOptimizer'" in out
    status, out, _ = _report_run(tmp_path, capsys, "import tensorflow as tf\ny = tf.layers.dense(x, 3)\n")
    assert status == 0
    assert "TF_USE_LEGACY_KERAS needs the tf-keras package: python3 -m tf1clip.install_extras legacy-keras" in out


ESTIMATOR_SOURCE = """\
    import tensorflow as tf
    columns = [tf.feature_column.numeric_column("x", shape=[3])]
    optimizer = tf.contrib.estimator.clip_gradients_by_norm(tf.train.FtrlOptimizer(0.1), 5.0)
    linear = tf.estimator.LinearRegressor(feature_columns=columns, optimizer=optimizer)
    dnn = tf.estimator.DNNClassifier(hidden_units=[4], feature_columns=columns)
    custom = tf.estimator.Estimator(model_fn=model_fn, config=tf.estimator.RunConfig(model_dir="m"))
    input_fn = tf.estimator.inputs.numpy_input_fn({"x": x}, y, shuffle=False)
    hook = tf.contrib.estimator.stop_if_no_increase_hook(linear, "accuracy", 100)
    """


def test_target_estimator_converts_estimator_code_as_tf_2_15_does(tmp_path, capsys):
    status, out, report = _report_run(tmp_path, capsys, ESTIMATOR_SOURCE, "--target", "estimator")
    assert status == 0 and ": ERROR: " not in report, out
    assert (tmp_path / "new.py").read_text() == textwrap.dedent("""\
        import tensorflow as tf
        import tf1clip.contrib
        columns = [tf.feature_column.numeric_column("x", shape=[3])]
        optimizer = tf1clip.contrib.estimator.clip_gradients_by_norm(tf.compat.v1.train.FtrlOptimizer(0.1), 5.0)
        linear = tf.compat.v1.estimator.LinearRegressor(feature_columns=columns, optimizer=optimizer)
        dnn = tf.estimator.DNNClassifier(hidden_units=[4], feature_columns=columns, loss_reduction=tf.keras.losses.Reduction.SUM)
        custom = tf.estimator.Estimator(model_fn=model_fn, config=tf.estimator.RunConfig(model_dir="m"))
        input_fn = tf.compat.v1.estimator.inputs.numpy_input_fn({"x": x}, y, shuffle=False)
        hook = tf.estimator.experimental.stop_if_no_increase_hook(linear, "accuracy", 100)
        """)


def test_target_modern_converts_estimator_code_to_tf1clip_estimator(tmp_path, capsys):
    """TF 1's tf.estimator is the v1 API: tf1clip.estimator, on every TF; contrib.tpu's TPUEstimator too."""
    source = ESTIMATOR_SOURCE.rstrip(" ") + (
        "    tpu = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, use_tpu=False, config=tf.contrib.tpu.RunConfig())\n"
        "    opt = tf.contrib.tpu.CrossShardOptimizer(tf.train.AdamOptimizer(0.1))\n"
        "    spec = tf.compat.v1.estimator.EstimatorSpec(tf.estimator.ModeKeys.TRAIN, loss=loss)\n"
    )
    status, out, report = _report_run(tmp_path, capsys, source, "--target", "modern")
    assert status == 0 and ": ERROR: " not in report, out
    assert (tmp_path / "new.py").read_text() == textwrap.dedent("""\
        import os
        os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf1clip-upgrade: tf1clip.estimator.LinearRegressor needs Keras 2 (tf-keras)
        import tensorflow as tf
        import tf1clip.contrib
        import tf1clip.estimator
        columns = [tf.feature_column.numeric_column("x", shape=[3])]
        optimizer = tf1clip.contrib.estimator.clip_gradients_by_norm(tf.compat.v1.train.FtrlOptimizer(0.1), 5.0)
        linear = tf1clip.estimator.LinearRegressor(feature_columns=columns, optimizer=optimizer)
        dnn = tf1clip.estimator.DNNClassifier(hidden_units=[4], feature_columns=columns)
        custom = tf1clip.estimator.Estimator(model_fn=model_fn, config=tf1clip.estimator.RunConfig(model_dir="m"))
        input_fn = tf1clip.estimator.inputs.numpy_input_fn({"x": x}, y, shuffle=False)
        hook = tf1clip.estimator.experimental.stop_if_no_increase_hook(linear, "accuracy", 100)
        tpu = tf1clip.estimator.tpu.TPUEstimator(model_fn=model_fn, use_tpu=False, config=tf1clip.estimator.tpu.RunConfig())
        opt = tf.compat.v1.tpu.CrossShardOptimizer(tf.compat.v1.train.AdamOptimizer(0.1))
        spec = tf1clip.estimator.EstimatorSpec('train', loss=loss)
        """)


def test_estimator_imports_and_module_aliases_become_tf1clip_estimator(tmp_path, capsys):
    source = (
        "import tensorflow as tf\n"
        "from tensorflow import estimator as tfe\n"
        "from tensorflow.estimator import LinearRegressor, RunConfig as Config\n"
        "est = tf.estimator\n"
        "a = est.LinearRegressor(columns)\n"
        "b = tfe.DNNRegressor([4], columns, config=Config())\n"
        "c = LinearRegressor(columns)\n"
    )
    status, out, report = _report_run(tmp_path, capsys, source, "--target", "modern")
    assert status == 0 and ": ERROR: " not in report, out
    text = (tmp_path / "new.py").read_text()
    assert "from tf1clip import estimator as tfe\n" in text
    assert "from tf1clip.estimator import LinearRegressor, RunConfig as Config\n" in text
    assert "est = tf1clip.estimator\n" in text and "tensorflow.estimator" not in text
    assert 'os.environ["TF_USE_LEGACY_KERAS"] = "1"' in text


def test_target_auto_follows_the_installed_tensorflow(tmp_path, capsys):
    from tf1clip.upgrade import _convert, _engine

    has_estimator = (
        _engine.tensorflow_version() < (2, 16)
        and __import__("importlib.util").util.find_spec("tensorflow_estimator") is not None
    )
    assert _convert.resolve_target("auto") == ("estimator" if has_estimator else "modern")
    status, _, _ = _report_run(tmp_path, capsys, ESTIMATOR_SOURCE, "--target", "auto")
    assert status == 0  # no ERROR for Estimator code on either target
    text = (tmp_path / "new.py").read_text()
    assert ("tf1clip.estimator.LinearRegressor(" in text) is not has_estimator
    with pytest.raises(ValueError, match="target must be one of auto, modern, estimator, got 'tf1'"):
        _convert.resolve_target("tf1")
