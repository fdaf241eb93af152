"""``tf.contrib.learn`` (TF 1.15) on ``tf1clip.estimator``: docs/learn.rst.

Each name is imported on first use (``tf1clip.contrib._manifest``): ``preprocessing``, ``datasets``, ``ModeKeys``
and ``ModelFnOps`` need TensorFlow only; ``Estimator``, ``RunConfig``, ``Experiment``, ``learn_runner`` and the
exports need ``tf1clip.estimator`` (tensorflow-estimator 2.15: ``pip install 'tf1clip[estimator]'``).
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.learn", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.learn", globals())
