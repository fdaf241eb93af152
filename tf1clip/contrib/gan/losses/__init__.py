"""``tf.contrib.gan.losses``: TF-GAN's ``tfgan.losses`` (tuple losses; ``wargs``), imported on first use."""

from tf1clip.compat import _gan
from tf1clip.contrib.gan.losses import wargs

__all__ = ["wargs"]

__getattr__ = _gan.module_getattr("gan.losses", globals())
__dir__ = _gan.module_dir("gan.losses", globals())
