"""tf1clip-upgrade converts tf.contrib.staging and tf.contrib.predictor (every spelling TF 1 code used) to
tf1clip.contrib.staging / tf1clip.contrib.predictor with no ERROR; a name they lack names what they re-create."""

import pytest

from tf1clip import upgrade

pytestmark = pytest.mark.filterwarnings("ignore:visit_.* is deprecated:DeprecationWarning")

# (TF 1 source lines after ``import tensorflow as tf``) -> the converted lines
CONVERTED = [
    (
        "area = tf.contrib.staging.StagingArea([tf.float32], shapes=[[2]])\nput = area.put([x])",
        "import tf1clip.contrib\n"
        "area = tf1clip.contrib.staging.StagingArea([tf.float32], shapes=[[2]])\nput = area.put([x])",
    ),
    (
        "from tensorflow.contrib.staging import StagingArea\narea = StagingArea([tf.float32, tf.int32])",
        "from tf1clip.contrib.staging import StagingArea\narea = StagingArea([tf.float32, tf.int32])",
    ),
    (
        "p = tf.contrib.predictor.from_saved_model(export_dir, signature_def_key='logits')",
        "import tf1clip.contrib\n"
        "p = tf1clip.contrib.predictor.from_saved_model(export_dir, signature_def_key='logits')",
    ),
    (
        "from tensorflow.contrib import predictor\np = predictor.from_estimator(est, receiver_fn)",
        "from tf1clip.contrib import predictor\np = predictor.from_estimator(est, receiver_fn)",
    ),
    (
        "from tensorflow.contrib.predictor import from_contrib_estimator\np = from_contrib_estimator(est, fn)",
        "from tf1clip.contrib.predictor import from_contrib_estimator\np = from_contrib_estimator(est, fn)",
    ),
    (
        "from tensorflow.contrib.predictor import saved_model_predictor\n"
        "m = saved_model_predictor.get_meta_graph_def(d, saved_model_predictor.DEFAULT_TAGS)",
        "from tf1clip.contrib.predictor import saved_model_predictor\n"
        "m = saved_model_predictor.get_meta_graph_def(d, saved_model_predictor.DEFAULT_TAGS)",
    ),
]


def _body(text):
    lines = [line for line in text.split("\n") if line]
    body = [line for line in lines[lines.index("import tensorflow as tf") + 1 :] if "disable_v2_behavior" not in line]
    return "\n".join(body)


@pytest.mark.parametrize("source, expected", CONVERTED)
def test_staging_and_predictor_convert_without_errors(source, expected):
    result = upgrade.upgrade_source("import tensorflow as tf\n" + source + "\n", target="modern")
    assert [e for e in result.log if e.severity != "INFO"] == []
    text = result.text
    assert "tensorflow.contrib" not in text and "tf.contrib" not in text
    assert _body(text) == expected


def test_staging_is_graph_code():
    result = upgrade.upgrade_source(
        "import tensorflow as tf\narea = tf.contrib.staging.StagingArea([tf.float32])\n", target="modern"
    )
    assert "tf.compat.v1.disable_v2_behavior()" in result.text


def test_a_name_they_lack_is_an_error_naming_what_they_re_create():
    result = upgrade.upgrade_source(
        "import tensorflow as tf\na = tf.contrib.staging.MapStagingArea([tf.float32])\n", target="modern"
    )
    errors = [e.message for e in result.log if e.severity == "ERROR"]
    assert len(errors) == 1 and "tf1clip.contrib.staging re-creates StagingArea only" in errors[0]
