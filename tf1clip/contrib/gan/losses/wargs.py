"""``tf.contrib.gan.losses.wargs``: TF-GAN's losses with individual arguments, imported on first use."""

from tf1clip.contrib import _gan_compat

__all__: list = []

__getattr__ = _gan_compat.module_getattr("gan.losses.wargs", globals())
__dir__ = _gan_compat.module_dir("gan.losses.wargs", globals())
