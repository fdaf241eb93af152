"""Runs tests/subprocess/_estimator_cases.py (tf1clip inside Estimators) in one subprocess and reports each case here.

The canned estimators are Keras 2 code: on TensorFlow 2.16+ they need ``TF_USE_LEGACY_KERAS=1`` before
``tf.keras`` is first used, and this pytest process may already have Keras 3 there (other test modules
use it). So the cases run in a fresh interpreter with ``TF_USE_LEGACY_KERAS=1`` (on every TensorFlow,
for one code path) and one test here per case function asserts that its cases passed, carrying the
subprocess's failure text or skip reason. ``TF1CLIP_REQUIRE_ESTIMATOR=1`` reaches the subprocess.
"""

import os

import pytest

from helpers import case_names
from helpers import report_case
from helpers import run_cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "tests", "subprocess", "_estimator_cases.py")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_cases(CASES, str(tmp_path_factory.mktemp("estimator") / "cases.xml"))


@pytest.mark.parametrize("case", case_names(CASES))
def test_estimator_case(results, case):
    report_case(results, case)
