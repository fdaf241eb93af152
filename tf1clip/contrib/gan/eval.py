"""``tf.contrib.gan.eval``: TF-GAN's ``tfgan.eval``, imported and patched on first use (docs/gan.rst)."""

from tf1clip.contrib import _gan_compat

__all__: list = []

__getattr__ = _gan_compat.module_getattr("gan.eval", globals())
__dir__ = _gan_compat.module_dir("gan.eval", globals())
