"""``tf.contrib.gan``: TF-GAN (``import tensorflow_gan as tfgan``), imported and patched for TF 2 on first use.

Every public name of ``tensorflow_gan`` (``gan_model``, ``gan_loss``,
``gan_train_ops``, ``gan_train``, ``get_sequential_train_hooks``,
``GANTrainSteps``, ``GANModel`` ...) and its namespaces ``losses`` (with
``losses.wargs``), ``eval``, ``features``, ``estimator`` and ``tpu``. Needs
``tf1clip[gan]``; importing this package does not import TF-GAN
(docs/gan.rst).
"""

from tf1clip.compat import _gan
from tf1clip.contrib.gan import estimator
from tf1clip.contrib.gan import eval  # noqa: A004 - tfgan.eval
from tf1clip.contrib.gan import features
from tf1clip.contrib.gan import losses
from tf1clip.contrib.gan import tpu

__all__ = ["estimator", "eval", "features", "losses", "tpu"]

__getattr__ = _gan.module_getattr("gan", globals())
__dir__ = _gan.module_dir("gan", globals())
