"""``tf.contrib.gan.tpu``: TF-GAN's ``tfgan.tpu``, imported and patched on first use (docs/gan.rst)."""

from tf1clip.contrib import _gan_compat

__all__: list = []

__getattr__ = _gan_compat.module_getattr("gan.tpu", globals())
__dir__ = _gan_compat.module_dir("gan.tpu", globals())
