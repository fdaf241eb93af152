"""The installed environment: one TensorFlow build, tf-keras at its minor version, consistent requirements.

These assertions read installed distributions (``importlib.metadata``), as ``pip check`` does, except that
any TensorFlow build satisfies a requirement on ``tensorflow`` (tf-keras names the CUDA-enabled
``tensorflow`` distribution; ``python3 -m tf1clip.install_extras`` installs it without dependencies).
"""

import ast
import os
import re
import subprocess
import sys
from importlib import metadata
from types import SimpleNamespace

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tf1clip import install_extras

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TF_BUILDS = set(install_extras.TF_DISTRIBUTIONS)
# What the tests and the documented installs put next to TensorFlow.
ROOTS = {"tf1clip", "tf-keras", "tf-slim", "tensorflow-estimator", "pytest", "hypothesis"}


def _installed():
    out = {}
    for dist in metadata.distributions():
        name = canonicalize_name(dist.metadata["Name"] or "")
        if name:
            out.setdefault(name, dist)
    return out


def _applies(req, extra=""):
    return req.marker is None or req.marker.evaluate({"extra": extra})


def _tf_builds(installed):
    """Installed TF distributions, less platform meta-packages that require another (Windows, aarch64)."""
    names = {n for n in installed if n in TF_BUILDS}
    wrappers = set()
    for name in names:
        for text in installed[name].requires or []:
            req = Requirement(text)
            if canonicalize_name(req.name) in names - {name} and _applies(req):
                wrappers.add(name)
    return sorted(names - wrappers)


def _tf_major_minor(installed):
    (build,) = _tf_builds(installed)
    return Version(installed[build].version).release[:2]


def test_exactly_one_tensorflow_build_and_it_is_the_one_imported():
    import tensorflow as tf

    installed = _installed()
    builds = _tf_builds(installed)
    assert len(builds) == 1, "TensorFlow builds installed: %s" % builds
    assert Version(installed[builds[0]].version) == Version(tf.__version__)
    assert install_extras.installed_tensorflow() == [(builds[0], installed[builds[0]].version)]


def test_tf_keras_matches_tensorflow_minor_version():
    installed = _installed()
    tf_minor = _tf_major_minor(installed)
    if "tf-keras" not in installed:
        pytest.skip("tf-keras is not installed (python3 -m tf1clip.install_extras legacy-keras)")
    assert Version(installed["tf-keras"].version).release[:2] == tf_minor


def _closure_problems(installed):
    """pip-check over ROOTS and their dependencies; a requirement on ``tensorflow`` accepts any TF build."""
    tf_build = _tf_builds(installed)[0]
    problems, seen = [], set()
    todo = [(name, "") for name in sorted(ROOTS | {tf_build}) if name in installed]
    if "tf1clip" in installed:
        # An extra counts as installed when every distribution it names is installed.
        for extra in installed["tf1clip"].metadata.get_all("Provides-Extra") or []:
            reqs = [Requirement(t) for t in installed["tf1clip"].requires or [] if _applies(Requirement(t), extra)]
            if reqs and all(canonicalize_name(r.name) in installed for r in reqs):
                todo.append(("tf1clip", extra))
    while todo:
        name, extra = todo.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        for text in installed[name].requires or []:
            req = Requirement(text)
            if not _applies(req, extra) or (extra and _applies(req, "")):
                continue
            target = canonicalize_name(req.name)
            if target == "tensorflow" and target not in installed:
                target = tf_build
            if target not in installed:
                problems.append("%s requires %s, which is not installed" % (name, text))
                continue
            if not req.specifier.contains(installed[target].version, prereleases=True):
                problems.append("%s requires %s; %s %s is installed" % (name, text, target, installed[target].version))
            todo.append((target, ""))
            todo.extend((target, e) for e in req.extras)
    return problems


def test_installed_requirements_are_consistent():
    assert _closure_problems(_installed()) == []


def test_the_consistency_check_finds_a_mismatched_tf_keras():
    installed = dict(_installed())
    fake_keras = SimpleNamespace(version="2.14.0", requires=["tensorflow<2.15,>=2.14"])
    installed["tf-keras"] = fake_keras
    assert any(p.startswith("tf-keras requires tensorflow<2.15,>=2.14; ") for p in _closure_problems(installed))


@pytest.mark.skipif(os.path.exists("/dev/nvidiactl"), reason="a GPU machine: CUDA lines are expected there")
def test_tensorflow_prints_no_cuda_lines_on_a_cpu_machine():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="0")
    code = "import tensorflow as tf; print(float(tf.reduce_sum(tf.ones([3]))))"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "3.0"
    assert not re.search(r"cuda|cuInit|GPU will not be used", proc.stderr, re.I), proc.stderr


# --- tf1clip.install_extras --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tf_version, expected",
    [
        ("2.15.1", "tf-keras==2.15.*"),
        ("2.15.0.post1", "tf-keras==2.15.*"),
        ("2.16.2", "tf-keras==2.16.*"),
        ("2.21.0", "tf-keras==2.21.*"),
        ("3.0.0", "tf-keras==3.0.*"),
    ],
)
def test_tf_keras_requirement_follows_tensorflow_minor(tf_version, expected):
    assert install_extras.tf_keras_requirement(tf_version) == expected


