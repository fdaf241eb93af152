"""``tf.contrib.image``: TF 1.15's image transforms, warps and matching, re-created (docs/contrib.rst, "image").

``transform``, ``rotate``, ``translate`` and the transform helpers (``image_ops``, on TensorFlow's
``ImageProjectiveTransformV2`` kernel, which TF 1.15 ran), ``connected_components``, ``bipartite_match``,
``dense_image_warp``, ``interpolate_spline`` and ``sparse_image_warp``, with TF 1.15's numbers and gradients;
``distort_image_ops.adjust_hsv_in_yiq`` and ``random_hsv_in_yiq`` (TF 1.15 had them in that module only).
``single_image_random_dot_stereograms`` (a kernel of its own) is not re-created. Each module is imported on first
use of one of its names. TF 1.15's ``dense_image_warp.py``, ``interpolate_spline.py`` and ``sparse_image_warp.py``
are ``_dense_image_warp.py``, ``_interpolate_spline.py`` and ``_sparse_image_warp.py``: a submodule and a function
of one package cannot share a name (docs/layout.rst).
"""

from tf1clip.contrib import _manifest

__all__ = _manifest.names_of(__name__)

__getattr__ = _manifest.module_getattr("tf1clip.contrib.image", globals())
__dir__ = _manifest.module_dir("tf1clip.contrib.image", globals())
