"""tensorflow-estimator's v1 API on every supported TensorFlow: ``tf.compat.v1.estimator`` as it was on TF 2.15.

``tf1clip.estimator.X`` is ``tf.compat.v1.estimator.X`` of TensorFlow 2.15 with tensorflow-estimator
2.15.0 (the same object there), on TensorFlow 2.15 to 2.21 and Python 3.9 to 3.13::

    import tf1clip
    from tf1clip import estimator

    optimizer = tf1clip.clip_gradients_by_norm(tf.compat.v1.train.AdagradOptimizer(0.1), 5.0)
    regressor = estimator.LinearRegressor(feature_columns, optimizer=optimizer)

Importing this module imports TensorFlow and tensorflow-estimator. On TensorFlow 2.16+ it first
applies the named patches of ``tf1clip.compat._estimator`` (``PATCHES``): TensorFlow internals that
tensorflow-estimator imports and TF 2.16 removed, and ``TF_USE_LEGACY_KERAS=1`` (set only if unset,
before ``tf.keras`` has resolved to Keras 3), which needs tf-keras
(``python3 -m tf1clip.install_extras legacy-keras``). On TF 2.15 none of those applies. On every
TF 2.x, ``session_threads`` makes ``RunConfig(session_config=...)``'s intra-/inter-op thread counts
take effect, as on TF 1.x (TF 2.x ignored them: docs/estimator.rst). ``tf.estimator`` and
``tf.compat.v1.estimator`` are left as TensorFlow has them: on TF 2.16+ they do not exist, and
``tf1clip-upgrade`` writes ``tf1clip.estimator`` instead (docs/estimator.rst).

The TPU embedding of ``tpu.TPUEstimator`` and the distribute coordinator
(``RunConfig(train_distribute=...)`` with a ``TF_CONFIG`` cluster) need TensorFlow code that
TF 2.16 removed: on TF 2.16+ they raise ``NotImplementedError`` where they are used.
"""

from typing import Any, List

from tf1clip.compat import _estimator as _compat

_API = _compat.load()

__all__ = sorted(name for name in dir(_API) if not name.startswith("_"))


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError("module 'tf1clip.estimator' has no attribute %r" % name)
    value = getattr(_API, name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
