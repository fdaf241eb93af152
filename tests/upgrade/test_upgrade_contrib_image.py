"""tf1clip-upgrade converts tf.contrib.image's re-created names to tf1clip.contrib.image, in every spelling TF 1
code used, with no ERROR; the names it does not re-create stay one ERROR each, naming their successor."""

import pytest

from helpers import upgrade
from helpers import upgrade_issues
from tf1clip.contrib import _decisions

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

RECREATED = (
    "angles_to_projective_transforms",
    "bipartite_match",
    "compose_transforms",
    "connected_components",
    "dense_image_warp",
    "flat_transforms_to_matrices",
    "interpolate_spline",
    "matrices_to_flat_transforms",
    "rotate",
    "sparse_image_warp",
    "transform",
    "translate",
    "translations_to_projective_transforms",
)


@pytest.mark.parametrize("name", RECREATED)
def test_each_recreated_name_converts_without_error(name):
    result = upgrade("import tensorflow as tf\ny = tf.contrib.image.%s(a, b)\n" % name)
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert "y = tf1clip.contrib.image.%s(a, b)" % name in result.text
    assert "import tf1clip.contrib" in result.text


def test_a_tf1_augmentation_converts_whole():
    result = upgrade(
        """\
        import tensorflow as tf
        from tensorflow.contrib.image.python.ops import image_ops
        from tensorflow.contrib import image as contrib_image

        angle = tf.random_uniform([], -0.3, 0.3)
        rotated = tf.contrib.image.rotate(images, angle, interpolation="BILINEAR")
        moved = contrib_image.translate(rotated, [1.0, -2.0])
        shear = image_ops.compose_transforms([1, 0.1, 0, 0, 1, 0, 0, 0], [1, 0, 2, 0, 1, 0, 0, 0])
        out = tf.contrib.image.transform(moved, shear, output_shape=[24, 24])
        """
    )
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert "tf.contrib" not in result.text and "tensorflow.contrib" not in result.text
    assert 'tf1clip.contrib.image.rotate(images, angle, interpolation="BILINEAR")' in result.text
    assert "contrib_image.translate(rotated, [1.0, -2.0])" in result.text


@pytest.mark.parametrize("name", ["adjust_hsv_in_yiq", "random_hsv_in_yiq"])
def test_the_yiq_functions_convert_from_their_module(name):
    result = upgrade(
        "import tensorflow as tf\nfrom tensorflow.contrib.image.python.ops import distort_image_ops\n"
        "y = distort_image_ops.%s(i, 0.1)\n"
        "z = tf.contrib.image.python.ops.distort_image_ops.%s(i, 0.1)\n" % (name, name)
    )
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert "tensorflow.contrib" not in result.text and "tf.contrib" not in result.text
    assert "tf1clip.contrib.image.distort_image_ops.%s(i, 0.1)" % name in result.text


@pytest.mark.parametrize(
    "path, clause",
    [
        ("tf.contrib.image.single_image_random_dot_stereograms", "SingleImageRandomDotStereograms kernel"),
        (
            "tf.contrib.image.python.ops.single_image_random_dot_stereograms.single_image_random_dot_stereograms",
            "no maintained successor",
        ),
        ("tf.contrib.image.adjust_hsv_in_yiq", "tf1clip.contrib.image.distort_image_ops"),
    ],
)
def test_what_is_not_recreated_is_one_error_naming_the_successor(path, clause):
    errors = upgrade_issues(upgrade("import tensorflow as tf\ny = %s(a)\n" % path))
    assert len(errors) == 1, errors
    assert clause in errors[0][1] and _decisions.successor(path) in errors[0][1]


def test_import_spellings_convert():
    result = upgrade(
        """\
        import tensorflow as tf
        from tensorflow.contrib.image.python.ops.dense_image_warp import dense_image_warp
        from tensorflow.contrib.image import rotate
        import tensorflow.contrib.image as ci
        a = dense_image_warp(i, f)
        b = rotate(i, 0.1)
        c = ci.connected_components(m)
        """
    )
    assert not upgrade_issues(result, "ERROR", "WARNING")
    assert "from tf1clip.contrib.image import dense_image_warp\n" in result.text
    assert "from tf1clip.contrib.image import rotate\n" in result.text
    assert "import tf1clip.contrib.image as ci\n" in result.text
