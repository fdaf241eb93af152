"""``tf.contrib.gan.features``: TF-GAN's ``tfgan.features``, imported and patched on first use (docs/gan.rst)."""

from tf1clip.compat import _gan

__all__: list = []

__getattr__ = _gan.module_getattr("gan.features", globals())
__dir__ = _gan.module_dir("gan.features", globals())