def test_pip_command_installs_without_dependencies():
    assert install_extras.pip_command("legacy-keras", "2.19.1") == [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "tf-keras==2.19.*",
    ]
    assert install_extras.pip_command("legacy-keras", "2.22.0rc1")[4:] == ["--pre", "--no-deps", "tf-keras==2.22.*"]
    with pytest.raises(ValueError, match=r"extra: expected one of legacy-keras, got 'keras'"):
        install_extras.pip_command("keras", "2.21.0")
    with pytest.raises(ValueError, match=r"version: expected 'MAJOR.MINOR...', got 'latest'"):
        install_extras.tf_keras_requirement("latest")


def _fake_dist(name, version, requires=()):
    return SimpleNamespace(metadata={"Name": name}, version=version, requires=list(requires))


def test_installed_tensorflow_counts_a_platform_meta_package_once(monkeypatch):
    dists = [
        _fake_dist("tensorflow_cpu", "2.15.1", ["tensorflow-intel (==2.15.1)"]),
        _fake_dist("tensorflow-intel", "2.15.1"),
        _fake_dist("numpy", "1.26.4"),
    ]
    monkeypatch.setattr(install_extras.metadata, "distributions", lambda: dists)
    assert install_extras.installed_tensorflow() == [("tensorflow-intel", "2.15.1")]
    dists[0] = _fake_dist("tensorflow-cpu", "2.15.1", ['tensorflow-intel (==2.15.1) ; platform_system == "Nowhere"'])
    assert install_extras.installed_tensorflow() == [("tensorflow-cpu", "2.15.1"), ("tensorflow-intel", "2.15.1")]


def test_two_builds_or_none_stop_with_the_fix(monkeypatch, capsys):
    builds = [("tensorflow", "2.19.1"), ("tensorflow-cpu", "2.19.0")]
    monkeypatch.setattr(install_extras, "installed_tensorflow", lambda: builds)
    with pytest.raises(
        SystemExit,
        match=re.escape(
            "2 TensorFlow builds are installed (tensorflow 2.19.1, tensorflow-cpu 2.19.0); they overwrite each "
            "other's files. Remove all of them and install one: python3 -m pip uninstall -y tensorflow "
            "tensorflow-cpu && python3 -m pip install 'tensorflow-cpu==2.19.1'"
        ),
    ):
        install_extras.main(["legacy-keras"])
    monkeypatch.setattr(install_extras, "installed_tensorflow", lambda: [])
    with pytest.raises(SystemExit, match=r"no TensorFlow is installed\. Install one build first"):
        install_extras.main(["legacy-keras"])
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("tf_version", ["2.15.1", "2.17.1"])
def test_dry_run_prints_the_command(monkeypatch, capsys, tf_version):
    line = "legacy-keras: %s -m pip install --no-deps tf-keras==%s.*\n" % (sys.executable, tf_version[:4])
    monkeypatch.setattr(install_extras, "installed_tensorflow", lambda: [("tensorflow-cpu", tf_version)])
    monkeypatch.setattr(install_extras.subprocess, "check_call", lambda *a: pytest.fail("ran pip"))
    assert install_extras.main(["--dry-run", "legacy-keras"]) == 0
    assert capsys.readouterr().out == line


def test_install_extras_does_not_import_tensorflow():
    code = (
        "import sys\nfrom tf1clip import install_extras\ninstall_extras.main(['--dry-run', 'legacy-keras'])\n"
        "print('tensorflow' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "False"
    assert proc.stdout.startswith("legacy-keras: ")


# --- setup.py extras and the install page ------------------------------------------------------------


def _extras_require():
    with open(os.path.join(ROOT, "setup.py")) as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "extras_require":
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no extras_require")


def test_each_extra_names_at_most_one_tensorflow_build_and_never_tf_keras():
    extras = _extras_require()
    assert {"cpu", "tf", "estimator", "slim", "plot", "test", "docs"} <= set(extras)
    for extra, reqs in extras.items():
        names = [canonicalize_name(Requirement(r).name) for r in reqs]
        assert "tf-keras" not in names, extra  # it would pull in the 'tensorflow' build
        assert len([n for n in names if n in TF_BUILDS]) <= 1, extra
    # tensorflow-estimator alone (pure Python, no TensorFlow pin): '.[cpu,estimator]' and '.[tf,estimator]'
    # each give one TensorFlow build, the newest, or TF 2.15 under .ci/tf-2.15.txt.
    estimator = {canonicalize_name(Requirement(r).name): Requirement(r).specifier for r in extras["estimator"]}
    assert set(estimator) == {"tensorflow-estimator"}
    assert estimator["tensorflow-estimator"].contains("2.15.0") and not estimator["tensorflow-estimator"].contains(
        "2.14.0"
    )


def test_install_and_estimator_pages_use_only_defined_extras():
    text = ""
    for page in ("install.rst", "estimator.rst"):
        with open(os.path.join(ROOT, "docs", page)) as f:
            text += f.read()
    used = set()
    for group in re.findall(r"(?:\.|tf1clip)\[([a-z0-9,-]+)\]", text):
        used.update(group.split(","))
    assert used and used <= set(_extras_require())
    for extra in re.findall(r"tf1clip\.install_extras ([a-z-]+)", text):
        assert extra in install_extras.EXTRAS
