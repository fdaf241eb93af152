"""``tf.contrib.gan.estimator``: TF-GAN's ``tfgan.estimator``, imported and patched on first use (docs/gan.rst)."""

from tf1clip.contrib import _gan_compat

__all__: list = []

__getattr__ = _gan_compat.module_getattr("gan.estimator", globals())
__dir__ = _gan_compat.module_dir("gan.estimator", globals())
