"""``tf.contrib.distributions``: the names TF 2's ``tf.compat.v1.distributions`` lacks, re-created.

``MultivariateNormalDiag`` with TF 1.15's numbers (``tf1clip.contrib.distributions.mvn_diag``; docs/upgrade.rst).
tf1clip-upgrade converts the contrib names TF 1.15 also had as ``tf.distributions.*`` (``Normal``, ``Bernoulli``,
``Categorical``, ...) to ``tf.compat.v1.distributions``; the others name tensorflow-probability.
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.distributions", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.distributions", globals())
