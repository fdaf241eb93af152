"""``tf.contrib.gan.eval``: TF-GAN's ``tfgan.eval``, imported and patched on first use (docs/gan.rst)."""

from tf1clip.compat import _gan

__all__: list = []

__getattr__ = _gan.module_getattr("gan.eval", globals())
__dir__ = _gan.module_dir("gan.eval", globals())
