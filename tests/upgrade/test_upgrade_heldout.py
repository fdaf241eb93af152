"""What the held-out sample of 2026-12-02 (benchmarks/RESULTS.md) found: contrib members that TF 2 has under
another name convert in every spelling, keyword arguments included, and leave no ERROR.

Snippets written here in the style of the sampled files (no sampled code).
"""

import ast

import pytest

from tf1clip.upgrade import upgrade_source


def _converted(source):
    result = upgrade_source("import tensorflow as tf\n" + source, target="modern")
    errors = [e for e in result.log if e.severity == "ERROR"]
    assert not errors, (errors, result.text)
    assert "tensorflow.contrib" not in result.text and "tf.contrib" not in result.text, result.text
    return result.text


def _calls(text):
    """{assigned name: the call's source} for ``name = call(...)`` and bare calls (keyed by line)."""
    got = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            got[node.targets[0].id] = ast.unparse(node.value)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            got[node.lineno] = ast.unparse(node.value)
    return got


SPELLINGS = {
    "chain": ("", "tf.contrib.{module}."),
    "module alias": ("from tensorflow.contrib import {module} as contrib_{module}\n", "contrib_{module}."),
    "member import": ("from tensorflow.contrib.{module} import {name}\n", ""),
}


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_confusion_matrix_becomes_tf_compat_v1_math_confusion_matrix(spelling):
    """TF 1.15's contrib confusion_matrix called tf.confusion_matrix with its own (the v1) argument order."""
    header, prefix = SPELLINGS[spelling]
    fmt = dict(module="metrics", name="confusion_matrix")
    text = _converted(
        header.format(**fmt)
        + "matrix = {p}confusion_matrix(y_real, y_pred)\n".format(p=prefix.format(**fmt))
        + "typed = {p}confusion_matrix(y_real, y_pred, 6, tf.int64, 'cm')\n".format(p=prefix.format(**fmt))
    )
    calls = _calls(text)
    assert calls["matrix"] == "tf.compat.v1.math.confusion_matrix(y_real, y_pred)", text
    assert calls["typed"] == "tf.compat.v1.math.confusion_matrix(y_real, y_pred, 6, tf.int64, 'cm')", text


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_init_from_checkpoint_becomes_tf_compat_v1_train_with_its_keyword(spelling):
    """contrib's init_from_checkpoint(checkpoint_dir, assignment_map) is tf.compat.v1.train's
    (ckpt_dir_or_file, assignment_map): positional calls keep their arguments, the keyword is renamed."""
    header, prefix = SPELLINGS[spelling]
    fmt = dict(module="framework", name="init_from_checkpoint")
    p = prefix.format(**fmt)
    text = _converted(
        header.format(**fmt)
        + "if weights:\n    %sinit_from_checkpoint(weights, {'Network/': 'Network/'})\n" % p
        + "restored = %sinit_from_checkpoint(checkpoint_dir=ckpt, assignment_map=amap)\n" % p
    )
    tree = ast.parse(text)
    positional = next(n for n in ast.walk(tree) if isinstance(n, ast.If)).body[0].value
    assert ast.unparse(positional) == "tf.compat.v1.train.init_from_checkpoint(weights, {'Network/': 'Network/'})"
    assert _calls(text)["restored"] == (
        "tf.compat.v1.train.init_from_checkpoint(ckpt_dir_or_file=ckpt, assignment_map=amap)"
    ), text


def test_multivariate_normal_diag_becomes_tf1clip_in_every_spelling():
    """The one contrib distribution of the sample TF 2 lacks: tf1clip.contrib.distributions re-creates it; the
    names tf.compat.v1.distributions has stay there, through the same module alias."""
    text = _converted(
        "from tensorflow.contrib.distributions import MultivariateNormalDiag\n"
        "from tensorflow.contrib import distributions as ds\n"
        "tfd = tf.contrib.distributions\n"
        "policy = tf.contrib.distributions.MultivariateNormalDiag(loc=mu, scale_diag=sigma)\n"
        "latent = MultivariateNormalDiag(loc, scale_diag, name=name)\n"
        "noise = tfd.MultivariateNormalDiag(loc=np.zeros(1), scale_diag=s * np.ones(1))\n"
        "prior = tfd.Normal(0.0, 1.0)\n"
        "other = ds.MultivariateNormalDiag(mu, sigma)\n"
    )
    calls = _calls(text)
    assert calls["policy"] == "tf1clip.contrib.distributions.MultivariateNormalDiag(loc=mu, scale_diag=sigma)", text
    assert calls["prior"] == "tf.compat.v1.distributions.Normal(0.0, 1.0)", text
    assert calls["latent"].startswith("MultivariateNormalDiag(") and calls["noise"].startswith("tfd."), text
    assert "from tf1clip.contrib.distributions import MultivariateNormalDiag" in text, text
    assert "tfd = tf1clip.contrib.distributions" in text and "\nimport tf1clip.contrib" in text, text
    assert "from tf1clip.contrib import distributions as ds" in text, text


def test_other_contrib_distributions_still_name_tensorflow_probability():
    result = upgrade_source(
        "import tensorflow as tf\nd = tf.contrib.distributions.MultivariateNormalDiagPlusLowRank(mu)\n", target="modern"
    )
    errors = [e.message for e in result.log if e.severity == "ERROR"]
    assert len(errors) == 1 and "tensorflow-probability" in errors[0], errors


def test_learn_utils_members_convert_from_tf_contrib_learn_utils():
    """TF 1.15's tf.contrib.learn.utils exported make_export_strategy and the input_fn helpers itself (the
    sample's Criteo trainer called ``tf.contrib.learn.utils.make_export_strategy``)."""
    result = upgrade_source(
        "import tensorflow as tf\n"
        "export_strategy = tf.contrib.learn.utils.make_export_strategy(serving_input_fn, exports_to_keep=5)\n"
        "serving = tf.contrib.learn.utils.build_parsing_serving_input_fn(spec)\n"
        "default = tf.contrib.learn.utils.build_default_serving_input_fn(features)\n"
        "ops = tf.contrib.learn.utils.InputFnOps(features, None, features)\n",
        target="modern",
    )
    assert not [e for e in result.log if e.severity == "ERROR"], result.log
    calls = _calls(result.text)
    prefix = "tf1clip.contrib.learn.utils."
    assert calls["export_strategy"] == prefix + "make_export_strategy(serving_input_fn, exports_to_keep=5)"
    assert calls["serving"] == prefix + "build_parsing_serving_input_fn(spec)"
    assert calls["default"] == prefix + "build_default_serving_input_fn(features)"
    assert calls["ops"] == prefix + "InputFnOps(features, None, features)"
    import tf1clip.contrib.learn.utils as utils

    assert callable(utils.make_export_strategy) and callable(utils.build_default_serving_input_fn)
