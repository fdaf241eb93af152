"""Every Estimator class TF 1.15 had that ``tf1clip.estimator`` lacks is an ERROR naming why and the successor.

TF 1.15's public ``tf.estimator`` names are recorded in tests/data/tf115_estimator_names (make_refs.py, run on
TF 1.15.5). A converted use of a removed class would otherwise be a ``tf1clip.estimator`` name that does not exist,
with exit status 0.
"""

import json
import os

import pytest

from tests import helpers
from tf1clip.upgrade import _tables as T
from tf1clip.upgrade import upgrade_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

_REFS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tf115_estimator_names", "names.json"
)
with open(_REFS) as _f:
    TF115 = json.load(_f)["names"]


REMOVED = sorted(p for p, kind in TF115.items() if kind == "class" and p.rpartition(".")[2].startswith("BoostedTrees"))
SPELLINGS = {
    "chain": ("import tensorflow as tf\n", "x = tf.estimator.{m}(feature_columns=[])\n"),
    "compat.v1": ("import tensorflow as tf\n", "x = tf.compat.v1.estimator.{m}\n"),
    "from import": ("from tensorflow.estimator import {m}\n", "x = {m}\n"),
    "module alias": ("import tensorflow.estimator as est\n", "x = est.{m}\n"),
}


def test_the_removed_classes_are_exactly_those_tf1clip_estimator_lacks():
    """Read in a fresh process: importing tf1clip.estimator changes process-wide state."""
    code = (
        """
        import json
        import tf1clip.estimator as estimator

        def lacks(path):
            obj = estimator
            for part in path.split(".")[2:]:
                if not hasattr(obj, part):
                    return True
                obj = getattr(obj, part)
            return False

        names = json.load(open(%r))["names"]
        print(json.dumps(sorted(p for p, kind in names.items() if kind == "class" and lacks(p))))
    """
        % _REFS
    )
    lacking = json.loads(helpers.run_python(code).strip().splitlines()[-1])
    assert lacking == REMOVED
    assert sorted("tf.estimator." + m for m in T.ESTIMATOR_REMOVED) == lacking


@pytest.mark.parametrize("target", ["modern", "estimator"])
@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
@pytest.mark.parametrize("path", REMOVED)
def test_a_removed_estimator_class_is_an_error_naming_why_and_the_successor(path, spelling, target):
    member = path.rpartition(".")[2]
    header, use = SPELLINGS[spelling]
    result = upgrade_source((header + use).format(m=member), target=target)
    errors = [e.message for e in result.log if e.severity == "ERROR"]
    assert len(errors) == 1, (result.log, result.text)
    assert member in errors[0]
    assert "tensorflow-estimator 2.15" in errors[0] and "TensorFlow Decision Forests" in errors[0], errors[0]
    assert "tf1clip.estimator." + member not in result.text, result.text
