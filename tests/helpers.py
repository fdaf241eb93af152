"""Shared test helpers."""

import ast
import importlib.util
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_cases(directory, name="cases"):
    """``directory/name.py``, imported under a module name of its own (``<directory's name>_<name>``).

    Several test modules keep a ``cases.py`` beside their TF 1.15 refs (the refs scripts import it as ``cases``); in
    one pytest process a plain ``import cases`` would give every one of them the first module imported.
    """
    unique = "%s_%s" % (os.path.basename(os.path.normpath(directory)), name)
    if unique not in sys.modules:
        spec = importlib.util.spec_from_file_location(unique, os.path.join(directory, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        spec.loader.exec_module(module)
    return sys.modules[unique]


def run_python(code, timeout=240):
    """Runs ``code`` (dedented) in a fresh interpreter with the checkout on ``PYTHONPATH``; returns its stdout.

    Fails the test with the end of stderr when the process exits non-zero.
    """
    path = os.pathsep.join(p for p in [ROOT, os.environ.get("PYTHONPATH", "")] if p)
    env = dict(os.environ, PYTHONPATH=path, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def upgrade(source, target="modern"):
    """``tf1clip.upgrade.upgrade_source`` of ``source`` dedented, for ``target``."""
    from tf1clip.upgrade import upgrade_source

    return upgrade_source(textwrap.dedent(source), target=target)


def upgrade_issues(result, *severities):
    """``(line, message)`` of each entry of a conversion's ``result.log`` with one of ``severities`` (default
    ``"ERROR"``)."""
    severities = severities or ("ERROR",)
    return [(e.line, e.message) for e in result.log if e.severity in severities]


def evaluate(sess, grads):
    """Evaluates gradients (Tensor, IndexedSlices or None) to NumPy values."""
    fetches = []
    for g in grads:
        if g is None:
            fetches.append(tf.no_op())
        elif isinstance(g, tf.IndexedSlices):
            fetches.append((g.values, g.indices))
        else:
            fetches.append(g)
    out = sess.run(fetches)
    return [None if g is None else out[i] for i, g in enumerate(grads)]


def np_global_norm(arrays):
    return float(np.sqrt(sum(np.sum(np.square(np.asarray(a, np.float64))) for a in arrays)))


def assert_matches_recorded(got, ref, none_gradient_is_zeros=False):
    """A case's values (``{"variables", "outputs", "grads"}``, as the ``run_case`` of tests/data/tf115_*/ return
    them) equal TF 1.15's recorded ``ref``: the same variable names, output and gradient keys, every value to rtol
    1e-5 (atol 1e-6). With ``none_gradient_is_zeros``, a recorded 0.0 (TF 1.15 had no gradient, None) also matches
    an all-zero array (TF 2's while_v2 gives zeros)."""
    assert "error" not in got, got.get("error")
    assert got["variables"] == ref["variables"]
    for part, what in (("outputs", "output "), ("grads", "gradient ")):
        assert sorted(got[part]) == sorted(ref[part])
        for key, value in ref[part].items():
            mine, theirs = np.asarray(got[part][key]), np.asarray(value)
            if none_gradient_is_zeros and theirs.shape == () and theirs == 0.0 and mine.shape != ():
                assert not np.any(mine), what + key
                continue
            np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6, err_msg=what + key)


def skip_without_estimator(missing):
    """Skips the test, ``missing`` saying why tf1clip.estimator is not there; fails instead under
    ``TF1CLIP_REQUIRE_ESTIMATOR=1`` (CI)."""
    if os.environ.get("TF1CLIP_REQUIRE_ESTIMATOR") == "1":
        pytest.fail(missing + ", and TF1CLIP_REQUIRE_ESTIMATOR=1", pytrace=False)
    pytest.skip(missing)


def case_names(cases):
    """The ``test_*`` functions of the test module ``cases`` (a path)."""
    with open(cases) as f:
        tree = ast.parse(f.read())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


def run_cases(cases, report):
    """Runs the test module ``cases`` with pytest in a fresh interpreter with ``TF_USE_LEGACY_KERAS=1``
    (Keras 2 for the canned Estimators) and returns ``{test name: (outcome, text)}`` from its JUnit ``report``."""
    env = dict(
        os.environ,
        TF_CPP_MIN_LOG_LEVEL="2",
        TF_USE_LEGACY_KERAS="1",
        PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", cases, "-q", "-p", "no:cacheprovider", "--junitxml", report],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if not os.path.exists(report):
        pytest.fail("%s did not run:\n%s" % (cases, (proc.stdout + proc.stderr)[-5000:]), pytrace=False)
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        outcome = ("passed", "")
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = ("failed", (child.get("message", "") + "\n" + (child.text or ""))[-5000:])
                break
            if child.tag == "skipped":
                outcome = ("skipped", child.get("message", ""))
        outcomes[case.get("name", "")] = outcome
    return outcomes


def report_case(results, case):
    """Passes, fails or skips as the subprocess's ``case`` (and its parametrizations) did."""
    mine = {name: outcome for name, outcome in results.items() if name == case or name.startswith(case + "[")}
    assert mine, "%s did not run in the subprocess" % case
    failed = {name: text for name, (kind, text) in mine.items() if kind == "failed"}
    if failed:
        pytest.fail("\n\n".join("%s:\n%s" % item for item in sorted(failed.items())), pytrace=False)
    skipped = sorted(text for kind, text in mine.values() if kind == "skipped")
    if skipped:
        pytest.skip(skipped[0])


def graph_op_seeds(build, graph_seed=7):
    """The op seeds (``seed2``) of the random ops ``build()`` makes in a new graph seeded with ``graph_seed``."""
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.set_random_seed(graph_seed)
        build()
    return [op.get_attr("seed2") for op in graph.get_operations() if "seed2" in op.node_def.attr]
