"""``tf.contrib.slim.nets``: tf-slim's model zoo, ``tf_slim.nets`` itself (needs ``pip install 'tf1clip[slim]'``).

Importing this module replaces it by ``tf_slim.nets`` (with tf-slim patched for TF 2, see
docs/slim.rst), so ``from tf1clip.contrib.slim.nets import resnet_v1``,
``import tf1clip.contrib.slim.nets.resnet_v1`` and ``tf1clip.contrib.slim.nets.vgg``
all give tf-slim's modules, as ``tf.contrib.slim.nets`` gave contrib's.
"""

import sys

from tf1clip.compat import _slim

sys.modules[__name__] = _slim.alias_package("slim.nets", __name__)
