"""``tf.contrib.gan.estimator``: TF-GAN's ``tfgan.estimator``, imported and patched on first use (docs/gan.rst)."""

from tf1clip.compat import _gan

__all__: list = []

__getattr__ = _gan.module_getattr("gan.estimator", globals())
__dir__ = _gan.module_dir("gan.estimator", globals())
