"""``tf.contrib.gan.losses.wargs``: TF-GAN's losses with individual arguments, imported on first use."""

from tf1clip.compat import _gan

__all__: list = []

__getattr__ = _gan.module_getattr("gan.losses.wargs", globals())
__dir__ = _gan.module_dir("gan.losses.wargs", globals())
