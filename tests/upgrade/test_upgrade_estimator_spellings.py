"""Every import spelling of ``tensorflow.estimator`` converts as the attribute chain ``tf.estimator.X`` does.

Spellings: ``import tensorflow.estimator`` (uses ``tensorflow.estimator.X``), ``import
tensorflow.estimator as est``, ``from tensorflow import estimator`` and ``from tensorflow import
estimator as tfe``. On each target, each use must name what ``tf.estimator.X`` is converted to
(``tf1clip.estimator.X`` on the modern target; on the estimator target ``tf.estimator.X``, or
``tf.compat.v1.estimator.X`` for ``inputs`` and a canned estimator given a v1 optimizer), spelled
through the converted import or as the chain's conversion spells it; no ERROR is reported, and every
name the converted source reads is bound (``import tensorflow as tf`` is added where the conversion
wrote ``tf.*`` names into a file that had none).
"""

import ast

import pytest

from tf1clip.upgrade import upgrade_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

# What follows ``M.`` in each use; ``M`` is how the spelling names tensorflow.estimator.
USES = [
    "Estimator",
    "EstimatorSpec",
    "RunConfig",
    "inputs.numpy_input_fn",
    "DNNClassifier(hidden_units=[3], feature_columns=columns, optimizer=optimizer)",
]
SPELLINGS = {
    "chain": ("import tensorflow as tf\n", "tf.estimator"),
    "import tensorflow.estimator": ("import tensorflow.estimator\n", "tensorflow.estimator"),
    "import tensorflow.estimator as est": ("import tensorflow.estimator as est\n", "est"),
    "from tensorflow import estimator": ("from tensorflow import estimator\n", "estimator"),
    "from tensorflow import estimator as tfe": ("from tensorflow import estimator as tfe\n", "tfe"),
}


def _source(spelling):
    header, module = SPELLINGS[spelling]
    lines = ["u%d = %s.%s" % (i, module, use) for i, use in enumerate(USES)]
    return header + "\n".join(lines) + "\n"


def _converted_uses(text):
    """``{"u0": "<expression source>", ...}`` of the converted source."""
    found = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id[1:].isdigit():
            found[node.targets[0].id] = ast.unparse(node.value)
    return found


def _unbound(text):
    """Names the converted source reads at module level but never binds."""
    tree = ast.parse(text)
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return used - bound - {"columns", "optimizer"}


def _spelled_with(expression, module):
    """``expression`` with the spelling's module replaced by the chain spelling."""
    return expression.replace(module + ".", "@", 1) if expression.startswith(module + ".") else expression


@pytest.mark.parametrize("target", ["modern", "estimator"])
@pytest.mark.parametrize("spelling", [s for s in SPELLINGS if s != "chain"])
def test_import_spelling_converts_like_the_chain(spelling, target):
    chain = _converted_uses(upgrade_source(_source("chain"), target=target).text)
    result = upgrade_source(_source(spelling), target=target)
    converted = _converted_uses(result.text)
    assert not [e for e in result.log if e.severity == "ERROR"], result.log
    assert not _unbound(result.text), result.text
    for key, expected in chain.items():
        got = converted[key]
        # The same converted name, or the spelling's own module name where the import itself was converted.
        module = SPELLINGS[spelling][1]
        home = "tf1clip.estimator" if target == "modern" else "tf.estimator"
        assert got == expected or _spelled_with(got, module) == _spelled_with(expected, home), (
            key,
            got,
            expected,
            result.text,
        )
    if target == "modern":
        assert "tensorflow.estimator" not in result.text and "import tensorflow.estimator" not in result.text
        assert "tf1clip" in result.text


# tf.contrib.tpu's Estimator members, used bare and through a member of theirs (a class attribute).
TPU_USES = {
    "estimator": "TPUEstimator",
    "per_host_v2": "InputPipelineConfig.PER_HOST_V2",
    "broadcast": "InputPipelineConfig.BROADCAST",
    "config": "TPUConfig",
}
TPU_SPELLINGS = {
    "chain": ("", "tf.contrib.tpu."),
    "from tensorflow.contrib import tpu as contrib_tpu": (
        "from tensorflow.contrib import tpu as contrib_tpu\n",
        "contrib_tpu.",
    ),
    "from tensorflow.contrib.tpu import X": (
        "from tensorflow.contrib.tpu import TPUEstimator, InputPipelineConfig, TPUConfig\n",
        "",
    ),
}


@pytest.mark.parametrize("target", ["modern", "estimator"])
@pytest.mark.parametrize("spelling", sorted(TPU_SPELLINGS))
def test_contrib_tpu_estimator_members_and_their_attributes_convert(spelling, target):
    """contrib.tpu's TPUEstimator, TPUConfig and InputPipelineConfig.<mode> become the estimator package's
    tpu members in every spelling, with no ERROR and no contrib import left."""
    header, prefix = TPU_SPELLINGS[spelling]
    source = "import tensorflow as tf\n" + header + "".join("%s = %s%s\n" % (k, prefix, u) for k, u in TPU_USES.items())
    result = upgrade_source(source, target=target)
    home = "tf1clip.estimator.tpu." if target == "modern" else "tf.compat.v1.estimator.tpu."
    assert not [e for e in result.log if e.severity == "ERROR"], (result.log, result.text)
    assert "contrib" not in result.text, result.text
    assert not _unbound(result.text), result.text
    tree = ast.parse(result.text)
    got = {
        n.targets[0].id: ast.unparse(n.value)
        for n in tree.body
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id in TPU_USES
    }
    assert got == {k: home + u for k, u in TPU_USES.items()}, result.text


@pytest.mark.parametrize("target", ["modern", "estimator"])
def test_a_name_bound_to_a_contrib_tpu_member_attribute_keeps_its_uses(target):
    """``is_per_host = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2``: the binding converts, the uses of
    ``is_per_host`` stay."""
    source = (
        "import tensorflow as tf\n"
        "is_per_host = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2\n"
        "config = tf.contrib.tpu.TPUConfig(per_host_input_for_training=is_per_host)\n"
    )
    result = upgrade_source(source, target=target)
    home = "tf1clip.estimator.tpu." if target == "modern" else "tf.compat.v1.estimator.tpu."
    assert not [e for e in result.log if e.severity == "ERROR"], (result.log, result.text)
    assert result.text.endswith(
        "is_per_host = %sInputPipelineConfig.PER_HOST_V2\n"
        "config = %sTPUConfig(per_host_input_for_training=is_per_host)\n" % (home, home)
    ), result.text
