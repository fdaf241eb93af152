"""tf.contrib.estimator's heads and head-taking Estimators (tf1clip.contrib.estimator).

The heads need tensorflow-estimator, whose canned Estimators need Keras 2: the cases in
tests/subprocess/_contrib_estimator_heads_cases.py run in one subprocess with ``TF_USE_LEGACY_KERAS=1`` and each is
reported here (``TF1CLIP_REQUIRE_ESTIMATOR=1`` reaches the subprocess). What needs no tensorflow-estimator
runs in this process.
"""

import os
import sys
import types

import pytest

from helpers import case_names
from helpers import report_case
from helpers import run_cases
from tf1clip.contrib import estimator as ce

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_contrib_estimator_heads_cases.py")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_cases(CASES, str(tmp_path_factory.mktemp("heads") / "cases.xml"))


@pytest.mark.parametrize("case", case_names(CASES))
def test_heads_case(results, case):
    report_case(results, case)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: ce.multi_label_head(1), "n_classes must be > 1 for multi-class classification. Given: 1"),
        (lambda: ce.multi_label_head(None), "n_classes must be > 1 for multi-class classification. Given: None"),
        (lambda: ce.multi_head([]), r"Must specify heads. Given: \[\]"),
        (
            lambda: ce.multi_head([object()], head_weights=[1.0, 2.0]),
            r"heads and head_weights must have the same size. Given len\(heads\): 1. Given len\(head_weights\): 2.",
        ),
    ],
)
def test_argument_errors_before_tensorflow_estimator(make, message):
    """multi_label_head's n_classes and multi_head's list checks raise TF 1.15's ValueError messages."""
    with pytest.raises(ValueError, match=message):
        make()


def test_missing_estimator_names_what_to_install(monkeypatch):
    """Without tf1clip.estimator, a head or an Estimator raises ImportError naming itself and the cause;
    the module itself imports."""
    import tf1clip

    if "estimator" in vars(tf1clip):  # not hasattr: tf1clip's __getattr__ would import tf1clip.estimator
        monkeypatch.delattr(tf1clip, "estimator")
    monkeypatch.setitem(sys.modules, "tf1clip.estimator", None)
    for call, name in [
        (lambda: ce.regression_head(), "regression_head"),
        (lambda: ce.multi_head([types.SimpleNamespace(name="a")]), "multi_head"),
        (lambda: ce.DNNEstimator, "DNNEstimator"),
    ]:
        with pytest.raises(ImportError, match=r"tf1clip.contrib.estimator.%s needs tf1clip.estimator" % name):
            call()
    assert "regression_head" in ce.__all__ and "DNNEstimator" not in ce.__all__
    with pytest.raises(AttributeError, match="no attribute 'BaselineEstimator'"):
        _ = ce.BaselineEstimator
