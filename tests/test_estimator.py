"""Runs tests/_estimator_cases.py (tf1clip inside Estimators) in one subprocess and reports each case here.

The canned estimators are Keras 2 code: on TensorFlow 2.16+ they need ``TF_USE_LEGACY_KERAS=1`` before
``tf.keras`` is first used, and this pytest process may already have Keras 3 there (other test modules
use it). So the cases run in a fresh interpreter with ``TF_USE_LEGACY_KERAS=1`` (on every TensorFlow,
for one code path) and one test here per case function asserts that its cases passed, carrying the
subprocess's failure text or skip reason. ``TF1CLIP_REQUIRE_ESTIMATOR=1`` reaches the subprocess.
"""

import ast
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "_estimator_cases.py")


def _case_names():
    with open(CASES) as f:
        tree = ast.parse(f.read())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    report = str(tmp_path_factory.mktemp("estimator") / "cases.xml")
    env = dict(
        os.environ,
        TF_CPP_MIN_LOG_LEVEL="2",
        TF_USE_LEGACY_KERAS="1",
        PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", CASES, "-q", "-p", "no:cacheprovider", "--junitxml", report],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if not os.path.exists(report):
        pytest.fail("tests/_estimator_cases.py did not run:\n" + (proc.stdout + proc.stderr)[-5000:], pytrace=False)
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        name = case.get("name", "")
        outcome = ("passed", "")
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = ("failed", (child.get("message", "") + "\n" + (child.text or ""))[-5000:])
                break
            if child.tag == "skipped":
                outcome = ("skipped", child.get("message", ""))
        outcomes[name] = outcome
    return outcomes


@pytest.mark.parametrize("case", _case_names())
def test_estimator_case(results, case):
    mine = {name: outcome for name, outcome in results.items() if name == case or name.startswith(case + "[")}
    assert mine, "%s did not run in the subprocess" % case
    failed = {name: text for name, (kind, text) in mine.items() if kind == "failed"}
    if failed:
        pytest.fail("\n\n".join("%s:\n%s" % item for item in sorted(failed.items())), pytrace=False)
    skipped = sorted(text for kind, text in mine.values() if kind == "skipped")
    if skipped:
        pytest.skip(skipped[0])
