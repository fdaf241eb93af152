"""Imports TensorFlow once, with a clear message when it is missing or too old."""

MIN_TF_VERSION = (2, 15)

_INSTALL_HINT = (
    "Install a CPU build with: python3 -m pip install 'tensorflow-cpu>=%d.%d' "
    "(or, in a tf1clip checkout: python3 -m pip install '.[cpu]'); "
    "Estimator code needs TensorFlow 2.15 with tensorflow-estimator 2.15 (the 'estimator' extra)."
    % MIN_TF_VERSION
)

try:
    import tensorflow as tf
except ImportError as err:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "tf1clip needs TensorFlow >= %d.%d, which is not installed (%s). %s"
        % (MIN_TF_VERSION + (err, _INSTALL_HINT))
    ) from err


def _version_tuple(version):
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


if _version_tuple(tf.__version__) < MIN_TF_VERSION:  # pragma: no cover
    raise ImportError(
        "tf1clip needs TensorFlow >= %d.%d; found %s. %s"
        % (MIN_TF_VERSION + (tf.__version__, _INSTALL_HINT))
    )

__all__ = ["tf", "MIN_TF_VERSION"]
