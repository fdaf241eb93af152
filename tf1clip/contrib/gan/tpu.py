"""``tf.contrib.gan.tpu``: TF-GAN's ``tfgan.tpu``, imported and patched on first use (docs/gan.rst)."""

from tf1clip.compat import _gan

__all__: list = []

__getattr__ = _gan.module_getattr("gan.tpu", globals())
__dir__ = _gan.module_dir("gan.tpu", globals())
