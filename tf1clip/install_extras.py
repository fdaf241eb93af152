"""Install the extras that a pip extra cannot express safely: ``python3 -m tf1clip.install_extras legacy-keras``.

``legacy-keras`` installs ``tf-keras`` (Keras 2: ``tf.compat.v1.layers``, ``tf.compat.v1.nn.rnn_cell`` and
``tf.keras`` in a v1 graph need it with ``TF_USE_LEGACY_KERAS=1``, which TensorFlow 2.15 already honours)
at the installed TensorFlow's major.minor version, with ``--no-deps``. ``tf-keras`` declares a dependency on
the ``tensorflow`` distribution, the CUDA-enabled build, so ``pip install tf-keras`` next to
``tensorflow-cpu`` (or any other build) installs a second TensorFlow over the first; and an unpinned
``tf-keras`` may not match TensorFlow's minor version.

This module reads installed distributions only (``importlib.metadata``); it never imports TensorFlow.
"""

import argparse
import re
import subprocess
import sys
from importlib import metadata
from typing import List, Optional, Sequence, Tuple

# Distributions that install the ``tensorflow`` Python package (one build per environment).
TF_DISTRIBUTIONS = (
    "tensorflow",
    "tensorflow-cpu",
    "tensorflow-gpu",
    "tensorflow-intel",
    "tensorflow-macos",
    "tensorflow-aarch64",
    "tensorflow-cpu-aws",
    "tensorflow-rocm",
    "intel-tensorflow",
    "tf-nightly",
    "tf-nightly-cpu",
)

EXTRAS = ("legacy-keras",)


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return _normalize(match.group(1)) if match else ""


def _major_minor(version: str) -> Tuple[int, int]:
    match = re.match(r"(\d+)\.(\d+)", version)
    if match is None:
        raise ValueError("version: expected 'MAJOR.MINOR...', got %r" % (version,))
    return int(match.group(1)), int(match.group(2))


def installed_tensorflow() -> List[Tuple[str, str]]:
    """The installed TensorFlow builds as sorted ``(distribution, version)`` pairs.

    A platform meta-distribution and the build it requires (``tensorflow-cpu`` on Windows requires
    ``tensorflow-intel`` of the same version) count as one build: the required one is listed.
    """
    found = {}
    for dist in metadata.distributions():
        name = _normalize(dist.metadata["Name"] or "")
        if name in TF_DISTRIBUTIONS:
            found[name] = (dist.version, dist.requires or [])
    wrappers = set()
    for name, (_, requires) in found.items():
        for requirement in requires:
            target = _requirement_name(requirement)
            if target in found and target != name and _platform_marker_holds(requirement):
                wrappers.add(name)
    return sorted((name, version) for name, (version, _) in found.items() if name not in wrappers)


def _platform_marker_holds(requirement: str) -> bool:
    """Whether a requirement without an ``extra`` marker applies here (a Windows/aarch64 build switch)."""
    if ";" not in requirement:
        return True
    marker = requirement.split(";", 1)[1]
    if "extra" in marker:
        return False
    try:
        from packaging.markers import Marker
    except ImportError:  # pragma: no cover - packaging comes with pip's users (TensorFlow requires it)
        return True
    return Marker(marker).evaluate()


def tf_keras_requirement(tf_version: str) -> str:
    """The ``tf-keras`` requirement matching TensorFlow ``tf_version``.

    >>> tf_keras_requirement("2.16.2")
    'tf-keras==2.16.*'
    """
    return "tf-keras==%d.%d.*" % _major_minor(tf_version)


def pip_command(extra: str, tf_version: str) -> List[str]:
    """The pip command line that installs ``extra`` for TensorFlow ``tf_version``."""
    if extra not in EXTRAS:
        raise ValueError("extra: expected one of %s, got %r" % (", ".join(EXTRAS), extra))
    command = [sys.executable, "-m", "pip", "install", "--no-deps", tf_keras_requirement(tf_version)]
    if re.search(r"(a|b|rc|dev)\d", tf_version):
        command.insert(4, "--pre")  # a release candidate of TensorFlow pairs with one of tf-keras
    return command


def _one_tensorflow() -> Tuple[str, str]:
    builds = installed_tensorflow()
    if not builds:
        raise SystemExit(
            "tf1clip.install_extras: no TensorFlow is installed. Install one build first, e.g. "
            "python3 -m pip install '.[cpu]' in a tf1clip checkout (or 'tensorflow-cpu>=2.15')."
        )
    if len(builds) > 1:
        names = " ".join(name for name, _ in builds)
        raise SystemExit(
            "tf1clip.install_extras: %d TensorFlow builds are installed (%s); they overwrite each other's "
            "files. Remove all of them and install one: python3 -m pip uninstall -y %s && "
            "python3 -m pip install 'tensorflow-cpu==%s'"
            % (len(builds), ", ".join("%s %s" % b for b in builds), names, builds[0][1])
        )
    return builds[0]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tf1clip.install_extras",
        description="Install tf1clip extras that must match the installed TensorFlow build "
        "(without importing TensorFlow).",
    )
    parser.add_argument(
        "extras", nargs="+", choices=EXTRAS, help="legacy-keras: tf-keras at TensorFlow's minor version"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the pip command instead of running it")
    args = parser.parse_args(argv)
    _, version = _one_tensorflow()
    for extra in args.extras:
        command = pip_command(extra, version)
        print("%s: %s" % (extra, " ".join(command)))
        if not args.dry_run:
            subprocess.check_call(command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
